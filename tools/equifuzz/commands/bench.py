"""./equifuzz bench"""
from __future__ import annotations

from .. import bench

NAME = "bench"
ORDER = 140
SUMMARY = "is the optimized side faster? every pair's benchmark, every side (Core's too), one table"
DESCRIPTION = ("Runs the bench programs of the bench build (-O2 with assertions, no sanitizers; built first when missing) "
               "with Google Benchmark: every case of each named pair (default: all) on every side, the same input for each, "
               "--repetitions times in random order; then, with valgrind installed, once more under callgrind to count "
               "instructions. Prints one Markdown table (time per item of each side, the optimized side's speedup over the "
               "original with its spread, ours and Core's) and writes bench.md, bench.json and bench.png into --out "
               "(default build/bench-results/<time>). Measure alone on the machine.")
EXAMPLES = ["./equifuzz bench", "./equifuzz bench serialize tx_check --repetitions 10",
            "./equifuzz bench xor --no-instructions --out /tmp/xor-bench"]


def arguments(p) -> None:
    p.add_argument("pairs", nargs="*", metavar="PAIR", help="pairs to measure (default: every pair with a bench program)")
    p.add_argument("--repetitions", type=int, default=5, help="repetitions of every case (default 5; spreads need 5 or more)")
    p.add_argument("--min-time", type=float, default=0.05, help="seconds each repetition runs at least (default 0.05)")
    p.add_argument("--no-instructions", dest="instructions", action="store_false",
                   help="leave out the callgrind instruction counts")
    p.add_argument("--out", metavar="DIR", help="where bench.md, bench.json and bench.png go (default build/bench-results/<time>)")
    p.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args) -> int:
    return bench.cmd_bench(args)
