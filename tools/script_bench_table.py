#!/usr/bin/env python3
"""Runs bench_script and prints the element-size table for the README: CPU time per evaluation of
`<element> OP_SHA256 OP_DROP OP_1` and `<element> OP_DUP OP_SHA256 OP_DROP OP_1` at 1, 64, 65,
100, 520 and 8000 bytes on the 520 side, Variant G and Variant T, the 520-to-8000 ratio, and the
stack-element study's figures beside ours.

    ./equifuzz build bench && python3 tools/script_bench_table.py [build/bench/bench/bench_script]
"""
import json
import subprocess
import sys
from pathlib import Path

SIZES = (1, 64, 65, 100, 520, 8000)
# What the study reported for OP_SHA256 (ns per script): the figures the issue quotes.
STUDY = {520: 1947, 8000: 20959}
ROWS = (
    ("Sha_520", "SHA256, 520 side"),
    ("Sha_G", "SHA256, Variant G"),
    ("Sha_T_tapscript", "SHA256, Variant T (witness item)"),
    ("DupSha_520", "DUP SHA256, 520 side"),
    ("DupSha_G", "DUP SHA256, Variant G"),
    ("DupSha_T_tapscript", "DUP SHA256, Variant T (witness item)"),
)


def main() -> int:
    binary = Path(sys.argv[1] if len(sys.argv) > 1 else "build/bench/bench/bench_script")
    if not binary.is_file():
        print(f"script_bench_table: {binary} does not exist; build it with: ./equifuzz build bench", file=sys.stderr)
        return 2
    run = subprocess.run([str(binary), "--benchmark_format=json", "--benchmark_min_time=0.3",
                          "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"script_bench_table: {binary} failed: {run.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return 1
    results = {}
    for b in json.loads(run.stdout)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name, size = b["run_name"].split("/")
        results[(name, int(size))] = (b["cpu_time"], b.get("ok", 1))
    header = "| script, side | " + " | ".join(f"{s} B" for s in SIZES) + " | 8000 / 520 |"
    print(header)
    print("|" + "---|" * (len(SIZES) + 2))
    for key, label in ROWS:
        cells = []
        for s in SIZES:
            if (key, s) not in results:
                cells.append("–")
                continue
            ns, ok = results[(key, s)]
            cells.append(f"{ns:,.0f}" + ("" if ok else " (fails)"))
        a, b = results.get((key, 520)), results.get((key, 8000))
        ratio = f"{b[0] / a[0]:.1f}x" if a and b and b[1] else "–"
        print(f"| {label} | " + " | ".join(cells) + f" | {ratio} |")
    print(f"| SHA256, the study | – | – | – | – | {STUDY[520]:,} | {STUDY[8000]:,} | {STUDY[8000] / STUDY[520]:.1f}x |")
    print("\nCPU ns per evaluation, median of 3; (fails): the script fails at that size on that side "
          "(PUSH_SIZE at 520, DUP_ELEMENT_SIZE for Variant T's OP_DUP of an 8000-byte item).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
