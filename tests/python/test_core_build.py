"""Core sides built one pair at a time, and the pairs a change touches (tools/equifuzz/core_build.py,
verify.pick_pairs): the first compiler error in one line, a tree that does not compile told apart
from a shim that does not compile on it, the files that differ between two trees, the pairs
picked from ninja's dependency records, a change that touches no pair, and the verdict of a side
left out. Stand-in trees and builds, so each case is decided here."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from equifuzz import core_build, manifest, verify  # noqa: E402
from equifuzz.project import ROOT, InfraError  # noqa: E402


def typed(where: Path, raw: dict) -> manifest.Manifest:
    """<raw> as the tool reads it: written as the manifest in <where>, with this equifuzz's version,
    and read back."""
    where.mkdir(parents=True, exist_ok=True)
    (where / manifest.FILE).write_text(json.dumps({"version": manifest.VERSION, **raw}))
    return manifest.read(where)

SHIM_FAILURE = """[3/9] Building CXX object differential/utxo_flush/CMakeFiles/equifuzz_core_src_user_original_util_time_cpp_leveldb.dir/x.o
FAILED: differential/utxo_flush/CMakeFiles/equifuzz_core_utxo_flush_default_original_objs.dir/core/shim.cpp.o
/usr/bin/c++ -I/trees/abc/src -c {root}/differential/utxo_flush/core/shim.cpp
{root}/differential/utxo_flush/core/shim.cpp:403:6: error: no declaration matches 'void BCLog::Logger::LogPrintStr(int)'
{root}/differential/utxo_flush/core/shim.cpp:410:6: error: a later error
ninja: build stopped: cannot make progress due to previous errors.
"""

TREE_FAILURE = """FAILED: differential/serialize/CMakeFiles/equifuzz_core_src_user_optimized_streams_cpp_common.dir/trees/abc/src/streams.cpp.o
In file included from /trees/abc/src/streams.cpp:5:
/trees/abc/src/serialize.h:1093:33: error: 'Span' was not declared in this scope
"""


def test_first_error_names_our_file_and_line():
    reason = core_build.classify(SHIM_FAILURE.format(root=ROOT), "/trees/abc/src")
    assert reason == "differential/utxo_flush/core/shim.cpp:403: no declaration matches 'void BCLog::Logger::LogPrintStr(int)'"


def test_a_tree_that_does_not_compile_is_told_apart():
    reason = core_build.classify(TREE_FAILURE, "/trees/abc/src")
    assert reason == "the tree itself does not compile: src/serialize.h:1093: 'Span' was not declared in this scope"


def test_a_tree_whose_header_breaks_the_shim_too_is_still_the_tree():
    both = SHIM_FAILURE.format(root=ROOT).replace("ninja: build stopped", TREE_FAILURE + "ninja: build stopped")
    assert core_build.classify(both, "/trees/abc/src").startswith("the tree itself does not compile: src/serialize.h:1093:")


def test_an_error_in_a_core_header_only_the_shim_includes_is_the_trees():
    out = (f"FAILED: p/equifuzz_core_prevector_default_optimized_objs.dir/core/shim.cpp.o\n"
           f"In file included from {ROOT}/differential/prevector/core/shim.cpp:3:\n"
           "/trees/abc/src/serialize.h:440:5: error: no template named 'Span'\n")
    assert core_build.classify(out, "/trees/abc/src") == "the tree itself does not compile: src/serialize.h:440: no template named 'Span'"


def test_a_trees_file_that_lacks_what_cores_own_build_defines_is_our_gap():
    # LevelDB's port header on trees of late 2024: Core's cmake/leveldb.cmake defines the macro.
    out = ("FAILED: d/CMakeFiles/equifuzz_core_src_user_optimized_leveldb_db_db_impl_cc.dir/x.o\n"
           "In file included from /trees/abc/src/leveldb/port/port.h:16:\n"
           "/trees/abc/src/leveldb/port/port_stdcxx.h:44:24: error: use of undeclared identifier 'LEVELDB_IS_BIG_ENDIAN'\n")
    assert core_build.classify(out, "/trees/abc/src") == ("equifuzz could not build this tree: src/leveldb/port/port_stdcxx.h:44: "
                                                          "use of undeclared identifier 'LEVELDB_IS_BIG_ENDIAN'")
    header = ("FAILED: d/CMakeFiles/equifuzz_core_src_user_optimized_util_time_cpp.dir/x.o\n"
              "/trees/abc/src/util/time.cpp:6:10: fatal error: 'bitcoin-build-config.h' file not found\n")
    assert core_build.classify(header, "/trees/abc/src").startswith("equifuzz could not build this tree: src/util/time.cpp:6:")


def test_an_error_in_a_core_header_our_code_led_to_is_ours():
    out = (f"FAILED: p/equifuzz_core_xor_default_optimized_objs.dir/core/shim.cpp.o\n"
           "/trees/abc/src/streams.h:99:5: error: no matching function for call to 'Xor'\n"
           f"{ROOT}/differential/xor/core/shim.cpp:40:12: note: in instantiation of function template specialization requested here\n")
    assert core_build.classify(out, "/trees/abc/src") == "src/streams.h:99: no matching function for call to 'Xor'"


def test_a_link_error_is_one_line_too():
    out = "FAILED: x\n/usr/bin/ld: core_original.o: in function `f':\nshim.cpp:(.text+0x1): undefined reference to `util::log::Log(util::log::Entry)'\n"
    assert core_build.first_error(out, "/t/src") == "link: undefined reference to util::log::Log(util::log::Entry)"


def make_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / rel).write_text(text)
    return root / "src"


def test_changed_files_lists_added_removed_and_changed(tmp_path):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "txdb.cpp": "same", "old.h": "x"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "2", "txdb.cpp": "same", "new.h": "y"})
    assert core_build.changed_files(str(a), str(b)) == ["src/coins.cpp", "src/new.h", "src/old.h"]


def fake_deps_build(tmp_path, monkeypatch, a: Path, b: Path) -> tuple[Path, dict]:
    """A build whose ninja records: the utxo_flush shim read coins.h, its coins.cpp object read
    coins.cpp; the xor shim read streams.h. Both pairs' Core sides are the trees a and b, in the
    manifest's JSON (typed() reads it)."""
    bdir = tmp_path / "build"
    bdir.mkdir()
    deps = {}
    for role, src in (("original", a), ("optimized", b)):
        deps[f"u/equifuzz_core_utxo_flush_default_{role}_objs.dir/core/shim.cpp.o"] = [f"{ROOT}/differential/utxo_flush/core/shim.cpp", f"{src}/coins.h"]
        # clang with sanitizers lists its ignore list before the source (seen with clang 19)
        deps[f"u/equifuzz_core_src_user_{role}_coins_cpp_leveldb.dir{src}/coins.cpp.o"] = [
            "/usr/lib/llvm-19/lib/clang/19/share/asan_ignorelist.txt", f"{src}/coins.cpp", f"{src}/coins.h"]
        deps[f"x/equifuzz_core_xor_default_{role}_objs.dir/core/shim.cpp.o"] = [f"{ROOT}/differential/xor/core/shim.cpp", f"{src}/streams.h"]
    deps = {obj: (True, read) for obj, read in deps.items()}
    monkeypatch.setattr(core_build, "_deps", lambda _: deps)
    monkeypatch.setattr(core_build, "_run", lambda cmd: subprocess.CompletedProcess(cmd, 0, "", ""))
    side = lambda pair, role, src, compiled: {"role": f"core-{role}", "tree": f"user-{role}", "src": str(src),
                                              "target": f"equifuzz_core_{pair}_default_{role}", "compiled": compiled}
    raw = {"pairs": {
        "utxo_flush": {"core": [side("utxo_flush", "original", a, ["coins.cpp"]), side("utxo_flush", "optimized", b, ["coins.cpp"])],
                       "core_left_out": []},
        "xor": {"core": [side("xor", "original", a, []), side("xor", "optimized", b, [])], "core_left_out": []}}}
    return bdir, raw


def test_pairs_are_picked_by_the_files_their_sides_compile(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s", "net.cpp": "n1"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "2", "coins.h": "h", "streams.h": "s", "net.cpp": "n2"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    sel = verify.pick_pairs(bdir, typed(bdir, raw))
    assert sel["pairs"] == {"utxo_flush": {"files": ["src/coins.cpp"]}}
    assert sel["changed"] == ["src/coins.cpp", "src/net.cpp"]
    assert sel["uncovered"] == ["src/net.cpp"]
    assert "utxo_flush (by src/coins.cpp)" in verify.selection_line(sel)


def test_a_stale_record_is_built_again_and_a_missing_one_is_a_sentence(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "2", "coins.h": "h", "streams.h": "s"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    fresh = core_build._deps(bdir)
    shim = "x/equifuzz_core_xor_default_optimized_objs.dir/core/shim.cpp.o"
    old = {**fresh, shim: (False, [f"{a}/streams.h"])}
    (bdir / shim).parent.mkdir(parents=True)
    (bdir / shim).write_bytes(b"an object of an older tree")
    records, built = [old, fresh, fresh], []
    monkeypatch.setattr(core_build, "_deps", lambda _: records.pop(0))
    monkeypatch.setattr(core_build, "_run", lambda cmd: built.append(cmd) or subprocess.CompletedProcess(cmd, 0, "", ""))
    files = core_build.side_files(bdir, typed(bdir, raw))
    assert not (bdir / shim).exists() and "equifuzz_core_xor_default_optimized" in built[0]
    assert files[("xor", "core-optimized")] == {"src/streams.h"}
    # A Core source the side compiles with no record at all: which files it reads is not known.
    del fresh["u/equifuzz_core_src_user_original_coins_cpp_leveldb.dir" + str(a) + "/coins.cpp.o"]
    monkeypatch.setattr(core_build, "_deps", lambda _: fresh)
    with pytest.raises(InfraError) as e:
        core_build.side_files(bdir, typed(bdir, raw))
    assert str(e.value) == (f"the build in {bdir} has no current dependency record of pair utxo_flush's Core original "
                            "side (coins.cpp), so which files it compiles is not known; remove that build directory "
                            "and run again.")


MINI = """cmake_minimum_required(VERSION 3.25)
project(mini CXX)
foreach(role original optimized)
  add_library(equifuzz_core_p_default_${role}_objs OBJECT shim.cpp)
  target_include_directories(equifuzz_core_p_default_${role}_objs PRIVATE "${TREE_${role}}/src")
  add_custom_target(equifuzz_core_p_default_${role})
  add_dependencies(equifuzz_core_p_default_${role} equifuzz_core_p_default_${role}_objs)
endforeach()
"""


@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None, reason="needs cmake and ninja")
def test_the_files_a_side_compiles_are_the_same_on_the_fifth_change_in_one_build_as_in_a_fresh_one(tmp_path):
    # One checkout whose branch changes (the same path, other headers), configured again each
    # time, the way verify configures its one build directory; the files read are compared with a
    # fresh build directory's after every change, without building in between.
    project = tmp_path / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(MINI)
    (project / "shim.cpp").write_text('#include "entry.h"\nint Shim() { return 0; }\n')
    before, after = tmp_path / "before", tmp_path / "after"
    headers = ["coins.h", "txdb.h", "dbwrapper.h", "streams.h", "serialize.h", "coins.h"]
    sides = typed(tmp_path / "manifest", {"pairs": {"p": {"core": [
        {"role": f"core-{role}", "src": str(tree / "src"), "target": f"equifuzz_core_p_default_{role}", "compiled": []}
        for role, tree in (("original", before), ("optimized", after))]}}})

    def branch(tree, header):
        src = tree / "src"
        src.mkdir(parents=True, exist_ok=True)
        for h in headers:
            (src / h).write_text("// a header\n")
        (src / "entry.h").write_text(f'#include "{header}"\n')

    def configure(build):
        proc = subprocess.run(["cmake", "-S", project, "-B", build, "-G", "Ninja", f"-DTREE_original={before}",
                               f"-DTREE_optimized={after}"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr

    shared = tmp_path / "shared"
    for i in range(5):
        branch(before, headers[i])
        branch(after, headers[i + 1])
        configure(shared)
        if i == 0:
            subprocess.run(["cmake", "--build", shared], check=True, capture_output=True)
        fresh = tmp_path / f"fresh{i}"
        configure(fresh)
        subprocess.run(["cmake", "--build", fresh], check=True, capture_output=True)
        got, want = core_build.side_files(shared, sides), core_build.side_files(fresh, sides)
        assert got == want == {("p", "core-original"): {"src/entry.h", f"src/{headers[i]}"},
                               ("p", "core-optimized"): {"src/entry.h", f"src/{headers[i + 1]}"}}, i


def test_a_header_change_picks_every_pair_that_includes_it(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "1", "coins.h": "h", "streams.h": "t"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    assert set(verify.pick_pairs(bdir, typed(bdir, raw))["pairs"]) == {"xor"}


def test_a_change_that_touches_no_pair_is_one_sentence_naming_its_files(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s", "net.cpp": "n1"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s", "net.cpp": "n2"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    with pytest.raises(InfraError) as e:
        verify.pick_pairs(bdir, typed(bdir, raw))
    assert str(e.value) == ("the change touches none of the files the pairs' Core sides compile, so no pair can check it; "
                            "it changes src/net.cpp.")


def test_a_pair_that_cannot_use_the_trees_is_named_with_a_change_that_touches_no_other(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s", "script/interpreter.cpp": "1"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s", "script/interpreter.cpp": "2"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    why = "tree user-original lacks SCRIPT_ERR_SCRIPTNUM (script/script_error.h has no line matching 'SCRIPT_ERR_SCRIPTNUM')"
    raw["pairs"]["script"] = {"core": [], "core_left_out": [{"role": "core-original", "tree": "user-original", "why": why}]}
    with pytest.raises(InfraError) as e:
        verify.pick_pairs(bdir, typed(bdir, raw))
    assert str(e.value).endswith(f"it changes src/script/interpreter.cpp; pairs that cannot use these trees: script ({why}).")


def test_a_side_that_did_not_build_is_picked_and_makes_the_verdict_incomplete(tmp_path, monkeypatch):
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    raw["pairs"]["xor"]["core"] = raw["pairs"]["xor"]["core"][:1]
    error = "differential/xor/core/shim.cpp:12: 'Obfuscation' was not declared"
    raw["pairs"]["xor"]["core_left_out"] = [{"role": "core-optimized", "tree": "user-optimized", "kind": "build",
                                                  "why": f"tree user-optimized could not be built ({error})", "error": error}]
    sel = verify.pick_pairs(bdir, typed(bdir, raw))
    assert set(sel["pairs"]) == {"xor"} and "could not be built" in sel["pairs"]["xor"]["unbuilt"]
    facts = {"sides": {"xor": {"left_out": raw["pairs"]["xor"]["core_left_out"]}}}
    assert verify.trees_not_used(facts) == [f"pair xor: your Core optimized tree could not be built ({error})"]


def pick_with_every_side_unbuilt(tmp_path, monkeypatch, error: str) -> str:
    """pick_pairs on two trees where the optimized side of every pair failed with `error`: the
    one sentence it raises."""
    a = make_tree(tmp_path / "a", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    b = make_tree(tmp_path / "b", {"coins.cpp": "1", "coins.h": "h", "streams.h": "s"})
    bdir, raw = fake_deps_build(tmp_path, monkeypatch, a, b)
    for pair in ("xor", "utxo_flush"):
        raw["pairs"][pair]["core"] = raw["pairs"][pair]["core"][:1]
        raw["pairs"][pair]["core_left_out"] = [{"role": "core-optimized", "tree": "user-optimized", "kind": "build",
                                                     "why": f"tree user-optimized could not be built ({error})", "error": error}]
    with pytest.raises(InfraError) as e:
        verify.pick_pairs(bdir, typed(bdir, raw))
    return str(e.value)


def test_a_tree_that_does_not_compile_is_one_sentence(tmp_path, monkeypatch):
    said = pick_with_every_side_unbuilt(tmp_path, monkeypatch, core_build.TREE_ITSELF + "src/serialize.h:440: no template named 'Span'")
    assert said == ("your Core optimized tree itself does not compile (src/serialize.h:440: no template named "
                    "'Span'), so no pair can check the change.")


def test_a_tree_equifuzz_could_not_build_is_not_blamed_on_the_user(tmp_path, monkeypatch):
    said = pick_with_every_side_unbuilt(tmp_path, monkeypatch, core_build.OUR_GAP + "src/leveldb/port/port_stdcxx.h:44: "
                                        "use of undeclared identifier 'LEVELDB_IS_BIG_ENDIAN'")
    assert said.startswith("equifuzz could not build your Core optimized tree (src/leveldb/port/port_stdcxx.h:44: ")
    assert "itself does not compile" not in said and "a bug of equifuzz, not of your tree" in said


def test_the_unbuilt_record_round_trips(tmp_path):
    failed = [{"pair": "utxo_flush", "role": "core-optimized", "tree": "user-optimized", "src": "/t/src", "error": "e; with \"quotes\""}]
    core_build.write_unbuilt(tmp_path, failed)
    assert json.loads((tmp_path / core_build.UNBUILT).read_text()) == {"sides": failed}
    core_build.clear_unbuilt(tmp_path)
    core_build.clear_unbuilt(tmp_path)
    assert not (tmp_path / core_build.UNBUILT).exists()


def test_cmake_reads_the_unbuilt_record(tmp_path):
    """cmake/CoreObjects.cmake's _equifuzz_core_unbuilt finds a side's error by pair, role and tree."""
    bdir = tmp_path / "b"
    bdir.mkdir()
    core_build.write_unbuilt(bdir, [{"pair": "xor", "role": "core-optimized", "tree": "user-optimized", "src": "/t/src",
                                     "error": "x.cpp:1: bad; worse"}])
    script = tmp_path / "probe.cmake"
    script.write_text(f"""set(CMAKE_BINARY_DIR "{bdir}")
include("{ROOT}/cmake/CoreObjects.cmake")
_equifuzz_core_unbuilt(xor optimized "/t/src" hit)
_equifuzz_core_unbuilt(xor original "/t/src" miss)
_equifuzz_core_unbuilt(xor optimized "/other/src" other)
message(STATUS "hit=[${{hit}}] miss=[${{miss}}] other=[${{other}}]")
""")
    proc = subprocess.run(["cmake", "-DEQUIFUZZ_ROOT=" + str(ROOT), "-P", str(script)], capture_output=True, text=True)
    assert "hit=[x.cpp:1: bad; worse] miss=[] other=[]" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_two_commits_are_compared_by_git_not_by_their_unpacked_trees(tmp_path, monkeypatch):
    """git archive writes each commit's id into src/clientversion.cpp, so the unpacked trees of any
    two commits differ there; git's own list of changed paths does not have it."""
    from equifuzz import core_git
    monkeypatch.setenv("EQUIFUZZ_CORE_CACHE", str(tmp_path / "cache"))
    repo = tmp_path / "cache" / "git"
    run = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True, text=True).stdout.strip()
    repo.mkdir(parents=True)
    run("init", "-q")
    run("config", "user.email", "t@t"), run("config", "user.name", "t")
    make_tree(repo, {"coins.cpp": "1", "clientversion.cpp": "$Format:%H$", "net.cpp": "n"})
    run("add", "-A"), run("commit", "-qm", "a")
    a = run("rev-parse", "HEAD")
    (repo / "src" / "coins.cpp").write_text("2")
    run("commit", "-qam", "b")
    b = run("rev-parse", "HEAD")
    assert core_git.changed_paths(a, b) == ["src/coins.cpp"]
    assert core_git.changed_paths(a, "0" * 40) is None
