"""./equifuzz throughput"""
from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

from .. import engines
from ..building import ensure_built
from ..output import failure_of, table
from ..project import EXIT_CLEAN, EXIT_FINDING, EquifuzzError, InfraError, build_dir, run_binary, select, validate_names

NAME = "throughput"
ORDER = 110
SUMMARY = "exec/s of each target on a fixed workload (its corpora, each input N times)"
DESCRIPTION = ("Runs every seed and regression input of each target --runs times through the libFuzzer build, with no "
               "mutation, and prints exec/s: the cost per input, which two builds (before and after a change) can be "
               "compared on. --mode fuzz instead fuzzes from those inputs with a fixed seed and a campaign's flags "
               "(inputs x --runs executions), without replay's file read per execution. Measure alone on the machine.")
EXAMPLES = ["./equifuzz throughput", "./equifuzz throughput xor siphash --runs 200 --json before.json",
            "./equifuzz throughput --mode fuzz --runs 500 xor_apply"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    p.add_argument("--runs", type=int, default=20,
                   help="replay: times each input is run; fuzz: executions per seed input (default 20)")
    p.add_argument("--mode", choices=["replay", "fuzz"], default="replay",
                   help="replay the inputs (default), or fuzz from them with a fixed seed as a campaign does")
    p.add_argument("--seed", type=int, default=1, help="fuzz mode: libFuzzer's -seed (default 1)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")


def _throughput_files(t) -> list[Path]:
    files = sorted(p for d in t.seed_dirs() for p in d.rglob("*") if p.is_file())
    if not files:
        raise InfraError(f"{t.name} has no seed or regression input to measure with.")
    return files


def _replay_timed(t, files: list[Path], runs: int):
    """libFuzzer's file replay: every input `runs` times, no mutation. Returns (seconds, executions, proc)."""
    start = time.monotonic()
    proc = run_binary([t.binary, f"-runs={runs}", *files], timeout=3600)
    return time.monotonic() - start, len(files) * runs, proc


def _throughput_crashes(t) -> Path:
    """Where a failing fuzz-mode throughput run keeps its input."""
    return engines.campaign_dir(t.name, "libfuzzer", "-throughput") / "crashes"


def _fuzz_timed(t, files: list[Path], runs: int, seed: int):
    """libFuzzer fuzzing from a copy of the seed corpus, `runs` executions in all, engine seed `seed`,
    with a campaign's flags (dictionary, .options, timeout, RSS limit). Returns (seconds, executions, proc);
    the executions are libFuzzer's own count (stat::number_of_executed_units). A crash file is kept in
    build/campaigns/libfuzzer/<target>-throughput/crashes; the copied corpus is thrown away."""
    crashes = _throughput_crashes(t)
    cdir = crashes.parent
    corpus_dir = cdir / "corpus"
    shutil.rmtree(corpus_dir, ignore_errors=True)
    corpus_dir.mkdir(parents=True)
    crashes.mkdir(parents=True, exist_ok=True)
    for i, f in enumerate(files):
        shutil.copyfile(f, corpus_dir / f"{i:05d}-{f.name}")
    cmd = [t.binary, f"-runs={runs}", *engines.libfuzzer_flags(t, seed, crashes), corpus_dir]
    start = time.monotonic()
    proc = run_binary(cmd, timeout=3600)
    seconds = time.monotonic() - start
    shutil.rmtree(corpus_dir, ignore_errors=True)
    if not any(crashes.iterdir()):
        shutil.rmtree(cdir, ignore_errors=True)
    units = [int(line.split(":")[-1]) for line in proc.stderr.splitlines() if line.startswith("stat::number_of_executed_units:")]
    return seconds, (units[-1] if units else 0), proc


#: Below this, a throughput figure is mostly the host's noise (seen at --runs 50 on the fast targets).
SHORT_MEASURE_SECONDS = 1.0


def run(args) -> int:
    """Cost per input on a fixed workload, exec/s that two builds can be compared on.
    replay: every seed and regression file run --runs times through the libFuzzer build (no mutation,
    so no exploration; each run also reads its file). fuzz: libFuzzer fuzzing from those files,
    inputs x --runs executions in all with a fixed engine seed, as a campaign runs (no file read per
    execution; the mutated inputs depend on the build's coverage, so two builds run similar, not
    identical, inputs). Start-up (sanitizer and libFuzzer initialisation, reading and running the
    seeds once) is measured by a run that stops after it, and subtracted."""
    if args.runs < 2:
        raise EquifuzzError("--runs must be at least 2 (one run of each input measures the start-up).")
    validate_names(args.targets)
    bdir = build_dir("libfuzzer", args.build_dir)
    targets = select(ensure_built("libfuzzer", bdir), args.targets)
    rows, failed, results = [], False, []
    for t in targets:
        files = _throughput_files(t)
        if args.mode == "fuzz":
            timed = lambda runs: _fuzz_timed(t, files, runs, args.seed)  # noqa: E731
            total_runs = len(files) * args.runs
        else:
            timed = lambda runs: _replay_timed(t, files, runs)  # noqa: E731
            total_runs = args.runs
        once, once_execs, proc = timed(1)
        if proc.returncode == 0:
            total, execs, proc = timed(total_runs)
        ok = proc.returncode == 0
        seconds = max(total - once, 1e-6) if ok else 0.0
        execs = execs - once_execs if ok else 0
        if not ok:
            failed = True
            sys.stderr.write(proc.stderr[-4000:])
            crashes = _throughput_crashes(t)
            if args.mode == "fuzz" and crashes.is_dir() and any(crashes.iterdir()):
                sys.stderr.write(f"equifuzz: {t.name}: the failing input is kept in {engines.shown(crashes)}/\n")
        rate = round(execs / seconds) if seconds else 0
        results.append({"target": t.name, "mode": args.mode, "inputs": len(files), "runs_per_input": args.runs,
                        "startup_seconds": round(once, 3), "executions": execs, "seconds": round(seconds, 3),
                        "exec_per_sec": rate, "ok": ok})
        rows.append([t.name, len(files), f"{execs:,}", f"{once:.2f}", f"{seconds:.2f}", f"{rate:,}",
                     "ok" if ok else (failure_of(proc) or "failed")])
    if args.mode == "fuzz":
        print(f"\nequifuzz throughput --mode fuzz: libFuzzer fuzzing from each target's seed and regression inputs in "
              f"{bdir}, inputs x {args.runs} executions, -seed={args.seed}; exec/s = (executions - those of the start-up) / "
              f"(time - time of a run that stops after loading the seeds):\n")
    else:
        print(f"\nequifuzz throughput: each input of the seed and regression corpora run {args.runs} times in {bdir}; "
              f"exec/s = inputs x (runs - 1) / (time of {args.runs} runs - time of 1 run):\n")
    print(table(["target", "inputs", "executions", "start-up (s)", "measured (s)", "exec/s", "result"], rows))
    short = [f"{r['target']} ({r['seconds']:.2f} s)" for r in results if r["ok"] and r["seconds"] < SHORT_MEASURE_SECONDS]
    if short:
        print(f"\nnote: measured for less than {SHORT_MEASURE_SECONDS:g} s: {', '.join(short)}. So short a measure varies "
              f"from run to run with whatever else the host does; to compare two builds, raise --runs (e.g. --runs 500).")
    if args.json:
        Path(args.json).write_text(json.dumps({"build": str(bdir), "mode": args.mode, "runs": args.runs,
                                               "seed": args.seed, "targets": results}, indent=2) + "\n")
    return EXIT_FINDING if failed else EXIT_CLEAN
