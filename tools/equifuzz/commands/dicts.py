"""./equifuzz dicts"""
from __future__ import annotations

from .. import dicts
from ..project import EXIT_FINDING, declared_targets

NAME = "dicts"
ORDER = 95
SUMMARY = "write or check every target's fuzzing dictionary"
DESCRIPTION = ("Writes fuzz_targets/<target>.dict for every target from the constants in differential/ (opcodes, "
               "element limits, MAX_MONEY, CompactSize boundaries, the block-file magic, batch sizes; "
               "tools/equifuzz/dicts.py says which target gets which). libFuzzer (-dict), afl-fuzz (-x) and the "
               "OSS-Fuzz build use them. With --check, writes nothing and fails when a committed dictionary "
               "differs from what the constants give.")
EXAMPLES = ["./equifuzz dicts", "./equifuzz dicts --check"]


def arguments(p) -> None:
    p.add_argument("--check", action="store_true", help="only check that the committed dictionaries are current (exit 1 if not)")


def run(args) -> int:
    if args.check:
        stale = dicts.stale()
        if stale:
            print(f"equifuzz dicts: {len(stale)} dictionar{'y is' if len(stale) == 1 else 'ies are'} not what the constants "
                  f"give: {', '.join(stale)}. Run './equifuzz dicts' and commit fuzz_targets/*.dict.")
            return EXIT_FINDING
        print(f"equifuzz dicts: all {len(declared_targets())} dictionaries are current.")
        return 0
    changed = dicts.write_all()
    print(f"equifuzz dicts: {len(changed)} written ({', '.join(changed) or 'none changed'}).")
    return 0
