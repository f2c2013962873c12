"""Seeds for the coins view target.

Its decoder reads every choice through the FuzzedDataProvider, so random inputs of assorted
lengths give stacks and call sequences of assorted shapes; constant inputs pick the edge choices.

And scenarios written choice by choice (fdp.FdpWriter, in the order differential/coins_view/
decode.cpp's Decode reads them, each named choice by its name in differential/coins_view/
choices.json) around real coins: the amounts, scripts, heights and coinbase flags of outputs of
the real blocks in tests/data/bitcoin/ (277647.dat among them), their scripts carried as raw bytes.
Each is a story a node lives: a block's view over the chainstate's cache spends database coins and
adds new ones, is flushed into the cache below, which is flushed into the database and read back
with the cursor, then a restart; a coin added and spent in the same cache (FRESH, never written);
a coin spent and added again (a reorg, DIRTY and not FRESH); three caches with Sync, Uncache, the
memory figures and a cache resize; caches pushed and dropped unflushed; compactions between
flushes; a snapshot's coins emplaced, and a block's view reset; Uncache of changed coins; a
mempool check's view with the empty view as its backend; a node stopped while its compaction runs.

coins_view_faults (the database on real files, one write of its log failing) gets random inputs
and the same stories, each with each of a few write faults written first (FAULTS).
"""
from __future__ import annotations

import functools
from typing import Iterator

from ..choices import load
from . import random_inputs
from .fdp import FdpWriter
from .utxo_flush import RealCoin, real_coins

CHOICES = load("coins_view")
OUTPUT_INDEXES = [0, 1, 2, 3, 127, 128, 16_383, 16_384]
MAX_RAW_SCRIPT = 80
MAX_MONEY = 2_100_000_000_000_000
MAX_FAULT_AT = 12  # pair.h
MAX_READ_AT = 3  # pair.h


class _Writer:
    """One scenario, in Decode's order."""

    def __init__(self, obfuscate: bool, caches: int, db: list[tuple[tuple[int, int], RealCoin]],
                 fault: tuple[str, int, int] | None = None) -> None:
        self.w = FdpWriter()
        self.detached = False  # the top cache's backend is the empty view (DETACH)
        if fault is not None:  # coins_view_faults: the fault's kind, its Append or Flush, a torn share
            kind, at, keep = fault
            self.w.choice(CHOICES["FaultKind"], kind)
            self.w.int_in_range(1, MAX_READ_AT if kind == "READ" else MAX_FAULT_AT, at, 1)
            if kind == "TORN":
                self.w.integral(keep, 1)
        self.w.boolean(obfuscate)
        self.w.int_in_range(1, 3, caches, 1)
        self.w.int_in_range(0, 8, len(db), 8)
        for at, coin in db:
            self.outpoint(at)
            self.coin(coin)

    def outpoint(self, at: tuple[int, int]) -> None:
        ident, n = at
        self.w.int_in_range(1, 4, ident, 1)
        self.w.int_in_range(0, len(OUTPUT_INDEXES) - 1, OUTPUT_INDEXES.index(n), 8)

    def coin(self, c: RealCoin) -> None:
        self.w.int_in_range(0, 1_000_000, min(c.height, 1_000_000), 4)
        self.w.boolean(c.coinbase)
        small = c.amount <= 100_000
        self.w.boolean(small)
        self.w.int_in_range(0, 100_000 if small else MAX_MONEY, c.amount, 8)
        self.w.integral(0, 1)  # the repeated byte of a formed script: unused by a raw one
        self.w.choice(CHOICES["ScriptKind"], "RAW")
        self.w.int_in_range(0, MAX_RAW_SCRIPT, len(c.script), 8)
        self.w.raw(c.script)

    def op(self, kind: str, level: str | None = None, at: tuple[int, int] | None = None, *,
           coin: RealCoin | None = None, overwrite: bool = False, moveout: bool = False, best: int = 0,
           cache_size: int = 0) -> "_Writer":
        self.w.choice(CHOICES["OpKind"], kind)
        if kind not in ("ADD", "SPEND", "GET_HEADS", "CURSOR", "REOPEN", "RESIZE", "PUSH", "POP", "COMPACT", "RESET",
                        "EMPLACE", "DETACH", "ATTACH"):
            self.w.choice(CHOICES["Level"], level or "TOP")
        if at is not None:
            if self.detached and level == "TOP" and kind in ("ACCESS", "GET", "PEEK", "HAVE"):
                self.w.boolean(False)  # not one of the held coins by index: this outpoint
            self.outpoint(at)
        if kind in ("DETACH", "ATTACH"):
            self.detached = kind == "DETACH"
        if kind == "ADD":
            self.coin(coin)
            self.w.boolean(overwrite)
        elif kind == "EMPLACE":
            self.coin(coin)
        elif kind == "SPEND":
            self.w.boolean(moveout)
        elif kind == "SET_BEST":
            self.w.int_in_range(1, 255, best, 1)
        elif kind == "RESIZE":
            self.w.int_in_range(0, 2, cache_size, 8)
        return self

    def bytes(self) -> bytes:
        return self.w.bytes()


def _stories(coins: list[RealCoin], fault: tuple[str, int, int] | None = None) -> Iterator[bytes]:
    Writer = functools.partial(_Writer, fault=fault)  # noqa: N806 (every story's writer takes the fault)
    pick = iter(coins)
    db = [((ident, n), next(pick)) for ident in (1, 2) for n in (0, 1, 2, 3)]
    # A block's view over the chainstate's cache: spends, new coins, two flushes, a restart.
    w = Writer(True, 2, db)
    w.op("ACCESS", "TOP", (1, 0)).op("SPEND", at=(1, 0), moveout=True).op("SPEND", at=(2, 3), moveout=False)
    for n in (0, 1, 127, 128):
        w.op("ADD", at=(3, n), coin=next(pick))
    w.op("SPEND", at=(3, 1), moveout=True)
    w.op("HAVE", "BELOW_TOP", (1, 0)).op("FLUSH", "TOP").op("GET_BEST", "DATABASE")
    w.op("SET_BEST", "BOTTOM", best=0x42).op("FLUSH", "BOTTOM").op("CURSOR").op("GET_HEADS")
    w.op("REOPEN").op("CURSOR").op("HAVE", "DATABASE", (3, 0)).op("GET", "TOP", (3, 128)).op("GET_BEST", "TOP")
    yield w.bytes()
    # A coin added and spent in one cache (FRESH: nothing reaches the database), and a Sync.
    w = Writer(False, 1, db[:2])
    w.op("ADD", at=(4, 16_383), coin=next(pick)).op("MEMORY", "TOP").op("SPEND", at=(4, 16_383), moveout=True)
    w.op("ADD", at=(4, 16_384), coin=next(pick)).op("SET_BEST", "TOP", best=7).op("SYNC", "TOP")
    w.op("HAVE_IN_CACHE", "TOP", (4, 16_384)).op("SPEND", at=(4, 16_384)).op("FLUSH", "TOP").op("CURSOR")
    yield w.bytes()
    # A reorg: a database coin spent, then added again without possible_overwrite (DIRTY, not FRESH).
    w = Writer(True, 1, db[:4])
    coin = next(pick)
    w.op("SPEND", at=(1, 2), moveout=True).op("ADD", at=(1, 2), coin=coin).op("SPEND", at=(1, 2))
    w.op("SET_BEST", "TOP", best=9).op("FLUSH", "TOP").op("GET", "DATABASE", (1, 2)).op("CURSOR")
    yield w.bytes()
    # Three caches: Sync of the middle one, Uncache, memory figures, a resize, caches dropped.
    w = Writer(False, 3, db)
    w.op("ACCESS", "BOTTOM", (2, 0)).op("ACCESS", "TOP", (2, 1)).op("UNCACHE", "BOTTOM", (2, 0))
    w.op("ADD", at=(4, 2), coin=next(pick)).op("SPEND", at=(2, 1), moveout=True).op("SYNC", "TOP")
    w.op("PEEK", "BELOW_TOP", (4, 2)).op("HAVE_IN_CACHE", "BELOW_TOP", (2, 1)).op("SYNC", "BELOW_TOP")
    w.op("MEMORY", "BOTTOM").op("RESIZE", cache_size=1).op("POP").op("PUSH").op("GET", "TOP", (4, 2))
    w.op("SET_BEST", "BOTTOM", best=0x99).op("FLUSH", "BOTTOM").op("CURSOR").op("GET_BEST", "TOP")
    yield w.bytes()
    # Changes dropped unflushed: a view popped, a restart with the caches full.
    w = Writer(True, 2, db[:3])
    w.op("ADD", at=(2, 127), coin=next(pick)).op("SPEND", at=(1, 0)).op("POP").op("HAVE", "TOP", (1, 0))
    w.op("PUSH").op("SPEND", at=(1, 1), moveout=True).op("FLUSH", "TOP").op("REOPEN").op("HAVE", "TOP", (1, 1))
    w.op("CURSOR")
    yield w.bytes()
    # Compactions: coins written and the database compacted (its tables rewritten, the coins at a
    # deep level); coins spent, a restart (LevelDB writes its log to a level-0 table) and the
    # database compacted again: each deletion marker meets the coin it hides a level below.
    w = Writer(False, 1, db[:4])
    w.op("SET_BEST", "TOP", best=3).op("FLUSH", "TOP").op("COMPACT").op("SPEND", at=(1, 1), moveout=True)
    w.op("SPEND", at=(1, 3)).op("ADD", at=(2, 0), coin=next(pick)).op("FLUSH", "TOP").op("REOPEN").op("COMPACT")
    w.op("GET", "DATABASE", (1, 1)).op("HAVE", "DATABASE", (1, 3)).op("CURSOR").op("GET", "TOP", (2, 0))
    yield w.bytes()
    # A compaction still running when the cache is resized (Core's ResizeCache replaces the
    # database the compaction thread uses; a lock orders them), then reads and a flush.
    w = Writer(True, 2, db[:6])
    w.op("COMPACT").op("RESIZE", cache_size=1).op("GET", "DATABASE", (2, 1)).op("SPEND", at=(2, 0), moveout=True)
    w.op("FLUSH", "TOP").op("SET_BEST", "BOTTOM", best=5).op("FLUSH", "BOTTOM").op("COMPACT").op("RESIZE", cache_size=0)
    w.op("CURSOR").op("HAVE", "TOP", (2, 0))
    yield w.bytes()
    # A snapshot's load: coins emplaced into the chainstate's cache over an empty database, flushed
    # and walked; then a block's view over it spends and adds, and is reset (the block discarded):
    # its changes are gone, the chainstate's coins are as they were.
    w = Writer(False, 1, [])
    for at in ((3, 0), (3, 1), (3, 16_384), (4, 2)):
        w.op("EMPLACE", at=at, coin=next(pick))
    w.op("MEMORY", "TOP").op("SET_BEST", "TOP", best=0x55).op("FLUSH", "TOP").op("CURSOR").op("PUSH")
    w.op("SPEND", at=(3, 1), moveout=True).op("ADD", at=(1, 0), coin=next(pick)).op("SET_BEST", "TOP", best=0x56)
    w.op("RESET").op("GET", "TOP", (3, 1)).op("HAVE", "TOP", (1, 0)).op("GET_BEST", "TOP").op("MEMORY", "TOP")
    w.op("EMPLACE", at=(2, 128), coin=next(pick)).op("SYNC", "TOP").op("SET_BEST", "BOTTOM", best=0x57)
    w.op("FLUSH", "BOTTOM").op("CURSOR")
    yield w.bytes()
    # Uncache of changed coins: an added coin and a spent one are DIRTY, and Uncache leaves them (a
    # dropped change would be lost); a clean one fetched from below goes. Every answer is a promise,
    # on trees with or without a dirty count.
    w = Writer(False, 2, db[:2])
    w.op("ADD", at=(3, 3), coin=next(pick)).op("SPEND", at=(1, 0), moveout=True).op("ACCESS", "TOP", (1, 1))
    w.op("UNCACHE", "TOP", (3, 3)).op("UNCACHE", "TOP", (1, 0)).op("UNCACHE", "TOP", (1, 1))
    w.op("GET", "TOP", (3, 3)).op("HAVE", "TOP", (1, 0)).op("GET", "TOP", (1, 1)).op("FLUSH", "TOP")
    w.op("SET_BEST", "BOTTOM", best=0x31).op("FLUSH", "BOTTOM").op("CURSOR")
    yield w.bytes()
    # Mempool acceptance: a scratch view brings a transaction's coins in (HaveCoin of each input,
    # one of them missing; AccessCoin), the best block into scope, then has the empty view for its
    # backend: it still answers for what it was given; a coin it was not given, or let go of
    # (Uncache), is its own business. Then its backend set back, a spend, and the view flushed.
    w = Writer(True, 2, db[:6])
    w.op("HAVE", "TOP", (1, 0)).op("HAVE", "TOP", (1, 1)).op("HAVE", "TOP", (4, 0)).op("ACCESS", "TOP", (1, 2))
    w.op("GET_BEST", "TOP").op("DETACH").op("ACCESS", "TOP", (1, 0)).op("GET", "TOP", (1, 1))
    w.op("HAVE", "TOP", (4, 0)).op("PEEK", "TOP", (1, 2)).op("GET_BEST", "TOP").op("GET", "TOP", (1, 3))
    w.op("HAVE", "BELOW_TOP", (1, 3)).op("UNCACHE", "TOP", (1, 1)).op("HAVE", "TOP", (1, 1))
    w.op("MEMORY", "TOP").op("ATTACH").op("SPEND", at=(1, 0), moveout=True).op("DETACH")
    w.op("ACCESS", "TOP", (1, 0)).op("ATTACH").op("FLUSH", "TOP").op("SET_BEST", "BOTTOM", best=0x66)
    w.op("FLUSH", "BOTTOM").op("CURSOR")
    yield w.bytes()
    # A node stopped while its compaction runs: spends flushed, the compaction started, and a
    # restart right away (closing the database waits for the compaction); LevelDB's memory read
    # through the database, then the coins read back.
    w = Writer(True, 1, db[:5])
    w.op("SPEND", at=(1, 1), moveout=True).op("SPEND", at=(2, 0)).op("SET_BEST", "TOP", best=0x71)
    w.op("FLUSH", "TOP").op("COMPACT").op("REOPEN").op("MEMORY", "TOP").op("GET", "DATABASE", (1, 1))
    w.op("HAVE", "TOP", (1, 2)).op("CURSOR")
    yield w.bytes()


def coins_view() -> Iterator[bytes]:
    yield from random_inputs("coins_view", [0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600])
    for byte in (0x00, 0x01, 0x7F, 0xFF):
        for n in (16, 256, 1024):
            yield bytes([byte]) * n
    coins = [c for c in real_coins() if len(c.script) <= MAX_RAW_SCRIPT]
    # Windows of real coins: the first block's and 277647's (the last file's) outputs.
    yield from _stories(coins)
    yield from _stories(coins[-40:])


# The faults the stories of coins_view_faults carry: each kind, early and later in the log's writes
# (a bottom flush appends a record's header and body, then flushes it) or the lookups' reads of
# table files (after a restart or a compaction the coins are in tables).
FAULTS = [("APPEND", 1, 0), ("APPEND", 2, 0), ("TORN", 2, 100), ("FLUSH", 1, 0), ("APPEND", 4, 0), ("FLUSH", 2, 0),
          ("TORN", 4, 200), ("READ", 1, 0), ("READ", 3, 0)]


def coins_view_faults() -> Iterator[bytes]:
    yield from random_inputs("coins_view_faults", [0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600])
    coins = [c for c in real_coins() if len(c.script) <= MAX_RAW_SCRIPT]
    for fault in FAULTS:
        yield from _stories(coins, fault)


GENERATORS = {"coins_view": coins_view, "coins_view_faults": coins_view_faults}
