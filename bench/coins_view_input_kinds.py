"""Inputs of the coins_view target by kind, for timing what each kind of call costs.

One directory per kind, 150 inputs of 30 calls each around real coins (seed writer of
tools/equifuzz/seeds/coins_view.py): adds, spends, lookups, flushes and Syncs with their best
blocks, memory figures ("plain"); the same with one Cursor walk, one restart or one compaction
halfway. Replay a directory with the target (`-runs=1 DIR/*`) and read libFuzzer's "Executed in"
lines: bench/results/2026-11-29-coins-view-input-kinds.txt.

Usage, from the repository root: .venv/bin/python bench/coins_view_input_kinds.py OUTDIR
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from equifuzz.seeds.coins_view import MAX_RAW_SCRIPT, OUTPUT_INDEXES, _Writer  # noqa: E402
from equifuzz.seeds.utxo_flush import real_coins  # noqa: E402

KINDS = {"plain": [], "compact": ["COMPACT"], "reopen": ["REOPEN"], "cursor": ["CURSOR"]}


def inputs(coins, extra: list[str], n: int = 150, nops: int = 30, seed: int = 1) -> list[bytes]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        db = [((rnd.randint(1, 2), rnd.choice(OUTPUT_INDEXES[:4])), rnd.choice(coins)) for _ in range(6)]
        w = _Writer(rnd.random() < 0.5, rnd.randint(1, 3), list(dict(db).items()))
        for k in range(nops):
            at = (rnd.randint(1, 4), rnd.choice(OUTPUT_INDEXES))
            kind = rnd.choice(["ADD", "SPEND", "ACCESS", "GET", "HAVE", "FLUSH", "GET_BEST", "SYNC", "MEMORY"])
            if kind == "ADD":
                w.op("ADD", at=at, coin=rnd.choice(coins), overwrite=True)
            elif kind == "SPEND":
                w.op("SPEND", at=at, moveout=True)
            elif kind in ("ACCESS", "GET", "HAVE"):
                w.op(kind, "TOP", at)
            elif kind in ("FLUSH", "SYNC"):
                w.op("SET_BEST", "TOP", best=rnd.randint(1, 255)).op(kind, "TOP")
            else:
                w.op(kind, "TOP")
            if k == nops // 2:
                for e in extra:
                    w.op(e)
        out.append(w.bytes())
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: bench/coins_view_input_kinds.py OUTDIR")
    coins = [c for c in real_coins() if len(c.script) <= MAX_RAW_SCRIPT]
    for name, extra in KINDS.items():
        d = Path(sys.argv[1]) / name
        os.makedirs(d, exist_ok=True)
        for i, b in enumerate(inputs(coins, extra)):
            (d / f"{i:04d}").write_bytes(b)


if __name__ == "__main__":
    main()
