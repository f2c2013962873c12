"""Inputs of coins_view by kind, for the replay timings of 2026-11-29-coins-view-input-kinds.txt.

Usage, from the repository root: .venv/bin/python bench/results/2026-11-29-coins-view-input-kinds.py OUTDIR
"""
import random, sys, os
sys.path.insert(0, "tools")  # run from the repository root with .venv/bin/python
from equifuzz.seeds.coins_view import _Writer, OUTPUT_INDEXES, MAX_RAW_SCRIPT
from equifuzz.seeds.utxo_flush import real_coins
coins = [c for c in real_coins() if len(c.script) <= MAX_RAW_SCRIPT]
def gen(extra, n=150, nops=30, seed=1):
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        db = [((rnd.randint(1,2), rnd.choice(OUTPUT_INDEXES[:4])), rnd.choice(coins)) for _ in range(6)]
        db = list(dict(db).items())
        w = _Writer(rnd.random()<0.5, rnd.randint(1,3), db)
        ops = []
        for k in range(nops):
            at = (rnd.randint(1,4), rnd.choice(OUTPUT_INDEXES))
            kind = rnd.choice(["ADD","SPEND","ACCESS","GET","HAVE","FLUSH","GET_BEST","SYNC","MEMORY"])
            if kind == "ADD": w.op("ADD", at=at, coin=rnd.choice(coins), overwrite=True)
            elif kind == "SPEND": w.op("SPEND", at=at, moveout=True)
            elif kind in ("ACCESS","GET","HAVE"): w.op(kind, "TOP", at)
            elif kind == "FLUSH": w.op("SET_BEST","TOP",best=rnd.randint(1,255)).op("FLUSH","TOP")
            elif kind == "SYNC": w.op("SET_BEST","TOP",best=rnd.randint(1,255)).op("SYNC","TOP")
            else: w.op(kind, "TOP")
            if k == nops//2:
                for e in extra: w.op(e)
        out.append(w.bytes())
    return out
# one directory per kind: no restart, resize nor compaction ("plain"), the same with one Cursor walk, one restart or one compaction halfway
for name, extra in [("plain", []), ("compact", ["COMPACT"]), ("reopen", ["REOPEN"]), ("cursor", ["CURSOR"])]:
    d = os.path.join(sys.argv[1], name); os.makedirs(d, exist_ok=True)
    for i, b in enumerate(gen(extra)):
        open(f"{d}/{i:04d}", "wb").write(b)
