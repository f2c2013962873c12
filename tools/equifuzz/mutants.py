"""Mutants: whether an injected bug is caught, and how fast from an empty corpus.

A mutant is caught by an input only when its build fails on it (a mismatch or a sanitizer
report) and the clean build passes it: otherwise the harness or the clean code has a finding of
its own, and the mutant is undecided."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from . import engines
from .building import jobs_arg
from .findings import counted_signatures
from .manifest import read as read_manifest
from .output import failure_of, table
from .project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INTERRUPTED, EquifuzzError, InfraError, Target, declared_caught_by,
                      declared_mutants, declared_targets, run_binary)


#: Seconds one input may run in a mutant check before it counts as a hang (a mutant that makes the
#: main thread wait for a worker that never comes): a hang is a failure, caught like a crash.
PER_INPUT_TIMEOUT = 60


def _signatures(proc) -> set[str]:
    """The signatures of the counted kinds among a run's finding lines (every finding of the input)."""
    return set(counted_signatures(proc.stderr))


def verdict_on(clean: Path, mutant: Path, path: Path, clean_failure: dict | None = None,
               env: dict | None = None) -> tuple[str | None, str | None]:
    """(the mutant's failure on `path`, the clean build's failure on it); the clean build runs only
    when the mutant fails, its verdict cached per input in `clean_failure` when given. `env`: for
    both runs (EQUIFUZZ_ALLOW, say). When the clean build fails the input too (a finding present
    in its Core trees), the mutant is still caught by a finding the clean build does not show."""
    run = run_binary([mutant, str(path)], timeout=PER_INPUT_TIMEOUT, env_extra=env)
    failure = failure_of(run)
    if not failure:
        return None, None
    cache = {} if clean_failure is None else clean_failure
    if path not in cache:
        clean_run = run_binary([clean, str(path)], timeout=PER_INPUT_TIMEOUT, env_extra=env)
        cache[path] = (failure_of(clean_run), _signatures(clean_run))
    clean_fails, clean_signatures = cache[path]
    new = sorted(_signatures(run) - clean_signatures)
    if clean_fails and new:
        return f"mismatch {new[0]} (beside the clean build's own findings on this input)", None
    return failure, clean_fails


def caught_by_input(clean: Path, mutant: Path, path: Path) -> str | None:
    """The mutant's failure on `path` when the clean build passes it; else None."""
    failure, clean_fails = verdict_on(clean, mutant, path)
    return failure if failure and clean_fails is None else None


def regression_files(t: Target) -> list[Path]:
    return sorted(p for p in t.regressions.rglob("*") if p.is_file()) if t.regressions.is_dir() else []


def check_regressions(t: Target, binary: Path, files: list[Path], clean_failure: dict, env: dict | None = None) -> dict:
    """Replays the committed inputs through one mutant's binary until one catches it.
    `clean_failure` caches the clean build's verdict per input across the target's mutants.
    Returns {"caught": {"input", "failure"} or None, "clean_fails": n, "seconds": s}."""
    start = time.monotonic()
    caught, clean_fails = None, 0
    for path in files:
        failure, clean = verdict_on(t.binary, binary, path, clean_failure, env)
        if not failure:
            continue
        if clean is None:
            caught = {"input": path, "failure": failure}
            break
        clean_fails += 1
    return {"caught": caught, "clean_fails": clean_fails, "seconds": time.monotonic() - start}


def variant_binary(t: Target, name: str | None, where: str = "") -> Path:
    """The binary of target `t` built against variant `name` (a mutant or adapter), or the clean one."""
    if not name:
        return t.binary
    found = [v for v in t.variants if v.name == name]
    if not found:
        names = ", ".join(v.name for v in t.variants) or "none"
        raise EquifuzzError(f"target {t.name} has no variant '{name}'{where} (it has: {names}).")
    return found[0].binary


def check_names(pair: str | None, mutant: str | None) -> None:
    """A pair and a mutant named on the command line must exist."""
    pairs = sorted(set(declared_targets().values()))
    if pair and pair not in pairs:
        raise EquifuzzError(f"unknown pair '{pair}': the pairs are {', '.join(pairs)}.")
    if mutant:
        known = {m for p in ([pair] if pair else pairs) for m in declared_mutants(p)}
        if mutant not in known:
            raise EquifuzzError(f"unknown mutant '{mutant}'" + (f" of pair {pair}" if pair else "") +
                                ": './equifuzz list --mutants' lists them.")


def built_mutants(targets: list[Target], bdir: Path, config: str, pair: str | None, mutant: str | None) -> dict:
    """{(pair, mutant): [(target, variant), ...]} of the build, as named; one sentence when none is built."""
    if not any(t.mutants() for t in targets):
        raise InfraError(f"the {config} build in {bdir} has no mutant variants (it was configured with EQUIFUZZ_MUTANTS=OFF): "
                         f"run './equifuzz build {config} --cmake-arg=-DEQUIFUZZ_MUTANTS=ON' first.")
    found: dict[tuple[str, str], list] = {}
    for t in targets:
        if pair and t.pair != pair:
            continue
        for v in t.mutants():
            if mutant in (None, v.name):
                found.setdefault((t.pair, v.name), []).append((t, v))
    if not found:
        not_applicable = [m for p, info in read_manifest(bdir).pairs.items() if pair in (None, p)
                          for m in info.mutants_not_applicable if m.name == mutant]
        if not_applicable:
            why = not_applicable[0].why
            where = "this build" if why.startswith("only ThreadSanitizer") else "this build's Core trees"
            raise InfraError(f"mutant '{mutant}' is not applicable to {where} ({why}): it was not built, so it was "
                             "not checked.")
        raise InfraError("the build has no variant of the mutant named: rebuild it.")
    return found


# --- survival: how many hunts from an empty corpus are still running at time t ------------------
SURVIVAL_FROM = 0.01  # seconds: the plots' left edge (log scale); a catch before it counts at it


def survival(trials: list[dict], budget: float) -> list[tuple[float, float]]:
    """The survival curve of from-empty hunts as step points (t, share of hunts not yet caught at t):
    every (mutant, trial) hunt counts once; a censored hunt never leaves."""
    n = len(trials)
    times = sorted(max(x["seconds"], SURVIVAL_FROM) for x in trials if x["caught"])
    points = [(SURVIVAL_FROM, 1.0)]
    for k, t in enumerate(times, 1):
        points.append((t, 1 - k / n))
    points.append((float(budget), 1 - len(times) / n))
    return points


def survival_at(points: list[tuple[float, float]], t: float) -> float:
    share = 1.0
    for when, s in points:
        if when > t:
            break
        share = s
    return share


def survival_chart(trials: list[dict], budget: float, title: str, width: int = 60, height: int = 10) -> str:
    """The survival curve as text: share of hunts not yet caught (rows) over log time (columns)."""
    import math
    points = survival(trials, budget)
    lo, hi = math.log10(SURVIVAL_FROM), math.log10(max(budget, SURVIVAL_FROM * 10))
    ts = [10 ** (lo + (hi - lo) * c / (width - 1)) for c in range(width)]
    shares = [survival_at(points, t) for t in ts]
    lines = [title]
    for r in range(height):
        top = 1 - r / height
        row = "".join("█" if s >= top - 1e-9 else "▄" if s >= top - 0.5 / height - 1e-9 else " " for s in shares)
        lines.append(f"{round(top * 100):>4}% |{row}")
    axis = [" "] * (width + 12)
    for t in (0.01, 0.1, 1, 10, budget):
        if SURVIVAL_FROM <= t <= 10 ** hi:
            label = f"{t:g}s"
            col = 7 + round((math.log10(t) - lo) / (hi - lo) * (width - 1))
            col = min(col, len(axis) - len(label))
            axis[col:col + len(label)] = list(label)
    lines.append("      +" + "-" * width)
    lines.append("".join(axis).rstrip())
    marks = ", ".join(f"{t:g} s: {survival_at(points, t) * 100:.0f} %" for t in sorted({0.1, 1, 10, float(budget)}) if t <= budget)
    lines.append(f"      not yet caught at {marks}")
    return "\n".join(lines)


def plot_survival(curves: list[tuple[str, list[dict], float]], out: Path) -> None:
    """Survival curves (one per engine or run) as a PNG; raises InfraError without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InfraError("matplotlib is not installed, so the survival plot was not drawn: run ci/install-deps.sh "
                         "(it installs requirements.txt into .venv).")
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, trials, budget in curves:
        points = survival(trials, budget)
        ax.step([p[0] for p in points], [100 * p[1] for p in points], where="post",
                label=f"{label} ({len({(x['pair'], x['mutant']) for x in trials})} mutants, {len(trials)} hunts)")
    ax.set_xscale("log")
    ax.set_xlabel("seconds from an empty corpus (log scale)")
    ax.set_ylabel("% of hunts not yet caught")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    ax.set_title("Mutants surviving from an empty corpus", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def curve_of(path: str) -> tuple[str, list[dict], float]:
    """(engine, every hunt, budget) of a `mutants --from-empty --json` file; one sentence when it is not one."""
    try:
        data = json.loads(Path(path).read_text())
        engine = ENGINE_NAMES.get(data.get("engine", "libfuzzer"), str(data.get("engine")))
        return engine, [run for m in data["mutants"] for run in m["runs"]], float(data["budget_seconds"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise EquifuzzError(f"{path} is not a file written by 'mutants --from-empty --json' ({e}).")


def median(values: list[float]) -> float:
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def from_empty_hunts(mutants: dict, engine: str, seconds: int, trials: int, seed: int, jobs: int,
                     quiet: bool = True) -> tuple[dict, bool]:
    """FuzzBench-style: each mutant hunted by `engine` (libFuzzer or AFL++) from an empty corpus in
    `trials` trials (seeds seed..seed+trials-1), each censored at `seconds`; the time to catch is the
    trial's time to its first crash that the clean build does not share. Returns the report (the
    shape `mutants --from-empty --json` writes) and whether every trial ran."""
    work = []
    for (pair, name), runs in sorted(mutants.items()):
        wanted = declared_caught_by(pair, name)
        t, v = next(((t, v) for t, v in runs if t.name == wanted), runs[0])
        work += [(pair, name, t, v, seed + k) for k in range(trials)]

    def trial(item):
        pair, name, t, v, trial_seed = item
        r = engines.ENGINES[engine].run(t, v.binary, seconds, live=False, seed=trial_seed, tag=f"__{name}__empty{trial_seed}",
                                        from_empty=True)
        if r is None:
            return None
        r.trial = {"pair": pair, "mutant": name, "target": t.name, "seed": trial_seed, "caught": False,
                   "seconds": float(seconds), "false_alarm": ""}
        crashes = sorted(r.mismatches + r.other_crashes, key=lambda c: engines.crash_seconds(c, r.seconds))
        for crash in crashes:
            if failure := caught_by_input(t.binary, v.binary, crash):
                found = min(engines.crash_seconds(crash, r.seconds), float(seconds))
                r.trial.update(caught=True, seconds=round(found, 2), failure=failure)
                break
            r.trial["false_alarm"] = str(crash)  # the clean build fails it too: a harness bug, not a catch
        if not quiet:
            got = f"caught in {r.trial['seconds']:.1f} s" if r.trial["caught"] else f"not caught in {seconds} s"
            print(f"equifuzz: {pair}/{name} (seed {trial_seed}): {got}", file=sys.stderr, flush=True)
        return r

    results = engines.run_many(jobs, work, trial)
    hunts = [r.trial for r in results]
    report = []
    for (pair, name) in sorted(mutants):
        mine = [x for x in hunts if x["pair"] == pair and x["mutant"] == name]
        if not mine:
            continue
        times = [x["seconds"] for x in mine]
        report.append({"pair": pair, "mutant": name, "target": mine[0]["target"], "caught": sum(x["caught"] for x in mine),
                       "trials": len(mine), "median_seconds": median(times), "min_seconds": min(times),
                       "max_seconds": max(times), "censored_at": seconds, "runs": mine})
    return ({"engine": engine, "budget_seconds": seconds, "trials": trials, "seed": seed, "mutants": report},
            len(results) == len(work))


def from_empty_rows(report: dict) -> list[list]:
    """The table of a from-empty report: caught k/K, median (censored hunts count as the budget) and range."""
    rows = []
    for m in report["mutants"]:
        budget = report["budget_seconds"]
        shown_median = f"{m['median_seconds']:.1f}" if m["caught"] * 2 > m["trials"] else f">{budget}"
        rows.append([m["pair"], m["mutant"], m["target"], f"{m['caught']}/{m['trials']}", shown_median,
                     f"{m['min_seconds']:.1f}–{m['max_seconds']:.1f}" + (" (censored)" if m["caught"] < m["trials"] else "")])
    return rows


FROM_EMPTY_HEADERS = ["pair", "mutant", "target", "caught", "median s", "range s"]
ENGINE_NAMES = {"afl": "AFL++", "libfuzzer": "libFuzzer"}


def hunt_from_empty(mutants: dict, args, engine: str = "libfuzzer") -> int:
    """`mutants --from-empty`: the hunts, their table and survival curve (text, and --plot's PNG), --json."""
    report, complete = from_empty_hunts(mutants, engine, args.seconds, args.trials, args.seed, jobs_arg(args.jobs), args.quiet)
    shown = ENGINE_NAMES.get(engine, engine)
    print(f"\nequifuzz mutants --from-empty: {shown} from an empty corpus, {args.trials} trial(s) each "
          f"(seeds {args.seed}..{args.seed + args.trials - 1}), budget {args.seconds} s per trial:\n")
    print(table(FROM_EMPTY_HEADERS, from_empty_rows(report)))
    hunts = [run for m in report["mutants"] for run in m["runs"]]
    if hunts:
        print("\n" + survival_chart(hunts, args.seconds, f"Survival: share of the {len(hunts)} hunts not yet caught "
                                                         f"({shown}, log time)"))
    if getattr(args, "plot", None):
        plot_survival([(shown, hunts, args.seconds)] + list(getattr(args, "plot_curves", [])), Path(args.plot))
        print(f"equifuzz: survival plot written to {args.plot}.")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    if not complete:
        print("equifuzz: interrupted; the table holds the trials that ran.")
        return EXIT_INTERRUPTED
    missed = [m["mutant"] for m in report["mutants"] if not m["caught"]]
    if missed:
        print(f"\nequifuzz: {len(missed)} mutant(s) not caught from an empty corpus in any trial: {', '.join(missed)}.")
        return EXIT_FINDING
    return EXIT_CLEAN
