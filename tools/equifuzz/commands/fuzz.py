"""./equifuzz fuzz"""
from __future__ import annotations

import sys
from pathlib import Path

from .. import allow, coverage, engines, findings, reach
from ..campaign import by_signature, columns, counted as campaign_counted
from ..building import ensure_built, jobs_arg
from ..manifest import Manifest, read as read_manifest
from ..output import reproduce_command, table
from ..project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INFRA, EXIT_INTERRUPTED, EquifuzzError, build_dir, check_toolchain,
                       core_sides_rows, select, validate_names)

NAME = "fuzz"
ORDER = 30
SUMMARY = "fuzz targets (default: all) for a time budget each, then print a summary table"
DESCRIPTION = ("Runs each named target (a pair name stands for its targets; each runs once) under libFuzzer or AFL++ "
               "with ASan+UBSan for --seconds, from its seeds and regressions, keeping the campaign's corpus and crash "
               "files in build/campaigns/<engine>/<target>. The verdict counts what ran: a run that executed nothing, "
               "could not write its corpus or crash files, or exited without a report is a failure (exit 3).")
EXAMPLES = ["./equifuzz fuzz xor_apply --seconds 60", "./equifuzz fuzz siphash --seconds 30 --quiet",
            "./equifuzz fuzz --engine afl script_spend --seconds 120"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    p.add_argument("--all", action="store_true", help="every target (the default when none is named)")
    p.add_argument("--seconds", type=int, default=30, help="time budget per target (default 30)")
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer", help="fuzzing engine (default libfuzzer)")
    p.add_argument("--seed", type=int, default=1, help="engine seed, for repeatable runs (default 1)")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="campaigns run at once, one target each (default: every core; -j1 shows a live progress line); "
                        "a single target gets all JOBS: libFuzzer -fork=JOBS, or AFL++ -M main plus JOBS-1 -S secondaries")
    p.add_argument("--quiet", action="store_true",
                   help="no live progress line (a line as each campaign starts and ends is printed instead)")
    p.add_argument("--reach", action="store_true",
                   help="after the campaigns, replay the seeds, regressions and the campaigns' inputs in the coverage "
                        "build (build/coverage, built when needed) and print, per pair, how many of the executable lines "
                        "its pinned change alters each Core side ran")
    allow.add_allow_arguments(p)
    allow.add_minimize_arguments(p)


def started(target, seconds: int, index: int, count: int):
    """Says that one campaign starts (when several run at once, instead of a live line)."""
    print(f"equifuzz: [{index}/{count}] {target.name}: fuzzing for {seconds} s", file=sys.stderr, flush=True)
    return target


def finished(result, index: int, count: int):
    """Says that one campaign ended: its runs, exec/s, coverage and result."""
    if result is not None:
        print(f"equifuzz: [{index}/{count}] {result.target}: {result.runs:,} runs, {result.exec_per_sec:,} exec/s, "
              f"cov {result.coverage_end}, {result.label}", file=sys.stderr, flush=True)
    return result


def sanitizers_shown(manifest: Manifest) -> str:
    """The build's sanitizers as people write them: ASan+UBSan, TSan, ..."""
    short = {"address": "ASan", "undefined": "UBSan", "thread": "TSan", "memory": "MSan"}
    names = [short.get(s.strip(), s.strip()) for s in manifest.sanitizers.split(",") if s.strip()]
    return "+".join(names) or "no sanitizer"


def reach_rows(targets, engine: str) -> tuple[list[list], list[str]]:
    """Per pair of `targets` with two Core sides, the reach of its pinned change (a row: pair, Core
    after, Core before) from the coverage build's replay of the seeds, regressions and the inputs
    the campaigns kept; and the changed functions no input reached, as lines."""
    cdir = build_dir("coverage", None)
    cov_targets = select(ensure_built("coverage", cdir), [t.name for t in targets], exact=True)
    manifest = read_manifest(cdir)
    extra = {t.name: engines.campaign_inputs(t.name, engine) for t in cov_targets}
    cell = lambda side: (f"{side['reached']}/{side['executable']} ({reach.percent(side['reached'], side['executable'])} %)"  # noqa: E731
                         if side["executable"] else ("no executable line" if side["changed_lines"] else "no change"))
    rows, missed = [], []
    for pair, _, _, change in coverage.by_pair(cov_targets, manifest, cdir / "profiles", extra):
        if not change:
            continue
        rows.append([pair, cell(change["sides"]["core-optimized"]), cell(change["sides"]["core-original"])])
        missed += [f"{pair}: {reach.SIDE_WORDS[role]}: not reached: {reach.unreached_line(u, pair)}"
                   for role in reach.ROLES for u in change["sides"][role]["unreached"]]
    return rows, missed


def run(args) -> int:
    config = "afl" if args.engine == "afl" else "libfuzzer"
    if args.seconds < 1:
        raise EquifuzzError("--seconds must be at least 1.")
    if args.reach:
        check_toolchain("coverage")  # before any campaign: a missing llvm-19 is one sentence, not a lost hour
    validate_names(args.targets)
    bdir = build_dir(config, args.build_dir)
    targets = select(ensure_built(config, bdir), args.targets)
    manifest = read_manifest(bdir)
    allowed = allow.allow_for_targets(args, targets, set(manifest.pairs))
    if args.minimize and args.minimize_seconds < 1:
        raise EquifuzzError("--minimize-seconds must be at least 1.")
    if args.minimize and args.engine == "afl":
        raise EquifuzzError("--minimize shrinks inputs with libFuzzer's crash minimization: use it with the libfuzzer "
                            "engine, or run ./equifuzz minimize on an input AFL++ found.")
    engine = engines.ENGINES[args.engine]

    # Fuzzing goes on after a finding for the whole budget, collecting every signature.
    def campaign(t, binary, seconds, **kw):
        return engine.run(t, binary, seconds, keep_going=True, allow=allowed.get(t.name), **kw)
    jobs = jobs_arg(args.jobs)
    # With several jobs the live line would interleave: each campaign says when it starts and ends
    # instead (so a long run with --quiet, like the main job's, still shows it working).
    live = not args.quiet and jobs == 1
    number = {t.name: i for i, t in enumerate(targets, 1)}
    if len(targets) == 1 and jobs > 1:
        # One target on every core: libFuzzer's -fork=JOBS, or an AFL++ main and JOBS-1 secondaries.
        results = engines.run_many(1, targets, lambda t: campaign(t, t.binary, args.seconds, live=not args.quiet,
                                                                  seed=args.seed, jobs=jobs))
    else:
        def one(t):
            if live:
                return campaign(t, t.binary, args.seconds, live=True, seed=args.seed)
            started(t, args.seconds, number[t.name], len(targets))
            return finished(campaign(t, t.binary, args.seconds, live=False, seed=args.seed), number[t.name], len(targets))
        results = engines.run_many(jobs, targets, one)
    by_name = {t.name: t for t in targets}
    for r in results:
        r.recorded = findings.settle(r.recorded, findings.core_roles(manifest, by_name[r.target].pair))
        if args.minimize and not r.interrupted:
            counted = [(x.what, x.input) for x in campaign_counted(None, r) if x.kind in ("recorded", "mismatch")]
            r.minimized = engines.minimize_each(
                by_name[r.target], counted, args.minimize_seconds,
                (lambda msg: None) if args.quiet else (lambda msg: print(f"equifuzz: {msg}", file=sys.stderr, flush=True)))
    rows = [[r.target, f"{r.runs:,}", f"{r.exec_per_sec:,}", r.corpus, r.new_files,
             (f"{r.coverage_end / 100:.2f} %" if args.engine == "afl" else f"{r.coverage_seeds} → {r.coverage_end} (+{r.new_coverage})"),
             *columns(None, r), len(r.other_crashes), f"{r.seconds:.0f}", r.label]
            for r in results]
    cov = engine.coverage
    print(f"\nequifuzz fuzz, engine {args.engine} with {sanitizers_shown(manifest)}, {args.seconds} s per target:\n")
    print(table(["target", "runs", "exec/s", "corpus", "new files", cov, "findings counted", "not counted", "other crashes", "seconds",
                 "result"], rows))
    core_rows, core_notes = core_sides_rows(manifest)
    print("\nBitcoin Core's code in this build:\n")
    if core_rows:
        print(table(["pair", "Core original", "Core optimized"], core_rows))
    for note in core_notes:
        print(note)
    if args.reach:
        reach_table, missed = reach_rows(targets, args.engine)
        print("\nReach of each pair's pinned change (executable changed lines run by the seeds, regressions and "
              "this run's inputs, coverage build):\n")
        if reach_table:
            print(table(["pair", "Core after", "Core before"], reach_table))
        else:
            print("no pair of these targets has two Core sides in the coverage build.")
        for line in missed:
            print(line)
    bdir_arg = f"--build-dir {args.build_dir} " if args.build_dir else ""
    for r in results:
        # Fuzzing went on after each finding: every signature, where it comes from, its class.
        for f in r.recorded:
            rel = engines.shown(Path(r.minimized.get(f.signature, f.input)))
            print(f"\n{r.target}: {findings.line(f)}: input kept at {rel}"
                  f"{' (minimized)' if f.signature in r.minimized else ''}; reproduce with: "
                  f"{reproduce_command(r.target, rel, bdir_arg)}")
        # One line per distinct signature, when nothing was recorded (many inputs may share one bug).
        for sig, crash, count in ([] if r.recorded else by_signature(r.mismatches, r.signatures)):
            rel = engines.shown(crash)
            more = f" ({count - 1} more input(s) with this signature in {engines.shown(crash.parent)})" if count > 1 else ""
            print(f"\n{r.target}: mismatch {sig}: input kept at {rel}{more}; reproduce with: "
                  f"{reproduce_command(r.target, rel, bdir_arg)}")
        for crash in r.other_crashes:
            rel = engines.shown(crash)
            print(f"\n{r.target}: crash input kept at {rel}; reproduce with: {reproduce_command(r.target, rel, bdir_arg)}")
        if r.note:
            print(f"{r.target}: {r.note}")
        if r.problem:
            print(f"{r.target}: {r.problem}")
        if r.interrupted:
            print(f"{r.target}: interrupted; corpus and crashes kept in {engines.shown(engines.campaign_dir(r.target, args.engine))}")
    if len(results) < len(targets) and not any(r.interrupted for r in results):
        print(f"equifuzz: {len(targets) - len(results)} target(s) did not run.")
    if any(r.findings for r in results):
        return EXIT_FINDING
    if any(r.interrupted for r in results) or len(results) < len(targets):
        return EXIT_INTERRUPTED
    # A Core side that did not compile on its tree was left out of its pair: the pair ran without
    # it, so nothing of that tree was checked there (the table above names it).
    unbuilt = [f"{pair}'s Core {c.role.removeprefix('core-')} side ({c.error or c.why})"
               for pair, info in sorted(manifest.pairs.items()) if pair in {t.pair for t in targets}
               for c in info.core_left_out if c.kind == "build"]
    if unbuilt:
        print(f"\nequifuzz: not checked, because it could not be built: {'; '.join(unbuilt)}.")
    if any(r.problem for r in results) or unbuilt:
        return EXIT_INFRA
    return EXIT_CLEAN
