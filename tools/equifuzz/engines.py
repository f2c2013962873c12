"""Running a fuzzing campaign on one target with libFuzzer or AFL++, and reading its figures.

Both engines are one interface (Engine.run, ENGINES) and end the same way (_settle): the harness's
records when fuzzing went on after findings (EQUIFUZZ_FINDINGS_DIR), else each crash file's
signature; one label per result (campaign.Campaign.label, from the verdict's own counting)."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import findings as findings_mod
from .campaign import Campaign
from .project import EquifuzzError, InfraError, ROOT, Target, run_binary
from .sanitizer_env import harness_env


def signatures_in(text: str) -> list[str]:
    """The signatures a fuzzing log's stops were for (one per crash file), in order."""
    return findings_mod.stops_in(text)


def _settle(result: Campaign, found: list[Path], records: Path | None, log_text: str | None) -> None:
    """Mismatches, signatures and other crashes of a finished campaign. With `records` (fuzzing
    went on after findings), the harness's records say what it met and a crash file is a sanitizer
    report, a timeout or an out-of-memory; without, each crash file is one report of `log_text`
    (libFuzzer stops at its first) or was told apart by running it again (AFL++, before this)."""
    if records is not None:
        result.recorded = findings_mod.read_dir(records)
    if result.recorded:
        counted = [f for f in result.recorded if f.kind in findings_mod.COUNTED_KINDS]
        result.mismatches = [Path(f.input) for f in counted]
        result.signatures = [f.signature for f in counted]
        result.other_crashes = found
    elif log_text is not None:
        result.signatures = signatures_in(log_text)
        if result.signatures:
            result.mismatches = found
            # A mismatch the log reports but no crash file holds (the file could not be written)
            # is still a finding: counted, and said.
            result.lost_findings = max(0, len(result.signatures) - len(found))
        else:
            result.other_crashes = found


def minimize_each(target: Target, counted: list[tuple[str, str]], seconds: int, say=lambda msg: None) -> dict[str, str]:
    """One smaller input per signature (its first input shrunk by libFuzzer, keeping that
    signature): signature -> the minimized input, for those that got smaller."""
    from . import corpus
    out = {}
    for sig, path in counted:
        try:
            r = corpus.minimize(target, Path(path), seconds, signature=sig)
        except EquifuzzError as e:
            say(f"{target.name}: {sig} not minimized: {e}")
            continue
        if r["minimized"]:
            out[sig] = r["minimized"]
            say(f"{target.name}: {sig}: input minimized from {r['size']} to {r['minimized_size']} bytes")
        else:
            say(f"{target.name}: {sig}: input kept as it is ({r['note']})")
    return out


def campaign_dir(target: str, engine: str, binary_tag: str = "") -> Path:
    """build/campaigns/<engine>/<target>, or under $EQUIFUZZ_CAMPAIGNS_DIR."""
    root = Path(os.environ.get("EQUIFUZZ_CAMPAIGNS_DIR") or ROOT / "build" / "campaigns")
    return root / engine / (target + binary_tag)


def campaign_inputs(target: str, engine: str) -> list[Path]:
    """The inputs a campaign of `target` kept: libFuzzer's corpus directory, or every AFL++
    instance's queue (directories that do not exist are left out)."""
    cdir = campaign_dir(target, engine)
    found = [cdir / "corpus"] if engine == "libfuzzer" else sorted((cdir / "out").glob("*/queue"))
    return [d for d in found if d.is_dir()]


def shown(path: Path) -> Path:
    """A path as a report shows it: relative to the checkout when inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def shown_text(path: str) -> str:
    """shown() for a path held as text (manifest fields, log lines); "" stays ""."""
    p = Path(path)
    return str(p.relative_to(ROOT)) if path and p.is_absolute() and p.is_relative_to(ROOT) else path


def _check_writable(directory: Path) -> None:
    """A campaign writes its corpus and crash files here: find out now, not after a finding."""
    probe = directory / f".equifuzz-write-probe-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise InfraError(f"cannot write to {directory} ({e.strerror}): a campaign there would lose its corpus and crash files.")


# Below this much free space (EQUIFUZZ_MIN_FREE_MB, default 4) a campaign can no longer keep what
# it finds (corpus entries, crash inputs, its log): it is stopped at once, not fuzzing on into
# files that are never written.
def _min_free_bytes() -> int:
    value = os.environ.get("EQUIFUZZ_MIN_FREE_MB", "4")
    if not value.isdigit():
        raise EquifuzzError(f"EQUIFUZZ_MIN_FREE_MB={value} is not a whole number of MiB.")
    return int(value) * 1024 * 1024


def _disk_full(directory: Path) -> str | None:
    """Why a campaign writing into `directory` must stop, or None while there is room."""
    try:
        free = shutil.disk_usage(directory).free
    except OSError as e:
        return f"{directory} cannot be examined ({e.strerror})"
    if free < _min_free_bytes():
        return f"the file system holding {directory} is full ({free // 1024} KiB free)"
    return None


def _abandon(procs: list, why: str) -> None:
    """Ends campaign processes at once (their process groups), interrupts every other campaign,
    and says why in one sentence."""
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    for p in procs:
        p.wait()
        _finished(p)
    stop_all()  # the others write to the same disk
    raise InfraError(f"{why}: the campaign stopped, since its corpus, crash inputs and log could no longer be kept.")


def _run_log(cdir: Path) -> Path:
    """A log of its own for each run, so that two runs of one target never write the same file."""
    return cdir / f"run-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"


def _progress(text: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
    else:
        sys.stderr.write(text + "\n")
    sys.stderr.flush()


# Campaigns running now (several at once with -j): Ctrl-C reaches only this process, which then
# stops each of them the way libFuzzer and afl-fuzz stop on SIGINT, keeping corpus and crashes.
_running: set[subprocess.Popen] = set()
_running_lock = threading.Lock()
_stopping = threading.Event()


def _started(proc: subprocess.Popen) -> None:
    with _running_lock:
        _running.add(proc)
    if _stopping.is_set():
        _stop(proc)


def _finished(proc: subprocess.Popen) -> None:
    with _running_lock:
        _running.discard(proc)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass


def stop_all() -> None:
    """Interrupts every running campaign (each keeps what it found) and every one not yet started."""
    _stopping.set()
    with _running_lock:
        for proc in list(_running):
            _stop(proc)


def run_many(jobs: int, work: list, run) -> list:
    """Runs `run(item)` for each item, `jobs` at a time; results in the items' order. On Ctrl-C
    every campaign is stopped and the ones that ran (interrupted or not) are returned."""
    _stopping.clear()
    if jobs <= 1:
        results = []
        try:
            for item in work:
                result = run(item)
                if result is None:
                    break
                results.append(result)
                if result.interrupted:
                    break
        except KeyboardInterrupt:
            stop_all()
        return results
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(run, item) for item in work]
    try:
        while not all(f.done() for f in futures):
            if any(f.done() and not f.cancelled() and f.exception() is not None for f in futures):
                stop_all()  # one campaign could not run: the others stop too, keeping what they found
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        stop_all()
    pool.shutdown(wait=True, cancel_futures=True)
    done = [f for f in futures if f.done() and not f.cancelled()]
    # A campaign that could not start (its directory cannot be written, say) ends the command
    # with its one sentence, as it does with one job.
    if failed := next((f.exception() for f in done if f.exception() is not None), None):
        stop_all()
        raise failed
    return [f.result() for f in done if f.result() is not None]


_STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+).*?corp: (\d+)/\S+.*?exec/s: (\d+)")
_INITED = re.compile(r"^#\d+\s+INITED\s+cov: (\d+)")


_FORK_STATUS = re.compile(r"^#(\d+): cov: (\d+) ft: \d+ corp: (\d+) exec/s:? (\d+)")


def options_of(target: Target) -> list[str]:
    """The [libfuzzer] section of fuzz_targets/<target>.options (OSS-Fuzz's format) as flags."""
    path = target.dict.with_suffix(".options")
    if not path.is_file():
        return []
    flags, section = [], None
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif "=" in line and section == "libfuzzer":
            key, value = (x.strip() for x in line.split("=", 1))
            flags.append(f"-{key}={value}")
    return flags


def libfuzzer_flags(target: Target, seed: int, crashes: Path) -> list[str]:
    """What every libFuzzer campaign is run with, the duration and the corpus aside: engine seed,
    crash files in `crashes`, timeout, RSS limit, stdout closed, the target's dictionary and .options."""
    flags = ["-print_final_stats=1", f"-seed={seed}", f"-artifact_prefix={crashes}/", "-timeout=25",
             "-rss_limit_mb=4096", "-close_fd_mask=1"]
    if target.dict.is_file():
        flags.append(f"-dict={target.dict}")
    return flags + options_of(target)


def run_libfuzzer(target: Target, binary: Path, seconds: int, live: bool = True, seed: int = 1,
                  tag: str = "", from_empty: bool = False, fork: int = 1, keep_going: bool = False,
                  allow: list[str] | None = None) -> Campaign:
    """Fuzzes `binary` for `seconds`: corpus and crashes are kept in build/campaigns/libfuzzer/<target>.
    `from_empty`: no seed or regression input, and the campaign's own corpus and crashes start empty
    (a measure of the target's power that the seed corpus cannot flatter). `keep_going`: a mismatch
    or violated property does not end the campaign; the harness records each signature's first
    input and counts its hits in <campaign>/findings (a sanitizer report still ends it). `allow`:
    fields (or properties) whose differences are notes, not findings (EQUIFUZZ_ALLOW)."""
    cdir = campaign_dir(target.name, "libfuzzer", tag)
    corpus = cdir / "corpus"
    crashes = cdir / "crashes"
    if from_empty:
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.rmtree(crashes, ignore_errors=True)
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    _check_writable(corpus)
    _check_writable(crashes)
    if why := _disk_full(cdir):
        raise InfraError(f"{why}: a campaign there could not keep its corpus, crash inputs and log.")
    # A crash file is named after its input's hash: an input an earlier run also crashed on is
    # written again under the same name, so this run's crash files are the new and the rewritten ones.
    before = {p: p.stat().st_mtime_ns for p in crashes.iterdir()}
    corpus_before = sum(1 for _ in corpus.iterdir())
    cmd = [str(binary), f"-max_total_time={seconds}", *libfuzzer_flags(target, seed, crashes)]
    if fork > 1:
        cmd.append(f"-fork={fork}")  # one target on several cores: libFuzzer's own fork mode
    cmd += [str(corpus)] + ([] if from_empty else [str(d) for d in target.seed_dirs()])
    result = Campaign(target.name, "libfuzzer")
    env = harness_env("campaign")
    env.pop("EQUIFUZZ_FINDINGS_DIR", None)
    env["EQUIFUZZ_ALLOW"] = ",".join(allow or [])
    findings_dir = cdir / "findings"
    if keep_going:
        env["EQUIFUZZ_FINDINGS_DIR"] = str(findings_mod.fresh_dir(findings_dir))
    start = time.monotonic()
    log_path = _run_log(cdir)
    result.log = log_path
    new_units = 0
    if _stopping.is_set():
        return None
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, errors="replace",
                            env=env, start_new_session=True)
    _started(proc)
    try:
        try:
            log = open(log_path, "w")
        except OSError as e:
            _abandon([proc], f"the campaign log {shown(log_path)} cannot be written ({e.strerror})")
        with log:
            for line in proc.stderr:
                try:
                    log.write(line)
                    log.flush()
                except OSError as e:
                    _abandon([proc], f"the campaign log {shown(log_path)} cannot be written ({e.strerror}); "
                                  + (_disk_full(cdir) or f"see {shown(cdir)}"))
                if m := _INITED.match(line):
                    result.coverage_seeds = int(m.group(1))
                if m := _STATUS.match(line):
                    if why := _disk_full(cdir):
                        _abandon([proc], why)
                    new_units += m.group(2) == "NEW"
                    result.runs, result.coverage_end = int(m.group(1)), int(m.group(3))
                    result.corpus, result.exec_per_sec = int(m.group(4)), int(m.group(5))
                    result.timeline.append([round(time.monotonic() - start, 2), result.coverage_end])
                    if live:
                        _progress(f"{target.name}{tag}: {time.monotonic() - start:5.0f}/{seconds}s  runs {result.runs:>10,}  "
                                  f"exec/s {result.exec_per_sec:>7,}  cov {result.coverage_end}  corpus {result.corpus}")
                if m := _FORK_STATUS.match(line):
                    result.runs, result.coverage_end = int(m.group(1)), int(m.group(2))
                    result.corpus, result.exec_per_sec = int(m.group(3)), int(m.group(4))
                    result.coverage_seeds = result.coverage_seeds or result.coverage_end
                    result.timeline.append([round(time.monotonic() - start, 2), result.coverage_end])
                    if live:
                        _progress(f"{target.name}{tag}: {time.monotonic() - start:5.0f}/{seconds}s  runs {result.runs:>10,}  "
                                  f"exec/s {result.exec_per_sec:>7,}  cov {result.coverage_end}  corpus {result.corpus}  fork {fork}")
                if line.startswith("stat::number_of_executed_units:"):
                    result.runs = int(line.split(":")[-1])
                if line.startswith("stat::average_exec_per_sec:"):
                    result.exec_per_sec = int(line.split(":")[-1])
        proc.wait()
    except KeyboardInterrupt:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        result.interrupted = True
    _finished(proc)
    result.interrupted |= _stopping.is_set()
    if live and sys.stderr.isatty():
        sys.stderr.write("\n")
    result.seconds = round(time.monotonic() - start, 1)
    found = sorted(p for p in crashes.iterdir() if p.is_file() and before.get(p) != p.stat().st_mtime_ns)
    # libFuzzer stops at the first crash, so without records this run's log speaks for its one
    # new crash file.
    _settle(result, found, findings_dir if keep_going else None, log_path.read_text(errors="replace"))
    result.new_files = sum(1 for _ in corpus.iterdir()) - corpus_before
    log_rel = shown(log_path)
    crashed = proc.returncode not in (0, None) and not result.interrupted
    if result.lost_findings:
        result.note = (f"{result.lost_findings} mismatch(es) in the log ({', '.join(result.signatures)}) but no crash file "
                       f"was written; the input is lost, see {log_rel}")
    elif result.other_crashes:
        result.note = f"a crash that is not a mismatch (sanitizer finding, timeout or OOM); see {log_rel}"
    elif crashed and not found:
        result.problem = f"libFuzzer exited {proc.returncode} after {result.runs} runs without a crash file or a report; see {log_rel}"
    elif result.runs == 0 and not result.interrupted:
        result.problem = f"libFuzzer executed no input; see {log_rel}"
    elif new_units > 0 and result.new_files <= 0 and not result.interrupted:
        result.problem = (f"libFuzzer added {new_units} new inputs but none reached {shown(corpus)}: "
                          "the corpus cannot grow there")
    return result


def _afl_stats(out: Path, instance: str = "default") -> dict[str, str]:
    stats = out / instance / "fuzzer_stats"
    if not stats.is_file():
        return {}
    pairs = (line.split(":", 1) for line in stats.read_text().splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def afl_instances(jobs: int) -> list[str]:
    """Instance names for one target on `jobs` cores: one main (-M) and the rest secondaries (-S),
    syncing their queues through the shared output directory."""
    return ["default"] if jobs <= 1 else ["main"] + [f"secondary{i}" for i in range(1, jobs)]


def crash_seconds(crash: Path, default: float) -> float:
    """When an AFL++ crash file was found, from its name's `time:<ms>`; libFuzzer's names have none."""
    for part in crash.name.split(","):
        if part.startswith("time:") and part[5:].isdigit():
            return int(part[5:]) / 1000
    return default


def run_afl(target: Target, binary: Path, seconds: int, live: bool = True, seed: int = 1, tag: str = "",
            jobs: int = 1, from_empty: bool = False, keep_going: bool = False,
            allow: list[str] | None = None) -> Campaign:
    """Fuzzes with afl-fuzz for `seconds`: output (queue, crashes) in build/campaigns/afl/<target>.
    With jobs > 1, one main instance and jobs-1 secondaries share that output directory.
    `from_empty`: one input of zeros instead of the seeds, a fresh output directory, and the run
    ends soon after its first crash (AFL_BENCH_UNTIL_CRASH); each crash file's name keeps the
    milliseconds since the start at which it was found (see crash_seconds).
    AFL++ goes on after a crash by itself; `keep_going` runs every crash file once more with the
    harness recording (EQUIFUZZ_FINDINGS_DIR), so each signature gets its first input, its hits
    (crash files) and its attribution, as under libFuzzer. `allow`: as run_libfuzzer's."""
    if shutil.which("afl-fuzz") is None:
        raise EquifuzzError("afl-fuzz is not installed: run ci/install-deps.sh (Debian package afl++).")
    cdir = campaign_dir(target.name, "afl", tag)
    seeds = cdir / "seeds"
    out = cdir / "out"
    if seeds.exists():
        shutil.rmtree(seeds)
    seeds.mkdir(parents=True)
    n = 0
    for d in [] if from_empty else target.seed_dirs():
        for p in sorted(d.rglob("*")):
            if p.is_file() and 0 < p.stat().st_size <= 1 << 20:
                shutil.copy(p, seeds / f"seed{n:05d}")
                n += 1
    if n == 0:
        (seeds / "seed00000").write_bytes(b"\0" * 16)
    if from_empty:
        shutil.rmtree(out, ignore_errors=True)
    names = afl_instances(jobs)
    env = dict(harness_env("afl"), AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_AFFINITY="1", AFL_QUIET="1", EQUIFUZZ_ALLOW=",".join(allow or []))
    env.pop("EQUIFUZZ_FINDINGS_DIR", None)
    if from_empty:
        env["AFL_BENCH_UNTIL_CRASH"] = "1"
    if target.afl_mutator is not None and os.environ.get("EQUIFUZZ_STRUCTURED") != "0":
        # The target's structured mutations (EQUIFUZZ_MUTATOR), as a stage beside AFL++'s havoc
        # (EQUIFUZZ_STRUCTURED=0 leaves them out, as it does under libFuzzer).
        if not target.afl_mutator.is_file():
            raise EquifuzzError(f"{target.name}'s AFL++ mutator library {target.afl_mutator} is not built: "
                                f"run './equifuzz build afl' first.")
        env["AFL_CUSTOM_MUTATOR_LIBRARY"] = str(target.afl_mutator)
    result = Campaign(target.name, "afl")
    start = time.monotonic()
    _check_writable(cdir)
    if why := _disk_full(cdir):
        raise InfraError(f"{why}: a campaign there could not keep its corpus, crash inputs and log.")
    log_path = _run_log(cdir)
    result.log = log_path
    procs = []
    with open(log_path, "w") as log:
        for i, name in enumerate(names):
            resume = out.joinpath(name, "fuzzer_stats").is_file()
            cmd = ["afl-fuzz", "-i", "-" if resume else str(seeds), "-o", str(out), "-V", str(seconds), "-s", str(seed + i)]
            if name != "default":
                cmd += ["-M" if name == "main" else "-S", name]
            if target.dict.is_file():
                cmd += ["-x", str(target.dict)]
            cmd += ["--", str(binary)]
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            _started(proc)
            procs.append(proc)
        try:
            while any(p.poll() is None for p in procs):
                time.sleep(1)
                if why := _disk_full(out):
                    _abandon(procs, why)
                stats = [_afl_stats(out, name) for name in names]
                if live and any(stats):
                    execs = sum(int(st.get("execs_done", 0)) for st in stats)
                    rate = sum(float(st.get("execs_per_sec", 0)) for st in stats)
                    _progress(f"{target.name}{tag}: {time.monotonic() - start:5.0f}/{seconds}s  runs {execs:>10,}  "
                              f"exec/s {rate:>7,.0f}  corpus {stats[0].get('corpus_count', '?')}  instances {len(names)}")
        except KeyboardInterrupt:
            for p in procs:
                os.killpg(p.pid, signal.SIGINT)
            for p in procs:
                p.wait(timeout=20)
            result.interrupted = True
        for p in procs:
            p.wait()
            _finished(p)
        result.interrupted |= _stopping.is_set()
    if live and sys.stderr.isatty():
        sys.stderr.write("\n")
    result.seconds = round(time.monotonic() - start, 1)
    stats = {name: _afl_stats(out, name) for name in names}
    if not any(stats.values()) and from_empty and "results in a crash" in log_path.read_text(errors="replace"):
        # The binary crashed before fuzzing began, and afl-fuzz refuses to start: on the input of
        # zeros, or on the 4 bytes "##SI" that AFL++'s driver runs once before its fork server
        # (the start of its persistent-mode signature). Either is the catch, at time 0.
        crash_dir = out / names[0] / "crashes"
        crash_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(seeds / "seed00000", crash_dir / "id:000000,time:0,orig:seed00000")
        (crash_dir / "id:000001,time:0,orig:driver-warm-up").write_bytes(b"##SI")
        stats = {name: {"execs_done": "1"} for name in names}
    if not any(stats.values()):
        raise EquifuzzError(f"afl-fuzz did not start on {target.name}; its output is in {log_path}.")
    result.runs = sum(int(st.get("execs_done", 0)) for st in stats.values())
    result.exec_per_sec = int(sum(float(st.get("execs_per_sec", 0)) for st in stats.values()))
    result.corpus = max(int(st.get("corpus_count", 0)) for st in stats.values())
    result.coverage_end = max(int(float(st.get("bitmap_cvg", "0").rstrip("%")) * 100) for st in stats.values())  # hundredths of a percent
    # AFL++ keeps no per-crash log: run each crash once more to tell mismatches from other crashes
    # (with keep_going, recording them: a crash that records nothing is not a mismatch).
    crashes = [c for name in names for c in sorted((out / name / "crashes").glob("id:*"))]
    records = findings_mod.fresh_dir(cdir / "findings") if keep_going else None
    rerun_env = dict(harness_env("rerun", env), **({"EQUIFUZZ_FINDINGS_DIR": str(records)} if records else {}))
    other = []
    for crash in crashes:
        recorded_before = findings_mod.processes_recorded(records) if records else 0
        rerun = run_binary([binary, crash], timeout=60, env_extra=rerun_env)
        sig = next(iter(signatures_in(rerun.stderr)), None)
        if records is not None:
            if rerun.returncode != 0 or findings_mod.processes_recorded(records) == recorded_before:
                other.append(crash)
        elif sig:
            result.mismatches.append(crash)
            result.signatures.append(sig)
        else:
            other.append(crash)
    _settle(result, other, records, None)
    result.other_crashes = other
    cvg = max((st.get("bitmap_cvg", "?") for st in stats.values()), default="?")
    result.note = f"AFL++ bitmap coverage {cvg}" + (f", {len(names)} instances (main + {len(names) - 1} secondaries)" if len(names) > 1 else "")
    return result


class Engine:
    """A fuzzing engine as equifuzz drives it: `run` fuzzes one target's binary for `seconds` and
    returns its Campaign; `jobs` cores for one target, `from_empty` without the seeds,
    `keep_going` records every signature and goes on, `allow` names fields whose differences are
    notes. `config` is the build preset whose binaries it runs; `coverage` what its cov figure is."""
    name = ""
    config = ""
    coverage = ""

    def run(self, target: Target, binary: Path, seconds: int, *, live: bool = True, seed: int = 1, tag: str = "",
            jobs: int = 1, from_empty: bool = False, keep_going: bool = False,
            allow: list[str] | None = None) -> Campaign | None:
        raise NotImplementedError


class LibFuzzer(Engine):
    name, config, coverage = "libfuzzer", "libfuzzer", "coverage (edges)"

    def run(self, target, binary, seconds, *, live=True, seed=1, tag="", jobs=1, from_empty=False, keep_going=False,
            allow=None):
        return run_libfuzzer(target, binary, seconds, live=live, seed=seed, tag=tag, from_empty=from_empty,
                             fork=jobs, keep_going=keep_going, allow=allow)


class AflPlusPlus(Engine):
    name, config, coverage = "afl", "afl", "bitmap coverage"

    def run(self, target, binary, seconds, *, live=True, seed=1, tag="", jobs=1, from_empty=False, keep_going=False,
            allow=None):
        return run_afl(target, binary, seconds, live=live, seed=seed, tag=tag, jobs=jobs, from_empty=from_empty,
                       keep_going=keep_going, allow=allow)


ENGINES: dict[str, Engine] = {e.name: e for e in (LibFuzzer(), AflPlusPlus())}
