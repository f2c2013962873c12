"""Coverage of every side: each pair's targets replay their corpora in the coverage build (clang
source-based coverage), and llvm-cov's figures are split by side: our original and optimized
models (their source files), and each Core side (the files of its tree that the pair's binaries
hold). For our models it lists every function no target reaches, by name.

A Core tree used by both Core sides of a pair (the script pair: kernel 0.4.1 at 520 and, edited,
at 8000) is one set of files, so its figure is the two sides together, and says so.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from .engines import shown_text
from . import reach
from .reach import demangle as _demangle
from .manifest import Manifest, Pair
from .project import InfraError, Target, run_binary

LLVM_PROFDATA = "llvm-profdata-19"
LLVM_COV = "llvm-cov-19"


def _llvm(cmd: list[str]) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise InfraError(f"{cmd[0]} failed (exit {proc.returncode}): "
                         + (proc.stderr.strip().splitlines() or ["no output"])[-1])
    return proc


def _sum(files: list[dict]) -> dict:
    out = {}
    for kind in ("lines", "branches", "functions", "regions"):
        count = sum(f["summary"][kind]["count"] for f in files)
        covered = sum(f["summary"][kind]["covered"] for f in files)
        out[kind] = {"count": count, "covered": covered, "percent": round(100.0 * covered / count, 1) if count else None}
    return out


def _strip_file_prefix(name: str) -> str:
    # llvm-cov names a function with internal linkage "<file>:<mangled>" (or "<file>;<mangled>"),
    # and a Core side's functions "<role>|<name>" (profile_names.py).
    from .profile_names import strip
    name = strip(name)[1]
    for sep in (";", ":"):
        if sep in name and not name.startswith("_Z"):
            return name.split(sep, 1)[1]
    return name


def replay_profile(pair: str, targets: list[Target], profdir: Path,
                   extra_inputs: dict[str, list[Path]] | None = None) -> tuple[Path, list[str]]:
    """Replays the pair's corpora (and, per target, `extra_inputs`: a campaign's corpus, say) in the
    coverage build: the merged profile and llvm-cov's object arguments."""
    raws = []
    for t in targets:
        raw = profdir / f"{t.name}.profraw"
        dirs = [*t.seed_dirs(), *[d for d in (extra_inputs or {}).get(t.name, []) if d.is_dir()]]
        # A campaign that went on after its findings kept inputs that show them: the replay records
        # them aside instead of stopping (the report lists them from the campaign).
        record = profdir / f"{t.name}.findings"
        record.mkdir(parents=True, exist_ok=True)
        proc = run_binary([t.binary, "-q", *dirs], env_extra={"LLVM_PROFILE_FILE": str(raw), "EQUIFUZZ_FINDINGS_DIR": str(record)},
                          timeout=3600)
        if proc.returncode != 0:
            raise InfraError(f"{t.name} failed while replaying its corpora in the coverage build (exit {proc.returncode}).")
        raws.append(str(raw))
    merged = profdir / f"{pair}.profdata"
    _llvm([LLVM_PROFDATA, "merge", "-sparse", *raws, "-o", str(merged)])
    objects = [str(targets[0].binary)] + [a for t in targets[1:] for a in ("-object", str(t.binary))]
    return merged, objects


def pair_coverage(pair: str, targets: list[Target], pair_info: Pair, profdir: Path,
                  extra_inputs: dict[str, list[Path]] | None = None, profile=None) -> dict:
    """The pair's coverage split by side (replay_profile's, or `profile` made already)."""
    merged, objects = profile or replay_profile(pair, targets, profdir, extra_inputs)
    # One export for the pair's whole source set: summaries per file, and (for our models) functions.
    export = json.loads(_llvm([LLVM_COV, "export", "-format=text", "-skip-expansions", f"-instr-profile={merged}",
                               *objects]).stdout)
    return split_by_side(export["data"][0], pair_info)


def split_by_side(data: dict, pair_info: Pair) -> dict:
    """llvm-cov export's data (files with summaries, functions with counts) split by side."""
    files = data["files"]
    sides = {}
    for role, path in (("original", pair_info.original), ("optimized", pair_info.optimized)):
        mine = [f for f in files if f["filename"] == path]
        # A function compiled into several objects (an adapter or model that includes the side's
        # source, a template instantiated twice) is reached when any of its copies is.
        counts: dict[str, int] = {}
        for fn in data["functions"]:
            if path in fn["filenames"]:
                name = _strip_file_prefix(fn["name"])
                counts[name] = counts.get(name, 0) + fn["count"]
        unreached = sorted(name for name, count in counts.items() if count == 0)
        sides[role] = {"files": [shown_text(path)], "summary": _sum(mine), "unreached_functions": _demangle(unreached)}
    trees: dict[str, list] = {}
    for c in pair_info.core:
        trees.setdefault(c.src, []).append(c)
    for src, roles in trees.items():
        prefix = src.rstrip("/") + "/"
        mine = [f for f in files if f["filename"].startswith(prefix)]
        label = " + ".join(c.role for c in roles) + f" ({roles[0].tree})"
        per_file = sorted(({"file": f["filename"][len(prefix):], **f["summary"]["lines"]} for f in mine),
                          key=lambda x: -x["count"])
        sides[label] = {"files": [f["file"] for f in per_file], "summary": _sum(mine), "per_file_lines": per_file,
                        "shared_by_both_core_sides": len(roles) > 1}
    return sides




def by_pair(targets: list[Target], manifest: Manifest, profdir: Path, extra: dict | None = None,
            compiled: dict[str, set[str]] | None = None):
    """Each pair of `targets` in order, with its targets, its sides' coverage (pair_coverage) and
    the reach of the change between its Core trees (reach.pair_reach; None without two Core
    sides), the profiles written into a fresh `profdir`. `compiled`: pair -> the src/ files its
    Core sides compile, from the build's dependency records."""
    shutil.rmtree(profdir, ignore_errors=True)
    profdir.mkdir(parents=True)
    for pair in dict.fromkeys(t.pair for t in targets):
        mine = [t for t in targets if t.pair == pair]
        info = manifest.pair(pair)
        profile = replay_profile(pair, mine, profdir, extra)
        yield (pair, mine, pair_coverage(pair, mine, info, profdir, profile=profile),
               reach.pair_reach(profile[1], profile[0], info, (compiled or {}).get(pair)))
