"""Reach: two small "Core trees" that define the same functions, each linked into one side object
the way cmake/CoreObjects.cmake links a Core side (ld -r, every symbol but the accessor local), in
one binary with clang's source-based coverage. The tests plant a change in a function the binary
calls and in one it never calls, and check the figures per side and the verdict they make: a
change no input executed is NOT REACHED (exit 3), never CLEAN."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from equifuzz import profile_names, reach, verify  # noqa: E402
from equifuzz.manifest import CoreSide, Pair  # noqa: E402

from test_verify import recorded_facts  # noqa: E402

TOOLS = ("clang++-19", "llvm-profdata-19", "llvm-cov-19", "ld.bfd", "objcopy", "git")
pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS), reason="needs " + ", ".join(TOOLS))

BEFORE = """#include "lib.h"
int Called(int x) {
  if (x > 3)
    return x * 2;
  return x + 1;
}
int NeverCalled(int x) {
  int y = x * 5;
  return y - 1;
}
"""
HEADER = "inline int Twice(int x) { return x + x; }\nint Called(int x);\nint NeverCalled(int x);\n"
ACCESSOR = """#include "lib.h"
namespace equifuzz { int core_%s_side(int x) { return Called(x) + Twice(x); } }
"""
MAIN = """namespace equifuzz { int core_original_side(int); int core_optimized_side(int); }
int main(int argc, char**) { return (equifuzz::core_original_side(argc + 3) + equifuzz::core_optimized_side(argc + 3)) & 1; }
"""
FLAGS = ["-fprofile-instr-generate", "-fcoverage-mapping", "-O0"]


def side_object(tmp: Path, role: str, lib: str, rename: bool) -> Path:
    src = tmp / role / "src"
    src.mkdir(parents=True)
    (src / "lib.cpp").write_text(lib)
    (src / "lib.h").write_text(HEADER)
    # The accessor is our shim: outside the tree (each side's has its own name).
    (tmp / role / "side.cpp").write_text(ACCESSOR % role)
    objs = []
    for source in (src / "lib.cpp", tmp / role / "side.cpp"):
        obj = tmp / role / f"{source.stem}.o"
        subprocess.run(["clang++-19", *FLAGS, f"-I{src}", "-c", source, "-o", obj], check=True)
        objs.append(obj)
    side = tmp / role / f"core_{role}.o"
    subprocess.run(["ld.bfd", "-r", "--force-group-allocation", "-o", side, *objs], check=True)
    subprocess.run(["objcopy", "--wildcard", "--keep-global-symbol=_ZN8equifuzz*core_*_side*", side], check=True)
    if rename:
        assert profile_names.rename(side, f"core-{role}", "objcopy") > 0
    return side


def run_pair(tmp: Path, after_lib: str, rename: bool = True):
    """Both sides built, linked and run once: (objects, profile, the pair as the manifest has it)."""
    sides = [side_object(tmp, role, lib, rename) for role, lib in (("original", BEFORE), ("optimized", after_lib))]
    (tmp / "main.cpp").write_text(MAIN)
    binary = tmp / "pair"
    subprocess.run(["clang++-19", *FLAGS, tmp / "main.cpp", *sides, "-o", binary], check=True)
    subprocess.run([binary], env={"LLVM_PROFILE_FILE": str(tmp / "p.profraw")})
    subprocess.run(["llvm-profdata-19", "merge", "-sparse", tmp / "p.profraw", "-o", tmp / "p.profdata"], check=True)
    info = Pair(name="xor", core=tuple(CoreSide(role=f"core-{role}", src=str(tmp / role / "src"))
                                       for role in ("original", "optimized")))
    return [str(binary)], tmp / "p.profdata", info


def facts_with(pair_reach):
    return recorded_facts(reach={"xor": pair_reach})


def test_the_diff_gives_the_lines_each_side_changes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("one\ntwo\nthree\nfour\n")
    b.write_text("one\nTWO\nthree\nfour\nfive\nsix\n")
    assert reach.diff_lines(a, b) == ({2}, {2, 5, 6})
    assert reach.diff_lines(None, b) == (set(), {1, 2, 3, 4, 5, 6})
    assert reach.diff_lines(a, None) == ({1, 2, 3, 4}, set())


def test_without_the_renaming_the_second_tree_has_no_coverage_at_all(tmp_path):
    # Why profile_names.py exists: the records of two trees' same-named functions collide.
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("x * 2", "x * 3"), rename=False)
    files = reach.line_counts(objects, profile)
    assert str(tmp_path / "original" / "src" / "lib.cpp") in files
    assert str(tmp_path / "optimized" / "src" / "lib.cpp") not in files


def test_each_side_has_its_own_counters(tmp_path):
    # After the change the branch goes the other way on the same input (x = 4): each side's figure
    # is its own, not the two sides' counters added up.
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("if (x > 3)", "if (x > 5)"))
    files = reach.line_counts(objects, profile)
    before = files[str(tmp_path / "original" / "src" / "lib.cpp")]
    after = files[str(tmp_path / "optimized" / "src" / "lib.cpp")]
    assert before[4] == 1 and before[5] == 0     # return x * 2 ran before the change
    assert after[4] == 0 and after[5] == 1       # and return x + 1 after it


def test_a_change_in_a_called_function_is_clean_with_its_reach(tmp_path):
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("return x * 2;", "return 2 * x;"))
    r = reach.pair_reach(objects, profile, info)
    for role in reach.ROLES:
        assert (r["sides"][role]["changed_lines"], r["sides"][role]["executable"], r["sides"][role]["reached"]) == (1, 1, 1)
    verdict, code = verify.verdict_of(facts_with(r))
    assert code == 0 and verdict.startswith("CLEAN"), verdict
    assert "reached 1 of 1 changed lines in Core after (100.0 %), reached 1 of 1 changed lines in Core before" in verdict


def test_a_change_in_a_function_no_input_calls_is_not_reached(tmp_path):
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("int y = x * 5;", "int y = x * 6;"))
    r = reach.pair_reach(objects, profile, info)
    after = r["sides"]["core-optimized"]
    assert (after["changed_lines"], after["executable"], after["reached"]) == (1, 1, 0)
    assert after["unreached"] == [{"where": "src/lib.cpp:8", "function": "NeverCalled(int)", "called": False, "lines": 1}]
    verdict, code = verify.verdict_of(facts_with(r))
    assert code == 3 and verdict.startswith("NOT REACHED: nothing differed, but no input executed any of the 1 "
                                            "executable changed lines of Core after"), verdict
    assert "src/lib.cpp:8 NeverCalled" in verdict and "never called" in verdict
    # Two pairs compiling the same tree: its line is one line, named once.
    verdict, code = verify.verdict_of(recorded_facts(reach={"xor": r, "blockfile": r}))
    assert code == 3 and verdict.count("src/lib.cpp:8 NeverCalled") == 2, verdict  # once per side
    assert "any of the 1 executable changed lines of Core after" in verdict


def test_min_reach_raises_the_bar_and_no_measure_is_never_plain_clean(tmp_path):
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("return x * 2;", "return x * 4;")
                                      .replace("int y = x * 5;", "int y = x * 6;"))
    r = reach.pair_reach(objects, profile, info)
    assert r["sides"]["core-optimized"]["executable"] == 2 and r["sides"]["core-optimized"]["reached"] == 1
    verdict, code = verify.verdict_of(facts_with(r))
    assert code == 0 and "reached 1 of 2 changed lines in Core after (50.0 %)" in verdict
    verdict, code = verify.verdict_of(recorded_facts(reach={"xor": r}, min_reach=80))
    assert code == 3 and "Core after: 1 of 2 executable changed lines executed (50.0 %), below --min-reach 80 %" in verdict
    verdict, code = verify.verdict_of(recorded_facts(reach_note="--no-coverage left out the coverage build"))
    assert code == 0 and "reach not measured (--no-coverage left out the coverage build)" in verdict


def test_a_change_of_comments_only_is_said_and_judged_on_the_rest(tmp_path):
    objects, profile, info = run_pair(tmp_path, BEFORE.replace('#include "lib.h"', '#include "lib.h"\n// a comment'))
    r = reach.pair_reach(objects, profile, info)
    assert r["sides"]["core-optimized"]["changed_lines"] == 1 and r["sides"]["core-optimized"]["executable"] == 0
    verdict, code = verify.verdict_of(facts_with(r))
    assert code == 0 and "the change alters no executable line" in verdict, verdict


def test_the_report_shows_the_reach_and_names_what_was_not_reached(tmp_path):
    objects, profile, info = run_pair(tmp_path, BEFORE.replace("int y = x * 5;", "int y = x * 6;"))
    out = tmp_path / "report"
    out.mkdir()
    verdict, code = verify.write_report(facts_with(reach.pair_reach(objects, profile, info)), out)
    md = (out / "report.md").read_text()
    assert md.startswith("# equifuzz verify: NOT REACHED")
    assert "## Reach of the change" in md and "`src/lib.cpp:8` NeverCalled" in md


def test_an_unreached_function_names_the_pair_that_drives_it_or_that_none_does():
    # differential/core/drivers.json: the pair itself, another pair, or nobody yet (with why).
    assert reach.driver_of("SpanReader::read(std::span<std::byte, 18446744073709551615ul>)", "serialize") == \
        "serialize drives this code: a new operation or seed of serialize would reach it"
    assert reach.driver_of("void SpanReader::read<4ul>(std::span<std::byte, 4ul>)", "serialize").startswith("serialize drives")
    assert reach.driver_of("AutoFile::SetXor(std::vector<std::byte, std::allocator<std::byte> >)", "xor") == \
        "the blockfile pair drives it: verify blockfile on these trees"
    assert reach.driver_of("CCoinsViewCache::Cursor() const", "utxo_flush") == \
        "the coins_view pair drives it: verify coins_view on these trees"
    assert reach.driver_of("CDBWrapper::CompactRange(Span<std::byte const>, Span<std::byte const>) const", "coins_view").startswith(
        "chainstate compaction: no pair drives it yet")
    assert reach.driver_of("node::BlockManager::FindNextBlockPos(unsigned int, int, unsigned long)", "blockfile") == \
        "no pair drives it yet"
    lines = reach.lines({"sides": {"core-original": {"changed_lines": 3, "executable": 3, "reached": 0, "unreached": [
        {"where": "src/coins.h:449-451", "function": "CCoinsViewCache::Cursor() const", "called": False, "lines": 3}]},
        "core-optimized": {"changed_lines": 0, "executable": 0, "reached": 0, "unreached": []}}}, "utxo_flush")
    assert any("not reached: src/coins.h:449-451 CCoinsViewCache::Cursor() const (no input called it): the coins_view pair" in l
               for l in lines), lines
