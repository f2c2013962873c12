"""A user points EQUIFUZZ_XOR_OPTIMIZED at their own adapter: the targets build against it and
the corpora replay clean. Done as a user would: a separate configure with the option."""
import shutil
import subprocess

import pytest

from conftest import ROOT


@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None, reason="needs cmake and ninja")
def test_option_builds_targets_against_another_adapter(tmp_path):
    adapter = ROOT / "differential" / "xor" / "adapters" / "words_no_peel.cpp"
    bdir = tmp_path / "build"
    cfg = subprocess.run(["cmake", "-S", ROOT, "-B", bdir, "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF", "-DEQUIFUZZ_MUTANTS=OFF",
                          "-DEQUIFUZZ_SANITIZERS=", f"-DEQUIFUZZ_XOR_OPTIMIZED={adapter}"], capture_output=True, text=True)
    assert cfg.returncode == 0, cfg.stderr
    assert f"optimized = {adapter}" in cfg.stdout
    subprocess.run(["cmake", "--build", bdir, "--target", "xor_apply", "xor_key"], check=True, capture_output=True)
    for target in ("xor_apply", "xor_key"):
        run = subprocess.run([bdir / "fuzz_targets" / target, "-q", ROOT / "corpora" / target,
                              ROOT / "corpora" / "regressions" / target], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert "no mismatch" in run.stderr


def test_option_rejects_a_missing_file(tmp_path):
    cfg = subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "b", "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF",
                          "-DEQUIFUZZ_XOR_OPTIMIZED=/nonexistent/adapter.cpp"], capture_output=True, text=True)
    assert cfg.returncode != 0
    assert "EQUIFUZZ_XOR_OPTIMIZED names a file that does not exist" in cfg.stderr


def test_only_pairs_names_pairs_that_exist(tmp_path):
    # The tsan preset builds two pairs (EQUIFUZZ_ONLY_PAIRS); a misspelt one is refused in one
    # sentence before anything is fetched, instead of building nothing for it.
    cfg = subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "b", "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF",
                          "-DEQUIFUZZ_ONLY_PAIRS=utxo_flush,prevout_fetchh"], capture_output=True, text=True)
    assert cfg.returncode != 0
    assert "EQUIFUZZ_ONLY_PAIRS names 'prevout_fetchh', which is not a pair" in cfg.stderr
