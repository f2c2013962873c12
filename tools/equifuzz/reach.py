"""Reach: how much of a change the fuzzers executed, per Core side.

A CLEAN verdict is only as good as what ran. For each pair, the lines a change removes or modifies
in the Core before tree, and adds or modifies in the Core after tree (a line diff of the two trees'
files, `git diff --no-index -U0`: the same for two commits, a checkout or a registry tree), of the
files the pair's Core sides compile (headers included), restricted to the lines the coverage build
marks executable; then how many of those the replay of the corpora, regressions and the run's
campaign inputs executed, on that side alone (each Core side's profile names are its own:
profile_names.py). The verdict counts a changed line as reached when any pair reached it.

A side whose Core files are one tree with a configuring edit (the script pair) reads the edited
file from the edit's directory, as its compilation did.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from .manifest import CoreSide, Pair
from .project import ROOT, InfraError

LLVM_COV = "llvm-cov-19"
LLVM_CXXFILT = "llvm-cxxfilt-19"
ROLES = ("core-original", "core-optimized")
#: How the report and the verdict call the two Core sides.
SIDE_WORDS = {"core-original": "Core before", "core-optimized": "Core after"}

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _lines(start: str, count: str | None) -> list[int]:
    n = 1 if count is None else int(count)
    return list(range(int(start), int(start) + n))


def diff_lines(before: Path | None, after: Path | None) -> tuple[set[int], set[int]]:
    """(lines of `before` the change removes or modifies, lines of `after` it adds or modifies); a
    file missing on one side is all added (or all removed)."""
    a = str(before) if before and before.is_file() else os.devnull
    b = str(after) if after and after.is_file() else os.devnull
    proc = subprocess.run(["git", "diff", "--no-index", "--no-color", "--no-ext-diff", "-U0", a, b],
                          capture_output=True, text=True, errors="replace")
    if proc.returncode not in (0, 1):
        raise InfraError(f"git could not compare {a} and {b} (exit {proc.returncode}).")
    removed, added = set(), set()
    for line in proc.stdout.splitlines():
        m = _HUNK.match(line)
        if m:
            removed.update(_lines(m[1], m[2]))
            added.update(_lines(m[3], m[4]))
    return removed, added


def side_path(core: CoreSide, rel: str) -> Path:
    """Where side `core` read src/<rel>: its configuring edit's copy when it has one, else its tree."""
    edit = core.edit_dir
    if edit and (Path(edit) / rel).is_file():
        return Path(edit) / rel
    return Path(core.src) / rel


def _roots(core: CoreSide) -> list[str]:
    return [os.path.normpath(r) + os.sep for r in (core.edit_dir, core.src) if r]


def rel_of(core: CoreSide, path: str) -> str | None:
    """src/<rel> of an absolute path of `core`'s files, or None when it is not one of them."""
    p = os.path.normpath(path)
    for root in _roots(core):
        if p.startswith(root):
            return p[len(root):]
    return None


# --- llvm-cov -------------------------------------------------------------------------------------
def _llvm_cov(args: list[str]) -> str:
    proc = subprocess.run([LLVM_COV, *args], capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise InfraError(f"{LLVM_COV} failed (exit {proc.returncode}): "
                         + (proc.stderr.strip().splitlines() or ["no output"])[-1])
    return proc.stdout


def line_counts(objects: list[str], profdata: Path, paths: list[str] | None = None) -> dict[str, dict[int, int]]:
    """file -> {executable line: times it ran}, from llvm-cov's lcov export (all files, or `paths`)."""
    text = _llvm_cov(["export", "-format=lcov", "-skip-functions", f"-instr-profile={profdata}", *objects,
                      *(paths or [])])
    out: dict[str, dict[int, int]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("SF:"):
            current = out.setdefault(os.path.normpath(line[3:]), {})
        elif line.startswith("DA:") and current is not None:
            num, count = line[3:].split(",")[:2]
            current[int(num)] = current.get(int(num), 0) + int(count)
    return out


def function_spans(objects: list[str], profdata: Path, paths: list[str]) -> list[dict]:
    """Every function with code in `paths`: {path, name, first, last, count} (its code regions'
    lines in that file)."""
    if not paths:
        return []
    data = json.loads(_llvm_cov(["export", "-format=text", "-skip-expansions", f"-instr-profile={profdata}",
                                 *objects, *paths]))["data"][0]
    wanted = {os.path.normpath(p) for p in paths}
    out = []
    for fn in data.get("functions", []):
        names = [os.path.normpath(f) for f in fn.get("filenames", [])]
        spans: dict[str, list[int]] = {}
        for region in fn.get("regions", []):
            line_start, _, line_end, _, _, file_id, _, kind = region[:8]
            if kind != 0 or file_id >= len(names) or names[file_id] not in wanted:
                continue
            span = spans.setdefault(names[file_id], [line_start, line_end])
            span[0], span[1] = min(span[0], line_start), max(span[1], line_end)
        for path, (first, last) in spans.items():
            out.append({"path": path, "name": fn["name"], "first": first, "last": last, "count": fn.get("count", 0)})
    return out


def demangle(names: list[str]) -> list[str]:
    """C++ names as a reader knows them (llvm-cxxfilt), or as they are without it."""
    if not names or shutil.which(LLVM_CXXFILT) is None:
        return names
    proc = subprocess.run([LLVM_CXXFILT], input="\n".join(names), capture_output=True, text=True)
    out = proc.stdout.splitlines()
    return out if proc.returncode == 0 and len(out) == len(names) else names


def _shown_name(name: str, demangle) -> str:
    from .profile_names import strip
    _, name = strip(name)
    if ";" in name and not name.startswith("_Z"):  # internal linkage: "<file>;<name>"
        name = name.split(";", 1)[1]
    return demangle([name])[0]


# --- one pair -------------------------------------------------------------------------------------
def pair_reach(objects: list[str], profdata: Path, pair_info: Pair, compiled: set[str] | None = None,
               demangler=None) -> dict | None:
    """The reach of the change between the pair's two Core trees, per side; None for a pair
    without both Core sides. `compiled`: src/<rel> files the sides compile (from the build's
    dependency records) beside the ones the coverage export holds, so that a changed header with
    no executable line is still counted as changed."""
    core = {c.role: c for c in pair_info.core}
    if set(core) != set(ROLES):
        return None
    names = demangler or demangle
    counts = line_counts(objects, profdata)
    rels: set[str] = {r.removeprefix("src/") for r in (compiled or set())}
    for path in counts:
        for c in core.values():
            rel = rel_of(c, path)
            if rel is not None:
                rels.add(rel)
    changed: dict[str, tuple[set[int], set[int]]] = {}
    for rel in sorted(rels):
        a, b = side_path(core["core-original"], rel), side_path(core["core-optimized"], rel)
        if a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes():
            continue
        if not a.is_file() and not b.is_file():
            continue
        changed[rel] = diff_lines(a, b)
    sides = {}
    for role, which in (("core-original", 0), ("core-optimized", 1)):
        c = core[role]
        paths = {rel: str(side_path(c, rel)) for rel in changed}
        spans = function_spans(objects, profdata, [p for p in paths.values() if os.path.normpath(p) in counts])
        files, unreached = [], []
        for rel, lines in changed.items():
            mine = lines[which]
            path = os.path.normpath(paths[rel])
            executable = counts.get(path, {})
            exe = sorted(l for l in mine if l in executable)
            ran = [l for l in exe if executable[l] > 0]
            files.append({"file": "src/" + rel, "path": path, "changed": len(mine), "executable": exe, "reached": ran})
            missed = sorted(set(exe) - set(ran))
            unreached += _unreached(rel, path, missed, [s for s in spans if s["path"] == path], names)
        sides[role] = {
            "changed_lines": sum(f["changed"] for f in files),
            "executable": sum(len(f["executable"]) for f in files),
            "reached": sum(len(f["reached"]) for f in files),
            "files": files,
            "unreached": unreached,
        }
    return {"sides": sides, "one_tree": core["core-original"].src == core["core-optimized"].src}


def _unreached(rel: str, path: str, missed: list[int], spans: list[dict], demangle) -> list[dict]:
    """The changed executable lines no input ran, by the function that holds them:
    {"where": "src/<rel>:<first>-<last>", "function": name, "called": bool}."""
    groups: dict[str, dict] = {}
    for line in missed:
        holders = [s for s in spans if s["first"] <= line <= s["last"]]
        fn = min(holders, key=lambda s: s["last"] - s["first"]) if holders else None
        key = fn["name"] if fn else f"line {line}"
        g = groups.setdefault(key, {"lines": [], "function": _shown_name(fn["name"], demangle) if fn else "",
                                    "called": bool(fn and fn["count"] > 0)})
        g["lines"].append(line)
    out = []
    for g in groups.values():
        first, last = min(g["lines"]), max(g["lines"])
        out.append({"where": f"src/{rel}:{first}" + (f"-{last}" if last != first else ""),
                    "function": g["function"], "called": g["called"], "lines": len(g["lines"])})
    return sorted(out, key=lambda g: g["where"])


# --- who could reach it ---------------------------------------------------------------------------
DRIVERS = ROOT / "differential" / "core" / "drivers.json"


def driver_of(function: str, pair: str) -> str:
    """What to do about a changed function no input of `pair` executed: the pair whose operations
    drive it (differential/core/drivers.json), or that no pair does yet, and why."""
    import fnmatch
    table = json.loads(DRIVERS.read_text())
    # A function template's demangled name starts with its return type ("void SpanReader::read<4ul>(…)").
    first, _, rest = function.partition(" ")
    if rest and "(" not in first and "(" in rest:
        function = rest
    for entry in table.get("nobody", []):
        if any(fnmatch.fnmatchcase(function, f) for f in entry["functions"]):
            return entry["why"]
    for entry in table["drivers"]:
        if any(fnmatch.fnmatchcase(function, f) for f in entry["functions"]):
            if entry["pair"] == pair:
                return f"{pair} drives this code: a new operation or seed of {pair} would reach it"
            return f"the {entry['pair']} pair drives it: verify {entry['pair']} on these trees"
    return "no pair drives it yet"


# --- the verdict's figures ------------------------------------------------------------------------
def totals(reach: dict[str, dict | None]) -> dict[str, dict]:
    """Per role, over every pair: executable changed lines and how many any pair reached (a line
    of one tree file counted once, reached when any pair ran it)."""
    out = {}
    for role in ROLES:
        exe: set[tuple[str, int]] = set()
        ran: set[tuple[str, int]] = set()
        changed = 0
        seen_files: set[str] = set()
        for r in reach.values():
            if not r:
                continue
            for f in r["sides"][role]["files"]:
                if f["path"] not in seen_files:
                    seen_files.add(f["path"])
                    changed += f["changed"]
                exe.update((f["path"], l) for l in f["executable"])
                ran.update((f["path"], l) for l in f["reached"])
        out[role] = {"changed_lines": changed, "executable": len(exe), "reached": len(ran)}
    return out


def percent(reached: int, executable: int) -> float | None:
    return round(100.0 * reached / executable, 1) if executable else None


def side_line(role: str, side: dict) -> str:
    """'Core after: 41 of 52 executable changed lines reached (78.8 %)'."""
    if not side["changed_lines"]:
        return f"{SIDE_WORDS[role]}: the change alters no line of its files"
    if not side["executable"]:
        return (f"{SIDE_WORDS[role]}: none of its {side['changed_lines']} changed line(s) is executable "
                "(comments, declarations)")
    return (f"{SIDE_WORDS[role]}: {side['reached']} of {side['executable']} executable changed line(s) reached "
            f"({percent(side['reached'], side['executable'])} %)")


def unreached_line(u: dict, pair: str) -> str:
    """One changed function no input of `pair` executed: where, what, and when no input called it,
    which pair would (driver_of)."""
    return (f"{u['where']} {u['function'] or '(outside any function)'}" + ("" if u["called"] else " (no input called it)")
            + (f": {driver_of(u['function'], pair)}" if u["function"] and not u["called"] else ""))


def lines(pair_reach: dict | None, pair: str = "") -> list[str]:
    """The reach of one pair as the coverage command prints it."""
    if not pair_reach:
        return []
    out = ["\nreach of the change between the Core trees:"]
    for role in ROLES:
        side = pair_reach["sides"][role]
        out.append("  " + side_line(role, side))
        out += [f"    not reached: {unreached_line(u, pair)}" for u in side["unreached"]]
    return out
