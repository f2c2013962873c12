"""Seeds for the CheckTransaction targets: real transactions and blocks from tests/data/bitcoin/."""
from __future__ import annotations

import json
from typing import Iterator

from . import DATA, random_inputs


def _compact_size(b: bytes, i: int) -> tuple[int, int]:
    p = b[i]
    if p < 253:
        return p, i + 1
    width = {253: 2, 254: 4, 255: 8}[p]
    return int.from_bytes(b[i + 1:i + 1 + width], "little"), i + 1 + width


def _tx_end(b: bytes, i: int) -> int:
    """Index just past the serialized transaction starting at i (witness allowed)."""
    i += 4
    n_in, j = _compact_size(b, i)
    extended = n_in == 0 and b[j] != 0
    if extended:
        n_in, j = _compact_size(b, j + 1)
    for _ in range(n_in):
        j += 36
        n, j = _compact_size(b, j)
        j += n + 4
    n_out, j = _compact_size(b, j)
    for _ in range(n_out):
        j += 8
        n, j = _compact_size(b, j)
        j += n
    if extended:
        for _ in range(n_in):
            items, j = _compact_size(b, j)
            for _ in range(items):
                n, j = _compact_size(b, j)
                j += n
    return j + 4


def real_blocks() -> Iterator[bytes]:
    """Every block in the block-file layout files (magic, LE32 length, block)."""
    for name in ("blk_0_to_4.dat", "277647.dat"):
        blob = (DATA / name).read_bytes()
        i = 0
        while i + 8 <= len(blob):
            size = int.from_bytes(blob[i + 4:i + 8], "little")
            yield blob[i + 8:i + 8 + size]
            i += 8 + size


def block_transactions(block: bytes) -> Iterator[bytes]:
    count, i = _compact_size(block, 80)
    for _ in range(count):
        end = _tx_end(block, i)
        yield block[i:end]
        i = end


def outputs(tx: bytes) -> Iterator[tuple[int, bytes]]:
    """Each output of a serialized transaction: its amount and script."""
    n_in, j = _compact_size(tx, 4)
    if n_in == 0 and tx[j] != 0:  # segwit marker and flag
        n_in, j = _compact_size(tx, j + 1)
    for _ in range(n_in):
        n, j = _compact_size(tx, j + 36)
        j += n + 4
    n_out, j = _compact_size(tx, j)
    for _ in range(n_out):
        amount = int.from_bytes(tx[j:j + 8], "little")
        n, j = _compact_size(tx, j + 8)
        yield amount, tx[j:j + n]
        j += n


def json_transactions() -> Iterator[bytes]:
    for name in ("tx_valid.json", "tx_invalid.json"):
        for entry in json.loads((DATA / name).read_text()):
            if isinstance(entry[0], list):
                yield bytes.fromhex(entry[1])
    yield many_inputs_bitcoin_tx()


def many_inputs_bitcoin_tx() -> bytes:
    """many_inputs_tx.hex is a Decred transaction (1-byte tree after each outpoint): take its 89
    real outpoints into a Bitcoin transaction with one output."""
    raw = bytes.fromhex((DATA / "many_inputs_tx.hex").read_text().strip())
    n, i = _compact_size(raw, 4)
    prevouts = [raw[i + 41 * k:i + 41 * k + 36] for k in range(n)]
    tx = b"\x01\x00\x00\x00" + bytes([n])
    for p in prevouts:
        tx += p + b"\x00" + b"\xff\xff\xff\xff"
    return tx + b"\x01" + (1000).to_bytes(8, "little") + b"\x01\x51" + bytes(4)


def tx_check_raw() -> Iterator[bytes]:
    yield from json_transactions()
    for block in real_blocks():
        for n, tx in enumerate(block_transactions(block)):
            if n < 40:  # the first transactions of each block are plenty
                yield tx


def tx_check_build() -> Iterator[bytes]:
    yield from random_inputs("tx_check_build", [0, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096])


def tx_check_block() -> Iterator[bytes]:
    # A trailing 0x00 makes the decoder take the raw path (its first choice is read from the end).
    for block in real_blocks():
        yield block + b"\x00"
    yield from random_inputs("tx_check_block", [0, 32, 64, 128, 256, 512, 1024, 2048, 4096])


GENERATORS = {"tx_check_raw": tx_check_raw, "tx_check_build": tx_check_build, "tx_check_block": tx_check_block}
