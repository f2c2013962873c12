"""./equifuzz mutants"""
from __future__ import annotations

import shutil
from pathlib import Path

from .. import engines, mutant_tree
from ..building import ensure_built
from ..mutants import (built_mutants, caught_by_input, check_names, check_regressions, curve_of, hunt_from_empty,
                       regression_files)
from ..output import table
from ..project import (EXIT_CLEAN, EXIT_FINDING, ROOT, TIER_ENVIRONMENT, EquifuzzError, build_dir, declared_tier,
                       record_caught_by)

NAME = "mutants"
ORDER = 60
SUMMARY = "show that every mutant is caught, by regression inputs or by libFuzzer"
DESCRIPTION = ("For each injected-bug variant (mutant): by default replays the committed regression inputs through it and "
               "the clean build; with --libfuzzer, lets libFuzzer hunt it from the seeds. A mutant counts as caught only "
               "by an input the clean build passes. Any mutant not caught is a finding (exit 1).")
EXAMPLES = ["./equifuzz mutants", "./equifuzz mutants --pair xor",
            "./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=ON && ./equifuzz mutants --libfuzzer --seconds 60 --save",
            "./equifuzz mutants --from-empty --trials 5 --seconds 30 --json from-empty.json",
            "./equifuzz mutants --from-empty --engine afl --pair xor --trials 5 --seconds 60",
            "./equifuzz mutants --from-empty --json lf.json --plot survival.png --plot-with afl.json",
            "./equifuzz mutants --pair xor --mutant core_refactor_unroll_4 --write-tree /tmp/xor-unroll-4"]


def arguments(p) -> None:
    p.add_argument("--pair", help="only this pair's mutants")
    p.add_argument("--mutant", help="only this mutant")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check-regressions", dest="engine", action="store_const", const="regressions",
                      help="replay committed regression inputs through each mutant (default)")
    mode.add_argument("--libfuzzer", dest="engine", action="store_const", const="libfuzzer",
                      help="let libFuzzer hunt each mutant from the seed corpus")
    p.add_argument("--seconds", type=int, default=60, help="libFuzzer budget per mutant and target (default 60)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1)")
    mode.add_argument("--from-empty", action="store_true",
                      help="let libFuzzer hunt each mutant from an EMPTY corpus, --trials times (FuzzBench-style figures)")
    p.add_argument("--trials", type=int, default=5, help="with --from-empty: trials per mutant, seeds --seed.. (default 5)")
    p.add_argument("--engine", dest="hunt_engine", choices=["libfuzzer", "afl"], default="libfuzzer",
                   help="with --from-empty: the engine that hunts (default libfuzzer; afl needs the afl build with "
                        "mutants: ./equifuzz build afl --cmake-arg=-DEQUIFUZZ_MUTANTS=ON)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="with --from-empty: trials at once (default: every core)")
    p.add_argument("--json", metavar="FILE", help="with --from-empty: also write every trial as JSON")
    p.add_argument("--plot", metavar="PNG", help="with --from-empty: also draw the survival curve as a PNG")
    p.add_argument("--plot-with", metavar="JSON", action="append",
                   help="with --plot: add the curve of an earlier --json file (the other engine, say); repeatable")
    p.add_argument("--save", action="store_true", help="with --libfuzzer: keep each finding under corpora/regressions/")
    p.add_argument("--quiet", action="store_true", help="no live progress line")
    p.add_argument("--write-tree", metavar="DIR",
                   help="with --pair and --mutant naming a Core mutant (.sub): write the pair's pinned Core tree of the "
                        "mutant's side, with the mutant applied, to DIR (a tree for verify --core-optimized), and stop")
    p.set_defaults(engine="regressions")


def _hunt(t, v, name: str, pair: str, args) -> tuple[str | None, str]:
    """libFuzzer from the seeds: (the target that caught it, how) or (None, why not)."""
    how = ""
    r = engines.run_libfuzzer(t, v.binary, args.seconds, live=not args.quiet, seed=args.seed, tag=f"__{name}")
    for crash in r.mismatches + r.other_crashes:
        if failure := caught_by_input(t.binary, v.binary, crash):
            how = f"libFuzzer in {r.seconds:.0f} s ({failure})"
            if args.save:
                t.regressions.mkdir(parents=True, exist_ok=True)
                dest = t.regressions / f"mutant-{name}-{crash.name}"
                shutil.copy(crash, dest)
                record_caught_by(pair, name, t.name)
                how += f", saved {dest.relative_to(ROOT)} (Caught-by: {t.name})"
            return t.name, how
        how = f"{t.name} crashed on an input the clean build also fails: not counted ({crash})"
    return None, how


def _write_tree(args) -> int:
    if not (args.pair and args.mutant):
        raise EquifuzzError("--write-tree needs the mutant: name it with --pair and --mutant.")
    info = mutant_tree.write_tree(args.pair, args.mutant, Path(args.write_tree).resolve())
    print(f"equifuzz: {args.write_tree}: {info['pair']}'s {info['side']} tree (commit {info['commit']}) with the "
          f"{info['kind']} mutant {info['mutant']} applied to {info['file']}.\n"
          f"Check it as a change: ./equifuzz verify {info['pair']} --core-original {info['base']} "
          f"--core-optimized {args.write_tree}")
    return EXIT_CLEAN


def run(args) -> int:
    if args.write_tree:
        return _write_tree(args)
    if args.from_empty:
        args.engine = "libfuzzer"
        if args.trials < 1:
            raise EquifuzzError("--trials must be at least 1.")
    if (args.plot or args.plot_with) and not args.from_empty:
        raise EquifuzzError("--plot and --plot-with draw the hunts of --from-empty: use them with it.")
    if args.plot_with and not args.plot:
        raise EquifuzzError("--plot-with adds curves to --plot's PNG: name the PNG with --plot.")
    args.plot_curves = [curve_of(f) for f in args.plot_with or []]  # read before hours of hunting
    if args.hunt_engine == "afl" and not args.from_empty:
        raise EquifuzzError("--engine afl hunts from an empty corpus: use it with --from-empty.")
    config = args.hunt_engine if args.from_empty else "libfuzzer" if args.engine == "libfuzzer" else "replay"
    check_names(args.pair, args.mutant)
    bdir = build_dir(config, args.build_dir)
    mutants = built_mutants(ensure_built(config, bdir), bdir, config, args.pair, args.mutant)
    if args.from_empty:
        return hunt_from_empty(mutants, args, args.hunt_engine)
    rows, missed = [], []
    for (pair, name), runs in sorted(mutants.items()):
        caught_by, how = None, ""
        for t, v in runs:
            if args.engine == "libfuzzer":
                caught_by, how = _hunt(t, v, name, pair, args)
            else:
                # Caught in the tier that names its bug (the mutant file's "Tier:" line).
                check = check_regressions(t, v.binary, regression_files(t), {},
                                          TIER_ENVIRONMENT[declared_tier(pair, name)])
                if check["caught"]:
                    caught_by, how = t.name, f"{check['caught']['input'].name}: {check['caught']['failure']}"
            if caught_by:
                break
        rows.append([pair, name, caught_by or "NOT CAUGHT", how, runs[0][1].description])
        if not caught_by:
            missed.append(name)
    print(table(["pair", "mutant", "caught by", "how", "injected bug"], rows))
    if missed:
        print(f"\nequifuzz: {len(missed)} mutant(s) not caught: {', '.join(missed)}.")
        return EXIT_FINDING
    return EXIT_CLEAN
