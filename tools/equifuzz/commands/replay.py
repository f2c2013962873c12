"""./equifuzz replay"""
from __future__ import annotations

import sys
import time

from .. import engines
from ..building import ensure_built
from ..output import signature_of, table
from ..project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INFRA, build_dir, require_replay_build, run_binary, select,
                       validate_names)

NAME = "replay"
ORDER = 40
SUMMARY = "replay seed and regression corpora through the replay build"
DESCRIPTION = ("Runs every input of corpora/<target>/ and corpora/regressions/<target>/ once through the replay build "
               "(ASan+UBSan, no fuzzing engine). A target with no input to replay is a failure (exit 3).")
EXAMPLES = ["./equifuzz replay", "./equifuzz replay serialize"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")


def run(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("replay", args.build_dir)
    require_replay_build(bdir, "replay")
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
        proc = run_binary([t.binary, "-q", *dirs])
        ok = proc.returncode == 0
        failed |= not ok
        status = "ok" if ok else ("MISMATCH " + (signature_of(proc.stderr) or f"exit {proc.returncode}"))
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
