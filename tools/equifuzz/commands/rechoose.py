"""./equifuzz rechoose"""
from __future__ import annotations

import tempfile
from pathlib import Path

from .. import rechoose
from ..choices import ChoiceError, load
from ..project import EXIT_CLEAN, EXIT_FINDING, EquifuzzError, declared_targets

NAME = "rechoose"
ORDER = 105
SUMMARY = "carry committed inputs over a change of a pair's choice weights"
DESCRIPTION = ("Rewrites each input so that it decodes to the same scenario under the choices.json of the "
               "checkout as it did under the weights of --old-choices: traced through a build of the old "
               "weights (--old-build) and checked through a build of the new (--new-build). An input "
               "whose rewrite reads otherwise is left as it was, and the tool says so.")
EXAMPLES = ["./equifuzz rechoose --old-build build/old --new-build build/libfuzzer corpora/regressions/coins_view/*"]


def arguments(p) -> None:
    p.add_argument("inputs", nargs="+", help="input files under corpora/<target>/ or corpora/regressions/<target>/")
    p.add_argument("--old-build", required=True, help="a build of the old weights (its fuzz_targets/<target> traces)")
    p.add_argument("--new-build", required=True, help="a build of the checkout's weights")
    p.add_argument("--old-choices", default="HEAD", metavar="REV", help="the commit that holds the old choices.json (default HEAD)")


def run(args) -> int:
    targets = declared_targets()
    failed = 0
    tables: dict[str, tuple[dict, dict]] = {}
    with tempfile.TemporaryDirectory(prefix="equifuzz-rechoose-") as tmp:
        scratch = Path(tmp) / "input"
        for name in args.inputs:
            path = Path(name)
            target = path.parent.name
            if not path.is_file():
                raise EquifuzzError(f"{name} is not a file.")
            if target not in targets:
                raise EquifuzzError(f"{name} is not in a target's corpus folder (corpora/<target>/ or corpora/regressions/<target>/).")
            pair = targets[target]
            if pair not in tables:
                try:
                    tables[pair] = (rechoose.old_tables(pair, args.old_choices), load(pair))
                except ChoiceError as e:
                    raise EquifuzzError(str(e)) from None
            old, new = tables[pair]
            binaries = [Path(b) / "fuzz_targets" / target for b in (args.old_build, args.new_build)]
            try:
                said = rechoose.carry(path, pair, *binaries, old, new, scratch, args.old_choices)
            except EquifuzzError as e:
                failed += 1
                said = f"NOT carried over: {e}"
            print(f"equifuzz: {name}: {said}")
    if failed:
        print(f"equifuzz: {failed} input(s) could not be carried over; each line above says why.")
    return EXIT_FINDING if failed else EXIT_CLEAN
