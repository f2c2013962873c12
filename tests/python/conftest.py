import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def build_dir() -> Path:
    """The replay build under test (ctest passes its own; default build/replay)."""
    d = Path(os.environ.get("EQUIFUZZ_BUILD_DIR", ROOT / "build" / "replay"))
    if not (d / "equifuzz-targets.json").is_file():
        pytest.skip(f"no replay build in {d}")
    return d


@pytest.fixture
def tool(build_dir):
    def run(*args, check=None):
        proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(build_dir), *map(str, args)],
                              capture_output=True, text=True, cwd=ROOT)
        if check is not None:
            assert proc.returncode == check, proc.stdout + proc.stderr
        return proc
    return run
