"""Named choices (tools/equifuzz/choices.py, harness/equifuzz/choices.h): every pair's
choices.json loads, a bad one is refused in one sentence, the header a switch must cover is
what the compiler checks, and the seed writer gives the integers the C++ encoder does."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, str(__import__("conftest").ROOT / "tools"))

from equifuzz import choices  # noqa: E402

ROOT = choices.ROOT
PAIRS = sorted(p.parent.name for p in (ROOT / "differential").glob("*/choices.json"))


def test_some_pairs_declare_choices():
    assert "utxo_flush" in PAIRS


@pytest.mark.parametrize("pair", PAIRS)
def test_every_choices_file_loads_and_makes_a_header(pair):
    tables = choices.load(pair)
    ns = choices.namespace_of((ROOT / "differential" / pair / "choices.json").read_text(), pair)
    text = choices.header(tables, pair, ns)
    for name, table in tables.items():
        assert f"enum class {name} : uint8_t {{ {', '.join(v.name for v in table.values)} }};" in text
        assert f"struct ChoiceList<::{ns}::{name}>" in text
        assert table.span > 0


def test_first_integer_of_each_value_follows_the_weights():
    op = choices.load("utxo_flush")["OpKind"]
    assert [op.first(n) for n in ("ADD", "SPEND", "ACCESS")] == [0, 5, 8]
    assert op.span == 10
    fault = choices.load("utxo_flush")["FaultKind"]
    assert fault.first("APPEND") == 0  # NONE has weight 0 and takes no integer
    with pytest.raises(choices.ChoiceError, match="weight 0"):
        fault.first("NONE")
    with pytest.raises(choices.ChoiceError, match="has no value MOVE"):
        op.first("MOVE")


@pytest.mark.parametrize("text, words", [
    ("{", "is not JSON"),
    ('{"choices": {}}', "at least one choice"),
    ('{"choices": {"bad-name": {"about": "x", "values": [["A", 1, "a"]]}}}', "not a C++ identifier"),
    ('{"choices": {"K": {"values": [["A", 1, "a"]]}}}', "needs \"about\""),
    ('{"choices": {"K": {"about": "x", "values": [["A", -1, "a"]]}}}', "weight >= 0"),
    ('{"choices": {"K": {"about": "x", "values": [["A", true, "a"]]}}}', "weight >= 0"),
    ('{"choices": {"K": {"about": "x", "values": [["A", 1, "a"], ["A", 2, "b"]]}}}', "names a value twice"),
    ('{"choices": {"K": {"about": "x", "values": [["A", 0, "a"]]}}}', "at least one of weight > 0"),
])
def test_a_bad_choices_file_is_refused_in_one_sentence(text, words):
    with pytest.raises(choices.ChoiceError, match=re.escape(words)):
        choices.parse(text, "differential/p/choices.json")


def test_the_generator_says_what_is_wrong_without_a_traceback(tmp_path):
    bad = tmp_path / "p" / "choices.json"
    bad.parent.mkdir()
    bad.write_text('{"choices": {"K": {"about": "x", "values": [["A", -1, "a"]]}}}')
    run = subprocess.run([sys.executable, str(ROOT / "tools/equifuzz/choices.py"), str(bad), str(tmp_path / "out.h")],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.startswith("choices: differential/p/choices.json: choice K:") and "Traceback" not in run.stderr
    assert not (tmp_path / "out.h").exists()


def _compile(tmp_path, body: str) -> subprocess.CompletedProcess:
    compiler = shutil.which("clang++-19") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no clang++ here")  # the toolchain check names it; the C++ build needs it anyway
    (tmp_path / "gen" / "equifuzz" / "choices").mkdir(parents=True, exist_ok=True)
    (tmp_path / "gen/equifuzz/choices/utxo_flush.h").write_text(choices.header(choices.load("utxo_flush"), "utxo_flush"))
    (tmp_path / "t.cpp").write_text('#include <equifuzz/choices/utxo_flush.h>\nusing namespace equifuzz::utxo_flush;\n' + body)
    return subprocess.run([compiler, "-std=c++20", "-fsyntax-only", "-Wall", "-Werror=switch", f"-I{ROOT}/differential/harness",
                           f"-I{tmp_path}/gen", str(tmp_path / "t.cpp")], capture_output=True, text=True)


def test_a_switch_that_misses_a_value_does_not_compile(tmp_path):
    every = "int F(OpKind k) { switch (k) { case OpKind::ADD: return 0; case OpKind::SPEND: return 1; case OpKind::ACCESS: return 2; } return 3; }\n"
    assert _compile(tmp_path, every).returncode == 0
    missing = "int F(OpKind k) { switch (k) { case OpKind::ADD: return 0; case OpKind::SPEND: return 1; } return 3; }\n"
    run = _compile(tmp_path, missing)
    assert run.returncode != 0 and "ACCESS" in run.stderr
