"""Seeds for the prevout fetch target.

Its decoder reads every choice through the FuzzedDataProvider, so random inputs of assorted
lengths give databases, middle caches and blocks of assorted shapes; constant inputs pick the
edge choices. A few scenarios are written choice by choice (fdp.FdpWriter, in the order
differential/prevout_fetch/pair.cpp's Decode reads them, each named choice by its name in
differential/prevout_fetch/choices.json): a block spending database coins in
ConnectBlock's order with 8 workers, the same permuted, one spending an earlier transaction's
output (in a block that connects, and in one that does not), one spending the same outpoint
twice, and blocks whose pool was interrupted before them (StartFetching's Submit refused).

And the shapes of a real block (277647.dat in tests/data/bitcoin/): windows of five consecutive
transactions of it, each with its real inputs (up to the decoder's four), its spends of an
earlier transaction of the window (the block's own chains, 86 -> 87 and 107 -> 112 -> 113 among
them) and its real outputs (up to three, their amounts and scripts). The block does not carry
its prevouts' coins: the outpoints it spends from elsewhere get real outputs of the same block as
their coins, the first eight in the database and the rest added to the middle cache, so that the
window connects; distinct outpoints are named by the decoder's 24 external outpoints in order.
"""
from __future__ import annotations

from typing import Iterator

import hashlib

from ..choices import load
from . import random_inputs
from .fdp import FdpWriter
from .tx_check import _compact_size, block_transactions, outputs, real_blocks

WORKERS = [0, 1, 2, 8, 16]
CHOICES = load("prevout_fetch")


def _coin(w: FdpWriter, amount: int, byte: int) -> None:
    w.int_in_range(0, 1_000_000, 800_000, 4)   # height
    w.boolean(False)                             # coinbase
    w.boolean(True)                              # a small amount
    w.int_in_range(0, 100_000, amount, 8)
    w.integral(byte, 1)                          # the script's byte
    w.choice(CHOICES["ScriptKind"], "P2PKH")


def _external(w: FdpWriter, ident: int, n: int) -> None:
    w.int_in_range(1, 6, ident, 1)
    w.int_in_range(0, 3, n, 4)


def _scenario(inputs: list[list[tuple]], workers: int, pattern: str, order: list[int] | None = None,
              interrupted: bool = False) -> bytes:
    """Coins x1:0..x4:0 in the database, x1:0 spent in the middle cache, and a block: the
    coinbase, then one transaction per list of inputs, each ('x', id, n), ('tx', j, n) or ('dup', k, inputs so far - 1)."""
    w = FdpWriter()
    w.int_in_range(0, 8, 4, 8)
    for ident in range(1, 5):
        _external(w, ident, 0)
        _coin(w, 1000 * ident, ident)
    w.int_in_range(0, 6, 1, 8)
    w.choice(CHOICES["MiddleOpKind"], "SPEND")
    w.boolean(False)                             # not picked from the database's list
    _external(w, 1, 0)
    txs = 1 + len(inputs)
    w.int_in_range(1, 6, txs, 8)
    w.int_in_range(1, 3, 1, 8)                   # the coinbase's one output
    _coin(w, 5000, 0x42)
    for vin in inputs:
        w.int_in_range(1, 4, len(vin), 8)
        for ref in vin:
            if ref[0] == "x":
                w.choice(CHOICES["InputSource"], "EXTERNAL")
                _external(w, ref[1], ref[2])
            elif ref[0] == "tx":
                w.choice(CHOICES["InputSource"], "IN_BLOCK")
                w.int_in_range(0, txs - 1, ref[1], 8)
                w.int_in_range(0, 3, ref[2], 4)
            else:
                w.choice(CHOICES["InputSource"], "SECOND_SPEND")
                w.int_in_range(0, ref[2], ref[1], 8)
        w.int_in_range(1, 3, 1, 8)
        _coin(w, 700, 0x55)
    w.int_in_range(0, len(WORKERS) - 1, WORKERS.index(workers), 8)
    w.choice(CHOICES["Pattern"], pattern)
    if pattern == "PERMUTED":
        for i in range(txs, 1, -1):
            w.int_in_range(0, i - 1, (order or [0] * txs)[i - 1], 8)
    elif pattern == "STOP":
        w.int_in_range(0, txs, 1, 8)
    w.choice(CHOICES["FlushOverlay"], "YES")
    if interrupted:
        w.choice(CHOICES["Pool"], "INTERRUPTED")
    return w.bytes()


MAX_MONEY = 2_100_000_000_000_000


def _real_coin(w: FdpWriter, amount: int, script: bytes) -> None:
    w.int_in_range(0, 1_000_000, 277_000, 4)    # height
    w.boolean(False)                             # coinbase
    w.boolean(False)                             # any amount
    w.int_in_range(0, MAX_MONEY, min(amount, MAX_MONEY), 8)
    w.integral(0, 1)                             # the byte of the made-up forms (unused)
    w.choice(CHOICES["ScriptKind"], "RAW")    # the script's own bytes
    w.int_in_range(0, 40, len(script), 8).raw(script)


def _inputs(tx: bytes) -> list[tuple[bytes, int]]:
    n_in, j = _compact_size(tx, 4)
    out = []
    for _ in range(n_in):
        out.append((tx[j:j + 32], int.from_bytes(tx[j + 32:j + 36], "little")))
        n, j = _compact_size(tx, j + 36)
        j += n + 4
    return out


def _real_windows(size: int = 5, count: int = 10) -> Iterator[bytes]:
    """Windows of `size` consecutive transactions of the real block, as scenarios (see above):
    those with a chain inside the window first, then evenly spaced others, up to `count`."""
    block = list(real_blocks())[-1]
    txs = list(block_transactions(block))
    txids = [hashlib.sha256(hashlib.sha256(t).digest()).digest() for t in txs]  # pre-segwit: the whole tx
    where = {t: i for i, t in enumerate(txids)}
    coins = [(a, s) for t in txs for a, s in outputs(t) if len(s) <= 40]
    chained, plain = [], []
    for start in range(1, len(txs) - size + 1):
        window = range(start, start + size)
        spends = [(i, where[h]) for i in window for h, _ in _inputs(txs[i])[:4] if h in where]
        (chained if any(start <= j < i for i, j in spends) else plain).append(start)
    starts = chained[:count - 3] + plain[::max(1, len(plain) // 3)][:3]
    for number, start in enumerate(starts):
        window = list(range(start, start + size))
        w = FdpWriter()
        # The outpoints the window spends from outside it, in order, each an external Ref.
        outside: list[tuple[bytes, int]] = []
        for i in window:
            for h, n in _inputs(txs[i])[:4]:
                inside = h in where and where[h] in window[:window.index(i)] and n <= 3
                if not inside and (h, n) not in outside:
                    outside.append((h, n))
        outside = outside[:24]
        ref = {o: (1 + k // 4, k % 4) for k, o in enumerate(outside)}
        db, middle = outside[:8], outside[8:14]
        w.int_in_range(0, 8, len(db), 8)
        for k, o in enumerate(db):
            w.int_in_range(1, 6, ref[o][0], 1).int_in_range(0, 3, ref[o][1], 4)
            _real_coin(w, *coins[(start + k) % len(coins)])
        w.int_in_range(0, 6, len(middle), 8)
        for k, o in enumerate(middle):
            w.choice(CHOICES["MiddleOpKind"], "ADD_DIRTY")
            w.boolean(False)                     # an outpoint of its own, not a database one
            w.int_in_range(1, 6, ref[o][0], 1).int_in_range(0, 3, ref[o][1], 4)
            _real_coin(w, *coins[(start + 8 + k) % len(coins)])
        w.int_in_range(1, 6, size + 1, 8)
        w.int_in_range(1, 3, 1, 8)               # the coinbase's one output: the block's own
        _real_coin(w, *next(outputs(txs[0])))
        for place, i in enumerate(window, 1):
            vin = _inputs(txs[i])[:4]
            w.int_in_range(1, 4, len(vin), 8)
            for h, n in vin:
                if h in where and where[h] in window[:place - 1] and n <= 3:
                    w.choice(CHOICES["InputSource"], "IN_BLOCK")  # an earlier transaction of the window
                    w.int_in_range(0, size, 1 + window.index(where[h]), 8)
                    w.int_in_range(0, 3, n, 4)
                elif (h, n) in db:
                    w.choice(CHOICES["InputSource"], "DATABASE")  # a database coin, by its place in the list
                    w.int_in_range(0, len(db) - 1, db.index((h, n)), 8)
                else:
                    w.choice(CHOICES["InputSource"], "EXTERNAL")  # an outpoint outside (middle cache, or missing)
                    o = ref.get((h, n), (6, 3))
                    w.int_in_range(1, 6, o[0], 1).int_in_range(0, 3, o[1], 4)
            vout = [(a, s) for a, s in outputs(txs[i]) if len(s) <= 40][:3] or [coins[0]]
            w.int_in_range(1, 3, len(vout), 8)
            for a, s in vout:
                _real_coin(w, a, s)
        w.int_in_range(0, len(WORKERS) - 1, WORKERS.index(8 if number % 2 == 0 else 2), 8)
        permuted = number % 3 == 2
        w.choice(CHOICES["Pattern"], "PERMUTED" if permuted else "CONNECT")
        if permuted:                              # the last transaction and the coinbase swap places
            for k in range(size + 1, 1, -1):
                w.int_in_range(0, k - 1, 0 if k == size + 1 else k - 1, 8)
        w.choice(CHOICES["FlushOverlay"], "YES")
        yield w.bytes()


def prevout_fetch() -> Iterator[bytes]:
    yield from random_inputs("prevout_fetch", [0, 8, 16, 32, 48, 64, 96, 128, 160, 200, 256, 320, 400, 512])
    for byte in (0x00, 0x01, 0x7F, 0xFF):
        for n in (16, 128, 512):
            yield bytes([byte]) * n
    for workers in (0, 2, 8, 16):
        # Database coins in ConnectBlock's order: every queued input consumed.
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, "CONNECT")
        # The same, transactions swapped: the queue's tail falls behind.
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, "PERMUTED", [0, 0, 1])
        # An earlier transaction's output (filtered from the queue), a spent and a missing outpoint.
        yield _scenario([[("x", 2, 0)], [("tx", 1, 0), ("x", 3, 0)], [("x", 1, 0)]], workers, "CONNECT")
        yield _scenario([[("x", 2, 0)], [("tx", 1, 0), ("x", 3, 0)]], workers, "CONNECT")
        yield _scenario([[("x", 2, 0)], [("x", 5, 1)]], workers, "STOP")
        # The same outpoint twice in one transaction: a cache hit leaves its queued entry behind.
        yield _scenario([[("x", 2, 0), ("dup", 0, 0)], [("x", 3, 0)]], workers, "CONNECT")
    for workers in (2, 8):
        # The pool interrupted before the block: Submit refused, a warning, the serial path; in
        # ConnectBlock's order and permuted (a queue kept by mistake would fall behind).
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, "CONNECT", interrupted=True)
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, "PERMUTED", [0, 0, 1], interrupted=True)
    yield from _real_windows()


GENERATORS = {"prevout_fetch": prevout_fetch}
