"""./equifuzz merge"""
from __future__ import annotations

from pathlib import Path

from .. import corpus, engines
from ..building import ensure_built
from ..output import table
from ..project import EXIT_CLEAN, EquifuzzError, build_dir, select, validate_names

NAME = "merge"
ORDER = 70
SUMMARY = "add what a campaign found to corpora/<target>/, minimized for coverage"
DESCRIPTION = ("Minimizes each target's campaign corpus (build/campaigns/libfuzzer/<target>/corpus, or --from) with "
               "libFuzzer's -set_cover_merge=1 against the committed seeds and regressions, and adds the inputs that "
               "cover more to corpora/<target>/ as merged-<sha1> (the generator's seeds stay as generated).")
EXAMPLES = ["./equifuzz merge",
            "./equifuzz merge xor_apply --from build/verify/20261124-030000/campaigns/libfuzzer/xor_apply/corpus"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    p.add_argument("--from", dest="source", metavar="DIR", help="the corpus to merge (one target only)")


def run(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("libfuzzer", args.build_dir)
    targets = select(ensure_built("libfuzzer", bdir), args.targets)
    if args.source and len(targets) != 1:
        raise EquifuzzError("--from names one campaign corpus: name one target with it.")
    rows = []
    for t in targets:
        source = Path(args.source) if args.source else engines.campaign_dir(t.name, "libfuzzer") / "corpus"
        if not args.source and not source.is_dir():
            rows.append([t.name, 0, 0, "-", 0, "no campaign corpus (fuzz it first)"])
            continue
        r = corpus.merge(t, source)
        rows.append([t.name, r["candidates"], r["added"], "-" if r["new_edges"] is None else r["new_edges"],
                     r["held_back"], f"corpora/{t.name}/merged-*" if r["added"] else "nothing new"])
    print(table(["target", "campaign inputs", "added to corpora", "new edges", "held back (show a finding)", "where"], rows))
    return EXIT_CLEAN
