"""Does every pair's Core side build on every Core tree? The check behind `./equifuzz trees`.

A reviewer brings any tree from v28.99 to today's master; the shims follow Core's API by probes
(CORE_FEATURE, the hook probes of cmake/CoreObjects.cmake). This module configures a scratch build
with one tree as both Core sides (no mutants, tests or sanitizers) and, for each pair, either
compiles its shim against the tree (-fsyntax-only, the default: the shim is what follows Core's API)
or builds and links the pair's first target (--full: every Core source too, and every hook the
side needs defined), and says per pair:
ok, not applicable (the tree lacks the pair's routine: a CORE_REQUIRE probe), or the first error.

The trees: differential/core/tree-check.json (every pinned commit of commits.json, their first
parents, and master as each month from 2024-08 (v28.99) ended, up to the newest) from the git remote, or the
registry trees (offline).
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

from . import core_build
from .manifest import Manifest, read as read_manifest
from .project import ROOT, InfraError

TREE_LIST = ROOT / "differential" / "core" / "tree-check.json"


def listed_commits() -> list[dict]:
    """[{commit, what}] of tree-check.json, then every commit commits.json pins (deduplicated)."""
    out, seen = [], set()
    for entry in json.loads(TREE_LIST.read_text())["commits"]:
        if entry["commit"] not in seen:
            seen.add(entry["commit"])
            out.append(entry)
    lock = json.loads((ROOT / "differential" / "core" / "commits.json").read_text())
    for key, t in lock["trees"].items():
        for when in ("before", "after"):
            c = t[when]["commit"]
            if c not in seen:
                seen.add(c)
                out.append({"commit": c, "what": f"{key} {when} (commits.json)"})
    return out


def _run(cmd: list[str], cwd: Path = ROOT, timeout: int = 3600) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)


def cmake_error(output: str) -> str:
    """The text of CMake's first error (the lines indented under 'CMake Error at ...:'), one line,
    without the 'equifuzz:' prefix; else the first line that mentions an error."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            body = []
            for text in lines[i + 1:]:
                if text.strip() and not text.startswith(" "):  # "Call Stack ...", the next message
                    break
                if text.strip() == "" and body:
                    break
                if text.strip():
                    body.append(text.strip())
            message = " ".join(body).removeprefix("equifuzz: ")
            if message:
                return message
    return next((l.strip() for l in lines if "rror" in l), "see cmake's output")


def configure(bdir: Path, spec: str, compiler: str | None) -> Manifest:
    """A scratch build with <spec> as both Core sides; returns its manifest."""
    core_build.clear_unbuilt(bdir)
    cmd = ["cmake", "--preset", "replay", "-B", str(bdir), f"-DEQUIFUZZ_CORE_ORIGINAL_SRC={spec}",
           f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={spec}", "-DEQUIFUZZ_MUTANTS=OFF", "-DEQUIFUZZ_TESTS=OFF",
           "-DEQUIFUZZ_BENCH=OFF", "-DEQUIFUZZ_CORE_ORACLE=OFF", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_OPT=-O0",
           "-DEQUIFUZZ_CORE_SIDES=ON"]
    if compiler:
        cmd.append(f"-DCMAKE_CXX_COMPILER={compiler}")
    proc = _run(cmd)
    if proc.returncode != 0:
        raise InfraError(f"the configure with Core tree {spec} failed: {cmake_error(proc.stdout + proc.stderr)}")
    return read_manifest(bdir)


def _shim_commands(bdir: Path) -> dict[str, dict]:
    """pair -> the compile command of its Core original side's shim (compile_commands.json)."""
    out = {}
    for entry in json.loads((bdir / "compile_commands.json").read_text()):
        m = re.search(r"equifuzz_core_(\w+?)_default_original_objs\.dir/", entry.get("output", "") or entry.get("command", ""))
        if m and entry["file"].endswith(".cpp"):
            out[m.group(1)] = entry
    return out


def check_tree(bdir: Path, spec: str, full: bool, compiler: str | None = None) -> dict[str, dict]:
    """pair -> {"status": ok | n/a | FAILED, "detail": ...} for one tree."""
    manifest = configure(bdir, spec, compiler)
    result: dict[str, dict] = {}
    commands = _shim_commands(bdir)
    for pair, info in sorted(manifest.pairs.items()):
        if not info.core_shim:
            continue
        original = next((c for c in info.core if c.role == "core-original"), None)
        if original is None:
            why = next((c.why for c in info.core_left_out if c.role == "core-original"), "not built")
            result[pair] = {"status": "n/a", "detail": why}
            continue
        start = time.monotonic()
        if full:
            # The pair's first target, linked: every Core source compiled, and every hook the
            # side's Core code needs defined (a missing one is an undefined reference only here).
            target = next(t.binary.name for t in manifest.targets if t.pair == pair)
            proc = _run(["cmake", "--build", str(bdir), "--target", target, "--", "-k", "0"])
        else:
            entry = commands.get(pair)
            if entry is None:
                result[pair] = {"status": "FAILED", "detail": "no compile command for its shim"}
                continue
            args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
            proc = _run([*args, "-fsyntax-only"], cwd=Path(entry["directory"]))
        seconds = round(time.monotonic() - start, 1)
        if proc.returncode == 0:
            result[pair] = {"status": "ok", "detail": "", "seconds": seconds}
        else:
            result[pair] = {"status": "FAILED", "seconds": seconds,
                            "detail": core_build.classify(proc.stdout + proc.stderr, original.src)}
    return result


def registry_paths(bdir: Path) -> list[tuple[str, str]]:
    """(label, path) of each registry tree, fetched by a registry-only configure of <bdir>."""
    proc = _run(["cmake", "--preset", "replay", "-B", str(bdir), "-DEQUIFUZZ_CORE_TREE_SOURCE=registry",
                 "-DEQUIFUZZ_CORE_ORIGINAL_SRC=", "-DEQUIFUZZ_CORE_OPTIMIZED_SRC=", "-DEQUIFUZZ_MUTANTS=OFF",
                 "-DEQUIFUZZ_TESTS=OFF", "-DEQUIFUZZ_BENCH=OFF", "-DEQUIFUZZ_CORE_ORACLE=OFF", "-DEQUIFUZZ_CORE_SIDES=ON"])
    if proc.returncode != 0:
        raise InfraError("the registry trees could not be had (cargo and the registry are needed; the configure failed).")
    # The configure links every registry tree it fetched (EQUIFUZZ_CORE_REGISTRY_VERSIONS).
    links = sorted((bdir / "core-trees").glob("kernel-*"), key=lambda p: [int(x) for x in p.name[7:].split(".")])
    return [(f"kernel {link.name[7:]}", os.path.realpath(link)) for link in links]


def git_specs(commits: list[dict]) -> list[tuple[str, str]]:
    """(label, git:<commit>) for each listed commit."""
    return [(f"{c['commit'][:10]} {c.get('date', '')} ({c['what']})".replace("  ", " "), f"git:{c['commit']}") for c in commits]
