"""./equifuzz keep"""
from __future__ import annotations

from pathlib import Path

from .. import corpus, engines
from ..project import EXIT_CLEAN, ROOT, EquifuzzError, Target, declared_targets, validate_names

NAME = "keep"
ORDER = 90
SUMMARY = "copy a finding's input into corpora/regressions/<target>/ with a one-line description"
DESCRIPTION = ("Copies the input to corpora/regressions/<target>/finding-<what>-<hash> and adds its description to "
               "corpora/regressions/README.md; replay and ctest run it from then on.")
EXAMPLES = ["./equifuzz keep script_eval crash-0123 --why \"OP_IF on an empty stack: Core says INVALID_STACK_OPERATION\""]


def arguments(p) -> None:
    p.add_argument("target", help="a target name")
    p.add_argument("input", help="the input file")
    p.add_argument("--why", required=True, help="one line: what the input exposed")


def run(args) -> int:
    validate_names([args.target])
    if args.target not in declared_targets():
        raise EquifuzzError(f"'{args.target}' is a pair; name one of its targets.")
    path = Path(args.input)
    if not path.is_file():
        raise EquifuzzError(f"{args.input} is not a file.")
    regressions = ROOT / "corpora" / "regressions" / args.target
    t = Target(args.target, declared_targets()[args.target], Path(), ROOT / "corpora" / args.target, regressions, Path())
    dest = corpus.keep(t, path, args.why)
    print(f"equifuzz: kept as {engines.shown(dest)}; described in {engines.shown(regressions.parent / 'README.md')}.")
    return EXIT_CLEAN
