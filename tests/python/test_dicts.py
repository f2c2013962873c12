"""fuzz_targets/<target>.dict: generated from our headers' constants, current, and parseable."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import dicts  # noqa: E402
from equifuzz.project import EquifuzzError, declared_targets  # noqa: E402


def parse(text: str) -> dict[str, bytes]:
    """A dictionary file as libFuzzer and afl-fuzz read it: name="bytes" with \\xNN escapes."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'(\w+)="((?:[ -!#-\[\]-~]|\\x[0-9a-f]{2})*)"', line)
        assert m, f"not a dictionary line: {line!r}"
        out[m.group(1)] = bytes(int(e[2:], 16) if e.startswith("\\x") else ord(e)
                                for e in re.findall(r"\\x[0-9a-f]{2}|.", m.group(2)))
    return out


def test_every_target_has_a_current_dictionary():
    assert set(dicts.TARGET_FAMILIES) == set(declared_targets())
    assert dicts.stale() == []
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "dicts", "--check"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "dictionaries are current" in proc.stdout


def test_encodings_known_answers():
    # CompactSize and VarInt as the spec writes them (tx-check-serialization-obfuscation.md, 3.2 and 3.3).
    assert dicts.compact_size(252) == b"\xfc"
    assert dicts.compact_size(253) == b"\xfd\xfd\x00"
    assert dicts.compact_size(0x10000) == b"\xfe\x00\x00\x01\x00"
    assert dicts.compact_size(0x100000000) == b"\xff\x00\x00\x00\x00\x01\x00\x00\x00"
    assert dicts.varint(127) == b"\x7f"
    assert dicts.varint(128) == b"\x80\x00"
    assert dicts.varint(16511) == b"\xff\x7f"
    assert dicts.varint(16512) == b"\x80\x80\x00"
    assert dicts.varint(0xFFFFFFFF) == b"\x8e\xfe\xfe\xfe\x7f"


def test_tokens_carry_the_constants():
    tx = parse(dicts.dict_path("tx_check_raw").read_text())
    assert tx["tx_values_max_money"] == (21_000_000 * 100_000_000).to_bytes(8, "little")
    assert tx["tx_wire_null_index"] == b"\xff\xff\xff\xff"
    script = parse(dicts.dict_path("script_eval").read_text())
    assert script["script_push_521"] == b"\x4d\x09\x02" and script["script_push_8001"] == b"\x4d\x41\x1f"
    assert script["script_op_checksig"] == b"\xac"
    assert parse(dicts.dict_path("blockfile_records").read_text())["blockfile_magic"] == b"\xf9\xbe\xb4\xd9"
    assert parse(dicts.dict_path("prevector_ops").read_text())["prevector_size_37"] == b"\x25"
    utxo = parse(dicts.dict_path("utxo_flush_steps").read_text())
    assert utxo["utxo_batch_16mib"] == (16 << 20).to_bytes(4, "little")
    for target in declared_targets():  # every file parses, and no token twice
        tokens = parse(dicts.dict_path(target).read_text())
        assert tokens and len(set(tokens.values())) == len(tokens), target


def test_a_changed_constant_makes_the_dictionaries_stale(tmp_path, monkeypatch):
    copy = tmp_path / "differential"
    shutil.copytree(ROOT / "differential", copy, ignore=shutil.ignore_patterns("*.cpp", "mutants", "core*"),
                    dirs_exist_ok=True)
    shutil.copy(ROOT / "differential" / "prevector" / "original.cpp", copy / "prevector" / "original.cpp")
    shutil.copy(ROOT / "differential" / "prevector" / "optimized.cpp", copy / "prevector" / "optimized.cpp")
    header = copy / "script" / "side.h"
    header.write_text(header.read_text().replace("LARGE_ELEMENT_SIZE{8000}", "LARGE_ELEMENT_SIZE{10000}"))
    monkeypatch.setattr(dicts, "DIFFERENTIAL", copy)
    assert parse(dicts.render("script_eval"))["script_push_10001"] == b"\x4d\x11\x27"
    assert "script_eval" in dicts.stale() and "tx_check_raw" not in dicts.stale()


def test_a_constant_that_is_gone_is_one_sentence(tmp_path, monkeypatch):
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "transaction.h").write_text("inline constexpr int64_t COIN{100'000'000};\n")
    monkeypatch.setattr(dicts, "DIFFERENTIAL", tmp_path)
    with pytest.raises(EquifuzzError, match=r"^differential/common/transaction.h no longer defines MAX_MONEY as a readable"):
        dicts.transaction_values()
