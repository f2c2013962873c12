"""./equifuzz list"""
from __future__ import annotations

from ..output import table
from ..project import ROOT, declared_mutants, declared_targets

NAME = "list"
ORDER = 10
SUMMARY = "list targets, their corpora and mutants"
DESCRIPTION = "Lists every fuzz target with its pair, its seed and regression input counts and its pair's mutants."
EXAMPLES = ["./equifuzz list", "./equifuzz list --mutants"]


def arguments(p) -> None:
    p.add_argument("--mutants", action="store_true", help="also list every mutant with the bug it injects")


def run(args) -> int:
    targets = declared_targets()
    count = lambda d: sum(1 for p in d.rglob("*") if p.is_file()) if d.is_dir() else 0  # noqa: E731
    rows = [[name, pair, count(ROOT / "corpora" / name), count(ROOT / "corpora" / "regressions" / name),
             len(declared_mutants(pair))]
            for name, pair in sorted(targets.items(), key=lambda kv: (kv[1], kv[0]))]
    print(table(["target", "pair", "seeds", "regressions", "mutants of pair"], rows))
    if args.mutants:
        for pair in sorted(set(targets.values())):
            print(f"\nmutants of {pair}:")
            for m, desc in declared_mutants(pair).items():
                print(f"  {m:28} {desc}")
    return 0
