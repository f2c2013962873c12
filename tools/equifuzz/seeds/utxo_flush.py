"""Seeds for the UTXO flush targets.

utxo_flush_batches reads every choice through the FuzzedDataProvider, so random inputs of
assorted lengths give blocks of assorted sizes; constant inputs pick the edge choices.

utxo_flush_steps and utxo_flush_disk get scenarios written choice by choice (fdp.FdpWriter, in
the order differential/utxo_flush/decode.cpp's DecodeScenario reads them, each named choice by its
name in differential/utxo_flush/choices.json) around real coins: the
amounts, scripts and coinbase flags of the outputs of the real blocks in tests/data/bitcoin/,
at their block's height. A first block creates coins, later blocks spend some and create more,
flushed at batch sizes that cut them into several batches, interrupted before a partial batch
and recovered (sometimes interrupted again), with and without obfuscation, Flush and Sync.
utxo_flush_faults gets the same scenarios, most interruptions a write fault in the log instead.
"""
from __future__ import annotations

import random
from typing import Iterator, NamedTuple

from ..choices import load
from . import random_inputs, rng
from .fdp import FdpWriter
from .tx_check import _compact_size, block_transactions, real_blocks


CHOICES = load("utxo_flush")


def utxo_flush_batches() -> Iterator[bytes]:
    yield from random_inputs("utxo_flush_batches", [0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200])
    for byte in (0x00, 0x01, 0x7F, 0xFF):
        for n in (16, 256, 1024):
            yield bytes([byte]) * n


class RealCoin(NamedTuple):
    amount: int
    script: bytes
    height: int
    coinbase: bool


def _outputs(tx: bytes) -> Iterator[tuple[int, bytes]]:
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


def real_coins() -> list[RealCoin]:
    """Every output of the real blocks whose script the decoder can carry (up to 80 bytes), at its
    block's height: BIP-34's in the coinbase (277647.dat), else the block's place in its file."""
    coins = []
    for place, block in enumerate(real_blocks()):
        coinbase = next(block_transactions(block))
        height = place
        if len(coinbase) > 46 and coinbase[42] == 3:  # a 3-byte height push opens the coinbase script
            height = int.from_bytes(coinbase[43:46], "little")
        for index, tx in enumerate(block_transactions(block)):
            for amount, script in _outputs(tx):
                if len(script) <= 80 and amount <= 2_100_000_000_000_000:
                    coins.append(RealCoin(amount, script, height, index == 0))
    return coins


class Op(NamedTuple):
    kind: str  # choices.json's OpKind: ADD, SPEND, ACCESS
    txid: int  # 1..8
    n: int     # 0..3
    coin: RealCoin | None = None
    possible_overwrite: bool = False


def _write_coin(w: FdpWriter, c: RealCoin) -> None:
    w.int_in_range(0, 0x7FFFFFFF, c.height, 4).boolean(c.coinbase)
    w.int_in_range(0, 2_100_000_000_000_000, c.amount, 8)
    w.integral(0, 1)                   # the 20-byte hash of the special forms (unused: raw script)
    w.choice(CHOICES["ScriptKind"], "RAW")  # the real script's own bytes
    w.int_in_range(0, 80, len(c.script), 8).raw(c.script)


def _write_ops(w: FdpWriter, ops: list[Op]) -> None:
    w.int_in_range(0, 24, len(ops), 8)
    for op in ops:
        w.choice(CHOICES["OpKind"], op.kind).int_in_range(1, 8, op.txid, 1)
        w.boolean(True).int_in_range(0, 3, op.n, 4)
        if op.kind == "ADD":
            _write_coin(w, op.coin)
            w.boolean(op.possible_overwrite)


class Fault(NamedTuple):
    kind: str      # choices.json's FaultKind: APPEND, TORN, FLUSH
    at: int        # the log's call of that kind during the flush, 1..64
    keep: int = 0  # torn: 256ths of the failing Append written


def _write_step_tail(w: FdpWriter, batch: int | None, crash: int, sync: bool,
                     fault: Fault | None = None, faults: bool = False) -> None:
    w.boolean(batch is not None)
    if batch is not None:
        w.choice(CHOICES["BatchSize"], "ANY_SMALL").int_in_range(0, 4096, batch, 8)
    if faults:  # utxo_flush_faults: a write fault, or a crash point or none
        w.choice(CHOICES["Interruption"], "CRASH_POINT_OR_NONE" if fault is None else "WRITE_FAULT")
        if fault is not None:
            w.choice(CHOICES["FaultKind"], fault.kind)
            small = fault.at <= 4
            w.boolean(small).int_in_range(1, 4 if small else 64, fault.at, 8)
            if fault.kind == "TORN":
                w.integral(fault.keep, 1)
    if fault is None:
        w.boolean(crash == 0)
        if crash:
            w.int_in_range(1, 6, crash, 8)
    w.choice(CHOICES["FlushCall"], "SYNC" if sync else "FLUSH")


def _fault(r: random.Random) -> Fault:
    kind = ("APPEND", "TORN", "FLUSH")[r.randint(1, 3) - 1]
    return Fault(kind, r.choice([1, 2, 3, 4, 5, 7, 12, 20]), r.randrange(256) if kind == "TORN" else 0)


def scenario(r: random.Random, coins: list[RealCoin], faults: bool = False) -> bytes:
    """Two or three blocks over real coins; a crash point (or, with `faults`, mostly a write
    fault) somewhere, then its recovery."""
    w = FdpWriter()
    w.boolean(r.random() < 0.5)
    outpoints = [(t, n) for t in range(1, 9) for n in range(4)]
    r.shuffle(outpoints)
    created = outpoints[:r.randint(4, 14)]
    blocks = [[Op("ADD", t, n, r.choice(coins), False) for t, n in created]]
    later = outpoints[len(created):len(created) + r.randint(2, 8)]
    second = [Op("SPEND", t, n) for t, n in r.sample(created, r.randint(1, len(created) // 2))]
    second += [Op("ADD", t, n, r.choice(coins), r.random() < 0.3) for t, n in later]
    second += [Op("ACCESS", t, n) for t, n in r.sample(created, 2)]
    r.shuffle(second)
    if r.random() < 0.3:  # an output no one can spend: the cache never keeps it
        c = r.choice(coins)
        second.append(Op("ADD", *outpoints[-1], RealCoin(c.amount, b"\x6a\x04" + c.script[:4], c.height, False), False))
    if r.random() < 0.3:  # a coin on disk re-added as FRESH and spent in the same block: it stays
        t, n = r.choice(created)
        second += [Op("ADD", t, n, r.choice(coins), False), Op("SPEND", t, n)]
    blocks.append(second[:24])
    crash_block = r.randrange(len(blocks))
    steps = []  # (ops or None for a recovery, batch, crash, sync, fault)
    for i, ops in enumerate(blocks):
        crash = r.randint(1, 4) if i == crash_block else 0
        fault = None
        if faults and crash and r.random() < 0.8:
            crash, fault = 0, _fault(r)
        steps.append((ops, r.choice([None, 0, 40, 84, 120, 300, 1000]), crash, r.random() < 0.25, fault))
        if crash or fault:
            again = r.randint(1, 3) if r.random() < 0.5 else 0
            fault_again = _fault(r) if faults and not again and r.random() < 0.4 else None
            steps.append((None, r.choice([None, 0, 100]), again, False, fault_again))
            if again or fault_again:
                steps.append((None, None, 0, False, None))
    w.int_in_range(1, 5, len(steps[:5]), 8)
    for ops, batch, crash, sync, fault in steps[:5]:
        if ops is not None:
            _write_ops(w, ops)
        _write_step_tail(w, batch, crash, sync, fault, faults)
    return w.bytes()


def crash_recovery() -> bytes:
    """The pair's crash-recovery reproducer (corpora/regressions/utxo_flush_disk/recovery-after-nested-crash):
    block 1 creates six real coins; block 2 spends two, rewrites one and creates two, flushed one
    entry per batch and interrupted before its third partial batch; the recovery is interrupted
    before its second; the second recovery completes."""
    coins = real_coins()
    w = FdpWriter().boolean(True)           # obfuscated
    w.int_in_range(1, 5, 4, 8)             # four steps
    _write_ops(w, [Op("ADD", t, 0, coins[5 + t], False) for t in range(1, 7)])
    _write_step_tail(w, None, 0, False)
    _write_ops(w, [Op("SPEND", 1, 0), Op("SPEND", 2, 0), Op("ADD", 3, 0, coins[40], True), Op("ADD", 7, 0, coins[41], False),
                   Op("ADD", 8, 1, coins[42], False)])
    _write_step_tail(w, 0, 3, False)
    _write_step_tail(w, 0, 2, False)       # the first recovery, interrupted again
    _write_step_tail(w, None, 0, False)    # the second, at the side's default batch size
    return w.bytes()


def fault_recovery() -> bytes:
    """The pair's write-fault reproducer (corpora/regressions/utxo_flush_faults/torn-write-then-recovery):
    block 1 creates six real coins; block 2 spends two, rewrites one and creates two, flushed one
    entry per batch, and the log's fifth Append (batch 3's record header) writes 100/256 of its
    bytes and fails; the recovery replays block 2 at the side's default batch size."""
    coins = real_coins()
    w = FdpWriter().boolean(True)           # obfuscated
    w.int_in_range(1, 5, 3, 8)             # three steps
    _write_ops(w, [Op("ADD", t, 0, coins[5 + t], False) for t in range(1, 7)])
    _write_step_tail(w, None, 0, False, None, faults=True)
    _write_ops(w, [Op("SPEND", 1, 0), Op("SPEND", 2, 0), Op("ADD", 3, 0, coins[40], True), Op("ADD", 7, 0, coins[41], False),
                   Op("ADD", 8, 1, coins[42], False)])
    _write_step_tail(w, 0, 0, False, Fault("TORN", 5, 100), faults=True)
    _write_step_tail(w, None, 0, False, None, faults=True)   # the recovery
    return w.bytes()


def _scenarios(name: str, count: int, faults: bool = False) -> Iterator[bytes]:
    coins = real_coins()
    r = rng(name)
    for _ in range(count):
        yield scenario(r, coins, faults)


def utxo_flush_steps() -> Iterator[bytes]:
    yield crash_recovery()
    yield from _scenarios("utxo_flush_steps", 40)
    yield from random_inputs("utxo_flush_steps", [16, 64, 128, 256, 512, 1024])


def utxo_flush_disk() -> Iterator[bytes]:
    yield crash_recovery()
    yield from _scenarios("utxo_flush_disk", 12)


def utxo_flush_faults() -> Iterator[bytes]:
    yield fault_recovery()
    yield from _scenarios("utxo_flush_faults", 16, faults=True)


GENERATORS = {"utxo_flush_batches": utxo_flush_batches, "utxo_flush_steps": utxo_flush_steps,
              "utxo_flush_disk": utxo_flush_disk, "utxo_flush_faults": utxo_flush_faults}
