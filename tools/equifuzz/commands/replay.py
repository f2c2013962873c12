"""./equifuzz replay"""
from __future__ import annotations

import sys
import tempfile
import time

from .. import engines
from ..building import ensure_built
from ..findings import first_stop
from ..output import table
from ..project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INFRA, build_dir, build_engine, require_replay_build, run_binary,
                       select, validate_names)
from ..verify import REPLAY_INPUT_TIMEOUT


def replay_libfuzzer(binary, files: list):
    """Each file once through a libFuzzer binary (as verify's replay runs it); a crash input
    libFuzzer writes goes to a temporary directory, never into the working directory."""
    with tempfile.TemporaryDirectory(prefix="equifuzz-replay-") as tmp:
        return run_binary([binary, "-runs=1", f"-timeout={REPLAY_INPUT_TIMEOUT}", f"-artifact_prefix={tmp}/", *files])


NAME = "replay"
ORDER = 40
SUMMARY = "replay seed and regression corpora through the replay build"
DESCRIPTION = ("Runs every input of corpora/<target>/ and corpora/regressions/<target>/ once through the replay build "
               "(ASan+UBSan, no fuzzing engine), or through a libFuzzer build named with --build-dir (each file once, "
               "as libFuzzer runs individual files: the tsan build's ThreadSanitizer replay). A target with no input "
               "to replay is a failure (exit 3).")
EXAMPLES = ["./equifuzz replay", "./equifuzz replay serialize", "./equifuzz --build-dir build/tsan replay"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")


def run(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("replay", args.build_dir)
    require_replay_build(bdir, "replay", libfuzzer_files=True)
    libfuzzer = build_engine(bdir) == "libfuzzer"
    targets = select(ensure_built("replay", bdir), args.targets)
    rows, failed, empty = [], False, []
    for t in targets:
        dirs = t.seed_dirs()
        files = sum(1 for d in dirs for p in d.rglob("*") if p.is_file())
        if files == 0:
            empty.append(t)
            rows.append([t.name, 0, "0.0", "NOTHING TO REPLAY"])
            continue
        start = time.monotonic()
        if libfuzzer:
            proc = replay_libfuzzer(t.binary, sorted(p for d in dirs for p in d.rglob("*") if p.is_file()))
        else:
            proc = run_binary([t.binary, "-q", *dirs])
        ok = proc.returncode == 0
        failed |= not ok
        status = "ok" if ok else ("MISMATCH " + (first_stop(proc.stderr) or f"exit {proc.returncode}"))
        rows.append([t.name, files, f"{time.monotonic() - start:.1f}", status])
        if not ok:
            sys.stderr.write(proc.stderr)
    print(table(["target", "inputs", "seconds", "result"], rows))
    for t in empty:
        print(f"equifuzz: {t.name} has no input to replay: {engines.shown(t.corpus)} "
              "and its regressions directory are missing or empty.", file=sys.stderr)
    if failed:
        return EXIT_FINDING
    return EXIT_INFRA if empty else EXIT_CLEAN
