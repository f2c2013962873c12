"""Seeds for the prevout fetch target.

Its decoder reads every choice through the FuzzedDataProvider, so random inputs of assorted
lengths give databases, middle caches and blocks of assorted shapes; constant inputs pick the
edge choices. A few scenarios are written choice by choice (fdp.FdpWriter, in the order
differential/prevout_fetch/pair.cpp's Decode reads them): a block spending database coins in
ConnectBlock's order with 8 workers, the same permuted, one spending an earlier transaction's
output (in a block that connects, and in one that does not), one spending the same outpoint
twice, and blocks whose pool was interrupted before them (StartFetching's Submit refused).
"""
from __future__ import annotations

from typing import Iterator

from . import random_inputs
from .fdp import FdpWriter

WORKERS = [0, 1, 2, 8, 16]


def _coin(w: FdpWriter, amount: int, byte: int) -> None:
    w.int_in_range(0, 1_000_000, 800_000, 4)   # height
    w.boolean(False)                             # coinbase
    w.boolean(True)                              # a small amount
    w.int_in_range(0, 100_000, amount, 8)
    w.integral(byte, 1)                          # the script's byte
    w.int_in_range(0, 4, 0, 4)                   # P2PKH


def _external(w: FdpWriter, ident: int, n: int) -> None:
    w.int_in_range(1, 6, ident, 1)
    w.int_in_range(0, 3, n, 4)


def _scenario(inputs: list[list[tuple]], workers: int, pattern: int, order: list[int] | None = None,
              interrupted: bool = False) -> bytes:
    """Coins x1:0..x4:0 in the database, x1:0 spent in the middle cache, and a block: the
    coinbase, then one transaction per list of inputs, each ('x', id, n), ('tx', j, n) or ('dup', k, inputs so far - 1)."""
    w = FdpWriter()
    w.int_in_range(0, 8, 4, 8)
    for ident in range(1, 5):
        _external(w, ident, 0)
        _coin(w, 1000 * ident, ident)
    w.int_in_range(0, 6, 1, 8)
    w.int_in_range(0, 3, 2, 4)                   # SPEND
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
                w.int_in_range(0, 5, 0, 4)
                _external(w, ref[1], ref[2])
            elif ref[0] == "tx":
                w.int_in_range(0, 5, 3, 4)
                w.int_in_range(0, txs - 1, ref[1], 8)
                w.int_in_range(0, 3, ref[2], 4)
            else:
                w.int_in_range(0, 5, 5, 4)
                w.int_in_range(0, ref[2], ref[1], 8)
        w.int_in_range(1, 3, 1, 8)
        _coin(w, 700, 0x55)
    w.int_in_range(0, len(WORKERS) - 1, WORKERS.index(workers), 8)
    w.int_in_range(0, 2, pattern, 4)
    if pattern == 1:
        for i in range(txs, 1, -1):
            w.int_in_range(0, i - 1, (order or [0] * txs)[i - 1], 8)
    elif pattern == 2:
        w.int_in_range(0, txs, 1, 8)
    w.int_in_range(0, 3, 1, 4)                   # flush
    if interrupted:
        w.int_in_range(0, 7, 7, 1)               # the pool interrupted before the block
    return w.bytes()


def prevout_fetch() -> Iterator[bytes]:
    yield from random_inputs("prevout_fetch", [0, 8, 16, 32, 48, 64, 96, 128, 160, 200, 256, 320, 400, 512])
    for byte in (0x00, 0x01, 0x7F, 0xFF):
        for n in (16, 128, 512):
            yield bytes([byte]) * n
    for workers in (0, 2, 8, 16):
        # Database coins in ConnectBlock's order: every queued input consumed.
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, 0)
        # The same, transactions swapped: the queue's tail falls behind.
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, 1, [0, 0, 1])
        # An earlier transaction's output (filtered from the queue), a spent and a missing outpoint.
        yield _scenario([[("x", 2, 0)], [("tx", 1, 0), ("x", 3, 0)], [("x", 1, 0)]], workers, 0)
        yield _scenario([[("x", 2, 0)], [("tx", 1, 0), ("x", 3, 0)]], workers, 0)
        yield _scenario([[("x", 2, 0)], [("x", 5, 1)]], workers, 2)
        # The same outpoint twice in one transaction: a cache hit leaves its queued entry behind.
        yield _scenario([[("x", 2, 0), ("dup", 0, 0)], [("x", 3, 0)]], workers, 0)
    for workers in (2, 8):
        # The pool interrupted before the block: Submit refused, a warning, the serial path; in
        # ConnectBlock's order and permuted (a queue kept by mistake would fall behind).
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, 0, interrupted=True)
        yield _scenario([[("x", 2, 0), ("x", 3, 0)], [("x", 4, 0)]], workers, 1, [0, 0, 1], interrupted=True)


GENERATORS = {"prevout_fetch": prevout_fetch}
