"""The ci/ scripts speak the tool's exit codes (ci/README.md): 0 clean, 1 a finding, 3 could not
build or run. A set-up that cannot install what it needs is 3, never 1 (which a reader takes for
a finding)."""
import os
import shutil
import subprocess

import pytest

from conftest import ROOT

BASICS = ("bash", "id", "sed", "dirname", "env", "cat")


@pytest.mark.skipif(any(shutil.which(b) is None for b in BASICS), reason="needs " + ", ".join(BASICS))
def test_install_deps_without_apt_get_and_with_packages_missing_is_one_sentence_exit_3(tmp_path):
    # A PATH with the shell's basics only: cmake, git, the compilers... are missing, and there is no
    # apt-get to install them.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for b in BASICS:
        (bin_dir / b).symlink_to(shutil.which(b))
    proc = subprocess.run([shutil.which("bash"), str(ROOT / "ci" / "install-deps.sh"), "--tests"], capture_output=True,
                          text=True, env={"PATH": str(bin_dir), "HOME": str(tmp_path)})
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1
    # As root: no apt-get; as a user: no sudo either (the PATH has none).
    assert proc.stderr.startswith(("install-deps: no apt-get here; install these Debian 12 packages (or equivalents): cmake",
                                   "install-deps: these Debian packages are missing and I am not root: cmake"))


def test_every_exit_of_the_set_up_scripts_is_a_tool_code():
    for script in ("install-deps.sh", "test.sh"):
        text = (ROOT / "ci" / script).read_text()
        codes = {int(c) for c in __import__("re").findall(r"\bexit (\d+)", text)}
        assert codes <= {0, 1, 2, 3}, (script, codes)
    assert "exit 1" not in (ROOT / "ci" / "install-deps.sh").read_text()
