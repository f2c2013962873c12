"""AFL++'s side of `mutants --from-empty` and of campaigns: when a crash was found, the option's bad use, and
the target's mutator library handed to afl-fuzz."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import engines  # noqa: E402


def test_crash_seconds_reads_afl_names_and_keeps_the_default_otherwise():
    assert engines.crash_seconds(Path("id:000003,sig:06,src:000001,time:1534,execs:27088,op:havoc,rep:2"), 60.0) == 1.534
    assert engines.crash_seconds(Path("id:000000,time:0,orig:seed00000"), 60.0) == 0.0
    assert engines.crash_seconds(Path("crash-0a1b2c"), 12.5) == 12.5  # libFuzzer's names carry no time


def test_afl_hunts_only_from_an_empty_corpus():
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "mutants", "--engine", "afl"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "equifuzz: --engine afl hunts from an empty corpus: use it with --from-empty."


class _FakeAfl:
    """Stands in for afl-fuzz's process: records its command and environment, ends at once."""
    calls: list = []

    def __init__(self, cmd, stdout=None, stderr=None, env=None, start_new_session=False):
        _FakeAfl.calls.append((cmd, env))
        self.pid = 0

    def poll(self):
        return 0

    def wait(self, timeout=None):
        return 0


def _afl_env(tmp_path, monkeypatch, library):
    from equifuzz.project import EquifuzzError, Target
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path / "campaigns"))
    monkeypatch.setattr(engines.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(engines.subprocess, "Popen", _FakeAfl)
    _FakeAfl.calls = []
    target = Target("tx_check_raw", "tx_check", tmp_path / "tx_check_raw", tmp_path / "none", tmp_path / "none",
                    tmp_path / "none.dict", [], library)
    with pytest.raises(EquifuzzError) as e:
        engines.run_afl(target, target.binary, 1, live=False, from_empty=True)
    return e.value, (_FakeAfl.calls[0][1] if _FakeAfl.calls else None)


def test_afl_gets_the_targets_mutator_library(tmp_path, monkeypatch):
    library = tmp_path / "libtx_check_raw_afl_mutator.so"
    library.write_bytes(b"")
    error, env = _afl_env(tmp_path, monkeypatch, library)
    assert "did not start" in str(error)  # the fake afl-fuzz wrote no statistics
    assert env["AFL_CUSTOM_MUTATOR_LIBRARY"] == str(library)
    monkeypatch.setenv("EQUIFUZZ_STRUCTURED", "0")  # the engine's own mutations only
    _, env = _afl_env(tmp_path, monkeypatch, library)
    assert "AFL_CUSTOM_MUTATOR_LIBRARY" not in env


def test_afl_refuses_a_mutator_library_that_is_not_built(tmp_path, monkeypatch):
    error, env = _afl_env(tmp_path, monkeypatch, tmp_path / "libtx_check_raw_afl_mutator.so")
    assert env is None
    assert str(error).startswith("tx_check_raw's AFL++ mutator library ") and str(error).endswith(
        "is not built: run './equifuzz build afl' first.")
