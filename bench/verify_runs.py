"""What the scripts that run `./equifuzz verify` over a list of changes share
(bench/real_changes/run.py, bench/refactor_verify.py): the command line (`OUT.jsonl
[--minutes M] [--only NAME ...]`, or `--table OUT.jsonl`), the git remote they need, and one JSON
line per run appended to the output with no machine path in it."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
REMOTE = "EQUIFUZZ_CORE_GIT_REMOTE"


def arguments(script: str, what: str, table: Callable[[str], str], only_help: str,
              extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace | None:
    """The parsed arguments, or None when the table was printed (`--table OUT.jsonl`). Exits 2
    with one sentence when the git remote is not set."""
    if sys.argv[1:2] == ["--table"]:
        print(table(sys.argv[2]))
        return None
    p = argparse.ArgumentParser(prog=script)
    p.add_argument("out")
    p.add_argument("--minutes", type=float, default=2)
    p.add_argument("--only", nargs="*", help=only_help)
    if extra:
        extra(p)
    args = p.parse_args()
    if not os.environ.get(REMOTE):
        print(f"{script}: set {REMOTE} to a clone of Bitcoin Core with {what}.", file=sys.stderr)
        sys.exit(2)
    return args


def append(out: str, row: dict) -> None:
    """One line of `out`: the remote and the checkout named by their variables, never by a path."""
    text = json.dumps(row).replace(os.environ[REMOTE], f"${REMOTE}").replace(str(ROOT), "$EQUIFUZZ_ROOT")
    with open(out, "a") as f:
        f.write(text + "\n")


def rows(path: str) -> list[dict]:
    return [json.loads(line) for line in open(path) if line.strip()]
