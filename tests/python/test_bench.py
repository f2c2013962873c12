"""./equifuzz bench: the figures it derives (medians, spreads, speedups, instruction ratios) and its
answers to bad input, on a stand-in bench build whose program prints known Google Benchmark JSON."""
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import bench  # noqa: E402


def gbench(rows):
    """Google Benchmark JSON with one per-repetition row per (name, real_time ns, items_per_op)."""
    return {"context": {"num_cpus": 2},
            "benchmarks": [{"name": n, "run_name": n, "run_type": "iteration", "real_time": t, "time_unit": "ns",
                            "items_per_op": items, "allocs_per_op": 1.0} for n, t, items in rows]
            + [{"name": "demo/case/original_median", "run_name": "demo/case/original", "run_type": "aggregate",
                "aggregate_name": "median", "real_time": 1e9, "time_unit": "ns"}]}


def test_speedup_is_the_median_of_the_per_repetition_ratios_with_its_range():
    orig = [100, 110, 90, 100, 120]
    opt = [50, 50, 60, 40, 50]
    rows = [("demo/a case/with/slashes/original", t, 1) for t in orig] + \
           [("demo/a case/with/slashes/optimized", t, 1) for t in opt]
    timings = bench.parse_benchmark_json(gbench(rows))
    assert list(timings) == [("demo", "a case/with/slashes")]
    [row] = bench.summarize(timings, {})
    ratios = sorted(a / b for a, b in zip(orig, opt))
    s = row["speedups"]["ours"]
    assert s["median"] == pytest.approx(ratios[2])
    assert (s["min"], s["max"]) == (pytest.approx(ratios[0]), pytest.approx(ratios[-1]))
    assert s["repetitions"] == 5
    assert row["sides"]["original"]["median"] == 100
    assert "core" not in row["speedups"]  # no Core sides in this case: no Core speedup is made up


def test_time_per_item_divides_by_the_items_of_an_operation():
    rows = [("demo/batch/original", 2560, 256), ("demo/batch/optimized", 1280, 256)]
    [row] = bench.summarize(bench.parse_benchmark_json(gbench(rows)), {})
    assert row["sides"]["original"]["median"] == pytest.approx(10.0)
    assert row["speedups"]["ours"]["median"] == pytest.approx(2.0)


def test_instruction_counts_come_from_callgrind_dumps_named_by_their_case(tmp_path):
    for i, (name, total) in enumerate([("demo/c/core-original", 9000), ("demo/c/core-optimized", 3000)]):
        (tmp_path / f"callgrind.out.7.{i + 1}").write_text(
            f"# callgrind format\nversion: 1\ndesc: Trigger: Client Request: {name}\nevents: Ir\nsummary: {total}\n\ntotals: {total}\n")
    counts = bench.parse_callgrind_dumps(tmp_path, {"demo/c/core-original": (10, 3), "demo/c/core-optimized": (10, 3)})
    assert counts == {"demo/c/core-original": pytest.approx(300.0), "demo/c/core-optimized": pytest.approx(100.0)}
    rows = [("demo/c/core-original", 30, 1), ("demo/c/core-optimized", 20, 1)]
    [row] = bench.summarize(bench.parse_benchmark_json(gbench(rows)), counts)
    assert row["speedups"]["core"]["instructions"] == pytest.approx(3.0)
    assert "instr 3.00×" in bench.markdown([row])


FAKE_PROGRAM = textwrap.dedent("""\
    #!{python}
    # A stand-in bench program: known times, Google Benchmark's flags and JSON.
    import json, sys
    names = ["demo/fast path/original", "demo/fast path/optimized", "demo/fast path/core-original",
             "demo/fast path/core-optimized", "demo/fast path/memcpy"]
    times = {{"original": 400.0, "optimized": 200.0, "core-original": 300.0, "core-optimized": 100.0, "memcpy": 50.0}}
    args = sys.argv[1:]
    if "--equifuzz-list" in args:
        print("\\n".join(names)); sys.exit(0)
    if {fail}:
        print("demo failed on its own job", file=sys.stderr); sys.exit(3)
    reps = int(next(a.split("=")[1] for a in args if a.startswith("--benchmark_repetitions=")))
    out = next(a.split("=", 1)[1] for a in args if a.startswith("--benchmark_out="))
    rows = [{{"name": n, "run_name": n, "run_type": "iteration", "real_time": times[n.split("/")[-1]] * (1 + r / 100),
              "time_unit": "ns", "items_per_op": 1}} for r in range(reps) for n in names]
    json.dump({{"context": {{}}, "benchmarks": rows}}, open(out, "w"))
    """)


def fake_build(tmp_path: Path, sanitizers: str = "", fail: bool = False) -> Path:
    b = tmp_path / "build"
    (b / "bench").mkdir(parents=True)
    (b / "equifuzz-targets.json").write_text(json.dumps({
        "version": 1, "engine": "replay", "sanitizers": sanitizers, "compiler": "c++ (test)", "optimization": "-O2", "targets": [],
        "pairs": {"demo": {"core": [{"role": "core-original", "tree": "kernel-0.0.10"},
                                    {"role": "core-optimized", "tree": "kernel-0.4.1"}]}}}))
    prog = b / "bench" / "bench_demo"
    prog.write_text(FAKE_PROGRAM.format(python=sys.executable, fail=fail))
    prog.chmod(prog.stat().st_mode | stat.S_IXUSR)
    return b


def run_tool(*args):
    return subprocess.run([sys.executable, str(ROOT / "equifuzz"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "EQUIFUZZ_DEBUG": ""})


def test_bench_prints_every_side_and_both_speedups_and_writes_its_files(tmp_path):
    b = fake_build(tmp_path)
    out = tmp_path / "out"
    proc = run_tool("--build-dir", b, "bench", "--no-instructions", "--quiet", "--out", out)
    assert proc.returncode == 0, proc.stderr
    [line] = [l for l in proc.stdout.splitlines() if l.startswith("| demo")]
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == "fast path"
    # times grow 1 % per repetition: the median is the third, 1.02 times the base; half the range 2 %
    assert cells[2] == "408.0 ns ±2%" and cells[3] == "204.0 ns ±2%"
    assert cells[4].startswith("2.00×") and cells[7].startswith("3.00×")
    assert cells[8] == "memcpy 51.0 ns ±2%"
    assert "demo: core-original = kernel-0.0.10, core-optimized = kernel-0.4.1" in proc.stdout
    data = json.loads((out / "bench.json").read_text())
    assert data["repetitions"] == 5 and len(data["cases"][0]["sides"]["original"]["ns_per_item"]) == 5
    assert (out / "bench.md").read_text().count("| demo") == 1
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (out / "bench.png").stat().st_size > 0


def test_bench_refuses_an_unknown_pair_in_one_sentence(tmp_path):
    proc = run_tool("--build-dir", fake_build(tmp_path), "bench", "nosuchpair", "--no-instructions")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "equifuzz: no benchmark for 'nosuchpair': the pairs with one are demo."


def test_bench_refuses_a_sanitized_build(tmp_path):
    proc = run_tool("--build-dir", fake_build(tmp_path, sanitizers="address,undefined"), "bench", "--no-instructions")
    assert proc.returncode == 2
    assert "is built with sanitizers (address,undefined)" in proc.stderr and "Traceback" not in proc.stderr


def test_a_failing_bench_program_is_an_infrastructure_failure(tmp_path):
    proc = run_tool("--build-dir", fake_build(tmp_path, fail=True), "bench", "--no-instructions", "--quiet",
                    "--out", tmp_path / "o")
    assert proc.returncode == 3
    assert proc.stderr.strip().splitlines()[-1] == "equifuzz: bench_demo failed (exit 3): demo failed on its own job"
    assert "Traceback" not in proc.stderr


def test_a_case_with_bytes_shows_mib_per_second():
    data = gbench([("demo/apply 1MiB/original", 1e6, 1), ("demo/apply 1MiB/optimized", 5e5, 1)])
    for b in data["benchmarks"]:
        if b["run_type"] == "iteration":
            b["bytes_per_second"] = (1 << 20) / (b["real_time"] / 1e9)
    [row] = bench.summarize(bench.parse_benchmark_json(data), {})
    assert row["sides"]["original"]["mib_per_second"] == pytest.approx(1000.0)
    assert "(2,000 MiB/s)" in bench.markdown([row])
