"""The tool never reports green when it checked nothing or lost a finding, and its exit codes say
which: 0 clean, 1 finding, 2 usage, 3 infrastructure, 130 interrupted (README, --help)."""
import json
import os
import shlex
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from harness_lines import echo, finding_line

sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import engines  # noqa: E402
from equifuzz.project import InfraError  # noqa: E402


@pytest.fixture(autouse=True)
def own_campaigns(tmp_path, monkeypatch):
    """Campaigns of these tests live in a temporary directory, not in build/campaigns."""
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path / "campaigns"))


def run_tool(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, str(ROOT / "equifuzz"), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=None if env is None else {**os.environ, **env})


def one_sentence(proc):
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [l for l in proc.stderr.splitlines() if l.startswith("equifuzz: ")]
    assert lines, proc.stderr


def fake_build(tmp_path: Path, target: str, binary: Path, corpus: Path | None = None,
               variants: list[dict] | None = None) -> Path:
    """A configured build whose manifest names one target with the given binary, corpus and variants."""
    bdir = tmp_path / "build"
    bdir.mkdir()
    corpus = corpus or tmp_path / "corpus"
    manifest = {"version": 1, "targets": [{"name": target, "pair": "xor", "binary": str(binary), "corpus": str(corpus),
                                           "regressions": str(tmp_path / "regressions"),
                                           "dict": str(tmp_path / "none.dict"), "variants": variants or []}]}
    (bdir / "equifuzz-targets.json").write_text(json.dumps(manifest))
    return bdir


def fake_fuzzer(tmp_path: Path, body: str) -> Path:
    """A stand-in for a libFuzzer binary: a shell script that prints what a run would print."""
    script = tmp_path / "fake-fuzzer"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.mark.parametrize("verb", ["fuzz", "replay", "coverage", "mutants"])
def test_unknown_names_are_refused_before_any_build(verb, tmp_path):
    args = ["--pair", "nosuchpair"] if verb == "mutants" else ["nosuchtarget"]
    proc = run_tool(verb, *args)
    assert proc.returncode == 2, proc.stderr
    one_sentence(proc)
    assert "equifuzz: building" not in proc.stderr


def test_a_build_dir_that_is_not_a_build_is_an_error_not_a_redirect(tmp_path):
    proc = run_tool("--build-dir", tmp_path / "missing", "replay")
    assert proc.returncode == 2
    one_sentence(proc)
    assert "is not a configured equifuzz build" in proc.stderr


def test_replay_with_nothing_to_replay_fails(tmp_path, build_dir):
    bdir = fake_build(tmp_path, "xor_apply", build_dir / "fuzz_targets" / "xor_apply", corpus=tmp_path / "moved-away")
    proc = run_tool("--build-dir", bdir, "replay", "xor_apply")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "NOTHING TO REPLAY" in proc.stdout
    assert "xor_apply has no input to replay" in proc.stderr


def test_a_fuzz_binary_that_fails_at_once_is_a_failure(tmp_path):
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, "echo 'cannot start' >&2; exit 1"))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "FAILED TO RUN" in proc.stdout
    assert "libFuzzer exited 1 after 0 runs without a crash file or a report" in proc.stdout


def test_a_mismatch_whose_crash_file_was_not_written_is_still_a_finding(tmp_path):
    body = ("echo '#5 NEW cov: 10 ft: 10 corp: 2/2b exec/s: 0' >&2\n"
            + echo(finding_line("xor_apply:oneshot:original|optimized")) + "\n"
            "echo 'stat::number_of_executed_units: 5' >&2\nexit 1")
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FINDING" in proc.stdout
    assert "but no crash file was written; the input is lost" in proc.stdout


def test_a_corpus_that_cannot_grow_is_a_failure(tmp_path):
    # libFuzzer says it added new inputs, but none reached the campaign's corpus directory.
    body = ("echo '#3 NEW cov: 10 ft: 10 corp: 2/2b exec/s: 0' >&2\n"
            "echo 'stat::number_of_executed_units: 3' >&2\nexit 0")
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "the corpus cannot grow there" in proc.stdout


def test_a_target_named_twice_runs_once_and_a_clean_run_is_zero(tmp_path):
    body = "echo 'stat::number_of_executed_units: 7' >&2\necho 'stat::average_exec_per_sec: 7' >&2\nexit 0"
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "xor", "xor_apply", "--seconds", "1", "--quiet")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("| xor_apply ") == 1


def test_quiet_campaigns_at_once_still_say_when_each_starts_and_ends(tmp_path):
    body = "echo 'stat::number_of_executed_units: 7' >&2\necho 'stat::average_exec_per_sec: 7' >&2\nexit 0"
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet", "-j", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "equifuzz: [1/1] xor_apply: fuzzing for 1 s" in proc.stderr
    assert "equifuzz: [1/1] xor_apply: 7 runs, 7 exec/s, cov 0, ok" in proc.stderr


def test_campaign_directories_are_checked_for_writing_before_a_run(tmp_path):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    with pytest.raises(InfraError, match="cannot write to"):
        engines._check_writable(not_a_dir)
    engines._check_writable(tmp_path)  # a writable directory passes and keeps nothing
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_campaign_on_a_full_disk_stops_at_once_naming_the_directory(tmp_path, monkeypatch):
    # More free space asked for than any disk has: the campaign must not start, and says where.
    monkeypatch.setenv("EQUIFUZZ_MIN_FREE_MB", str(2 ** 40))
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, "sleep 60"))
    start = time.monotonic()
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "30", "--quiet")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert time.monotonic() - start < 20
    one_sentence(proc)
    assert f"the file system holding {tmp_path / 'campaigns' / 'libfuzzer' / 'xor_apply'} is full" in proc.stderr
    assert "None" not in proc.stderr


def test_a_crash_an_earlier_run_also_met_is_this_runs_finding_too(tmp_path):
    # libFuzzer names a crash file after its input's hash: a second run that crashes on the same
    # input rewrites the same file, and that is still this run's crash (mutants --libfuzzer once
    # said NOT CAUGHT for a mutant whose hunt met the input an earlier hunt had saved).
    body = ('for a in "$@"; do case "$a" in -artifact_prefix=*) p="${a#-artifact_prefix=}";; esac; done\n'
            'printf x > "${p}crash-0123"\n'
            + echo(finding_line("xor_apply:oneshot:original|optimized")) + "\n"
            "echo 'stat::number_of_executed_units: 5' >&2\nexit 1")
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    env = {"EQUIFUZZ_CAMPAIGNS_DIR": str(tmp_path / "campaigns")}
    for _ in range(2):
        proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet", env=env)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "crash-0123" in proc.stdout and "the input is lost" not in proc.stdout, proc.stdout


def test_two_runs_of_one_target_keep_separate_logs(tmp_path):
    first = engines._run_log(tmp_path)
    assert str(os.getpid()) in first.name and first.name.startswith("run-")


def test_a_mutant_reports_reproduce_line_reproduces_as_printed(tool, build_dir):
    crash = next((ROOT / "corpora" / "regressions" / "xor_apply").glob("mutant-chunk_offset_ignored-*"))
    proc = tool("reproduce", "xor_apply", crash, "--mutant", "chunk_offset_ignored", check=1)
    line = next(l for l in proc.stdout.splitlines() if l.startswith("reproduce: "))
    assert line.endswith("--mutant chunk_offset_ignored"), line
    argv = shlex.split(line.removeprefix("reproduce: "))
    assert argv[0] == "./equifuzz"
    if "--build-dir" not in argv:  # the default build: say which one the test runs on
        argv[1:1] = ["--build-dir", str(build_dir)]
    again = subprocess.run([sys.executable, str(ROOT / "equifuzz"), *argv[1:]], capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "reproduces a mismatch in xor_apply (variant chunk_offset_ignored)" in again.stdout


def test_every_verb_help_names_the_exit_codes_and_an_example():
    for verb in ["list", "build", "fuzz", "replay", "reproduce", "mutants", "seeds", "coverage", "throughput", "verify"]:
        out = run_tool(verb, "--help").stdout
        assert "examples:\n  ./equifuzz" in out, verb
        assert "130  interrupted" in out and "3    infrastructure failure" in out, verb


def test_throughput_runs_each_input_the_given_times_and_writes_json(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(3):
        (corpus / f"in{i}").write_bytes(bytes([i]))
    # The stand-in records its arguments: -runs=N and every input file. One run of each input
    # measures the start-up, then the --runs run; exec/s is taken from the difference.
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, f'echo "$@" >> {tmp_path}/args'), corpus=corpus)
    proc = run_tool("--build-dir", bdir, "throughput", "xor_apply", "--runs", "7", "--json", tmp_path / "t.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calls = [line.split() for line in (tmp_path / "args").read_text().splitlines()]
    assert [c[0] for c in calls] == ["-runs=1", "-runs=7"] and all(len(c) == 4 for c in calls)
    figures = json.loads((tmp_path / "t.json").read_text())
    assert figures["targets"][0]["inputs"] == 3 and figures["targets"][0]["runs_per_input"] == 7
    assert figures["targets"][0]["exec_per_sec"] > 0
    # The stand-in takes no time: the figure is flagged as too short a measure to compare builds on.
    assert "note: measured for less than 1 s: xor_apply" in proc.stdout and "raise --runs" in proc.stdout


def test_throughput_does_not_flag_a_measure_of_a_second_or_more(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "in0").write_bytes(b"\0")
    body = 'case "$1" in -runs=1) ;; *) sleep 1.1 ;; esac'
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body), corpus=corpus)
    proc = run_tool("--build-dir", bdir, "throughput", "xor_apply", "--runs", "3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "| xor_apply " in proc.stdout and "note: measured for less than" not in proc.stdout


def test_throughput_fuzz_mode_fuzzes_a_copy_of_the_seeds_with_a_fixed_seed(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(4):
        (corpus / f"in{i}").write_bytes(bytes([i]))
    # The stand-in records its arguments and the corpus it was handed, and reports libFuzzer's
    # execution count: 5 for the start-up run, its -runs value otherwise.
    script = (f'echo "$@" >> {tmp_path}/args\n'
              f'for a in "$@"; do [ -d "$a" ] && ls "$a" | wc -l >> {tmp_path}/corpus_sizes; done\n'
              'n=$(echo "$1" | cut -d= -f2); [ "$n" = 1 ] && n=5\n'
              'echo "stat::number_of_executed_units: $n" >&2')
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, script), corpus=corpus)
    proc = run_tool("--build-dir", bdir, "throughput", "--mode", "fuzz", "xor_apply", "--runs", "10", "--seed", "9",
                    "--json", tmp_path / "t.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calls = [line.split() for line in (tmp_path / "args").read_text().splitlines()]
    assert [c[0] for c in calls] == ["-runs=1", "-runs=40"]
    assert all("-seed=9" in c for c in calls)
    assert (tmp_path / "corpus_sizes").read_text().split() == ["4", "4"]
    assert sorted(p.name for p in corpus.iterdir()) == ["in0", "in1", "in2", "in3"]  # the seeds untouched
    figures = json.loads((tmp_path / "t.json").read_text())
    assert figures["mode"] == "fuzz" and figures["targets"][0]["executions"] == 35
    assert figures["targets"][0]["exec_per_sec"] > 0


def test_throughput_fuzz_mode_keeps_a_failing_input_and_exits_1(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "in0").write_bytes(b"x")
    # The stand-in loads the seeds (-runs=1) cleanly, then "finds" a mismatch: it writes the input
    # where -artifact_prefix says and aborts, as libFuzzer does.
    script = ('for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="${a#-artifact_prefix=}";; esac; done\n'
              'echo "stat::number_of_executed_units: 2" >&2\n'
              '[ "$1" = "-runs=1" ] && exit 0\n'
              'printf boom > "${prefix}crash-123"\n'
              'echo "==== equifuzz MISMATCH ====" >&2; exit 1')
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, script), corpus=corpus)
    proc = run_tool("--build-dir", bdir, "throughput", "--mode", "fuzz", "xor_apply", "--runs", "5")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    kept = tmp_path / "campaigns" / "libfuzzer" / "xor_apply-throughput" / "crashes" / "crash-123"
    assert kept.read_bytes() == b"boom"
    assert "the failing input is kept in" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_throughput_refuses_fewer_than_two_runs(tmp_path):
    proc = run_tool("throughput", "xor_apply", "--runs", "1")
    assert proc.returncode == 2 and "at least 2" in proc.stderr, proc.stdout + proc.stderr


def test_an_interrupted_fuzz_run_prints_its_partial_table_and_exits_130(tmp_path):
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, "echo '#1 INITED cov: 5 ft: 5 corp: 1/1b exec/s: 0' >&2\nsleep 30"))
    proc = subprocess.Popen([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(bdir), "fuzz", "xor_apply", "--seconds", "60",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, out + err
    assert "| xor_apply " in out and "interrupted" in out
    assert "corpus and crashes kept in" in out


def test_mutants_on_a_build_without_mutants_names_the_command_that_builds_them(tmp_path):
    bdir = fake_build(tmp_path, "xor_apply", tmp_path / "unused")
    proc = run_tool("--build-dir", bdir, "mutants", "--libfuzzer", "--pair", "xor")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    one_sentence(proc)
    assert "--cmake-arg=-DEQUIFUZZ_MUTANTS=ON" in proc.stderr


def test_an_unreadable_input_is_a_usage_error_not_a_finding(tmp_path, build_dir):
    if os.geteuid() != 0 or subprocess.run(["setpriv", "--version"], capture_output=True).returncode != 0:
        pytest.skip("needs root and setpriv to run the tool as another user")
    secret = tmp_path / "secret"
    secret.write_bytes(b"\x01\x02")
    secret.chmod(0)
    tmp_path.chmod(0o755)
    proc = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, str(ROOT / "equifuzz"),
                           "--build-dir", str(build_dir), "reproduce", "xor_apply", str(secret)],
                          capture_output=True, text=True, cwd="/")
    if "Permission denied" in proc.stderr and "equifuzz" not in proc.stderr.split("Permission denied")[0][-200:]:
        pytest.skip("the checkout is not readable by another user here")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot be read (Permission denied)" in proc.stderr


def test_an_immutable_corpus_directory_stops_the_run_before_it_starts(tmp_path):
    body = "echo 'stat::number_of_executed_units: 7' >&2\nexit 0"
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    corpus = tmp_path / "campaigns" / "libfuzzer" / "xor_apply" / "corpus"
    corpus.mkdir(parents=True)
    if subprocess.run(["chattr", "+i", str(corpus)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this file system")
    try:
        proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "--quiet")
    finally:
        subprocess.run(["chattr", "-i", str(corpus)])
    assert proc.returncode == 3, proc.stdout + proc.stderr
    one_sentence(proc)
    assert f"cannot write to {corpus}" in proc.stderr


def test_verify_without_the_coverage_tools_is_one_sentence_before_any_build(tmp_path, monkeypatch):
    """The reach needs llvm-profdata and llvm-cov: without them verify says so before it builds
    anything (not after an hour of building and fuzzing); --no-coverage goes on without them."""
    import argparse
    from equifuzz import project, verify
    from equifuzz.commands import verify as verify_command
    from equifuzz.project import EquifuzzError
    monkeypatch.setitem(project.TOOLCHAIN, "coverage", [("llvm-cov-nowhere", "llvm-19")])
    built = []
    monkeypatch.setattr(verify, "build_for_verify", lambda args: built.append(args) or (_ for _ in ()).throw(InfraError("stop here")))
    p = argparse.ArgumentParser()
    p.add_argument("--build-dir")
    verify_command.arguments(p)
    with pytest.raises(EquifuzzError) as e:
        verify.cmd_verify(p.parse_args(["xor", "--minutes", "1", "--out", str(tmp_path / "out")]))
    assert "llvm-cov-nowhere" in str(e.value) and "llvm-19" in str(e.value) and not built
    with pytest.raises(InfraError, match="stop here"):
        verify.cmd_verify(p.parse_args(["xor", "--minutes", "1", "--no-coverage", "--out", str(tmp_path / "out2")]))
    assert len(built) == 1


def test_reproduce_lists_an_inputs_notes_and_does_not_count_them(tmp_path):
    # An input whose sides differ only where Core promises nothing: the harness prints the note's
    # line and goes on (exit 0); reproduce lists each note with what differed, and exits 0.
    note = finding_line("xor_apply:internal:f:a|b", "internal", "internal", ("core-differ",), stop=False,
                        detail="f: a 1; b 2; input: key 00")
    body = "echo 'equifuzz: internal state differs in xor_apply: field f' >&2\n" + echo(note) + "\nexit 0"
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body))
    (tmp_path / "input").write_bytes(b"x")
    proc = run_tool("--build-dir", bdir, "reproduce", "xor_apply", tmp_path / "input")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "internal: xor_apply:internal:f:a|b: f: a 1; b 2; input: key 00" in proc.stdout
    assert "only notes (internal): the differences above are listed, not counted." in proc.stdout
    assert "equifuzz-finding" not in proc.stdout
