"""Debian 12's own Rust toolchain is enough: with only /usr/bin on the PATH (cargo-web and
rustc-web, which ci/install-deps.sh installs) and an older cargo ahead of it, the configure takes
the new one and has every registry Core tree and the Core oracle. CI's debian:12 container has no
other Rust, so there this is the toolchain everything runs on; by hand, on Debian 12:
    sudo apt-get install cargo-web rustc-web && python3 -m pytest tests/python/test_toolchain.py
It shares the default cargo home's registry (no download when the crates are already there)."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

DEBIAN_CARGO = Path("/usr/bin/cargo")


def version(cargo: Path) -> tuple[int, int] | None:
    try:
        out = subprocess.run([str(cargo), "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    m = re.match(r"cargo (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


@pytest.mark.skipif(not DEBIAN_CARGO.is_file() or (version(DEBIAN_CARGO) or (0, 0)) < (1, 78),
                    reason="no /usr/bin/cargo 1.78 or newer (Debian 12: apt-get install cargo-web rustc-web)")
def test_debians_cargo_web_builds_every_core_tree_and_the_oracle_past_an_older_cargo(tmp_path):
    old = tmp_path / "bin" / "cargo"
    old.parent.mkdir()
    old.write_text("#!/bin/sh\necho 'cargo 1.65.0'\n")  # Debian 12's `cargo` package
    old.chmod(0o755)
    env = {**os.environ, "PATH": f"{old.parent}:/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "CARGO_HOME": os.environ.get("CARGO_HOME", str(Path.home() / ".cargo"))}
    env.pop("EQUIFUZZ_CORE_GIT_REMOTE", None)
    cfg = subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "b", "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF",
                          "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_CORE_SIDES=ON", "-DEQUIFUZZ_CORE_ORACLE=ON",
                          "-DEQUIFUZZ_CORE_TREE_SOURCE=registry"], capture_output=True, text=True, env=env)
    out = cfg.stdout + cfg.stderr
    assert cfg.returncode == 0, out[-3000:]
    assert f"equifuzz: cargo {'.'.join(map(str, version(DEBIAN_CARGO)))}" in out and ": /usr/bin/cargo" in out
    trees = re.findall(r"equifuzz: Core tree (kernel-[\d.]+):", out)
    assert trees == ["kernel-0.0.10", "kernel-0.0.20", "kernel-0.1.1", "kernel-0.4.1"], trees
    assert "equifuzz: Bitcoin Core oracle ON" in out
