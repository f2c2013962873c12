"""./equifuzz seeds"""
from __future__ import annotations

from .. import seeds
from ..project import ROOT, EquifuzzError, declared_targets

NAME = "seeds"
ORDER = 100
SUMMARY = "regenerate the seed corpora with the deterministic generator"
DESCRIPTION = "Rewrites corpora/<target>/ from the real Bitcoin data in tests/data/bitcoin and the generator's fixed choices."
EXAMPLES = ["./equifuzz seeds", "./equifuzz seeds xor_apply xor_key"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target names (default: every target)")


def run(args) -> int:
    targets = declared_targets()
    names = args.targets or sorted(targets)
    for n in names:
        if n not in targets:
            raise EquifuzzError(f"unknown target '{n}': the targets are {', '.join(sorted(targets))}.")
    for n in dict.fromkeys(names):
        count = seeds.write(n, ROOT / "corpora" / n)
        print(f"equifuzz: corpora/{n}: {count} seed inputs")
    return 0
