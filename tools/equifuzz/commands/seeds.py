"""./equifuzz seeds"""
from __future__ import annotations

from pathlib import Path

from .. import seeds
from ..building import cmake, ensure_built
from ..manifest import read as read_manifest
from ..project import ROOT, EquifuzzError, build_dir, declared_targets

NAME = "seeds"
ORDER = 100
SUMMARY = "regenerate the seed corpora with the pairs' seed programs"
DESCRIPTION = ("Rewrites corpora/<target>/ from the real Bitcoin data in tests/data/bitcoin and fixed draws, with each "
               "pair's seed program (its encoder, built in the replay build). Inputs `merge` added (merged-<sha1>) "
               "are kept.")
EXAMPLES = ["./equifuzz seeds", "./equifuzz seeds xor_apply xor_key", "./equifuzz seeds coins_view"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target names (default: every target)")


def run(args) -> int:
    targets = declared_targets()
    names = args.targets or sorted(targets)
    for n in names:
        if n not in targets:
            raise EquifuzzError(f"unknown target '{n}': the targets are {', '.join(sorted(targets))}.")
    by_pair: dict[str, list[str]] = {}
    for n in dict.fromkeys(names):
        by_pair.setdefault(targets[n], []).append(n)
    bdir = build_dir("replay", args.build_dir)
    ensure_built("replay", bdir)
    manifest = read_manifest(bdir)
    for pair, names_of_pair in by_pair.items():
        program = manifest.pair(pair).seed_writer
        if not program:
            why = (f"is a {manifest.engine} build" if manifest.engine != "replay"
                   else f"leaves pair {pair} out" if pair not in manifest.pairs
                   else "was configured by an equifuzz without seed programs (configure it again)")
            raise EquifuzzError(f"{pair}'s seeds are written by its seed program, and {bdir} {why}: name a replay "
                                "build that has it with --build-dir.")
        cmake(["cmake", "--build", str(bdir), "--target", Path(program).name], quiet=True)
        counts = seeds.write_with_program(Path(program), names_of_pair, ROOT / "corpora")
        for n in names_of_pair:
            print(f"equifuzz: corpora/{n}: {counts.get(n, 0)} seed inputs")
    return 0
