"""The command-line tool: bad input ends in one plain sentence; reports are readable."""
import subprocess
import sys

import pytest

from conftest import ROOT

VERBS = ["list", "build", "fuzz", "replay", "reproduce", "mutants", "seeds", "coverage", "throughput", "verify"]


def no_traceback(proc):
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_has_help(verb):
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), verb, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    assert "usage: equifuzz " + verb in proc.stdout


def test_unknown_target_is_one_sentence(tool):
    proc = tool("replay", "no_such_target", check=2)
    no_traceback(proc)
    assert proc.stderr.strip().count("\n") == 0
    assert "unknown target 'no_such_target'" in proc.stderr and "xor_apply" in proc.stderr


def test_unknown_build_config(tool):
    proc = tool("build", "gcc-please", check=2)
    no_traceback(proc)
    assert "unknown configuration 'gcc-please'" in proc.stderr


def test_missing_input_file(tool):
    proc = tool("reproduce", "xor_apply", "/nonexistent/crash-1", check=2)
    no_traceback(proc)
    assert "is not a file" in proc.stderr


def test_missing_corpus_directory_in_replay_binary(build_dir):
    binary = build_dir / "fuzz_targets" / "xor_apply"
    proc = subprocess.run([binary, "/nonexistent/corpus"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "equifuzz: no such file or directory: /nonexistent/corpus"


def test_empty_file_is_a_valid_input(tool, tmp_path):
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    proc = tool("reproduce", "xor_apply", empty, check=0)
    assert "does not reproduce a mismatch" in proc.stdout


def test_several_mib_input_is_handled(tool, tmp_path):
    big = tmp_path / "big"
    big.write_bytes(bytes(range(256)) * (5 * 4096))  # 5 MiB
    for target in ("xor_apply", "xor_key"):
        proc = tool("reproduce", target, big, check=0)
        assert "does not reproduce a mismatch" in proc.stdout


def test_malformed_manifest_is_one_sentence(tmp_path):
    (tmp_path / "equifuzz-targets.json").write_text("{not json")
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(tmp_path), "replay"],
                          capture_output=True, text=True)
    assert proc.returncode == 3  # a broken build: infrastructure, not usage
    no_traceback(proc)
    assert "is not valid JSON" in proc.stderr


def test_mutant_reproducer_prints_a_readable_report(tool):
    crash = next((ROOT / "corpora" / "regressions" / "xor_apply").glob("mutant-chunk_offset_ignored-*"))
    proc = tool("reproduce", "xor_apply", crash, "--mutant", "chunk_offset_ignored", check=1)
    out = proc.stdout
    # The parts a reviewer reads: what ran, on what, side by side, where it first differs, one signature.
    for expected in ("==== equifuzz MISMATCH ====", "target : xor_apply", "decoded input:", "key_offset",
                     "original", "optimized", ">> chunked", "first difference: field 'chunked', byte",
                     "signature: equifuzz-mismatch xor_apply:chunked"):
        assert expected in out, expected
    # The same input is clean on the real sides.
    assert "does not reproduce" in tool("reproduce", "xor_apply", crash, check=0).stdout


def test_list_names_every_target_and_mutant(tool):
    out = tool("list", "--mutants", check=0).stdout
    assert "xor_apply" in out and "xor_key" in out and "zero_key_check_inverted" in out


@pytest.mark.parametrize("verb", ["replay", "coverage"])
@pytest.mark.parametrize("engine", ["libfuzzer", "afl"])
def test_corpus_replay_refuses_a_fuzzing_build_before_it_can_write_into_corpora(tmp_path, verb, engine):
    # A libFuzzer or AFL++ binary handed corpus directories fuzzes and writes new inputs into them.
    (tmp_path / "equifuzz-targets.json").write_text('{"version": 1, "engine": "%s", "targets": []}' % engine)
    before = sorted(p.name for p in (ROOT / "corpora" / "xor_apply").iterdir())
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(tmp_path), verb, "xor_apply"],
                          capture_output=True, text=True)
    no_traceback(proc)
    if (verb, engine) == ("replay", "libfuzzer"):
        # replay hands a libFuzzer binary each file instead (the tsan build's replay): accepted.
        assert "runs every input of a corpus directory once" not in proc.stderr
    else:
        assert proc.returncode == 2
        assert f"is a {engine} build: '{verb}' runs every input of a corpus directory once" in proc.stderr
    assert sorted(p.name for p in (ROOT / "corpora" / "xor_apply").iterdir()) == before
