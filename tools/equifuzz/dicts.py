"""Fuzzing dictionaries (fuzz_targets/<target>.dict), generated from the constants in our headers.

A dictionary entry is a byte string the engines insert or overwrite whole (libFuzzer's -dict,
afl-fuzz's -x). Each target's dictionary is the union of a few token families below; a family
reads its constants from the header that defines them (the element limits from script/side.h,
MAX_MONEY from common/transaction.h, the block-file magic from blockfile/side.h, ...), so a
changed constant changes the dictionary, and `./equifuzz dicts --check` (run by the test suite)
fails until the committed files are regenerated.

Integers are written little-endian: that is the wire format, and also how a FuzzedDataProvider
decoder reads an integer from the input's tail (its first integer is the input's last bytes, most
significant first), so the same token serves the raw targets and the decoded ones.
"""
from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from pathlib import Path

from .project import ROOT, EquifuzzError, declared_targets

DIFFERENTIAL = ROOT / "differential"
Token = tuple[str, bytes]


# --- reading constants -------------------------------------------------------------------------

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.LShift: operator.lshift,
        ast.BitOr: operator.or_}


def _evaluate(expr: str, names: dict[str, int], where: str) -> int:
    """An integer constant expression as our headers write them: literals (with ' separators and
    u/ull suffixes), names defined earlier in the same header, + - * << |, parentheses, braces."""
    text = re.sub(r"'(.)'", lambda m: str(ord(m.group(1))), expr)
    text = re.sub(r"(?<=[0-9a-fA-F])'(?=[0-9a-fA-F])", "", text)
    text = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:u|ull|ul|ll|l)\b", r"\1", text, flags=re.I)
    text = re.sub(r"\b(?:uint64_t|size_t|uint32_t)\s*\{([^{}]*)\}", r"(\1)", text)

    def walk(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        raise EquifuzzError(f"{where}: cannot read the constant expression '{expr}' (dicts.py reads literals, "
                            f"names from the same header and + - * << |).")

    try:
        return walk(ast.parse(text.strip(), mode="eval"))
    except SyntaxError:
        raise EquifuzzError(f"{where}: cannot read the constant expression '{expr}'.") from None


def constants(header: str) -> dict[str, int]:
    """Every integer `constexpr <type> NAME{expr};` and `OP_X = value` enumerator of a file under
    differential/ that _evaluate can read (others, such as numeric_limits, are left out), by name."""
    path = DIFFERENTIAL / header
    text = path.read_text()
    names: dict[str, int] = {}
    for m in re.finditer(r"constexpr\s+(?:unsigned|u?int\d+_t|size_t)\s+(\w+)\s*\{([^;{}]*(?:\{[^{}]*\}[^;{}]*)*)\};", text):
        try:
            names[m.group(1)] = _evaluate(m.group(2), names, f"differential/{header}")
        except EquifuzzError:
            continue
    for m in re.finditer(r"\b(OP_\w+)\s*=\s*(0x[0-9a-fA-F]+)", text):
        names[m.group(1)] = int(m.group(2), 16)
    return names


def constant(header: str, name: str) -> int:
    values = constants(header)
    if name not in values:
        raise EquifuzzError(f"differential/{header} no longer defines {name} as a readable integer constant, which "
                            f"fuzz_targets' dictionaries are built from: update its family in tools/equifuzz/dicts.py.")
    return values[name]


def byte_array(header: str, name: str) -> bytes:
    """`constexpr std::array<uint8_t, N> NAME{0x.., ...};` as bytes."""
    m = re.search(rf"\b{name}\s*\{{([^}}]*)\}};", (DIFFERENTIAL / header).read_text())
    if not m:
        raise EquifuzzError(f"differential/{header} no longer defines the byte array {name} (tools/equifuzz/dicts.py).")
    return bytes(int(v, 0) for v in m.group(1).split(","))


def le(value: int, width: int) -> bytes:
    return (value % (1 << (8 * width))).to_bytes(width, "little")


def compact_size(n: int) -> bytes:
    if n < 253:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + le(n, 2)
    if n <= 0xFFFFFFFF:
        return b"\xfe" + le(n, 4)
    return b"\xff" + le(n, 8)


def varint(n: int) -> bytes:
    """Bitcoin's VarInt (spec: base 128, most significant group first, one subtracted per carried group)."""
    out = [n & 0x7F]
    n >>= 7
    while n:
        n -= 1
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes(reversed(out))


# --- token families ----------------------------------------------------------------------------

def compact_sizes() -> list[Token]:
    """CompactSize prefixes at their boundaries, the non-canonical ones and the largest size read."""
    limit = constant("common/compact_size.h", "MAX_COMPACT_SIZE")
    out = [(f"cs_{n}", compact_size(n)) for n in (252, 253, 0xFFFF, 0x10000, 0xFFFFFFFF, 0x100000000)]
    out += [("cs_fd_zero", b"\xfd" + le(0, 2)), ("cs_fd_noncanonical", b"\xfd" + le(252, 2)),
            ("cs_fe_noncanonical", b"\xfe" + le(0xFFFF, 4)), ("cs_ff_noncanonical", b"\xff" + le(0xFFFFFFFF, 8)),
            ("cs_ff_max", b"\xff" + le((1 << 64) - 1, 8)),
            ("cs_max_size", compact_size(limit)), ("cs_over_max_size", compact_size(limit + 1))]
    return out


def varints() -> list[Token]:
    return [("varint_u32_max", varint(0xFFFFFFFF)), ("varint_u32_over", varint(0x100000000)),
            ("varint_u64_max", varint((1 << 64) - 1)), ("varint_u64_over", varint(1 << 64)),
            ("varint_continue", b"\x80"), ("varint_16511", varint(16511))]


def transaction_wire() -> list[Token]:
    """The transaction format's read rules: versions, the witness marker and flags, empty tails."""
    return [("version_1", le(1, 4)), ("version_2", le(2, 4)),
            ("null_index", le(constant("common/transaction.h", "NULL_INDEX"), 4)),
            ("witness_marker_flag", b"\x00\x01"), ("witness_flag_unknown", b"\x00\x02"), ("witness_flag_both", b"\x00\x03"),
            ("empty_tx_tail", b"\x00" * 6), ("one_empty_stack", b"\x01\x00")]


def transaction_values() -> list[Token]:
    """Field values that decide CheckTransaction's verdicts: amounts at MAX_MONEY, the null prevout.
    (Not for the serialization targets: measured, they slow a deserializer's mutant down.)"""
    h = "common/transaction.h"
    money, null = constant(h, "MAX_MONEY"), constant(h, "NULL_INDEX")
    return [("max_money", le(money, 8)), ("max_money_plus_1", le(money + 1, 8)), ("value_negative_1", le(-1, 8)),
            ("null_prevout", b"\x00" * 32 + le(null, 4))]


def script_ops() -> list[Token]:
    """Every opcode our interpreter names, and push headers for the element limits either side."""
    ops = {k: v for k, v in constants("script/opcodes.h").items() if k.startswith("OP_")}
    limit = constant("script/side.h", "MAX_SCRIPT_ELEMENT_SIZE")
    large = constant("script/side.h", "LARGE_ELEMENT_SIZE")
    out = [(name.lower(), bytes([value])) for name, value in sorted(ops.items(), key=lambda kv: kv[1])]
    for n in (limit, limit + 1, large, large + 1):
        out.append((f"push_{n}", bytes([ops["OP_PUSHDATA2"]]) + le(n, 2)))
        out.append((f"size_{n}", le(n, 2)))
    out += [("push_75", b"\x4b"), ("pushdata1_76", bytes([ops["OP_PUSHDATA1"], 76])),
            ("pushdata1_255", bytes([ops["OP_PUSHDATA1"], 255])), ("pushdata4_521", bytes([ops["OP_PUSHDATA4"]]) + le(limit + 1, 4))]
    return out


def block_files() -> list[Token]:
    h = "blockfile/side.h"
    chunk, buffer = constant(h, "WRITE_CHUNK"), constant(h, "DEFAULT_BUFFER")
    out = [("magic", byte_array(h, "MAGIC"))]
    for name, n in (("write_chunk", chunk), ("buffer", buffer)):
        out += [(f"{name}", le(n, 4)), (f"{name}_minus_1", le(n - 1, 4)), (f"{name}_plus_1", le(n + 1, 4))]
    out.append(("record_header", le(constant("common/block_file.h", "BLOCK_FILE_RECORD_HEADER"), 4)))
    return out


def utxo_batches() -> list[Token]:
    mib = constant("utxo_flush/side.h", "MiB")
    model = constants("utxo_flush/model.h")
    out = []
    for n in (16, 32):
        out += [(f"batch_{n}mib", le(n * mib, 4)), (f"batch_{n}mib_minus_1", le(n * mib - 1, 4))]
    out += [("db_coin", bytes([model["DB_COIN"]])), ("db_best_block", bytes([model["DB_BEST_BLOCK"]])),
            ("db_head_blocks", bytes([model["DB_HEAD_BLOCKS"]])), ("batch_header", le(model["BATCH_HEADER_BYTES"], 4)),
            ("max_script_size", le(constant("utxo_flush/cache.h", "MAX_SCRIPT_SIZE"), 4))]
    return out


def prevout_values() -> list[Token]:
    """The block's height and hash byte, and the script heads the decoder's choices start with."""
    h = "prevout_fetch/side.h"
    return [("block_height", le(constant(h, "BLOCK_HEIGHT"), 4)), ("block_hash_byte", bytes([constant(h, "BLOCK_HASH_BYTE")])),
            ("p2pkh_head", b"\x76\xa9\x14"), ("p2wpkh_head", b"\x00\x14"), ("op_return", b"\x6a")]


def prevector_sizes() -> list[Token]:
    """The inline capacities either side of #32279 (28 and 36), one below and above each."""
    sizes = [constant(f"prevector/{side}.cpp", "INLINE_SIZE") for side in ("original", "optimized")]
    out = []
    for n in sizes:
        for d in (-1, 0, 1):
            out += [(f"size_{n + d}", bytes([n + d])), (f"size_{n + d}_u32", le(n + d, 4))]
    out.append(("max_elements", le(constant("prevector/side.h", "MAX_ELEMENTS"), 4)))
    return out


def obfuscation_keys() -> list[Token]:
    n = constant("xor/side.h", "KEY_SIZE")
    return [(f"key_size_{k}", le(k, 8)) for k in (0, n - 1, n, n + 1)] + [("key_zero", b"\x00" * n), ("key_ones", b"\xff" * n)]


def siphash_constants() -> list[Token]:
    h = "siphash/side.h"
    salt = re.search(r"COINS_CACHE_DETERMINISTIC_SALT\{(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\}", (DIFFERENTIAL / h).read_text())
    if not salt:
        raise EquifuzzError(f"differential/{h} no longer defines COINS_CACHE_DETERMINISTIC_SALT (tools/equifuzz/dicts.py).")
    return [("uj_final", le(constant(h, "UJ_FINAL"), 8)), ("salt_k0", le(int(salt.group(1), 16), 8)),
            ("salt_k1", le(int(salt.group(2), 16), 8)), ("len_8", le(8, 4)), ("len_32", le(32, 4)), ("len_36", le(36, 4))]


def coins_view_values() -> list[Token]:
    """The output indexes at VARINT's edges, the script heads the decoder forms, and the DB prefixes."""
    model = constants("utxo_flush/model.h")
    return ([(f"n_{n}", le(n, 4)) for n in (127, 128, 16_383, 16_384)] +
            [("p2pkh_head", b"\x76\xa9\x14"), ("p2sh_head", b"\xa9\x14"), ("p2wpkh_head", b"\x00\x14"), ("op_return", b"\x6a"),
             ("db_coin", bytes([model["DB_COIN"]])), ("db_best_block", bytes([model["DB_BEST_BLOCK"]]))])


FAMILIES: dict[str, tuple[str, Callable[[], list[Token]]]] = {
    "compact_size": ("CompactSize prefixes at their boundaries", compact_sizes),
    "varint": ("VarInt edges", varints),
    "tx_wire": ("the transaction format's read rules", transaction_wire),
    "tx_values": ("transaction values that decide CheckTransaction's verdicts", transaction_values),
    "script": ("opcodes and push headers around the element limits", script_ops),
    "blockfile": ("the block-file magic and the write and buffer sizes", block_files),
    "utxo": ("batch sizes at 16 and 32 MiB and the database's key prefixes", utxo_batches),
    "prevector": ("sizes around the inline capacities", prevector_sizes),
    "prevout": ("the block's height and hash byte, and script heads", prevout_values),
    "coins_view": ("output indexes at VARINT's edges, script heads and the database's key prefixes", coins_view_values),
    "xor": ("obfuscation key sizes and keys", obfuscation_keys),
    "siphash": ("the jumboblock finalizer and the coins-cache salt", siphash_constants),
}

#: Which families each target's inputs can use: raw wire bytes, script bytes inside a decoded input,
#: or integers a decoder reads.
TARGET_FAMILIES: dict[str, list[str]] = {
    "xor_apply": ["xor"], "xor_key": ["xor"],
    "tx_check_raw": ["tx_values", "tx_wire", "compact_size"], "tx_check_build": ["tx_values", "tx_wire", "compact_size"],
    "tx_check_block": ["tx_values", "tx_wire", "compact_size"],
    "siphash_sip24": ["siphash"], "siphash_uj": ["siphash"],
    "prevector_ops": ["prevector"], "prevector_ops_wide": ["prevector"], "prevector_script": ["prevector", "script"],
    "script_eval": ["script"], "script_build": ["script"], "script_spend": ["script", "tx_wire"],
    "script_signed": ["script", "tx_wire"],
    "serialize_values": ["compact_size", "varint"], "serialize_decode": ["compact_size", "varint", "tx_wire"],
    "serialize_block": ["compact_size", "varint", "tx_wire"],
    "blockfile_write": ["blockfile"], "blockfile_read": ["blockfile"], "blockfile_faults": ["blockfile"],
    "blockfile_records": ["blockfile", "compact_size", "tx_wire"],
    "utxo_flush_batches": ["utxo"], "utxo_flush_steps": ["utxo"], "utxo_flush_disk": ["utxo"], "utxo_flush_faults": ["utxo"],
    "prevout_fetch": ["prevout"],
    "coins_view": ["coins_view"], "coins_view_faults": ["coins_view"],
}


def _quote(data: bytes) -> str:
    return "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '"\\' else f"\\x{b:02x}" for b in data)


def render(target: str) -> str:
    """The dictionary file of one target (AFL++/libFuzzer syntax: name="bytes")."""
    families = TARGET_FAMILIES.get(target)
    if families is None:
        raise EquifuzzError(f"target {target} has no dictionary families in tools/equifuzz/dicts.py (TARGET_FAMILIES).")
    lines = [f"# {target}: generated by './equifuzz dicts' from the constants in differential/ (tools/equifuzz/dicts.py);",
             "# do not edit by hand."]
    seen: set[bytes] = set()
    for family in families:
        what, tokens = FAMILIES[family]
        lines.append(f"# {family}: {what}")
        for name, data in tokens():
            if data in seen:
                continue
            seen.add(data)
            lines.append(f'{family}_{name}="{_quote(data)}"')
    return "\n".join(lines) + "\n"


def dict_path(target: str) -> Path:
    return ROOT / "fuzz_targets" / f"{target}.dict"


def stale() -> list[str]:
    """Targets whose committed dictionary differs from what the constants give (or is missing),
    and dictionaries of targets that no longer exist."""
    targets = declared_targets()
    out = [t for t in sorted(targets) if not dict_path(t).is_file() or dict_path(t).read_text() != render(t)]
    out += [p.stem for p in sorted((ROOT / "fuzz_targets").glob("*.dict")) if p.stem not in targets]
    return out


def write_all() -> list[str]:
    """Writes every target's dictionary; returns the targets whose file changed."""
    changed = []
    for target in sorted(declared_targets()):
        text = render(target)
        path = dict_path(target)
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
            changed.append(target)
    return changed
