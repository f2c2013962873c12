"""./equifuzz bench: every pair's benchmark cases, every side (Core's included), one table.

Each bench program (bench/<pair>_bench.cpp, built by the 'bench' preset) names its benchmarks
"<pair>/<case>/<side>". This module runs the programs with Google Benchmark's repetitions (random
interleaving, so slow drifts of the machine spread over the sides alike), then, where valgrind is
installed, once more under callgrind to count instructions per operation, and puts the sides of
each case side by side: time per item (median of the repetitions and its spread), the speedup of
the optimized side over the original (ours, and Core's) with its spread, and the instruction ratio,
which does not depend on what else the machine is doing.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .building import cmake, ensure_built
from .output import table
from .manifest import Manifest, configured, read as read_manifest
from .project import EXIT_CLEAN, ROOT, EquifuzzError, InfraError, build_dir

# Each side that has a partner: (original label, optimized label, column name of the speedup).
PAIRINGS = (("original", "optimized", "ours"), ("core-original", "core-optimized", "core"))
KNOWN_SIDES = ("original", "optimized", "core-original", "core-optimized")


def programs(bdir: Path) -> dict[str, Path]:
    """pair -> bench program in a bench build."""
    folder = bdir / "bench"
    return {p.name.removeprefix("bench_"): p for p in sorted(folder.glob("bench_*")) if p.is_file() and os.access(p, os.X_OK)}


def split_name(name: str) -> tuple[str, str, str] | None:
    """'<pair>/<case>/<side>' (a case may itself contain '/'); Google Benchmark's '/real_time'
    suffix of a case timed by wall clock (CaseOptions::real_time) is not part of the name."""
    parts = name.removesuffix("/real_time").split("/")
    if len(parts) < 3:
        return None
    return parts[0], "/".join(parts[1:-1]), parts[-1]


def parse_benchmark_json(data: dict) -> dict[tuple[str, str], dict[str, dict]]:
    """Google Benchmark's JSON -> {(pair, case): {side: {"ns_per_item": [...], "allocs_per_op": x, ...}}}.
    Only the per-repetition rows count; the aggregates Google Benchmark adds are recomputed here."""
    out: dict[tuple[str, str], dict[str, dict]] = {}
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or "error_occurred" in b and b["error_occurred"]:
            continue
        parsed = split_name(b.get("run_name", b["name"]))
        if not parsed:
            continue
        pair, case, side = parsed
        items = float(b.get("items_per_op", 1.0)) or 1.0
        ns = float(b["real_time"]) * scale.get(b.get("time_unit", "ns"), 1.0) / items
        entry = out.setdefault((pair, case), {}).setdefault(side, {"ns_per_item": [], "items_per_op": items})
        entry["ns_per_item"].append(ns)
        if "allocs_per_op" in b:
            entry["allocs_per_op"] = float(b["allocs_per_op"])
        if "bytes_per_second" in b:
            entry.setdefault("bytes_per_second", []).append(float(b["bytes_per_second"]))
    return out


def parse_callgrind_dumps(folder: Path, runs: dict[str, tuple[int, int]]) -> dict[str, float]:
    """Instructions per item of each case from callgrind's dumps (one per case, named by the
    client request that triggered it). `runs` maps a benchmark name to (operations counted, items per op)."""
    out: dict[str, float] = {}
    for path in folder.glob("callgrind.out.*"):
        desc, total = None, None
        with path.open(errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    desc = line.removeprefix("desc: Trigger: Client Request: ").rstrip("\n")
                elif line.startswith(("summary: ", "totals: ")):
                    total = int(line.split()[1])
        if desc in runs and total is not None:
            ops, items = runs[desc]
            out[desc] = total / ops / items
    return out


def spread(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def summarize(timings: dict[tuple[str, str], dict[str, dict]], instructions: dict[str, float]) -> list[dict]:
    """One row per case: every side's median and spread, and each pairing's speedup with its spread
    (the ratio of the original's to the optimized side's time, repetition by repetition)."""
    rows = []
    for (pair, case), sides in timings.items():
        row = {"pair": pair, "case": case, "sides": {}, "speedups": {}}
        for side, e in sides.items():
            med, lo, hi = spread(e["ns_per_item"])
            row["sides"][side] = {"ns_per_item": e["ns_per_item"], "median": med, "min": lo, "max": hi,
                                  "items_per_op": e["items_per_op"], "allocs_per_op": e.get("allocs_per_op"),
                                  "instructions_per_item": instructions.get(f"{pair}/{case}/{side}")}
            if e.get("bytes_per_second"):
                row["sides"][side]["mib_per_second"] = statistics.median(e["bytes_per_second"]) / (1 << 20)
        for orig, opt, column in PAIRINGS:
            if orig in sides and opt in sides:
                a, b = sides[orig]["ns_per_item"], sides[opt]["ns_per_item"]
                ratios = [x / y for x, y in zip(a, b) if y > 0]
                if not ratios:
                    continue
                med, lo, hi = spread(ratios)
                s = {"median": med, "min": lo, "max": hi, "repetitions": len(ratios)}
                ia = row["sides"][orig]["instructions_per_item"]
                ib = row["sides"][opt]["instructions_per_item"]
                if ia and ib:
                    s["instructions"] = ia / ib
                row["speedups"][column] = s
        rows.append(row)
    return rows


def fmt_ns(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:,.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:,.2f} µs"
    return f"{ns:,.1f} ns"


def fmt_side(s: dict | None) -> str:
    if not s:
        return "–"
    half = (s["max"] - s["min"]) / 2 / s["median"] * 100 if s["median"] else 0.0
    rate = f" ({s['mib_per_second']:,.0f} MiB/s)" if s.get("mib_per_second") else ""
    return f"{fmt_ns(s['median'])} ±{half:.0f}%{rate}"


def fmt_speedup(s: dict | None) -> str:
    if not s:
        return "–"
    text = f"{s['median']:.2f}× ({s['min']:.2f}–{s['max']:.2f})"
    if "instructions" in s:
        text += f", instr {s['instructions']:.2f}×"
    return text


def markdown(rows: list[dict]) -> str:
    headers = ["pair", "case (time per item)", "original", "optimized", "speedup", "core-original", "core-optimized",
               "Core speedup", "other sides"]
    out = []
    for r in rows:
        others = ", ".join(f"{k} {fmt_side(v)}" for k, v in r["sides"].items() if k not in KNOWN_SIDES)
        out.append([r["pair"], r["case"], fmt_side(r["sides"].get("original")), fmt_side(r["sides"].get("optimized")),
                    fmt_speedup(r["speedups"].get("ours")), fmt_side(r["sides"].get("core-original")),
                    fmt_side(r["sides"].get("core-optimized")), fmt_speedup(r["speedups"].get("core")), others or "–"])
    return table(headers, out)


def chart(rows: list[dict], path: Path, title: str) -> bool:
    """A horizontal bar per case and pairing: the median speedup, whiskers from the slowest to the
    fastest repetition, a line at 1 (no change). False when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels, values, lows, highs, colors = [], [], [], [], []
    for r in rows:
        for column, color in (("ours", "#4472c4"), ("core", "#ed7d31")):
            s = r["speedups"].get(column)
            if not s:
                continue
            labels.append(f"{r['pair']}: {r['case']} ({column})")
            values.append(s["median"])
            lows.append(s["median"] - s["min"])
            highs.append(s["max"] - s["median"])
            colors.append(color)
    if not labels:
        return False
    fig, ax = plt.subplots(figsize=(11, max(3.0, 0.22 * len(labels) + 1.2)))
    y = list(range(len(labels)))[::-1]
    ax.barh(y, values, xerr=[lows, highs], color=colors, ecolor="#333333", capsize=2)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels, fontsize=6)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xscale("log")
    ax.set_xlabel("speedup: original time / optimized time (log scale; whiskers: slowest to fastest repetition)", fontsize=8)
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(color="#4472c4", label="ours"), Patch(color="#ed7d31", label="Bitcoin Core's trees")],
              loc="lower right", fontsize=7)
    ax.set_title(title, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def cpu_busy(seconds: float = 1.0) -> float | None:
    """The share of all CPUs busy over the next `seconds` (/proc/stat), or None where it cannot be read.
    Unlike the load average, it does not remember a build that has just finished."""
    def sample():
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        return fields[3] + (fields[4] if len(fields) > 4 else 0), sum(fields)  # idle + iowait, total
    try:
        idle0, total0 = sample()
        time.sleep(seconds)
        idle1, total1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    return 1.0 - (idle1 - idle0) / max(1, total1 - total0)


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "load_average_at_start": os.getloadavg(),
            "cpu_busy_at_start": cpu_busy()}


def run_timings(prog: Path, reps: int, min_time: float, out_json: Path) -> dict:
    cmd = [str(prog), f"--benchmark_repetitions={reps}", f"--benchmark_min_time={min_time}",
           "--benchmark_enable_random_interleaving=true", f"--benchmark_out={out_json}", "--benchmark_out_format=json",
           "--benchmark_format=console"]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0 or not out_json.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise InfraError(f"{prog.name} failed (exit {proc.returncode}): {tail[0]}")
    try:
        return json.loads(out_json.read_text())
    except json.JSONDecodeError as e:
        raise InfraError(f"{prog.name} wrote unreadable JSON to {out_json} ({e.msg}).")


def registration_order(prog: Path) -> list[str]:
    """The program's benchmark names in the order it registers them (the table's order)."""
    proc = subprocess.run([str(prog), "--equifuzz-list"], capture_output=True, text=True, errors="replace")
    return proc.stdout.splitlines() if proc.returncode == 0 else []


def core_trees(manifest: Manifest, pair: str) -> str:
    """'core-original = kernel-0.0.10 (Bitcoin Core v28.99 ...), core-optimized = ...' from the build's manifest."""
    return ", ".join(f"{c.role} = {c.tree}" + (" with an edit" if c.core_edit else "") for c in manifest.pair(pair).core)


def run_instructions(prog: Path, folder: Path) -> dict[str, float]:
    folder.mkdir(parents=True, exist_ok=True)
    cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", f"--callgrind-out-file={folder}/callgrind.out.%p",
           str(prog), "--equifuzz-instructions"]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise InfraError(f"valgrind on {prog.name} failed (exit {proc.returncode}): {tail[0]}")
    runs = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(.*) runs=(\d+) items=(\d+)$", line)
        if m:
            runs[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return parse_callgrind_dumps(folder, runs)


def cmd_bench(args) -> int:
    bdir = build_dir("bench", getattr(args, "build_dir", None))
    if not configured(bdir):
        ensure_built("bench", bdir)
    elif not getattr(args, "build_dir", None):
        # Bring the programs up to date, keeping the build's configuration (a reviewer's Core
        # trees given to './equifuzz build bench --core-optimized ...' stay in place).
        cmake(["cmake", "--build", "--preset", "bench"], quiet=True)
    if not (bdir / "bench").is_dir():
        raise InfraError(f"{bdir} has no bench programs: configure it with the 'bench' preset (-DEQUIFUZZ_BENCH=ON).")
    manifest = read_manifest(bdir)  # a manifest that does not parse ends here, in one sentence
    if manifest.sanitizers:
        raise EquifuzzError(f"{bdir} is built with sanitizers ({manifest.sanitizers}): its times would measure "
                            "them. Use the bench build (./equifuzz build bench).")
    progs = programs(bdir)
    if not progs:
        raise InfraError(f"no bench programs in {bdir}/bench: rebuild with './equifuzz build bench'.")
    for name in args.pairs:
        if name not in progs:
            raise EquifuzzError(f"no benchmark for '{name}': the pairs with one are {', '.join(progs)}.")
    chosen = {p: progs[p] for p in (args.pairs or progs)}
    if args.repetitions < 5:
        print("equifuzz: fewer than 5 repetitions: the spreads are not figures to quote.", file=sys.stderr)
    out = Path(args.out) if args.out else ROOT / "build" / "bench-results" / time.strftime("%Y%m%d-%H%M%S")
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    info = machine()
    if info["cpu_busy_at_start"] is not None and info["cpu_busy_at_start"] > 0.25:
        print(f"equifuzz: {info['cpu_busy_at_start']:.0%} of the CPUs were busy just before the run: something else is "
              "running, so the times are not figures (the instruction counts still are).", file=sys.stderr)

    timings: dict = {}
    context = {}
    order: list[str] = []
    for pair, prog in chosen.items():
        order += registration_order(prog)
        if not args.quiet:
            print(f"equifuzz: timing {pair} ({args.repetitions} repetitions) ...", file=sys.stderr)
        data = run_timings(prog, args.repetitions, args.min_time, out / f"{pair}.gbench.json")
        context = data.get("context", context)
        timings.update(parse_benchmark_json(data))

    instructions: dict[str, float] = {}
    counted = False
    if args.instructions and shutil.which("valgrind"):
        if not args.quiet:
            print(f"equifuzz: counting instructions under callgrind ({', '.join(chosen)}) ...", file=sys.stderr)
        jobs = max(1, min(len(chosen), os.cpu_count() or 1))
        with ThreadPoolExecutor(jobs) as pool:
            for counts in pool.map(lambda kv: run_instructions(kv[1], out / "callgrind" / kv[0]), chosen.items()):
                instructions.update(counts)
        counted = True
    elif args.instructions:
        print("equifuzz: valgrind is not installed (apt-get install valgrind): times only, no instruction counts.",
              file=sys.stderr)

    rows = summarize(timings, instructions)
    first = {}
    for i, name in enumerate(order):
        parsed = split_name(name)
        if parsed:
            first.setdefault(parsed[:2], i)
    rows.sort(key=lambda r: first.get((r["pair"], r["case"]), len(order)))
    seconds = time.monotonic() - started
    title = (f"equifuzz bench: {info['cpu'] or 'this machine'}, {info['cores']} cores; {args.repetitions} repetitions "
             f"of >= {args.min_time} s per case; {manifest.compiler} {manifest.optimization}")
    result = {"machine": info, "benchmark_context": context,
              "build": {"compiler": manifest.compiler, "optimization": manifest.optimization, "sanitizers": manifest.sanitizers},
              "repetitions": args.repetitions, "min_time": args.min_time, "instructions_counted": counted,
              "seconds": round(seconds, 1), "cases": rows}
    (out / "bench.json").write_text(json.dumps(result, indent=2) + "\n")
    text = markdown(rows)
    png = out / "bench.png"
    drew = chart(rows, png, title)
    trees = [f"- {pair}: {core_trees(manifest, pair)}" for pair in chosen if core_trees(manifest, pair)]
    if trees:
        text += "\n\nCore's sides in this build:\n" + "\n".join(trees)
    (out / "bench.md").write_text(f"{title}\n\n{text}\n")
    print(f"\n{title}\n")
    print(text)
    print(f"\nequifuzz bench: {len(rows)} cases in {seconds:.0f} s; "
          f"time per item is the median of {args.repetitions} repetitions ± half their range; a speedup is the median "
          f"of the per-repetition ratios (min–max in brackets)"
          + ("; instr = the ratio of instructions counted under callgrind" if counted else "") + ".")
    print(f"equifuzz bench: wrote {out / 'bench.md'}, {out / 'bench.json'}"
          + (f" and {png}" if drew else " (no chart: matplotlib is missing; run ci/install-deps.sh)") + ".")
    if json_path := getattr(args, "json", None):
        Path(json_path).write_text(json.dumps(result, indent=2) + "\n")
    return EXIT_CLEAN
