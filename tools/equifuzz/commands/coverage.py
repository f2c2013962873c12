"""./equifuzz coverage"""
from __future__ import annotations

import json
from pathlib import Path

from .. import coverage, reach
from ..building import ensure_built
from ..manifest import read as read_manifest
from ..output import table
from ..project import build_dir, require_replay_build, select, validate_names

NAME = "coverage"
ORDER = 120
SUMMARY = "replay corpora in the coverage build and print llvm-cov's report"
DESCRIPTION = ("Replays every corpus input through the coverage build (clang source-based coverage), pair by pair, and "
               "prints line, branch and function coverage of each side: our original and optimized models and each "
               "Core side (the files of its tree); then every function of our models that no target reaches; then the "
               "reach of the change between the pair's two Core trees (its executable changed lines that ran, per "
               "side, and the changed functions no input reached).")
EXAMPLES = ["./equifuzz coverage", "./equifuzz coverage script"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    p.add_argument("--json", metavar="FILE", help="also write every side's figures and unreached functions as JSON")


def run(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("coverage", args.build_dir)
    require_replay_build(bdir, "coverage")
    targets = select(ensure_built("coverage", bdir), args.targets)
    manifest = read_manifest(bdir)
    pct = lambda s: f"{s['covered']}/{s['count']} ({s['percent']} %)" if s["count"] else "-"  # noqa: E731
    result = {}
    for pair, mine, sides, change in coverage.by_pair(targets, manifest, bdir / "profiles"):
        result[pair] = {"targets": [t.name for t in mine], "sides": sides, "reach": change}
        print(f"\npair {pair} (targets: {', '.join(t.name for t in mine)}; every seed and regression input):\n")
        print(table(["side", "files", "lines", "branches", "functions"],
                    [[side, len(v["files"]), pct(v["summary"]["lines"]), pct(v["summary"]["branches"]),
                      pct(v["summary"]["functions"])] for side, v in sides.items()]))
        for side, v in sides.items():
            if v.get("per_file_lines"):
                top = ", ".join(f"{f['file']} {f['covered']}/{f['count']}" for f in v["per_file_lines"][:5])
                print(f"{side}: largest files (lines covered/instrumented): {top}")
        for side in ("original", "optimized"):
            missed = sides.get(side, {}).get("unreached_functions", [])
            if missed:
                print(f"\n{side}: {len(missed)} function(s) no target of {pair} reaches:")
                for name in missed:
                    print(f"  {name}")
        for line in reach.lines(change, pair):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0
