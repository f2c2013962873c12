import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import manifest  # noqa: E402


@pytest.fixture(scope="session")
def build_dir() -> Path:
    """The replay build under test (ctest passes its own; default build/replay). One configured by
    another equifuzz fails each test that needs it, with the manifest reader's sentence; a fuzzing
    build is refused: its binaries fuzz (into the committed corpus a test names) where a replay
    binary runs each input once."""
    d = Path(os.environ.get("EQUIFUZZ_BUILD_DIR", ROOT / "build" / "replay"))
    if not manifest.configured(d):
        pytest.skip(f"no replay build in {d}")
    engine = manifest.read(d).engine
    if engine != "replay":
        pytest.exit(f"EQUIFUZZ_BUILD_DIR={d} is a {engine} build; the tests need a replay build "
                    f"(its binaries would fuzz into the corpora the tests name)", returncode=4)
    return d


@pytest.fixture(scope="session")
def build_manifest(build_dir) -> manifest.Manifest:
    """The manifest of the replay build under test, as the tool reads it."""
    return manifest.read(build_dir)


@pytest.fixture
def tool(build_dir):
    def run(*args, check=None):
        proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(build_dir), *map(str, args)],
                              capture_output=True, text=True, cwd=ROOT)
        if check is not None:
            assert proc.returncode == check, proc.stdout + proc.stderr
        return proc
    return run


def planted_tree(tree: Path, dest: Path, rel: str, old: str, new: str) -> Path:
    """A reviewer's tree made from Core tree `tree`: its src/ and CMakeLists.txt copied to `dest`,
    with the one occurrence of `old` in src/<rel> replaced by `new` (a planted bug or API change).
    Returns `dest`."""
    shutil.copytree(tree / "src", dest / "src")
    shutil.copy(tree / "CMakeLists.txt", dest / "CMakeLists.txt")
    path = dest / "src" / rel
    text = path.read_text()
    assert text.count(old) == 1, f"{rel} has {text.count(old)} occurrence(s) of {old!r}, not one"
    path.write_text(text.replace(old, new))
    return dest

