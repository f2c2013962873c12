"""Core sides built one pair at a time, and the Core files each pair's sides compile.

A Core tree is whatever the user names: a branch of this month's master, a PR that does not
compile, a tree whose API moved past a shim. One pair's side failing to compile must not cost the
other pairs their run. So a build first builds every Core side on its own (each pair's default
side object, `ninja -k 0`); a side that fails is recorded with its first compiler error in
<build>/equifuzz-core-unbuilt.json, the build is configured again (cmake/CoreObjects.cmake then
leaves that side out, and the manifest and every report name it), and the rest is built.

The files a side compiles, headers included, come from the compiler's dependency files as ninja
keeps them (`ninja -t deps`): what `verify` compares between two trees to pick the pairs a change
touches.
"""
from __future__ import annotations

import filecmp
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from .manifest import CoreSide, Manifest
from .project import ROOT, InfraError

UNBUILT = "equifuzz-core-unbuilt.json"
TREE_ITSELF = "the tree itself does not compile: "
#: A tree's own file failing on what Core's own build defines or generates (a configuration macro,
#: a generated header): the gap is in how equifuzz builds the tree, not in the tree.
OUR_GAP = "equifuzz could not build this tree: "
_BUILD_CONFIG = re.compile(r"use of undeclared identifier '[A-Z][A-Z0-9_]*'|'[A-Z][A-Z0-9_]*' was not declared in this scope"
                           r"|'[^']*config[^']*' file not found|[^ ]*config[^ ]*: No such file or directory"
                           r"|^#error|: error: #error")

_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<text>.*)$")
_LINK_ERROR = re.compile(r"undefined reference to [`'](?P<symbol>[^'`]+)'")


def _run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, errors="replace")


def _shown(path: str, src: str) -> str:
    """A file of a compiler message as the user knows it: src/<file> in a Core tree, the
    repository's own path for ours."""
    p = os.path.normpath(path)
    if src and p.startswith(os.path.normpath(src) + os.sep):
        return "src/" + os.path.relpath(p, src)
    if p.startswith(str(ROOT) + os.sep):
        return os.path.relpath(p, ROOT)
    return p


def first_error(output: str, src: str) -> str:
    """The first compiler (or linker) error of a failed build's output, in one line:
    '<file>:<line>: <error>'."""
    for line in output.splitlines():
        m = _ERROR.match(line.strip())
        if m:
            return f"{_shown(m['file'], src)}:{m['line']}: {m['text'].strip()}"
    for line in output.splitlines():
        m = _LINK_ERROR.search(line)
        if m:
            return f"link: undefined reference to {m['symbol']}"
    failed = next((l for l in output.splitlines() if l.startswith("FAILED: ")), "")
    return failed or "the build failed without a compiler message"


def _failed_sections(output: str) -> list[tuple[str, str]]:
    """(failed output, the lines ninja printed for it) for each FAILED step of a build's output."""
    sections: list[tuple[str, list[str]]] = []
    for line in output.splitlines():
        if line.startswith("FAILED: "):
            sections.append((line[len("FAILED: "):].strip(), []))
        elif sections and not line.startswith(("[", "ninja: ")):
            sections[-1][1].append(line)
    return [(what, "\n".join(lines)) for what, lines in sections]


def classify(output: str, src: str) -> str:
    """Why a side did not build, in one line: the tree itself (one of the tree's own sources does
    not compile, whatever our shim does), or the first error of our shim against this tree."""
    sections = _failed_sections(output)
    for what, text in sections:
        if "/equifuzz_core_src_" in what:
            return _tree_or_ours(first_error(text, src))
    text = next((text for _, text in sections if _has_error(text)), output)
    error = first_error(text, src)
    # An error in one of the tree's own headers that no line of ours led to (clang's "requested
    # here", g++'s "required from here") is the tree's, even when only our shim includes it.
    ours = str(ROOT / "differential")
    if error.startswith("src/") and not any(ours in l and ("requested here" in l or "required from" in l)
                                            for l in text.splitlines()):
        return _tree_or_ours(error)
    return error


def _tree_or_ours(error: str) -> str:
    """An error in one of the tree's own files: the tree's, unless it names what Core's own build
    would have given it (a configuration macro such as LEVELDB_IS_BIG_ENDIAN, a generated config
    header): then equifuzz's build of the tree lacks it, which is ours to fix."""
    text = error.split(": ", 1)[1] if ": " in error else error
    return (OUR_GAP if _BUILD_CONFIG.search(text) else TREE_ITSELF) + error


def _has_error(text: str) -> bool:
    return any(_ERROR.match(l.strip()) or _LINK_ERROR.search(l) for l in text.splitlines())


def core_sides(manifest: Manifest, pairs: set[str] | None = None) -> list[tuple[str, CoreSide]]:
    """Every Core side the manifest has that has a target to build, with its pair: [(pair, side)]."""
    out = []
    for pair, info in manifest.pairs.items():
        if pairs is not None and pair not in pairs:
            continue
        out += [(pair, c) for c in info.core if c.target]
    return out


def build_sides(bdir: Path, manifest: Manifest, pairs: set[str] | None, say) -> list[dict]:
    """Builds every Core side of <pairs> (all when None); returns the sides that failed, each with
    its one-line reason. Sides sharing a tree share its Core objects, so a tree that does not
    compile fails every side on it with the same reason."""
    sides = core_sides(manifest, pairs)
    if not sides:
        return []
    targets = sorted({s.target for _, s in sides})
    say(f"building the Core sides of {len({pair for pair, _ in sides})} pair(s) ({len(targets)} objects)")
    proc = _run(["cmake", "--build", str(bdir), "--target", *targets, "--", "-k", "0"])
    if proc.returncode == 0:
        return []
    failed = []
    for pair, s in sides:
        one = _run(["cmake", "--build", str(bdir), "--target", s.target, "--", "-k", "0"])
        if one.returncode != 0:
            failed.append({"pair": pair, "role": s.role, "tree": s.tree, "src": s.src,
                           "error": classify(one.stdout + one.stderr, s.src)})
    if not failed:  # the whole failed and no side alone does: not a tree's doing
        sys.stderr.write((proc.stdout or "")[-3000:] + (proc.stderr or "")[-3000:])
        raise InfraError("building the Core sides failed, and no one side fails on its own; the build's output is above.")
    return failed


def write_unbuilt(bdir: Path, failed: list[dict]) -> None:
    (bdir / UNBUILT).write_text(json.dumps({"sides": failed}, indent=2) + "\n")


def clear_unbuilt(bdir: Path) -> None:
    try:
        (bdir / UNBUILT).unlink()
    except FileNotFoundError:
        pass


def left_out_lines(manifest: Manifest, pairs: set[str] | None = None) -> list[str]:
    """One line per Core side a build left out because it did not compile."""
    return [f"pair {pair}: Core {c.role.removeprefix('core-')} side left out: {c.why}"
            for pair, info in sorted(manifest.pairs.items()) if pairs is None or pair in pairs
            for c in info.core_left_out if c.kind == "build"]


# --- The files a side compiles, and the pairs a change touches ------------------------------------
def _deps(bdir: Path) -> dict[str, tuple[bool, list[str]]]:
    """ninja's dependency records: object file -> (whether the record is current, the files its
    compilation read). ninja keeps a record until the object is built again, so a record can be
    of an older build (STALE: the object changed since, or is gone)."""
    proc = subprocess.run(["ninja", "-C", str(bdir), "-t", "deps"], capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise InfraError(f"ninja could not list the dependency files of {bdir}.")
    out: dict[str, tuple[bool, list[str]]] = {}
    current = None
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        if not line.startswith((" ", "\t")):
            current = line.split(":", 1)[0]
            out[current] = (line.rstrip().endswith("(VALID)"), [])
        elif current is not None:
            out[current][1].append(line.strip())
    return out


def _side_objects(deps: dict, pair: str, s: CoreSide) -> list[str]:
    """The objects of <pair>'s side `s` that ninja has records for: its shim's and its Core sources'."""
    src = os.path.normpath(s.src)
    # An object of a Core source is named after the source's whole path (CMake's object
    # library layout): <dir>/equifuzz_core_src_<tree>_<file>_<flavour>.dir/<path>.o.
    objects = tuple(os.path.join(src, rel) + ".o" for rel in s.compiled)
    shim_dir = f"equifuzz_core_{pair}_default_{s.role.removeprefix('core-')}_objs.dir"
    # (A mutant's own copies of these objects are left out: they read its overlay, not the tree.)
    return [obj for obj in deps if shim_dir in obj or (objects and "/equifuzz_core_src_" in obj and obj.endswith(objects))]


def _missing(deps: dict, pair: str, s: CoreSide, found: list[str]) -> list[str]:
    """What <pair>'s side `s` lacks a current record for: a stale record, a shim or a compiled Core
    source with none."""
    out = [obj for obj in found if not deps[obj][0]]
    if not any(f"equifuzz_core_{pair}_default_" in obj for obj in found):
        out.append(f"the shim of {pair}")
    for rel in s.compiled:
        if not any(obj.endswith(os.path.join(os.path.normpath(s.src), rel) + ".o") for obj in found):
            out.append(rel)
    return out


def side_files(bdir: Path, manifest: Manifest, refresh: bool = True,
               pairs: set[str] | None = None) -> dict[tuple[str, str], set[str]]:
    """(pair, role) -> the files under src/ of its tree that its compilation read (the shim's and
    every Core source's object, headers included), as 'src/<path>'. Only current records are read:
    a side with a stale or missing one has its objects built again first (ninja keeps an old
    record until then, and an old record names the files of an older tree), and a side still
    without current records stops the run with a sentence, never a silent "compiles nothing".
    `pairs`: only these pairs' sides (None: every pair's)."""
    sides = core_sides(manifest, pairs)
    if refresh and sides:
        # A record ninja calls VALID can still be of an older tree (an object this configuration
        # has not built yet keeps the record of the last build that did): the side objects are
        # brought up to date first (nothing to do when they are), a STALE one built anew.
        deps = _deps(bdir)
        for obj in {obj for pair, s in sides for obj in _side_objects(deps, pair, s) if not deps[obj][0]}:
            Path(bdir, obj).unlink(missing_ok=True)
        _run(["cmake", "--build", str(bdir), "--target", *sorted({s.target for _, s in sides}), "--", "-k", "0"])
    deps = _deps(bdir)
    out: dict[tuple[str, str], set[str]] = {}
    for pair, s in sides:
        src = os.path.normpath(s.src)
        found = _side_objects(deps, pair, s)
        missing = _missing(deps, pair, s, found)
        if missing:
            raise InfraError(f"the build in {bdir} has no current dependency record of pair {pair}'s Core "
                             f"{s.role.removeprefix('core-')} side ({', '.join(missing[:3])}), so which files it "
                             "compiles is not known; remove that build directory and run again.")
        files: set[str] = set()
        for obj in found:
            for f in deps[obj][1]:
                f = os.path.normpath(f if os.path.isabs(f) else os.path.join(bdir, f))
                if f.startswith(src + os.sep):
                    files.add("src/" + os.path.relpath(f, src))
        out[(pair, s.role)] = files
    return out


def changed_files(before_src: str, after_src: str) -> list[str]:
    """Every file under src/ that differs between two trees (added, removed or changed), as
    'src/<path>', sorted."""
    def listing(root: str) -> set[str]:
        found = set()
        for d, _, names in os.walk(root):
            for n in names:
                found.add(os.path.relpath(os.path.join(d, n), root))
        return found
    a, b = listing(before_src), listing(after_src)
    out = [f for f in a ^ b]
    out += [f for f in a & b if not filecmp.cmp(os.path.join(before_src, f), os.path.join(after_src, f), shallow=False)]
    return sorted("src/" + f for f in out)


def touched_pairs(manifest: Manifest, files: dict[tuple[str, str], set[str]]) -> dict[str, list[str]]:
    """pair -> the files its Core sides compile (<files>, from side_files) that differ between its
    two Core trees."""
    out: dict[str, list[str]] = {}
    for pair, info in manifest.pairs.items():
        core = {c.role: c for c in info.core}
        if set(core) != {"core-original", "core-optimized"}:
            continue
        before, after = core["core-original"].src, core["core-optimized"].src
        compiled = files.get((pair, "core-original"), set()) | files.get((pair, "core-optimized"), set())
        differ = []
        for f in sorted(compiled):
            rel = f.removeprefix("src/")
            a, b = os.path.join(before, rel), os.path.join(after, rel)
            if os.path.isfile(a) != os.path.isfile(b) or (os.path.isfile(a) and not filecmp.cmp(a, b, shallow=False)):
                differ.append(f)
        if differ:
            out[pair] = differ
    return out
