"""equifuzz: build, fuzz, replay and check routine pairs. Every verb has --help."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import bench, core_git, corpus, engines, seeds, verify
from .project import (CONFIGS, EXIT_CLEAN, EXIT_CODES_HELP, EXIT_FINDING, EXIT_INFRA, EXIT_INTERRUPTED, EXIT_USAGE, ROOT,
                      EquifuzzError, InfraError, Target, build_dir, check_toolchain, declared_caught_by, declared_mutants,
                      declared_targets, core_opt_out_args, core_sides_rows,
                      load_manifest, record_caught_by, require_replay_build, run_binary, select, validate_names)

MISMATCH_MARK = "equifuzz-mismatch"


def table(headers: list[str], rows: list[list]) -> str:
    """A Markdown table: readable in a terminal and fit to paste into a pull request."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, cells)])


def signature_of(output: str) -> str | None:
    for line in output.splitlines():
        if line.startswith("signature: " + MISMATCH_MARK):
            return line.split(MISMATCH_MARK, 1)[1].strip()
    return None


# --- build ----------------------------------------------------------------------------------
def core_tree_args(args) -> list[str]:
    """-D options for the Core trees a command names (cmake/CoreTrees.cmake). Each role takes a
    checkout's path, git:<ref> (a branch, tag or commit of the git remote) or pr:<N>; --pr N is
    pr:N for both. Without one the pinned trees come back, so a build is always what its command
    line says."""
    pr = getattr(args, "pr", None)
    out: list[str] = []
    for role in ("original", "optimized"):
        spec = getattr(args, f"core_{role}", None)
        if pr is not None:
            if spec is not None:
                raise EquifuzzError(f"--pr names both Core trees; it cannot be used with --core-{role}.")
            spec = f"pr:{pr}"
        if spec is None:
            out.append(f"-DEQUIFUZZ_CORE_{role.upper()}_SRC=")
            continue
        if spec.startswith("pr:") and not spec[3:].isdigit():
            raise EquifuzzError(f"--core-{role} {spec}: a pull request is pr:<number>, e.g. pr:31682.")
        if spec.startswith("git:") and len(spec) == 4:
            raise EquifuzzError(f"--core-{role} git: needs a branch, tag or commit after the colon, e.g. git:master.")
        if spec.startswith(("git:", "pr:")):
            # Fetched and checked here, so that a wrong ref or commit is one sentence, not a failed
            # configure; CMake finds the tree in the cache and names it.
            try:
                remote = core_git.default_remote()
                commit, _ = core_git.parse_spec(spec, remote, role)
                core_git.materialize(remote, commit)
            except core_git.CoreGitError as e:
                raise (InfraError if e.unreachable else EquifuzzError)(f"--core-{role} {spec}: {e}")
            except OSError as e:
                raise InfraError(f"--core-{role} {spec}: the tree cache {core_git.cache_root()} cannot be used "
                                 f"({e.strerror or e}).")
        else:
            path = Path(spec).resolve()
            if not (path / "src" / "streams.h").is_file() and not (path / "streams.h").is_file():
                raise EquifuzzError(f"--core-{role} {path} is not a Bitcoin Core checkout (no src/streams.h there), "
                                    "nor git:<ref> or pr:<N>.")
            spec = str(path)
        out.append(f"-DEQUIFUZZ_CORE_{role.upper()}_SRC={spec}")
    off = core_opt_out_args()
    if off and any(not o.endswith("_SRC=") for o in out):
        raise EquifuzzError("EQUIFUZZ_CORE=off leaves Bitcoin Core's code out, so no Core tree can be named with it.")
    return out + off


def add_core_tree_args(s) -> None:
    s.add_argument("--core-original", metavar="TREE",
                   help="every pair's Core original side instead of its pinned commit: a checkout's path, git:<ref> "
                        "of the git remote ($EQUIFUZZ_CORE_GIT_REMOTE, default github.com/bitcoin/bitcoin), or pr:<N> "
                        "(the commit the pull request starts from)")
    s.add_argument("--core-optimized", metavar="TREE", help="every pair's Core optimized side: a path, git:<ref> or "
                                                              "pr:<N> (the pull request's head)")
    s.add_argument("--pr", type=int, metavar="N",
                   help="a pull request's trees as the Core sides: a seed PR's pinned commits, any other PR's "
                        "refs/pull/N/head against its merge-base with master")


def cmd_build(args) -> int:
    for config in args.configs or ["replay"]:
        if config not in CONFIGS:
            raise EquifuzzError(f"unknown configuration '{config}': choose from {', '.join(CONFIGS)}.")
    core = core_tree_args(args)
    for config in args.configs or ["replay"]:
        check_toolchain(config)
        print(f"equifuzz: building {config} in build/{config}", file=sys.stderr)
        for step in (["cmake", "--preset", config, *core, *args.cmake_args], ["cmake", "--build", "--preset", config]):
            proc = subprocess.run(step, cwd=ROOT)
            if proc.returncode != 0:
                hint = ("; to build without Bitcoin Core's code on purpose, set EQUIFUZZ_CORE=off"
                        if step[1] == "--preset" and not core_opt_out_args() else "")
                raise InfraError(f"'{' '.join(step)}' failed (exit {proc.returncode}); its output is above{hint}.")
    return 0


def ensure_built(config: str, bdir: Path) -> list[Target]:
    if not (bdir / "equifuzz-targets.json").is_file():
        check_toolchain(config)
        cmd_build(argparse.Namespace(configs=[config], cmake_args=[]))
    return load_manifest(bdir)


# --- list -----------------------------------------------------------------------------------
def cmd_list(args) -> int:
    targets = declared_targets()
    rows = []
    for name, pair in sorted(targets.items(), key=lambda kv: (kv[1], kv[0])):
        corpus = ROOT / "corpora" / name
        regressions = ROOT / "corpora" / "regressions" / name
        count = lambda d: sum(1 for p in d.rglob("*") if p.is_file()) if d.is_dir() else 0
        rows.append([name, pair, count(corpus), count(regressions), len(declared_mutants(pair))])
    print(table(["target", "pair", "seeds", "regressions", "mutants of pair"], rows))
    if args.mutants:
        for pair in sorted(set(targets.values())):
            print(f"\nmutants of {pair}:")
            for m, desc in declared_mutants(pair).items():
                print(f"  {m:28} {desc}")
    return 0


# --- fuzz -----------------------------------------------------------------------------------
def jobs_arg(jobs: int | None) -> int:
    """-j: how many campaigns run at once (default: every core)."""
    if jobs is None:
        return os.cpu_count() or 1
    if jobs < 1:
        raise EquifuzzError("-j must be at least 1.")
    return jobs


def finished(result, quiet: bool):
    """Says that one campaign ended (when several run at once, instead of a live line)."""
    if result is not None and not quiet:
        verdict = "FINDING" if result.findings else ("interrupted" if result.interrupted else "ok")
        print(f"equifuzz: {result.target}: {result.runs:,} runs, {result.exec_per_sec:,} exec/s, "
              f"cov {result.cov_end}, {verdict}", file=sys.stderr, flush=True)
    return result


def cmd_fuzz(args) -> int:
    config = "afl" if args.engine == "afl" else "libfuzzer"
    if args.seconds < 1:
        raise EquifuzzError("--seconds must be at least 1.")
    validate_names(args.targets)
    bdir = build_dir(config, args.build_dir)
    targets = select(ensure_built(config, bdir), args.targets)
    run = engines.run_afl if args.engine == "afl" else engines.run_libfuzzer
    jobs = jobs_arg(args.jobs)
    # With several jobs the live line would interleave: each campaign says when it ends instead.
    live = not args.quiet and jobs == 1
    if len(targets) == 1 and jobs > 1:
        # One target on every core: libFuzzer's -fork=JOBS, or an AFL++ main and JOBS-1 secondaries.
        wide = {"jobs": jobs} if args.engine == "afl" else {"fork": jobs}
        results = engines.run_many(1, targets, lambda t: run(t, t.binary, args.seconds, live=not args.quiet,
                                                             seed=args.seed, **wide))
    else:
        results = engines.run_many(jobs, targets, lambda t: finished(run(t, t.binary, args.seconds, live=live, seed=args.seed),
                                                                     quiet=args.quiet or jobs == 1))
    rows = [[r.target, f"{r.runs:,}", f"{r.exec_per_sec:,}", r.corpus_size, r.new_files,
             (f"{r.cov_end / 100:.2f} %" if args.engine == "afl" else f"{r.cov_start} → {r.cov_end} (+{r.new_coverage})"),
             len(r.mismatches) + r.lost_findings, len(r.other_crashes), f"{r.seconds:.0f}",
             "interrupted" if r.interrupted else ("FAILED TO RUN" if r.problem else ("FINDING" if r.findings else "ok"))]
            for r in results]
    cov = "bitmap coverage" if args.engine == "afl" else "coverage (edges)"
    print(f"\nequifuzz fuzz, engine {args.engine} with ASan+UBSan, {args.seconds} s per target:\n")
    print(table(["target", "runs", "exec/s", "corpus", "new files", cov, "mismatches", "other crashes", "seconds", "result"], rows))
    core_rows, core_notes = core_sides_rows(json.loads((bdir / "equifuzz-targets.json").read_text()))
    print("\nBitcoin Core's code in this build:\n")
    if core_rows:
        print(table(["pair", "Core original", "Core optimized"], core_rows))
    for note in core_notes:
        print(note)
    bdir_arg = f"--build-dir {args.build_dir} " if args.build_dir else ""
    for r in results:
        # One line per distinct signature (AFL++ keeps every crashing input; many share one bug).
        for sig, crash, count in engines.by_signature(r.mismatches, r.signatures):
            rel = engines.shown(crash)
            more = f" ({count - 1} more input(s) with this signature in {engines.shown(crash.parent)})" if count > 1 else ""
            print(f"\n{r.target}: mismatch {sig}: input kept at {rel}{more}; reproduce with: "
                  f"./equifuzz {bdir_arg}reproduce {r.target} {rel}")
        for crash in r.other_crashes:
            rel = engines.shown(crash)
            print(f"\n{r.target}: crash input kept at {rel}; reproduce with: ./equifuzz {bdir_arg}reproduce {r.target} {rel}")
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
    if any(r.problem for r in results):
        return EXIT_INFRA
    return EXIT_CLEAN


# --- replay and reproduce -------------------------------------------------------------------
def cmd_replay(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("replay", args.build_dir)
    require_replay_build(bdir, "replay")
    targets = select(ensure_built("replay", bdir), args.targets)
    rows, failed, empty = [], False, []
    for t in targets:
        dirs = t.seed_dirs()
        files = sum(1 for d in dirs for p in d.rglob("*") if p.is_file())
        if files == 0:
            empty.append(t)
            rows.append([t.name, 0, "0.0", "NOTHING TO REPLAY"])
            continue
        start = time.monotonic()
        proc = run_binary([t.binary, "-q", *dirs])
        ok = proc.returncode == 0
        failed |= not ok
        status = "ok" if ok else ("MISMATCH " + (signature_of(proc.stderr) or f"exit {proc.returncode}"))
        rows.append([t.name, files, f"{time.monotonic() - start:.1f}", status])
        if not ok:
            sys.stderr.write(proc.stderr)
    print(table(["target", "inputs", "seconds", "result"], rows))
    for t in empty:
        print(f"equifuzz: {t.name} has no input to replay: {engines.shown(t.corpus)} "
              "and its regressions directory are missing or empty.", file=sys.stderr)
    if failed:
        return EXIT_FINDING
    return EXIT_INFRA if empty else EXIT_CLEAN


def cmd_reproduce(args) -> int:
    validate_names([args.target])
    if args.target not in declared_targets():
        raise EquifuzzError(f"'{args.target}' is a pair; name one of its targets.")
    path = Path(args.input)
    try:
        with open(path, "rb"):
            pass
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise EquifuzzError(f"{args.input} is not a file.")
    except OSError as e:
        raise EquifuzzError(f"{args.input} cannot be read ({e.strerror}).")
    bdir = build_dir("replay", args.build_dir)
    (target,) = select(ensure_built("replay", bdir), [args.target])
    binary = target.binary
    if args.mutant:
        found = [v for v in target.variants if v.name == args.mutant]
        if not found:
            names = ", ".join(v.name for v in target.variants) or "none"
            raise EquifuzzError(f"target {target.name} has no variant '{args.mutant}' (it has: {names}).")
        binary = found[0].binary
    proc = run_binary([binary, str(path)], timeout=300)
    if proc.returncode != 0 and "equifuzz: no such file" in proc.stderr:
        raise InfraError(f"{target.name} could not read {args.input}.")
    report = [l for l in proc.stderr.splitlines() if not l.startswith("equifuzz: ") or "no such" in l]
    sig = signature_of(proc.stderr)
    if sig:
        # The report is everything up to the sanitizer's abort banner.
        end = next((i for i, l in enumerate(report) if l.startswith("reproduce:")), len(report) - 1)
        print("\n".join(report[:end + 1]))
        print(f"\nequifuzz: {path} reproduces a mismatch in {target.name}" + (f" (variant {args.mutant})" if args.mutant else "") + ".")
        return EXIT_FINDING
    if proc.returncode != 0:
        print(proc.stderr)
        print(f"equifuzz: {path} crashes {target.name} (exit {proc.returncode}) without a mismatch report: "
              "a sanitizer finding, see above.")
        return EXIT_FINDING
    print(f"equifuzz: {path} does not reproduce a mismatch in {target.name}: both sides agree on it.")
    return 0


# --- throughput -----------------------------------------------------------------------------
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


def cmd_throughput(args) -> int:
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


# --- mutants --------------------------------------------------------------------------------
def failure_of(proc) -> str | None:
    """What a failed run reported: its mismatch signature, a sanitizer's summary, or its exit code."""
    if proc.returncode == 0:
        return None
    if sig := signature_of(proc.stderr):
        return f"mismatch {sig}"
    summary = next((l for l in proc.stderr.splitlines() if l.startswith("SUMMARY: ")), None)
    return f"sanitizer: {summary[9:]}" if summary else f"exit {proc.returncode}"


def caught_by_input(clean: Path, mutant: Path, path: Path) -> str | None:
    """The mutant is caught by `path` when it fails on it and the clean build does not."""
    failure = failure_of(run_binary([mutant, str(path)], timeout=120))
    if failure and failure_of(run_binary([clean, str(path)], timeout=120)) is None:
        return failure
    return None


def cmd_mutants(args) -> int:
    if args.from_empty:
        args.engine = "libfuzzer"
        if args.trials < 1:
            raise EquifuzzError("--trials must be at least 1.")
    config = "libfuzzer" if args.engine == "libfuzzer" else "replay"
    pairs = sorted(set(declared_targets().values()))
    if args.pair and args.pair not in pairs:
        raise EquifuzzError(f"unknown pair '{args.pair}': the pairs are {', '.join(pairs)}.")
    if args.mutant:
        known = {m for p in ([args.pair] if args.pair else pairs) for m in declared_mutants(p)}
        if args.mutant not in known:
            raise EquifuzzError(f"unknown mutant '{args.mutant}'" + (f" of pair {args.pair}" if args.pair else "") +
                                ": './equifuzz list --mutants' lists them.")
    bdir = build_dir(config, args.build_dir)
    targets = ensure_built(config, bdir)
    if not any(t.mutants() for t in targets):
        raise InfraError(f"the {config} build in {bdir} has no mutant variants (it was configured with EQUIFUZZ_MUTANTS=OFF): "
                         f"run './equifuzz build {config} --cmake-arg=-DEQUIFUZZ_MUTANTS=ON' first.")
    if args.pair:
        targets = [t for t in targets if t.pair == args.pair]
    mutants: dict[tuple[str, str], list[tuple[Target, object]]] = {}
    for t in targets:
        for v in t.mutants():
            if args.mutant in (None, v.name):
                mutants.setdefault((t.pair, v.name), []).append((t, v))
    if not mutants:
        manifest = json.loads((bdir / "equifuzz-targets.json").read_text())
        not_applicable = [m for p, info in (manifest.get("pairs") or {}).items() if args.pair in (None, p)
                          for m in info.get("mutants_not_applicable", []) if m["name"] == args.mutant]
        if not_applicable:
            raise InfraError(f"mutant '{args.mutant}' is not applicable to this build's Core trees "
                             f"({not_applicable[0]['why']}): it was not built, so it was not checked.")
        raise InfraError("the build has no variant of the mutant named: rebuild it.")
    if args.from_empty:
        return hunt_from_empty(mutants, args)
    rows, missed = [], []
    for (pair, name), runs in sorted(mutants.items()):
        caught_by, how = None, ""
        for t, v in runs:
            if args.engine == "libfuzzer":
                r = engines.run_libfuzzer(t, v.binary, args.seconds, live=not args.quiet, seed=args.seed, tag=f"__{name}")
                for crash in r.mismatches + r.other_crashes:
                    if failure := caught_by_input(t.binary, v.binary, crash):
                        caught_by, how = t.name, f"libFuzzer in {r.seconds:.0f} s ({failure})"
                        if args.save:
                            t.regressions.mkdir(parents=True, exist_ok=True)
                            dest = t.regressions / f"mutant-{name}-{crash.name}"
                            shutil.copy(crash, dest)
                            record_caught_by(pair, name, t.name)
                            how += f", saved {dest.relative_to(ROOT)} (Caught-by: {t.name})"
                        break
                    how = f"{t.name} crashed on an input the clean build also fails: not counted ({crash})"
                if caught_by:
                    break
            else:
                files = sorted(p for p in t.regressions.rglob("*") if p.is_file()) if t.regressions.is_dir() else []
                for path in files:
                    if failure := caught_by_input(t.binary, v.binary, path):
                        caught_by, how = t.name, f"{path.name}: {failure}"
                        break
                if caught_by:
                    break
        desc = runs[0][1].description
        rows.append([pair, name, caught_by or "NOT CAUGHT", how, desc])
        if not caught_by:
            missed.append(name)
    print(table(["pair", "mutant", "caught by", "how", "injected bug"], rows))
    if missed:
        print(f"\nequifuzz: {len(missed)} mutant(s) not caught: {', '.join(missed)}.")
        return EXIT_FINDING
    return EXIT_CLEAN


def median(values: list[float]) -> float:
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def hunt_from_empty(mutants: dict, args) -> int:
    """FuzzBench-style: each mutant hunted by libFuzzer from an empty corpus in K trials (seeds
    S..S+K-1), each censored at the budget; the time to catch is the trial's time to its first crash
    that the clean build does not share. Reported as caught k/K, median (censored trials count as
    the budget) and range."""
    jobs = jobs_arg(args.jobs)
    work = []
    for (pair, name), runs in sorted(mutants.items()):
        wanted = declared_caught_by(pair, name)
        t, v = next(((t, v) for t, v in runs if t.name == wanted), runs[0])
        work += [(pair, name, t, v, args.seed + k) for k in range(args.trials)]

    def trial(item):
        pair, name, t, v, seed = item
        r = engines.run_libfuzzer(t, v.binary, args.seconds, live=False, seed=seed, tag=f"__{name}__empty{seed}",
                                  from_empty=True)
        if r is None:
            return None
        r.trial = {"pair": pair, "mutant": name, "target": t.name, "seed": seed, "caught": False,
                   "seconds": float(args.seconds), "false_alarm": ""}
        for crash in r.mismatches + r.other_crashes:
            if failure := caught_by_input(t.binary, v.binary, crash):
                r.trial.update(caught=True, seconds=round(r.seconds, 2), failure=failure)
                break
            r.trial["false_alarm"] = str(crash)  # the clean build fails it too: a harness bug, not a catch
        if not args.quiet:
            got = f"caught in {r.trial['seconds']:.1f} s" if r.trial["caught"] else f"not caught in {args.seconds} s"
            print(f"equifuzz: {pair}/{name} (seed {seed}): {got}", file=sys.stderr, flush=True)
        return r

    results = engines.run_many(jobs, work, trial)
    trials = [r.trial for r in results]
    rows, missed, report = [], [], []
    for (pair, name) in sorted(mutants):
        mine = [x for x in trials if x["pair"] == pair and x["mutant"] == name]
        if not mine:
            continue
        caught = [x for x in mine if x["caught"]]
        times = [x["seconds"] for x in mine]
        med = median(times)
        shown_median = f"{med:.1f}" if sum(x["caught"] for x in mine) * 2 > len(mine) else f">{args.seconds}"
        rows.append([pair, name, mine[0]["target"], f"{len(caught)}/{len(mine)}", shown_median,
                     f"{min(times):.1f}–{max(times):.1f}" + (" (censored)" if len(caught) < len(mine) else "")])
        report.append({"pair": pair, "mutant": name, "target": mine[0]["target"], "caught": len(caught),
                       "trials": len(mine), "median_seconds": med, "min_seconds": min(times), "max_seconds": max(times),
                       "censored_at": args.seconds, "runs": mine})
        if not caught:
            missed.append(name)
    print(f"\nequifuzz mutants --from-empty: libFuzzer from an empty corpus, {args.trials} trial(s) each "
          f"(seeds {args.seed}..{args.seed + args.trials - 1}), budget {args.seconds} s per trial:\n")
    print(table(["pair", "mutant", "target", "caught", "median s", "range s"], rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"budget_seconds": args.seconds, "trials": args.trials, "seed": args.seed,
                                               "mutants": report}, indent=2) + "\n")
    if len(results) < len(work):
        print("equifuzz: interrupted; the table holds the trials that ran.")
        return EXIT_INTERRUPTED
    if missed:
        print(f"\nequifuzz: {len(missed)} mutant(s) not caught from an empty corpus in any trial: {', '.join(missed)}.")
        return EXIT_FINDING
    return EXIT_CLEAN


# --- corpus care ----------------------------------------------------------------------------
def cmd_merge(args) -> int:
    validate_names(args.targets)
    bdir = build_dir("libfuzzer", args.build_dir)
    targets = select(ensure_built("libfuzzer", bdir), args.targets)
    if args.source and len(targets) != 1:
        raise EquifuzzError("--from names one campaign corpus: name one target with it.")
    rows = []
    for t in targets:
        source = Path(args.source) if args.source else engines.campaign_dir(t.name, "libfuzzer") / "corpus"
        if not args.source and not source.is_dir():
            rows.append([t.name, 0, 0, "-", "no campaign corpus (fuzz it first)"])
            continue
        r = corpus.merge(t, source)
        rows.append([t.name, r["candidates"], r["added"], "-" if r["new_edges"] is None else r["new_edges"],
                     f"corpora/{t.name}/merged-*" if r["added"] else "nothing new"])
    print(table(["target", "campaign inputs", "added to corpora", "new edges", "where"], rows))
    return EXIT_CLEAN


def cmd_minimize(args) -> int:
    validate_names([args.target])
    bdir = build_dir("libfuzzer", args.build_dir)
    (t,) = select(ensure_built("libfuzzer", bdir), [args.target])
    binary = t.binary
    if args.mutant:
        found = [v for v in t.variants if v.name == args.mutant]
        if not found:
            raise EquifuzzError(f"target {t.name} has no variant '{args.mutant}' in {bdir}.")
        binary = found[0].binary
    r = corpus.minimize(t, Path(args.input), args.seconds, binary)
    if r["minimized"]:
        print(f"equifuzz: {r['input']} ({r['size']} bytes) minimized to {r['minimized']} ({r['minimized_size']} bytes), "
              f"same signature {r['signature']}.")
    else:
        print(f"equifuzz: {r['input']} ({r['size']} bytes) kept as it is: {r['note']}.")
    return EXIT_CLEAN


def cmd_keep(args) -> int:
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


# --- seeds ----------------------------------------------------------------------------------
def cmd_seeds(args) -> int:
    targets = declared_targets()
    names = args.targets or sorted(targets)
    for n in names:
        if n not in targets:
            raise EquifuzzError(f"unknown target '{n}': the targets are {', '.join(sorted(targets))}.")
    for n in dict.fromkeys(names):
        count = seeds.write(n, ROOT / "corpora" / n)
        print(f"equifuzz: corpora/{n}: {count} seed inputs")
    return 0


# --- coverage -------------------------------------------------------------------------------
def cmd_coverage(args) -> int:
    """Line, branch and function coverage of every side, pair by pair (tools/equifuzz/coverage.py)."""
    from . import coverage
    validate_names(args.targets)
    bdir = build_dir("coverage", args.build_dir)
    require_replay_build(bdir, "coverage")
    targets = select(ensure_built("coverage", bdir), args.targets)
    manifest = json.loads((bdir / "equifuzz-targets.json").read_text())
    profdir = bdir / "profiles"
    shutil.rmtree(profdir, ignore_errors=True)
    profdir.mkdir()
    pct = lambda s: f"{s['covered']}/{s['count']} ({s['percent']} %)" if s["count"] else "-"
    result = {}
    for pair in dict.fromkeys(t.pair for t in targets):
        mine = [t for t in targets if t.pair == pair]
        sides = coverage.pair_coverage(pair, mine, (manifest.get("pairs") or {}).get(pair, {}), profdir)
        result[pair] = {"targets": [t.name for t in mine], "sides": sides}
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
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="equifuzz", description=__doc__, epilog=EXIT_CODES_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", help="use this configured build tree instead of build/<config> (it must exist)")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB")

    def verb(name: str, summary: str, what: str, examples: list[str]):
        epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples) + "\n\n" + EXIT_CODES_HELP
        return sub.add_parser(name, help=summary, description=what, epilog=epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    s = verb("list", "list targets, their corpora and mutants",
             "Lists every fuzz target with its pair, its seed and regression input counts and its pair's mutants.",
             ["./equifuzz list", "./equifuzz list --mutants"])
    s.add_argument("--mutants", action="store_true", help="also list every mutant with the bug it injects")
    s.set_defaults(func=cmd_list)

    s = verb("build", "configure and build one or more configurations (default: replay)",
             "Configures and builds the named CMake presets into build/<config>. Each pair's Core sides are the "
             "commits before and after its change (differential/core/commits.json, from the git remote; the registry "
             "trees when it cannot be reached) unless --pr or --core-original/--core-optimized name other trees.",
             ["./equifuzz build", "./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF",
              "./equifuzz build libfuzzer --core-original ~/bitcoin --core-optimized ~/bitcoin-pr"])
    s.add_argument("configs", nargs="*", metavar="CONFIG", help=f"any of {', '.join(CONFIGS)}")
    s.add_argument("--cmake-arg", dest="cmake_args", action="append", default=[], help="extra -D option for cmake")
    add_core_tree_args(s)
    s.set_defaults(func=cmd_build)

    s = verb("fuzz", "fuzz targets (default: all) for a time budget each, then print a summary table",
             "Runs each named target (a pair name stands for its targets; each runs once) under libFuzzer or AFL++ "
             "with ASan+UBSan for --seconds, from its seeds and regressions, keeping the campaign's corpus and crash "
             "files in build/campaigns/<engine>/<target>. The verdict counts what ran: a run that executed nothing, "
             "could not write its corpus or crash files, or exited without a report is a failure (exit 3).",
             ["./equifuzz fuzz xor_apply --seconds 60", "./equifuzz fuzz siphash --seconds 30 --quiet",
              "./equifuzz fuzz --engine afl script_spend --seconds 120"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.add_argument("--all", action="store_true", help="every target (the default when none is named)")
    s.add_argument("--seconds", type=int, default=30, help="time budget per target (default 30)")
    s.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer", help="fuzzing engine (default libfuzzer)")
    s.add_argument("--seed", type=int, default=1, help="engine seed, for repeatable runs (default 1)")
    s.add_argument("-j", "--jobs", type=int, default=None,
                   help="campaigns run at once, one target each (default: every core; -j1 shows a live progress line); "
                        "a single target gets all JOBS: libFuzzer -fork=JOBS, or AFL++ -M main plus JOBS-1 -S secondaries")
    s.add_argument("--quiet", action="store_true", help="no live progress line")
    s.set_defaults(func=cmd_fuzz)

    s = verb("replay", "replay seed and regression corpora through the replay build",
             "Runs every input of corpora/<target>/ and corpora/regressions/<target>/ once through the replay build "
             "(ASan+UBSan, no fuzzing engine). A target with no input to replay is a failure (exit 3).",
             ["./equifuzz replay", "./equifuzz replay serialize"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.set_defaults(func=cmd_replay)

    s = verb("reproduce", "run one input through a target and print its mismatch report",
             "Runs one input file through a target (or a mutant's variant of it) and prints the mismatch report, "
             "or says that the sides agree. The 'reproduce:' line of every report is such a command.",
             ["./equifuzz reproduce xor_apply build/campaigns/libfuzzer/xor_apply/crashes/crash-0123",
              "./equifuzz reproduce xor_apply corpora/regressions/xor_apply/mutant-tail_skipped-crash-0a1b --mutant tail_skipped"])
    s.add_argument("target", help="a target name")
    s.add_argument("input", help="the crash or corpus file")
    s.add_argument("--mutant", help="run the target built against this mutant (or adapter) instead")
    s.set_defaults(func=cmd_reproduce)

    s = verb("mutants", "show that every mutant is caught, by regression inputs or by libFuzzer",
             "For each injected-bug variant (mutant): by default replays the committed regression inputs through it and "
             "the clean build; with --libfuzzer, lets libFuzzer hunt it from the seeds. A mutant counts as caught only "
             "by an input the clean build passes. Any mutant not caught is a finding (exit 1).",
             ["./equifuzz mutants", "./equifuzz mutants --pair xor",
              "./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=ON && ./equifuzz mutants --libfuzzer --seconds 60 --save",
              "./equifuzz mutants --from-empty --trials 5 --seconds 30 --json from-empty.json"])
    s.add_argument("--pair", help="only this pair's mutants")
    s.add_argument("--mutant", help="only this mutant")
    mode = s.add_mutually_exclusive_group()
    mode.add_argument("--check-regressions", dest="engine", action="store_const", const="regressions",
                      help="replay committed regression inputs through each mutant (default)")
    mode.add_argument("--libfuzzer", dest="engine", action="store_const", const="libfuzzer",
                      help="let libFuzzer hunt each mutant from the seed corpus")
    s.add_argument("--seconds", type=int, default=60, help="libFuzzer budget per mutant and target (default 60)")
    s.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1)")
    mode.add_argument("--from-empty", action="store_true",
                      help="let libFuzzer hunt each mutant from an EMPTY corpus, --trials times (FuzzBench-style figures)")
    s.add_argument("--trials", type=int, default=5, help="with --from-empty: trials per mutant, seeds --seed.. (default 5)")
    s.add_argument("-j", "--jobs", type=int, default=None, help="with --from-empty: trials at once (default: every core)")
    s.add_argument("--json", metavar="FILE", help="with --from-empty: also write every trial as JSON")
    s.add_argument("--save", action="store_true", help="with --libfuzzer: keep each finding under corpora/regressions/")
    s.add_argument("--quiet", action="store_true", help="no live progress line")
    s.set_defaults(func=cmd_mutants, engine="regressions")

    s = verb("merge", "add what a campaign found to corpora/<target>/, minimized for coverage",
             "Minimizes each target's campaign corpus (build/campaigns/libfuzzer/<target>/corpus, or --from) with "
             "libFuzzer's -set_cover_merge=1 against the committed seeds and regressions, and adds the inputs that "
             "cover more to corpora/<target>/ as merged-<sha1> (the generator's seeds stay as generated).",
             ["./equifuzz merge", "./equifuzz merge xor_apply --from build/verify/20261124-030000/campaigns/libfuzzer/xor_apply/corpus"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.add_argument("--from", dest="source", metavar="DIR", help="the corpus to merge (one target only)")
    s.set_defaults(func=cmd_merge)

    s = verb("minimize", "shrink one crash input, keeping its mismatch signature",
             "Runs libFuzzer's -minimize_crash=1 on a crash input for --seconds and keeps the result (<input>.min) "
             "only when it gives the same mismatch signature.",
             ["./equifuzz minimize xor_apply build/campaigns/libfuzzer/xor_apply/crashes/crash-0123 --seconds 30"])
    s.add_argument("target", help="a target name")
    s.add_argument("input", help="the crash input")
    s.add_argument("--seconds", type=int, default=30, help="minimization budget (default 30)")
    s.add_argument("--mutant", help="minimize against this mutant's variant (in a build with mutants)")
    s.set_defaults(func=cmd_minimize)

    s = verb("keep", "copy a finding's input into corpora/regressions/<target>/ with a one-line description",
             "Copies the input to corpora/regressions/<target>/finding-<what>-<hash> and adds its description to "
             "corpora/regressions/README.md; replay and ctest run it from then on.",
             ["./equifuzz keep script_eval crash-0123 --why \"OP_IF on an empty stack: Core says INVALID_STACK_OPERATION\""])
    s.add_argument("target", help="a target name")
    s.add_argument("input", help="the input file")
    s.add_argument("--why", required=True, help="one line: what the input exposed")
    s.set_defaults(func=cmd_keep)

    s = verb("seeds", "regenerate the seed corpora with the deterministic generator",
             "Rewrites corpora/<target>/ from the real Bitcoin data in ../shared/data and the generator's fixed choices.",
             ["./equifuzz seeds", "./equifuzz seeds xor_apply xor_key"])
    s.add_argument("targets", nargs="*", help="target names (default: every target)")
    s.set_defaults(func=cmd_seeds)

    s = verb("throughput", "exec/s of each target on a fixed workload (its corpora, each input N times)",
             "Runs every seed and regression input of each target --runs times through the libFuzzer build, with no "
             "mutation, and prints exec/s: the cost per input, which two builds (before and after a change) can be "
             "compared on. --mode fuzz instead fuzzes from those inputs with a fixed seed and a campaign's flags "
             "(inputs x --runs executions), without replay's file read per execution. Measure alone on the machine.",
             ["./equifuzz throughput", "./equifuzz throughput xor siphash --runs 200 --json before.json",
              "./equifuzz throughput --mode fuzz --runs 500 xor_apply"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.add_argument("--runs", type=int, default=20,
                   help="replay: times each input is run; fuzz: executions per seed input (default 20)")
    s.add_argument("--mode", choices=["replay", "fuzz"], default="replay",
                   help="replay the inputs (default), or fuzz from them with a fixed seed as a campaign does")
    s.add_argument("--seed", type=int, default=1, help="fuzz mode: libFuzzer's -seed (default 1)")
    s.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    s.set_defaults(func=cmd_throughput)

    s = verb("coverage", "replay corpora in the coverage build and print llvm-cov's report",
             "Replays every corpus input through the coverage build (clang source-based coverage), pair by pair, and "
             "prints line, branch and function coverage of each side: our original and optimized models and each "
             "Core side (the files of its tree); then every function of our models that no target reaches.",
             ["./equifuzz coverage", "./equifuzz coverage script"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.add_argument("--json", metavar="FILE", help="also write every side's figures and unreached functions as JSON")
    s.set_defaults(func=cmd_coverage)

    s = verb("verify", "the reviewer's certificate: replay, fuzz, mutants, and a report to paste into a PR",
             "Builds the libFuzzer build (with each mutant in the target that catches it), replays every seed and "
             "regression input, fuzzes every named target from its seeds (JOBS at a time, sharing the --minutes "
             "budget), checks that every mutant is caught, measures line and branch coverage of every side (the coverage "
             "build, replaying every seed, regression and campaign input), and writes report.md, report.json, coverage.png and "
             "mutants.png into the report directory (default build/verify/<time>). A mismatch, a sanitizer report "
             "or a missed mutant is a finding (exit 1); the report then lists its reproducer first.",
             ["./equifuzz verify --minutes 1", "./equifuzz verify xor siphash --minutes 10 -j 2 --out /tmp/report",
              "./equifuzz verify xor --core-optimized ~/bitcoin-pr --minutes 5",
              "EQUIFUZZ_CORE_GIT_REMOTE=~/bitcoin ./equifuzz verify tx_check --pr 31682"])
    s.add_argument("targets", nargs="*", help="target or pair names (default: every target)")
    s.add_argument("--minutes", type=float, default=10, help="wall-clock fuzzing budget, shared by the targets (default 10)")
    s.add_argument("-j", "--jobs", type=int, default=None, help="campaigns at once (default: every core)")
    s.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1): same seed and budget, same verdict")
    s.add_argument("--out", metavar="DIR", help="report directory (default build/verify/<time>)")
    add_core_tree_args(s)
    s.add_argument("--no-coverage", action="store_true",
                   help="leave out the coverage of every side (it needs the coverage build, build/verify-coverage)")
    s.add_argument("--no-keep", action="store_true",
                   help="do not copy findings into corpora/regressions/ (by default each new signature's input is kept)")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=verify.cmd_verify)

    s = verb("bench", "is the optimized side faster? every pair's benchmark, every side (Core's too), one table",
             "Runs the bench programs of the bench build (-O2 with assertions, no sanitizers; built first when missing) "
             "with Google Benchmark: every case of each named pair (default: all) on every side, the same input for each, "
             "--repetitions times in random order; then, with valgrind installed, once more under callgrind to count "
             "instructions. Prints one Markdown table (time per item of each side, the optimized side's speedup over the "
             "original with its spread, ours and Core's) and writes bench.md, bench.json and bench.png into --out "
             "(default build/bench-results/<time>). Measure alone on the machine.",
             ["./equifuzz bench", "./equifuzz bench serialize tx_check --repetitions 10",
              "./equifuzz bench xor --no-instructions --out /tmp/xor-bench"])
    s.add_argument("pairs", nargs="*", metavar="PAIR", help="pairs to measure (default: every pair with a bench program)")
    s.add_argument("--repetitions", type=int, default=5, help="repetitions of every case (default 5; spreads need 5 or more)")
    s.add_argument("--min-time", type=float, default=0.05, help="seconds each repetition runs at least (default 0.05)")
    s.add_argument("--no-instructions", dest="instructions", action="store_false",
                   help="leave out the callgrind instruction counts")
    s.add_argument("--out", metavar="DIR", help="where bench.md, bench.json and bench.png go (default build/bench-results/<time>)")
    s.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=bench.cmd_bench)

    args = p.parse_args(argv)
    try:
        return args.func(args)
    except InfraError as e:
        print(f"equifuzz: {e}", file=sys.stderr)
        return EXIT_INFRA
    except EquifuzzError as e:
        print(f"equifuzz: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("equifuzz: interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except subprocess.CalledProcessError as e:
        print(f"equifuzz: '{' '.join(map(str, e.cmd))}' failed with exit {e.returncode}.", file=sys.stderr)
        return EXIT_INFRA
    except OSError as e:
        where = f": {e.filename}" if e.filename else " (a file this run was writing or reading)"
        print(f"equifuzz: {e.strerror or e}{where}.", file=sys.stderr)
        return EXIT_INFRA
    except Exception as e:  # noqa: BLE001 - one sentence, not a traceback; EQUIFUZZ_DEBUG shows it
        if os.environ.get("EQUIFUZZ_DEBUG"):
            raise
        print(f"equifuzz: internal error: {type(e).__name__}: {e} (set EQUIFUZZ_DEBUG=1 for the traceback).", file=sys.stderr)
        return EXIT_INFRA
