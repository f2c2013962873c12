"""AFL++'s side of `mutants --from-empty`: when a crash was found, and the option's bad use."""
import subprocess
import sys
from pathlib import Path

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
