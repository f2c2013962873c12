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
from .output import failure_of, table
from .project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INTERRUPTED, EquifuzzError, InfraError, Target, declared_caught_by,
                      declared_mutants, declared_targets, run_binary)


def verdict_on(clean: Path, mutant: Path, path: Path, clean_failure: dict | None = None) -> tuple[str | None, str | None]:
    """(the mutant's failure on `path`, the clean build's failure on it); the clean build runs only
    when the mutant fails, its verdict cached per input in `clean_failure` when given."""
    failure = failure_of(run_binary([mutant, str(path)], timeout=120))
    if not failure:
        return None, None
    cache = {} if clean_failure is None else clean_failure
    if path not in cache:
        cache[path] = failure_of(run_binary([clean, str(path)], timeout=120))
    return failure, cache[path]


def caught_by_input(clean: Path, mutant: Path, path: Path) -> str | None:
    """The mutant's failure on `path` when the clean build passes it; else None."""
    failure, clean_fails = verdict_on(clean, mutant, path)
    return failure if failure and clean_fails is None else None


def regression_files(t: Target) -> list[Path]:
    return sorted(p for p in t.regressions.rglob("*") if p.is_file()) if t.regressions.is_dir() else []


def check_regressions(t: Target, binary: Path, files: list[Path], clean_failure: dict) -> dict:
    """Replays the committed inputs through one mutant's binary until one catches it.
    `clean_failure` caches the clean build's verdict per input across the target's mutants.
    Returns {"caught": {"input", "failure"} or None, "clean_fails": n, "seconds": s}."""
    start = time.monotonic()
    caught, clean_fails = None, 0
    for path in files:
        failure, clean = verdict_on(t.binary, binary, path, clean_failure)
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
        manifest = json.loads((bdir / "equifuzz-targets.json").read_text())
        not_applicable = [m for p, info in (manifest.get("pairs") or {}).items() if pair in (None, p)
                          for m in info.get("mutants_not_applicable", []) if m["name"] == mutant]
        if not_applicable:
            raise InfraError(f"mutant '{mutant}' is not applicable to this build's Core trees "
                             f"({not_applicable[0]['why']}): it was not built, so it was not checked.")
        raise InfraError("the build has no variant of the mutant named: rebuild it.")
    return found


def median(values: list[float]) -> float:
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def hunt_from_empty(mutants: dict, args, engine: str = "libfuzzer") -> int:
    """FuzzBench-style: each mutant hunted by `engine` (libFuzzer or AFL++) from an empty corpus in
    K trials (seeds S..S+K-1), each censored at the budget; the time to catch is the trial's time to
    its first crash that the clean build does not share. Reported as caught k/K, median (censored
    trials count as the budget) and range."""
    jobs = jobs_arg(args.jobs)
    work = []
    for (pair, name), runs in sorted(mutants.items()):
        wanted = declared_caught_by(pair, name)
        t, v = next(((t, v) for t, v in runs if t.name == wanted), runs[0])
        work += [(pair, name, t, v, args.seed + k) for k in range(args.trials)]

    def trial(item):
        pair, name, t, v, seed = item
        hunt = engines.run_afl if engine == "afl" else engines.run_libfuzzer
        r = hunt(t, v.binary, args.seconds, live=False, seed=seed, tag=f"__{name}__empty{seed}", from_empty=True)
        if r is None:
            return None
        r.trial = {"pair": pair, "mutant": name, "target": t.name, "seed": seed, "caught": False,
                   "seconds": float(args.seconds), "false_alarm": ""}
        crashes = sorted(r.mismatches + r.other_crashes, key=lambda c: engines.crash_seconds(c, r.seconds))
        for crash in crashes:
            if failure := caught_by_input(t.binary, v.binary, crash):
                found = min(engines.crash_seconds(crash, r.seconds), float(args.seconds))
                r.trial.update(caught=True, seconds=round(found, 2), failure=failure)
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
    shown = "AFL++" if engine == "afl" else "libFuzzer"
    print(f"\nequifuzz mutants --from-empty: {shown} from an empty corpus, {args.trials} trial(s) each "
          f"(seeds {args.seed}..{args.seed + args.trials - 1}), budget {args.seconds} s per trial:\n")
    print(table(["pair", "mutant", "target", "caught", "median s", "range s"], rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"engine": engine, "budget_seconds": args.seconds, "trials": args.trials,
                                               "seed": args.seed, "mutants": report}, indent=2) + "\n")
    if len(results) < len(work):
        print("equifuzz: interrupted; the table holds the trials that ran.")
        return EXIT_INTERRUPTED
    if missed:
        print(f"\nequifuzz: {len(missed)} mutant(s) not caught from an empty corpus in any trial: {', '.join(missed)}.")
        return EXIT_FINDING
    return EXIT_CLEAN
