#!/usr/bin/env python3
"""Plots bucket occupancy from a CSV written by a *_quality program (family,input,k,bucket,count).

    build/bench/bench/siphash_quality 18 /tmp/buckets.csv
    python3 tools/plot_buckets.py /tmp/buckets.csv bench/results/siphash_buckets.png
"""
import csv
import sys
from collections import defaultdict


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_buckets: matplotlib is not installed (pip install -r requirements.txt).", file=sys.stderr)
        return 2
    series: dict[tuple[str, str], list[int]] = defaultdict(list)
    try:
        with open(sys.argv[1], newline="") as f:
            for row in csv.DictReader(f):
                series[(row["input"], row["family"])].append(int(row["count"]))
    except (OSError, KeyError, ValueError) as e:
        print(f"plot_buckets: cannot read {sys.argv[1]}: {e}.", file=sys.stderr)
        return 2
    inputs = sorted({i for i, _ in series})
    families = sorted({f for _, f in series})
    fig, axes = plt.subplots(len(inputs), len(families), figsize=(5 * len(families), 2.2 * len(inputs)),
                             sharey=True, squeeze=False)
    for r, inp in enumerate(inputs):
        for c, fam in enumerate(families):
            counts = series[(inp, fam)]
            ax = axes[r][c]
            ax.bar(range(len(counts)), counts, width=1.0)
            mean = sum(counts) / len(counts)
            ax.axhline(mean, color="black", linewidth=0.6)
            ax.set_title(f"{fam}: {inp}", fontsize=8)
            ax.tick_params(labelsize=6)
    fig.suptitle("Bucket occupancy (low 8 bits), line = expected count", fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)
    print(f"plot_buckets: wrote {sys.argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
