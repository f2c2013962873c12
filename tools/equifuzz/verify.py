"""verify: the reviewer's certificate. One command builds what it needs, replays every seed and
regression input, fuzzes every target (several at once), checks that every mutant is caught, and
writes a report directory: report.md (fit to paste into a pull request), report.json (the same
facts for machines) and PNG plots (coverage over time per target, time to catch per mutant).

The facts are gathered into one report.Report; the report files are made from it alone
(report_md, the verdict from verdict.py), so a recorded report.json can be rendered again
(`write_report`) and the tests can check the rendering.
"""
from __future__ import annotations

import dataclasses
import json
import re
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import allow, core_build, core_git, corpus, coverage, engines, findings
from .building import cmake, configure_with_sides, core_tree_args, jobs_arg
from .engines import shown_text
from .manifest import Manifest, configured, read as read_manifest
from .mutants import built_mutants, check_regressions, from_empty_hunts, regression_files, verdict_on as verify_on
from .output import TSAN_SUFFIX, failure_of
from .project import (ROOT, TIER_ENVIRONMENT, EquifuzzError, InfraError, Target, Variant, build_dir, check_toolchain,
                      declared_tier, load_manifest, run_binary, select, validate_names)
from .campaign import counted as campaign_counted
from .report import Budget, Build, Mutant, PairSides, Replay, Report, TargetFacts
from .sanitizer_env import use_tsan_symbolizer
from .report_md import render_markdown, write_report  # noqa: F401 (verify's report, for its callers)
from .verdict import findings_of, not_counted_of, recorded_of, trees_not_used, verdict_of  # noqa: F401



def _git(*args: str, cwd: Path = ROOT) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def equifuzz_revision() -> dict:
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {"commit": commit or "unknown (not a git checkout)", "dirty": dirty}


def sides_of(manifest: Manifest) -> dict[str, PairSides]:
    """Per pair: our two model sources and each Core side's tree (with its git commit when the
    tree is a checkout), as the report keeps them."""
    out = {}
    for pair, info in manifest.pairs.items():
        core = []
        for c in info.core:
            src = Path(c.src)
            commit = c.commit or (_git("rev-parse", "HEAD", cwd=src) if src.is_dir() and (src.parent / ".git").exists() else "")
            core.append({**c.to_json(), "commit": commit})
        out[pair] = PairSides(original=shown_text(info.original), optimized=shown_text(info.optimized),
                              core=core, left_out=[c.to_json() for c in info.core_left_out],
                              mutants_not_applicable=[m.to_json() for m in info.mutants_not_applicable])
    return out


def sides_compared(pair_sides: PairSides | None) -> list[str]:
    if not pair_sides:
        return ["original", "optimized"]
    return ["original", "optimized"] + [f"{c['role']} ({c['tree']}{', edited' if c.get('core_edit') else ''})"
                                        for c in pair_sides.core]


# --- the steps --------------------------------------------------------------------------------
#: Seconds one input of the replay may take before libFuzzer reports it as a hang.
REPLAY_INPUT_TIMEOUT = 60


def last_input_run(stderr: str) -> str | None:
    """The input libFuzzer ran last over a list of files (its "Running: <file>" line): the one a
    run that failed failed on."""
    return next((l.split("Running: ", 1)[1].strip() for l in reversed(stderr.splitlines())
                 if l.startswith("Running: ")), None)


def replay_target(t: Target, allow: list[str] | None = None, core_roles: set[str] | None = None,
                  record_dir: Path | None = None) -> Replay:
    """Every seed and regression input once through the libFuzzer binary (ASan+UBSan). With
    `record_dir`, a mismatch or violated property does not stop the replay: every signature is
    recorded there (its first input, how many inputs show it) and attributed like a campaign's."""
    files = sorted(p for d in t.seed_dirs() for p in d.rglob("*") if p.is_file())
    if not files:
        return Replay(inputs=0, ok=False, failure="no seed or regression input")
    start = time.monotonic()
    env = {"EQUIFUZZ_ALLOW": ",".join(allow or [])}
    if record_dir:
        env["EQUIFUZZ_FINDINGS_DIR"] = str(findings.fresh_dir(record_dir))
    # -timeout: an input that runs this long is a hang, reported with its stack and input, in
    # seconds rather than after libFuzzer's default of 20 minutes.
    proc = run_binary([t.binary, "-runs=1", f"-timeout={REPLAY_INPUT_TIMEOUT}", *files], timeout=1800, env_extra=env)
    failure, failed_input = None, None
    if proc.returncode != 0:
        failure = failure_of(proc)
        failed_input = shown_text(last) if (last := last_input_run(proc.stderr)) else None
    recorded = []
    if record_dir:
        # A recorded input is one of the committed files: name it, not the record's copy.
        by_bytes = {}
        for f in files:
            by_bytes.setdefault(f.read_bytes(), f)
        recorded = findings.settle(findings.read_dir(record_dir), core_roles or set())
        for f in recorded:
            copy = Path(f.input)
            if copy.is_file() and copy.read_bytes() in by_bytes:
                f.input = shown_text(str(by_bytes[copy.read_bytes()]))
    return Replay(inputs=len(files), seconds=round(time.monotonic() - start, 2), ok=proc.returncode == 0,
                  failure=failure, input=failed_input or "", recorded=recorded)


def fuzz_seconds(minutes: float, jobs: int, targets: int) -> int:
    """--minutes is the wall-clock fuzzing budget: JOBS campaigns at a time share it."""
    slots = minutes * 60 * jobs
    return max(5, int(slots / max(1, targets)))


def check_mutants(targets: list[Target], allowed: dict[str, list[str]] | None = None) -> list[Mutant]:
    """Each mutant built into the libFuzzer build must fail on a committed regression input that
    the clean build passes; the time is what it took to find that input. When the clean build
    itself fails the inputs the mutant fails (a finding of its own, reported above), the mutant is
    undecided, not missed."""
    rows = []
    for t in targets:
        files = regression_files(t)
        clean_failure: dict[Path, str | None] = {}
        unbuilt = unbuilt_variants(Path(t.binary).parent.parent)
        for v in t.mutants():
            if v.name in unbuilt:
                rows.append(Mutant(pair=t.pair, mutant=v.name, target=t.name, description=v.description, caught=False,
                                   status="not applicable", seconds=0.0, input="",
                                   failure=f"it does not compile on this tree: {shown_text(unbuilt[v.name])}"))
                continue
            check = check_regressions(t, v.binary, files, clean_failure,
                                      {"EQUIFUZZ_ALLOW": ",".join((allowed or {}).get(t.name, []))})
            tier = declared_tier(t.pair, v.name)
            caught, clean_fails = check["caught"], check["clean_fails"]
            status = "caught" if caught else ("undecided" if clean_fails else "missed")
            why_not = ""
            if status == "missed":
                # A mutant whose only effect is in a field this run does not count (--allow, or
                # internal state) is not applicable to this run, not missed.
                wider = check_regressions(t, v.binary, files, {}, {"EQUIFUZZ_ALLOW": "", **TIER_ENVIRONMENT[tier]})
                if wider["caught"]:
                    status = "not applicable"
                    why_not = ({"internal": "a bug in internal state only (its Tier), which this run does not count "
                                            "(--strict does)",
                                "beyond-contract": "a bug only outside the caller contracts (its Tier), which this run "
                                                   "does not count (--beyond-contract does)"}.get(tier)
                               or "its only effect is in a field this run does not count (an --allow field)") \
                              + f": {wider['caught']['failure']}"
            rows.append(Mutant(pair=t.pair, mutant=v.name, target=t.name, description=v.description,
                               caught=caught is not None, status=status, seconds=round(check["seconds"], 2),
                               input=shown_text(str(caught["input"])) if caught else "",
                               failure=caught["failure"] if caught else why_not or
                               (f"the clean build fails the {clean_fails} input(s) this mutant fails" if clean_fails else "")))
        rows += check_refactors(t, files, clean_failure, (allowed or {}).get(t.name, []))
    return rows


def check_refactors(t: Target, files: list[Path], clean_failure: dict, allow: list[str]) -> list[Mutant]:
    """Each refactor mutant (a behaviour-preserving rewrite of Core's code) must pass every
    committed input the clean build passes: a counted finding on one is the targets crying wolf,
    which makes the verdict INCOMPLETE. Internal differences are listed, not counted."""
    rows = []
    env = {"EQUIFUZZ_ALLOW": ",".join(allow)}
    files = sorted({*files, *(p for d in t.seed_dirs() for p in d.rglob("*") if p.is_file())})
    unbuilt = unbuilt_variants(Path(t.binary).parent.parent)
    for v in t.refactors():
        if v.name in unbuilt:
            rows.append(Mutant(pair=t.pair, mutant=v.name, target=t.name, description=v.description, kind="refactor",
                               caught=False, status="not applicable", seconds=0.0, input="",
                               failure=f"it does not compile on this tree: {shown_text(unbuilt[v.name])}"))
            continue
        start = time.monotonic()
        finding = None
        # One run over every file; only an input it fails on is run again, alone, beside the
        # clean build (a failure the clean build shares is a finding of its own, reported above).
        remaining = files
        while remaining and finding is None:
            with tempfile.TemporaryDirectory(prefix="equifuzz-refactor-") as tmp:
                run = run_binary([v.binary, "-runs=1", f"-timeout={REPLAY_INPUT_TIMEOUT}", f"-artifact_prefix={tmp}/",
                                  *remaining], timeout=1800, env_extra=env)
            if run.returncode == 0:
                break
            last = last_input_run(run.stderr)
            at = next((i for i, p in enumerate(remaining) if str(p) == last), None)
            if at is None:
                finding = {"input": Path(""), "failure": failure_of(run) or f"exit {run.returncode}"}
                break
            failure, clean = verify_on(t.binary, v.binary, remaining[at], clean_failure, env)
            if failure and clean is None:
                finding = {"input": remaining[at], "failure": failure}
            remaining = remaining[at + 1:]
        rows.append(Mutant(pair=t.pair, mutant=v.name, target=t.name, description=v.description, kind="refactor",
                           caught=finding is not None, status="finding" if finding else "clean",
                           seconds=round(time.monotonic() - start, 2),
                           input=shown_text(str(finding["input"])) if finding else "",
                           failure=finding["failure"] if finding else ""))
    return rows


# --- the verb ---------------------------------------------------------------------------------
def cmd_verify(args) -> int:
    if args.minutes <= 0:
        raise EquifuzzError("--minutes must be more than 0.")
    if args.minimize and args.minimize_seconds < 1:
        raise EquifuzzError("--minimize-seconds must be at least 1.")
    jobs = jobs_arg(args.jobs)
    validate_names(args.targets)
    if args.build_dir and (args.core_original or args.core_optimized or args.pr is not None):
        raise EquifuzzError("--pr and --core-original/--core-optimized configure a build; they cannot be used with --build-dir.")
    out = Path(args.out) if args.out else ROOT / "build" / "verify" / time.strftime("%Y%m%d-%H%M%S")
    out = out.resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
        engines._check_writable(out)
    except OSError as e:
        raise InfraError(f"cannot write the report to {out} ({e.strerror}).")
    command = "./equifuzz " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "./equifuzz verify"
    rep = Report(command=command, started=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                 machine=f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform(terse=True)}",
                 equifuzz=equifuzz_revision(), seed=args.seed)
    if not args.build_dir and not args.no_coverage:
        # The reach needs the coverage tools: a missing one is one sentence before any build.
        check_toolchain("coverage")
    bdir = build_dir("libfuzzer", args.build_dir) if args.build_dir else build_for_verify(args)
    rep.selection = getattr(args, "selection", None) or None
    if not configured(bdir):
        raise InfraError(f"no libFuzzer build in {bdir}.")
    manifest = read_manifest(bdir)
    targets = select(manifest.targets, args.targets)
    sides = sides_of(manifest)
    rep.sides = {p: s for p, s in sides.items() if any(t.pair == p for t in targets)}
    # Races are promises too: the pairs whose Core code runs threads run again under ThreadSanitizer.
    asan_targets = list(targets)
    if any(t.pair in thread_pairs() for t in targets):
        if getattr(args, "no_tsan", False):
            rep.races = "--no-tsan left out the ThreadSanitizer build"
        elif args.build_dir:
            rep.races = "--build-dir names a prebuilt build; the ThreadSanitizer build is verify's own (run without --build-dir)"
        else:
            try:
                tsan_targets = build_tsan_for_verify(args, targets)
                tsan_environment()
                targets += tsan_targets
                # The mutants only ThreadSanitizer catches are checked there now, not "not built".
                in_tsan = {v.name for t in tsan_targets for v in t.variants}
                for pair_sides in rep.sides.values():
                    pair_sides.mutants_not_applicable = [m for m in pair_sides.mutants_not_applicable
                                                         if m["name"] not in in_tsan]
            except InfraError as e:
                rep.races_problem = f"data races not checked: the ThreadSanitizer build failed ({e})"
    rep.build = Build(dir=shown_text(str(bdir)), compiler=manifest.compiler or "unknown",
                      sanitizers=manifest.sanitizers, optimization=manifest.optimization,
                      core_missing_because=manifest.core_sides_missing_because,
                      core_trees_from=manifest.core_trees_from, core_oracle=manifest.core_oracle)
    # Reproduce lines name the build that found it: no other build is needed to run them.
    rep.build_dir_arg = f"--build-dir {shlex.quote(args.build_dir or shown_text(str(bdir)))} "
    seconds = fuzz_seconds(args.minutes, jobs, len(targets))
    rep.budget = Budget(minutes=args.minutes, jobs=jobs, seconds_per_target=seconds)
    tsan_arg = f"--build-dir {shown_text(str(TSAN_BUILD))} "
    for t in targets:
        rep.targets[t.name] = TargetFacts(pair=t.pair, sides=sides_compared(sides.get(t.pair)),
                                          build_dir_arg=tsan_arg if t.name.endswith(TSAN_SUFFIX) else "")
    allowed = allow.allow_for_targets(args, asan_targets, set(manifest.pairs))
    for t in targets:  # a ThreadSanitizer target allows what its ASan target does
        allowed.setdefault(t.name, allowed.get(t.name.removesuffix(TSAN_SUFFIX), []))
    rep.allowed = {pair: sorted({f for t in targets if t.pair == pair for f in allowed[t.name]})
                   for pair in sorted({t.pair for t in targets}) if any(allowed[t.name] for t in targets if t.pair == pair)}
    roles = {t.name: findings.core_roles(manifest, t.pair) for t in targets}
    say = (lambda msg: None) if args.quiet else (lambda msg: print(f"equifuzz verify: {msg}", file=sys.stderr, flush=True))
    # Every campaign starts from the committed seeds, in the report's own directory: the same seed
    # and budget give the same verdict, and the report holds its corpora and crash files.
    os.environ["EQUIFUZZ_CAMPAIGNS_DIR"] = str(out / "campaigns")
    shutil.rmtree(out / "campaigns", ignore_errors=True)  # a report directory used again starts afresh
    try:
        say(f"replaying the seeds and regressions of {len(targets)} targets")
        for t in targets:
            rep.targets[t.name].replay = replay_target(t, allowed[t.name], roles[t.name],
                                                       out / "campaigns" / "replay-findings" / t.name)
        say(f"fuzzing {len(targets)} targets, {seconds} s each, {jobs} at a time")
        results = engines.run_many(jobs, targets, lambda t: _fuzz_one(t, seconds, args.seed, say, allowed[t.name]))
        by_name = {t.name: t for t in targets}
        for r in results:
            r.recorded = findings.settle(r.recorded, roles[r.target])
            # One input per signature the verdict counts (a difference present before the change
            # is not the change's), minimized when asked, kept as a regression input when asked.
            counted = [(x.what, x.input) for x in campaign_counted(None, r) if x.kind in ("recorded", "mismatch")]
            if args.minimize:
                r.minimized = engines.minimize_each(by_name[r.target], counted, args.minimize_seconds, say)
                counted = [(sig, r.minimized.get(sig, path)) for sig, path in counted]
            rep.targets[r.target].campaign = r
            if not args.no_keep:
                rep.targets[r.target].kept = [
                    shown_text(str(corpus.keep(by_name[r.target], Path(path),
                                               f"found by `{command}` on {rep.started}: {sig}", sig)))
                    for sig, path in counted]
        if any(r.interrupted for r in results) or len(results) < len(targets):
            raise KeyboardInterrupt
        say("checking that every mutant is caught")
        if not any(t.mutants() for t in targets):
            rep.mutants_missing = (f"the build in {shown_text(str(bdir))} has no mutant variants (configure it with "
                                   "-DEQUIFUZZ_MUTANTS=ON): the mutant check did not run.")
        rep.mutants = check_mutants(targets, allowed)
        if args.from_empty > 0:
            say(f"hunting every mutant from an empty corpus, {args.from_empty} trial(s) of {args.from_empty_seconds} s")
            try:
                found = built_mutants(asan_targets, bdir, "libfuzzer", None, None)
                rep.from_empty, complete = from_empty_hunts(found, "libfuzzer", args.from_empty_seconds,
                                                            args.from_empty, args.seed, jobs)
                if not complete:
                    raise KeyboardInterrupt
            except InfraError as e:
                rep.from_empty_problem = f"mutants from an empty corpus not measured: {e}"
        rep.min_reach = getattr(args, "min_reach", 0.0) or 0.0
        if args.build_dir and not args.no_coverage:
            rep.coverage_note = ("coverage of the sides left out: --build-dir names a prebuilt build, and the "
                                 "coverage build must match it (run without --build-dir, or ./equifuzz coverage).")
            rep.reach_note = "--build-dir names a prebuilt build (reach needs verify's own coverage build)"
        elif args.no_coverage:
            rep.reach_note = "--no-coverage left out the coverage build"
        else:
            say("measuring the coverage of every side and the change's reach (coverage build)")
            try:
                rep.coverage, rep.reach = coverage_of_sides(args, asan_targets, out / "campaigns", args.quiet)
            except InfraError as e:
                rep.coverage_problem = f"coverage of the sides not measured: {e}"
                rep.reach_note = "the coverage build failed"
    except KeyboardInterrupt:
        engines.stop_all()
        rep.interrupted = True
    verdict, code = write_report(rep, out)
    for f in findings_of(rep):
        print(f"{f['target']}: {f['kind']} {f['what']}" + (f"\n  input: {f['input']}\n  reproduce: {f['reproduce']}" if f["input"] else
                                                          (f"\n  reproduce: {f['reproduce']}" if f["reproduce"] else "")))
    print(f"equifuzz verify: {verdict}")
    print(f"equifuzz verify: report in {shown_text(str(out))}/report.md (and report.json, "
          f"{', '.join(rep.plots) or 'no plots'})")
    return code


VERIFY_BUILD = ROOT / "build" / "verify-build"


def build_for_verify(args) -> Path:
    """verify's own libFuzzer build (build/verify-build): the libfuzzer preset with each mutant in
    the target that catches it, and the Core trees the command names (the registry trees without
    --core-original/--core-optimized). Kept apart from build/libfuzzer, which `fuzz` uses.

    Every Core side of the pairs in question is built on its own first: one that does not compile
    on its tree is left out (the verdict then says INCOMPLETE with its first error) and the other
    pairs go on. With Core trees named and no target or pair, the pairs are picked from the change
    (pick_pairs); args.targets and args.selection say which and why."""
    check_toolchain("libfuzzer")
    core = core_tree_args(args)
    auto = not args.targets and bool(args.pr is not None or args.core_original or args.core_optimized)
    print(f"equifuzz: building libfuzzer with mutants in {shown_text(str(VERIFY_BUILD))}", file=sys.stderr)
    configure = ["cmake", "--preset", "libfuzzer", "-B", str(VERIFY_BUILD), *core, "-DEQUIFUZZ_MUTANTS=ON",
                 "-DEQUIFUZZ_MUTANT_TARGETS=caught-by"]
    scope = None if auto else (lambda _: {t.pair for t in select(load_manifest(VERIFY_BUILD), args.targets)})
    manifest = configure_with_sides(VERIFY_BUILD, configure, scope, args.quiet)
    if auto:
        args.selection = pick_pairs(VERIFY_BUILD, manifest)
        args.targets = sorted(args.selection["pairs"])
        print(f"equifuzz: {selection_line(args.selection)}", file=sys.stderr)
    # Only the named targets and their mutant variants: a reviewer's tree is built for the pairs
    # that are verified, not for every pair.
    chosen = select(load_manifest(VERIFY_BUILD), args.targets)
    cmake(["cmake", "--build", str(VERIFY_BUILD), "--target", *[Path(t.binary).name for t in chosen]], quiet=args.quiet)
    build_variants(VERIFY_BUILD, [v for t in chosen for v in t.variants], args.quiet)
    return VERIFY_BUILD


UNBUILT_VARIANTS = "equifuzz-unbuilt-variants.json"


def build_variants(bdir: Path, variants: list, quiet: bool) -> dict[str, str]:
    """Builds the mutant, refactor and adapter variants, going on past one that does not compile
    (a Core mutant that applies to a reviewer's tree as text but not as code): the targets are
    already built, so such a variant is not applicable to this tree, with its first compiler error
    (bdir/UNBUILT_VARIANTS, read by check_mutants), never a failed build."""
    record = bdir / UNBUILT_VARIANTS
    record.unlink(missing_ok=True)
    if not variants:
        return {}
    step = ["cmake", "--build", str(bdir), "--target", *[Path(v.binary).name for v in variants], "--", "-k", "0"]
    proc = subprocess.run(step, cwd=ROOT, capture_output=True, text=True, errors="replace")
    if not quiet:
        sys.stderr.write(proc.stdout[-6000:] + proc.stderr[-2000:])
    if proc.returncode == 0:
        return {}
    lines = (proc.stdout + proc.stderr).splitlines()
    unbuilt = {}
    for v in variants:
        # Whether this variant was built: build it alone again (nothing to do when it was; its error
        # again when it was not). A dry run (-n) cannot tell: it stops at CMake's glob check, which
        # only a real run completes, and then shows every target as out of date.
        again = subprocess.run(["cmake", "--build", str(bdir), "--target", Path(v.binary).name], cwd=ROOT,
                               capture_output=True, text=True, errors="replace")
        if again.returncode == 0:
            continue
        lines_v = (again.stdout + again.stderr).splitlines() + lines
        error = ""
        for i, l in enumerate(lines_v):
            if l.startswith("FAILED:") and (v.name in l or Path(v.binary).name in l):
                error = next((e.strip() for e in lines_v[i + 1:i + 200] if " error: " in e or e.startswith("error:")), "")
                break
        unbuilt[v.name] = error or "its build failed (the build output says where)"
    if not unbuilt:
        raise InfraError(f"'{' '.join(step[:4])} ...' failed (exit {proc.returncode}) without naming a variant; "
                         "its output is above.")
    record.write_text(json.dumps(unbuilt, indent=1) + "\n")
    for name, error in sorted(unbuilt.items()):
        print(f"equifuzz: the mutant {name} does not compile on this tree, so it is not applicable: {shown_text(error)}",
              file=sys.stderr)
    return unbuilt


def unbuilt_variants(bdir: Path) -> dict[str, str]:
    record = bdir / UNBUILT_VARIANTS
    return json.loads(record.read_text()) if record.is_file() else {}


TSAN_BUILD = ROOT / "build" / "verify-tsan"


def thread_pairs() -> set[str]:
    """The pairs whose Core code runs threads: those the tsan preset builds."""
    preset = json.loads((ROOT / "sanitizer-builds" / "tsan.json").read_text())
    return set(preset["configurePresets"][0]["cacheVariables"]["EQUIFUZZ_ONLY_PAIRS"].split(","))


def build_tsan_for_verify(args, chosen: list[Target]) -> list[Target]:
    """The chosen targets of the pairs whose Core code runs threads, built with ThreadSanitizer
    (the tsan preset, with the same Core trees, into build/verify-tsan), each renamed
    <target>@tsan: the replay, the fuzzing and the mutant check run them like any target, and a
    race report is a finding like a crash. The mutants only ThreadSanitizer catches are built
    into them. [] when no chosen pair runs threads."""
    pairs = sorted({t.pair for t in chosen} & thread_pairs())
    if not pairs:
        return []
    check_toolchain("tsan")
    print(f"equifuzz: building {', '.join(pairs)} with ThreadSanitizer in {shown_text(str(TSAN_BUILD))}", file=sys.stderr)
    configure = ["cmake", "--preset", "tsan", "-B", str(TSAN_BUILD), *core_tree_args(args),
                 f"-DEQUIFUZZ_ONLY_PAIRS={','.join(pairs)}"]
    configure_with_sides(TSAN_BUILD, configure, lambda _: set(pairs), args.quiet)
    names = {t.name for t in chosen}
    built = [t for t in load_manifest(TSAN_BUILD) if t.name in names]
    cmake(["cmake", "--build", str(TSAN_BUILD), "--target", *[Path(t.binary).name for t in built]], quiet=args.quiet)
    build_variants(TSAN_BUILD, [v for t in built for v in t.variants], args.quiet)
    return [dataclasses.replace(t, name=t.name + TSAN_SUFFIX) for t in built]


def tsan_environment() -> None:
    """ThreadSanitizer's reports symbolized by clang 19's own symbolizer (the harness's
    suppressions match symbolized frames; ci/tsan.sh says why)."""
    use_tsan_symbolizer()


def pick_pairs(bdir: Path, manifest: Manifest) -> dict:
    """The pairs a change touches: those whose Core sides compile a file (source or header, from
    the compiler's dependency files) that differs between the pair's two Core trees, and those
    whose side could not be built (whether the change touches them is unknown, and the verdict
    says so). Also the changed files no pair compiles, when both trees are the user's. A change
    that touches no pair is one sentence naming its files, exit 3."""
    files = core_build.side_files(bdir, manifest)
    touched = core_build.touched_pairs(manifest, files)
    pairs = {p: {"files": files} for p, files in touched.items()}
    broken = {}  # role -> (whose, the error), where a file of the tree itself did not compile
    for pair, info in manifest.pairs.items():
        unbuilt = [c for c in info.core_left_out if c.kind == "build"]
        for c in unbuilt:
            for whose in (core_build.TREE_ITSELF, core_build.OUR_GAP):
                if c.error.startswith(whose):
                    broken.setdefault(c.role.removeprefix("core-"), (whose, c.error.removeprefix(whose)))
        if unbuilt and pair not in pairs:
            pairs[pair] = {"files": [], "unbuilt": f"its Core {unbuilt[0].role.removeprefix('core-')} side could not "
                                                    "be built, so whether the change touches it is not known"}
    # Pairs whose routine a tree lacks (a CORE_REQUIRE probe): no dependency files say whether the
    # change touches them, so they are named beside the choice.
    unusable = {pair: c.why for pair, info in sorted(manifest.pairs.items()) if pair not in pairs
                for c in info.core_left_out[:1] if c.kind != "build"}
    if broken and pairs and all(w.get("unbuilt") for w in pairs.values()):
        role, (whose, error) = next(iter(sorted(broken.items())))
        if whose == core_build.OUR_GAP:
            raise InfraError(f"equifuzz could not build your Core {role} tree ({error}): the file needs what Core's own "
                             "build defines or generates for it, which equifuzz's build of this tree lacks; a bug of "
                             "equifuzz, not of your tree: report it with this line and the output of "
                             f"./equifuzz trees --tree <your {role} tree> --full.")
        raise InfraError(f"your Core {role} tree itself does not compile ({error}), so no pair can check the change.")
    user = {}  # tree -> its Core side (a side left out has no src)
    for info in manifest.pairs.values():
        for c in info.core:
            if c.tree.startswith("user-") and c.src:
                user[c.tree] = c
    changed, uncovered = None, None
    if {"user-original", "user-optimized"} <= set(user):
        before, after = user["user-original"], user["user-optimized"]
        # Two commits of the git remote: git's own list of what the change touches; else (a
        # checkout) the two trees' contents compared.
        changed = (core_git.changed_paths(before.commit, after.commit)
                   if before.commit and after.commit else None)
        if changed is None:
            changed = core_build.changed_files(before.src, after.src)
        covered = set().union(*files.values())
        uncovered = [f for f in changed if f not in covered]
    if not pairs:
        files = changed if changed is not None else []
        shown = ", ".join(files[:20]) + (f" and {len(files) - 20} more" if len(files) > 20 else "")
        raise InfraError("the change touches none of the files the pairs' Core sides compile, so no pair can check it"
                         + (f"; it changes {shown}" if files else "; its two trees have the same files")
                         + (f"; pairs that cannot use these trees: "
                            + "; ".join(f"{p} ({why})" for p, why in unusable.items()) if unusable else "") + ".")
    return {"pairs": pairs, "changed": changed, "uncovered": uncovered, "unusable": unusable}


def selection_line(sel: dict) -> str:
    parts = []
    for pair, why in sorted(sel["pairs"].items()):
        if why.get("unbuilt"):
            parts.append(f"{pair} ({why['unbuilt']})")
        else:
            files = why["files"]
            parts.append(f"{pair} (by {', '.join(files[:4])}{f' and {len(files) - 4} more' if len(files) > 4 else ''})")
    return "pairs picked from the change: " + "; ".join(parts)


VERIFY_COVERAGE_BUILD = ROOT / "build" / "verify-coverage"


def same_tree_source(bdir: Path) -> list[str]:
    """-D options that give a second build the pinned trees `bdir` was configured with: a build
    keeps the git remote (or the registry fallback) it first found, so without them the coverage
    build could measure other trees than the ones fuzzed (git in one, the registry in the other)."""
    if read_manifest(bdir).core_trees_from.startswith("registry"):
        return ["-DEQUIFUZZ_CORE_TREE_SOURCE=registry"]
    cache = (bdir / "CMakeCache.txt").read_text(errors="replace") if (bdir / "CMakeCache.txt").is_file() else ""
    values = dict(re.findall(r"^(EQUIFUZZ_CORE_GIT_REMOTE(?:_FROM_ENV)?|EQUIFUZZ_CORE_TREE_SOURCE):[A-Z]+=(.*)$", cache, re.M))
    return [f"-DEQUIFUZZ_CORE_TREE_SOURCE={values.get('EQUIFUZZ_CORE_TREE_SOURCE') or 'AUTO'}",
            f"-DEQUIFUZZ_CORE_GIT_REMOTE={values.get('EQUIFUZZ_CORE_GIT_REMOTE', '')}",
            f"-DEQUIFUZZ_CORE_GIT_REMOTE_FROM_ENV={values.get('EQUIFUZZ_CORE_GIT_REMOTE_FROM_ENV', '')}"]


def coverage_of_sides(args, targets: list[Target], campaigns: Path, quiet: bool) -> dict:
    """The coverage build of the named targets with the same Core trees (build/verify-coverage),
    replaying every seed, regression and campaign input: line, branch and function coverage of
    each side, and the functions of our models no input reached; and per pair the reach of the
    change between its Core trees (reach.pair_reach)."""
    check_toolchain("coverage")
    names = [t.name for t in targets]
    pairs = {t.pair for t in targets}
    configure_with_sides(VERIFY_COVERAGE_BUILD, ["cmake", "--preset", "coverage", "-B", str(VERIFY_COVERAGE_BUILD),
                                                 *core_tree_args(args), *same_tree_source(VERIFY_BUILD)],
                         lambda _: pairs, quiet=True)
    cmake(["cmake", "--build", str(VERIFY_COVERAGE_BUILD), "--target", *names], quiet=quiet)
    manifest = read_manifest(VERIFY_COVERAGE_BUILD)
    cov_targets = select(manifest.targets, names, exact=True)
    extra = {t.name: [campaigns / "libfuzzer" / t.name / "corpus"] for t in cov_targets}
    # The files each pair's Core sides compile (a changed header without code is still counted).
    compiled: dict[str, set[str]] = {}
    for (pair, _), files in core_build.side_files(VERIFY_COVERAGE_BUILD, manifest, pairs=pairs).items():
        compiled.setdefault(pair, set()).update(files)
    sides, reach = {}, {}
    for pair, _, pair_sides, pair_reach in coverage.by_pair(cov_targets, manifest, VERIFY_COVERAGE_BUILD / "profiles",
                                                            extra, compiled):
        sides[pair], reach[pair] = pair_sides, pair_reach
    return sides, reach


def _fuzz_one(t: Target, seconds: int, seed: int, say, allow: list[str] | None = None):
    """One campaign that goes on after findings for its whole budget."""
    r = engines.ENGINES["libfuzzer"].run(t, t.binary, seconds, live=False, seed=seed, keep_going=True, allow=allow)
    if r is not None:
        got = (f"{len(r.signatures)} signature(s) in {sum(f.hits for f in r.recorded if f.kind != 'allowed')} input(s)"
               if r.signatures else r.label)
        say(f"{t.name}: {r.runs:,} runs, {r.exec_per_sec:,} exec/s, cov {r.coverage_seeds} → {r.coverage_end}, {got}")
    return r


