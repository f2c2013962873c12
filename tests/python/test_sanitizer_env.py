"""One builder of the harness's sanitizer environment (tools/equifuzz/sanitizer_env.py): each
purpose's options, a user's own options kept where they always were, and no ASAN_OPTIONS (or
UBSAN_OPTIONS, TSAN_OPTIONS) string written anywhere else in the tools."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import sanitizer_env  # noqa: E402
from equifuzz.sanitizer_env import harness_env  # noqa: E402

OPTIONS = re.compile(r"\b[AUT]SAN_OPTIONS\b")


def test_each_purpose_gets_its_options():
    assert harness_env("replay", {})["ASAN_OPTIONS"] == "handle_abort=1:detect_leaks=1"
    assert harness_env("listing", {})["ASAN_OPTIONS"] == "handle_abort=1:detect_leaks=0"
    assert "allocator_may_return_null=1" in harness_env("campaign", {})["ASAN_OPTIONS"]
    assert harness_env("afl", {})["ASAN_OPTIONS"].startswith("abort_on_error=1")
    assert harness_env("campaign", {})["UBSAN_OPTIONS"] == "print_stacktrace=1"
    with pytest.raises(ValueError):
        harness_env("fuzz", {})


def test_a_users_options_win_for_replay_and_not_for_a_campaign():
    mine = {"ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "halt_on_error=0", "PATH": "/bin"}
    assert harness_env("replay", mine)["ASAN_OPTIONS"] == "detect_leaks=0"
    assert harness_env("replay", mine)["UBSAN_OPTIONS"] == "halt_on_error=0"
    assert harness_env("campaign", mine)["ASAN_OPTIONS"] != "detect_leaks=0"
    assert harness_env("campaign", mine)["PATH"] == "/bin"


def test_tsan_options_get_the_symbolizer_once(monkeypatch, tmp_path):
    symbolizer = tmp_path / "llvm-symbolizer"
    symbolizer.write_text("")
    monkeypatch.setattr(sanitizer_env, "TSAN_SYMBOLIZER", symbolizer)
    env = harness_env("replay", {"TSAN_OPTIONS": "halt_on_error=1"})
    assert env["TSAN_OPTIONS"] == f"external_symbolizer_path={symbolizer}:halt_on_error=1"
    assert harness_env("replay", env)["TSAN_OPTIONS"] == env["TSAN_OPTIONS"]


def writers_outside_the_builder(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "tools").rglob("*.py")):
        if path.name == "sanitizer_env.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if OPTIONS.search(code):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    return found


def test_no_sanitizer_options_are_written_outside_the_builder():
    assert writers_outside_the_builder(ROOT) == [], "use equifuzz.sanitizer_env.harness_env"


def test_the_check_finds_a_stray_writer(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "stray.py").write_text('env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")\n')
    (tmp_path / "tools" / "sanitizer_env.py").write_text('ASAN_OPTIONS = "the builder may"\n')
    assert writers_outside_the_builder(tmp_path) == ['tools/stray.py:1: env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")']
