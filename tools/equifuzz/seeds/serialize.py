"""Seeds for the serialization targets: real blocks and transactions from tests/data/bitcoin/,
the spec's CompactSize and VarInt vectors, and the transaction read-rule cases."""
from __future__ import annotations

from typing import Iterator

from . import random_inputs, rng
from .tx_check import block_transactions, json_transactions, real_blocks

# Kind bytes: the index of each kind in serialize::Value (differential/serialize/side.h).
BOOL, U8, I8, U16, I16, U32, I32, U64, I64 = range(9)
COMPACT, COMPACT_UNCHECKED, VARINT32, VARINT64, UINT256, BYTES, VEC_BYTES, SCRIPT = range(9, 17)
OUTPOINT, TXIN, TXOUT, TX_WITNESS, TX_NO_WITNESS, HEADER, BLOCK = range(17, 24)

COMPACT_VECTORS = ["00", "fc", "fdfd00", "fdffff", "fe00000100", "feffffffff", "ff0000000001000000",
                   "fe00000002", "fe01000002", "fd0000", "fdfc00", "fe00000000", "feffff0000",
                   "ff0000000000000000", "ffffffff0100000000", "fe00100000", "ffffffffffffffffff", "fd", "fe01"]
VARINT_VECTORS = ["00", "7f", "8000", "a334", "82fe7f", "c7e756", "86ffc7e756", "8efefefe7f",
                  "fefefefefefefefe7f", "80fefefefefefefefe7f", "807f", "8100", "fe7f", "ff00", "ff7f",
                  "8efefeff00", "80fefefefefefefeff00", "82a731", "ff", "8080808080808080808080"]
TX_RULES = ["01000000" "00" "00" "00000000",          # empty tx under allow_witness
            "01000000" "00" "02" "00" "00" "00000000",  # flag 0x02: unknown optional data
            "01000000" "00" "03" "00" "00" "00000000",  # flag 0x03, no inputs: superfluous witness
            "01000000" "00" "01" "01" + "00" * 36 + "00" "ffffffff" "00" "00" "00000000",  # one empty stack
            "01000000" "00" "01" "01" + "00" * 36 + "00" "ffffffff" "00" "01" "01" "51" "00000000"]


def _kind(kind: int, payload: bytes) -> bytes:
    return bytes([kind]) + payload


def serialize_decode() -> Iterator[bytes]:
    for h in COMPACT_VECTORS:
        for k in (COMPACT, COMPACT_UNCHECKED, BYTES):
            yield _kind(k, bytes.fromhex(h))
    for h in VARINT_VECTORS:
        for k in (VARINT32, VARINT64):
            yield _kind(k, bytes.fromhex(h))
    for h in TX_RULES:
        for k in (TX_WITNESS, TX_NO_WITNESS):
            yield _kind(k, bytes.fromhex(h))
    r = rng("serialize_decode")
    for k in range(BLOCK + 1):  # every kind with a few short random payloads
        for n in (0, 1, 2, 5, 9, 40):
            yield _kind(k, bytes(r.getrandbits(8) for _ in range(n)))
    for n, tx in enumerate(json_transactions()):
        if n % 4 == 0:
            yield _kind(TX_WITNESS if n % 8 == 0 else TX_NO_WITNESS, tx)
    for block in real_blocks():
        yield _kind(HEADER, block[:80])
        yield _kind(BLOCK, block)
        for n, tx in enumerate(block_transactions(block)):
            if n < 12:
                yield _kind(TX_WITNESS, tx)
                yield _kind(TXIN, tx[5:5 + 36 + 1 + tx[41] + 4] if len(tx) > 41 else tx)
    yield _kind(VEC_BYTES, bytes.fromhex("03" "00" "01aa" "fdfd00") + bytes(253))


def serialize_values() -> Iterator[bytes]:
    yield from random_inputs("serialize_values", [0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512,
                                                  768, 1024, 2048, 4096] * 3)


def serialize_block() -> Iterator[bytes]:
    for block in real_blocks():
        yield b"\x00" + block
    for data in random_inputs("serialize_block", [0, 16, 64, 128, 256, 512, 1024, 2048, 4096]):
        yield b"\x01" + data


GENERATORS = {"serialize_values": serialize_values, "serialize_decode": serialize_decode,
              "serialize_block": serialize_block}
