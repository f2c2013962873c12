"""Every committed regression input that exposes a mutant gives the same mismatch report as the one
recorded in tests/data/reports/<pair>/<mutant>.txt: the same decoded input, the same fields with
the same values on every side, the same first difference. The class, signature and reproduce
lines are left out (they name sides and paths, and may change on purpose). A harness change that drops a
field, reorders sides or changes how a value is shown fails here.

After a deliberate change to a report, record them again (from the replay build):
    EQUIFUZZ_RECORD_REPORTS=1 python3 -m pytest tests/python/test_reports.py
and review the diff of tests/data/reports/ like code.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
import sys  # noqa: E402
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import manifest  # noqa: E402
from equifuzz.project import TIER_ENVIRONMENT, declared_caught_by, declared_tier  # noqa: E402
GOLDEN = ROOT / "tests" / "data" / "reports"
RECORD = bool(os.environ.get("EQUIFUZZ_RECORD_REPORTS"))


def variants(build_dir: Path):
    m = manifest.read(build_dir)
    if not any(p.core for p in m.pairs.values()):
        pytest.skip("the build has no Bitcoin Core sides: the recorded reports have their columns")
    if not m.core_trees_from.startswith("registry"):
        pytest.skip(f"the recorded reports name the registry trees; this build's Core trees are from {m.core_trees_from}")
    for t in m.targets:
        for v in t.variants:
            # One report per mutant, its pair's file: the one of the target its "Caught-by:" names
            # (a pair's other targets may catch it too, with other words).
            caught_by = declared_caught_by(t.pair, v.name) if v.kind == "mutant" else None
            if v.kind == "mutant" and caught_by in (None, t.name):
                yield t, v


def report_of(binary: Path, path: Path, env: dict | None = None) -> str | None:
    """The mismatch or property report (without signature and reproduce lines), or the sanitizer's
    kind of finding, or None when the input passes. `env`: the mutant's tier (its "Tier:" line)."""
    proc = subprocess.run([binary, str(path.relative_to(ROOT))], capture_output=True, text=True, errors="replace",
                          cwd=ROOT, env=dict(os.environ, ASAN_OPTIONS="handle_abort=1:detect_leaks=0", **(env or {})),
                          timeout=120)
    if proc.returncode == 0:
        return None
    lines = proc.stderr.splitlines()
    # A mismatch between sides, or a property a side violates: both reports start with a banner.
    banner = next((i for i, l in enumerate(lines) if l.startswith("==== equifuzz ") and l.endswith(" ====")), None)
    if banner is not None:
        start = banner
        end = next(i for i in range(start, len(lines)) if lines[i].startswith(("signature: ", "class: ")))
        return "\n".join(lines[start:end]) + "\n"
    summary = next((l for l in lines if l.startswith("SUMMARY: ")), f"exit {proc.returncode}")
    # The kind of finding only: file paths and line numbers move with every edit.
    return re.sub(r" (/|\.\./)\S*.*$", "", summary) + "\n"


def test_every_mutants_report_is_as_recorded(build_dir):
    checked, differ, missing = 0, [], []
    for t, v in variants(build_dir):
        regressions = t.regressions
        files = sorted(p for p in regressions.rglob("*") if p.is_file()) if regressions.is_dir() else []
        # A mutant is caught in the tier that names its bug: internal state (EQUIFUZZ_STRICT) or
        # beyond the contracts (EQUIFUZZ_BEYOND_CONTRACT) for those whose file says so.
        env = TIER_ENVIRONMENT[declared_tier(t.pair, v.name)]
        for path in files:
            if report_of(t.binary, path, env) is not None:
                continue  # the clean build fails it too: not this mutant's input
            got = report_of(v.binary, path, env)
            if got is None:
                continue
            golden = GOLDEN / t.pair / f"{v.name}.txt"
            text = f"input file: {path.relative_to(ROOT)}\n{got}"
            if RECORD:
                golden.parent.mkdir(parents=True, exist_ok=True)
                golden.write_text(text)
            elif not golden.is_file():
                missing.append(f"{t.pair}/{v.name}")
            elif golden.read_text() != text:
                differ.append(f"{t.pair}/{v.name} ({path.name})")
            checked += 1
            break
    assert checked > 0, "no mutant variant exposed by a regression input: is this a build with mutants?"
    assert not missing, f"no recorded report for {missing}: record them (see this file's docstring)"
    assert not differ, f"reports differ from tests/data/reports for {differ}"

