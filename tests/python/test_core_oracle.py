"""The Bitcoin Core oracle is optional: without a Rust toolchain, or when turned off, the configure
says so in one line and leaves out what needs it (never silently); EQUIFUZZ_CORE_ORACLE=ON makes
a missing toolchain an error."""
import shutil
import subprocess

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None, reason="needs cmake and ninja")


def configure(tmp_path, *options):
    return subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "b", "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF",
                           "-DEQUIFUZZ_SANITIZERS=", *options], capture_output=True, text=True)


def oracle_lines(cfg):
    return [line for line in (cfg.stdout + cfg.stderr).splitlines() if line.startswith("equifuzz: Bitcoin Core oracle")]


def test_off_says_so_once_and_leaves_out_its_mutants(tmp_path):
    cfg = configure(tmp_path, "-DEQUIFUZZ_CORE_ORACLE=OFF")
    assert cfg.returncode == 0, cfg.stderr
    assert oracle_lines(cfg) == ["equifuzz: Bitcoin Core oracle OFF: EQUIFUZZ_CORE_ORACLE=OFF"]
    assert "mutant script/within_inclusive_top left out" in cfg.stderr
    assert "EQUIFUZZ_HAVE_CORE_ORACLE" not in (tmp_path / "b" / "build.ninja").read_text()


def test_no_rust_toolchain_is_one_line(tmp_path):
    cfg = configure(tmp_path, "-DEQUIFUZZ_CARGO=/nonexistent/cargo")
    assert cfg.returncode == 0, cfg.stderr
    assert oracle_lines(cfg) == ["equifuzz: Bitcoin Core oracle OFF: EQUIFUZZ_CARGO=/nonexistent/cargo does not exist"]


def test_a_cargo_too_old_for_the_lock_files_is_named_with_its_version(tmp_path):
    # Debian 12's own cargo package is 1.65: it cannot read a version 4 Cargo.lock.
    old = tmp_path / "cargo"
    old.write_text("#!/bin/sh\necho 'cargo 1.65.0'\n")
    old.chmod(0o755)
    cfg = configure(tmp_path, f"-DEQUIFUZZ_CARGO={old}")
    assert cfg.returncode == 0, cfg.stderr
    assert oracle_lines(cfg) == [f"equifuzz: Bitcoin Core oracle OFF: no cargo 1.78 or newer, which the locked crates need "
                                 f"(found {old} 1.65.0); ci/install-deps.sh installs Debian 12's cargo-web and rustc-web"]


def test_on_without_rust_toolchain_stops_the_configure(tmp_path):
    cfg = configure(tmp_path, "-DEQUIFUZZ_CORE_ORACLE=ON", "-DEQUIFUZZ_CARGO=/nonexistent/cargo")
    assert cfg.returncode != 0
    assert "Bitcoin Core oracle: EQUIFUZZ_CARGO=/nonexistent/cargo does not exist" in " ".join(cfg.stderr.split())
