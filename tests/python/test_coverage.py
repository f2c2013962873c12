"""coverage: llvm-cov's export split by side (our two models, each Core tree), and the functions of
our models that no target reaches, named."""
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from equifuzz import coverage  # noqa: E402
from equifuzz.manifest import CoreSide, Pair  # noqa: E402


def summary(lines, covered, branches=(0, 0), functions=(1, 1)):
    pct = lambda c, n: 100.0 * c / n if n else 0.0
    return {"lines": {"count": lines, "covered": covered, "percent": pct(covered, lines)},
            "branches": {"count": branches[0], "covered": branches[1], "percent": pct(branches[1], branches[0])},
            "functions": {"count": functions[0], "covered": functions[1], "percent": pct(functions[1], functions[0])},
            "regions": {"count": lines, "covered": covered, "percent": pct(covered, lines)}}


PAIR = Pair(name="blockfile", original="/r/differential/blockfile/original.cpp",
            optimized="/r/differential/blockfile/optimized.cpp",
            core=(CoreSide(role="core-original", tree="kernel-0.0.10", src="/cargo/k10/src"),
                  CoreSide(role="core-optimized", tree="kernel-0.0.20", src="/cargo/k20/src/")))
DATA = {
    "files": [
        {"filename": "/r/differential/blockfile/original.cpp", "summary": summary(100, 90, (10, 8), (5, 4))},
        {"filename": "/r/differential/blockfile/optimized.cpp", "summary": summary(200, 150, (20, 10), (6, 6))},
        {"filename": "/r/differential/blockfile/pair.cpp", "summary": summary(300, 300)},
        {"filename": "/cargo/k10/src/streams.cpp", "summary": summary(50, 20)},
        {"filename": "/cargo/k10/src/streams.h", "summary": summary(70, 35)},
        {"filename": "/cargo/k20/src/streams.h", "summary": summary(80, 80)},
    ],
    "functions": [
        {"name": "_ZN8equifuzz9blockfile12_GLOBAL__N_111ReadRecordsEP8_IO_FILERKNS0_10RecordsJobE", "count": 0,
         "filenames": ["/r/differential/blockfile/original.cpp"]},
        {"name": "original.cpp:_ZN8equifuzz9blockfile12_GLOBAL__N_15WriteEP8_IO_FILERKNS0_8WriteJobE", "count": 12,
         "filenames": ["/r/differential/blockfile/original.cpp"]},
        {"name": "_ZN8equifuzz9blockfile4SomeEv", "count": 0, "filenames": ["/r/differential/blockfile/pair.cpp"]},
        # The same function of optimized.cpp compiled twice (master_shape.cpp includes it): one copy is reached.
        {"name": "optimized.cpp:_ZN8equifuzz9blockfile12_GLOBAL__N_14ReadEP8_IO_FILERKNS0_7ReadJobE", "count": 0,
         "filenames": ["/r/differential/blockfile/optimized.cpp"]},
        {"name": "master_shape.cpp:_ZN8equifuzz9blockfile12_GLOBAL__N_14ReadEP8_IO_FILERKNS0_7ReadJobE", "count": 3,
         "filenames": ["/r/differential/blockfile/optimized.cpp"]},
    ],
}


def test_each_side_gets_its_own_files_and_figures():
    sides = coverage.split_by_side(DATA, PAIR)
    assert list(sides) == ["original", "optimized", "core-original (kernel-0.0.10)", "core-optimized (kernel-0.0.20)"]
    assert sides["original"]["summary"]["lines"] == {"count": 100, "covered": 90, "percent": 90.0}
    assert sides["optimized"]["summary"]["branches"] == {"count": 20, "covered": 10, "percent": 50.0}
    core10 = sides["core-original (kernel-0.0.10)"]
    assert core10["summary"]["lines"] == {"count": 120, "covered": 55, "percent": 45.8}
    assert core10["files"] == ["streams.h", "streams.cpp"]  # the largest file first
    assert sides["core-optimized (kernel-0.0.20)"]["summary"]["lines"]["covered"] == 80
    # pair.cpp (the harness's side of the pair) belongs to no side.
    assert all("pair.cpp" not in f for s in sides.values() for f in s["files"])


def test_unreached_functions_of_our_models_are_named():
    sides = coverage.split_by_side(DATA, PAIR)
    unreached = sides["original"]["unreached_functions"]
    assert len(unreached) == 1 and "ReadRecords" in unreached[0]
    assert sides["optimized"]["unreached_functions"] == []


def test_one_tree_for_both_core_sides_is_one_figure_and_says_so():
    pair = dataclasses.replace(PAIR, core=(CoreSide(role="core-original", tree="kernel-0.4.1", src="/cargo/k41/src"),
                                           CoreSide(role="core-optimized", tree="kernel-0.4.1", src="/cargo/k41/src")))
    sides = coverage.split_by_side(DATA, pair)
    assert "core-original + core-optimized (kernel-0.4.1)" in sides
    assert sides["core-original + core-optimized (kernel-0.4.1)"]["shared_by_both_core_sides"]
