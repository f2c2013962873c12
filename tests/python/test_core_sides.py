"""Bitcoin Core's own code as sides (cmake/CoreTrees.cmake): the configure names each tree in one
line, or says in one line why the Core sides are off; and a reviewer's own tree, pointed at with
EQUIFUZZ_CORE_OPTIMIZED_SRC, is fuzzed against the registry tree, so a bug injected into a copy
of a Core tree is caught by the fuzz target's corpus."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, planted_tree
from equifuzz import manifest

pytestmark = pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None, reason="needs cmake and ninja")


def configure(build, *options):
    # The registry trees, whatever remote this machine has: these tests name them.
    return subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF",
                           "-DEQUIFUZZ_CORE_TREE_SOURCE=registry", *options], capture_output=True, text=True)


def core_lines(cfg):
    return [line.removeprefix("-- ") for line in (cfg.stdout + cfg.stderr).splitlines()
            if "equifuzz: Bitcoin Core sides" in line or "equifuzz: Core tree " in line]


def test_without_cargo_the_core_sides_are_off_in_one_line(tmp_path):
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_CARGO=/nonexistent/cargo")
    assert cfg.returncode == 0, cfg.stderr
    assert core_lines(cfg) == ["equifuzz: Bitcoin Core sides OFF: the pinned Core trees need cargo: "
                               "EQUIFUZZ_CARGO=/nonexistent/cargo does not exist; or name your own checkouts with "
                               "EQUIFUZZ_CORE_ORIGINAL_SRC and EQUIFUZZ_CORE_OPTIMIZED_SRC"]
    assert "EQUIFUZZ_CORE_ORIGINAL" not in (tmp_path / "b" / "build.ninja").read_text()


def test_required_without_cargo_stops_the_configure_with_the_reason(tmp_path):
    # What the presets ask for (EQUIFUZZ_CORE_SIDES=ON): no build without Core's code unless asked.
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_CORE_SIDES=ON", "-DEQUIFUZZ_CARGO=/nonexistent/cargo")
    assert cfg.returncode != 0
    assert ("equifuzz: Bitcoin Core sides: the pinned Core trees need cargo: EQUIFUZZ_CARGO=/nonexistent/cargo does not exist"
            in " ".join(cfg.stderr.split()))


def test_off_is_one_line(tmp_path):
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_CORE_SIDES=OFF")
    assert cfg.returncode == 0, cfg.stderr
    assert core_lines(cfg) == ["equifuzz: Bitcoin Core sides OFF: EQUIFUZZ_CORE_SIDES=OFF"]


def test_a_path_that_is_not_a_checkout_is_refused(tmp_path):
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={tmp_path}")
    assert cfg.returncode != 0
    assert f"EQUIFUZZ_CORE_OPTIMIZED_SRC={tmp_path} is not a Bitcoin Core checkout" in " ".join(cfg.stderr.split())


def registry_tree(build_dir: Path, version: str) -> Path:
    tree = build_dir / "core-trees" / f"kernel-{version}"
    if not (tree / "src" / "streams.h").is_file():
        pytest.skip(f"the build in {build_dir} has no Core tree kernel-{version} (Core sides off)")
    return tree.resolve()


def test_a_bug_in_a_users_optimized_tree_is_caught(tmp_path, build_dir):
    # A "PR branch": a copy of the tree after #31144 with Obfuscation's tail left unobfuscated.
    tree = registry_tree(build_dir, "0.1.1")
    pr = planted_tree(tree, tmp_path / "bitcoin-pr", "util/obfuscation.h", "XorWord(target, rot_key);", "/* the tail is forgotten */")
    header = pr / "src" / "util" / "obfuscation.h"

    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_MUTANTS=OFF", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={pr}")
    assert cfg.returncode == 0, cfg.stderr
    assert f"equifuzz: Core tree user-optimized: Bitcoin Core v30.99 (master), not a git checkout, from {pr} " \
           "(EQUIFUZZ_CORE_OPTIMIZED_SRC)" in core_lines(cfg)
    assert "equifuzz: pair xor: Core optimized side from user-optimized" in cfg.stdout

    def replay():
        b = subprocess.run(["cmake", "--build", build, "--target", "xor_apply"], capture_output=True, text=True)
        assert b.returncode == 0, b.stdout[-3000:]
        return subprocess.run([build / "fuzz_targets" / "xor_apply", "-q", ROOT / "corpora" / "xor_apply"],
                              capture_output=True, text=True, env={"ASAN_OPTIONS": "handle_abort=1"})

    run = replay()
    assert run.returncode != 0
    assert "signature: equifuzz-mismatch xor_apply:oneshot" in run.stderr
    assert "core-optimized" in run.stderr

    # Control: the same build with the line restored replays clean.
    shutil.copy(tree / "src" / "util" / "obfuscation.h", header)
    run = replay()
    assert run.returncode == 0, run.stderr[-3000:]


def test_a_users_tree_with_siphasher13uj_joins_the_uj_target(tmp_path, build_dir):
    # No registry tree has #35215's SipHasher13UJ (git trees bring the real one: the siphash_uj
    # pair's pinned merge; this test shows the mechanism without network). A copy of the newest tree with a stand-in of the
    # class (tests/core/siphasher13uj_standin.h, written here from the spec, #35215's interface)
    # is a reviewer's checkout that has it: the configure says so, siphash_uj replays its corpus
    # clean with Core's 1-3-UJ entries compared, and a one-line bug in the class is caught.
    pr = tmp_path / "bitcoin-35215"
    tree = registry_tree(build_dir, "0.4.1")
    shutil.copytree(tree / "src", pr / "src")
    shutil.copy(tree / "CMakeLists.txt", pr / "CMakeLists.txt")
    header = pr / "src" / "crypto" / "siphash.h"
    text = header.read_text()
    guard_end = text.rindex("#endif")
    standin = (ROOT / "tests" / "core" / "siphasher13uj_standin.h").read_text()
    header.write_text(text[:guard_end] + standin + "\n" + text[guard_end:])

    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_MUTANTS=OFF", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={pr}")
    assert cfg.returncode == 0, cfg.stderr
    assert "equifuzz: pair siphash_uj: Core optimized side from user-optimized; has PRESALTED, SIPHASHER13UJ" in cfg.stdout
    assert "equifuzz: pair siphash_uj: Core original side from kernel-0.4.1; has PRESALTED; lacks SIPHASHER13UJ" in cfg.stdout

    def replay():
        b = subprocess.run(["cmake", "--build", build, "--target", "siphash_uj"], capture_output=True, text=True)
        assert b.returncode == 0, b.stdout[-3000:]
        return subprocess.run([build / "fuzz_targets" / "siphash_uj", "-q", ROOT / "corpora" / "siphash_uj"],
                              capture_output=True, text=True, env={"ASAN_OPTIONS": "handle_abort=1"})

    run = replay()
    assert run.returncode == 0, run.stderr[-3000:]

    # The bug: the outpoint's index hashed with a 2-4 style length tag, which 1-3-UJ does not have.
    good = "        Normal(v, extra);\n"
    assert header.read_text().count(good) == 1
    header.write_text(header.read_text().replace(good, "        Normal(v, extra | uint64_t{36} << 56);\n"))
    run = replay()
    assert run.returncode != 0
    assert "signature: equifuzz-mismatch siphash_uj:outpoint(h,n)" in run.stderr
    assert "core-optimized fixed-width" in run.stderr


def test_a_users_tree_older_than_the_script_error_codes_is_compared_in_its_own_codes(tmp_path, build_dir):
    # kernel 0.1.1 (Core v30.99) has neither SCRIPT_ERR_SCRIPTNUM nor OP_IF's newer code: the
    # script pair takes it, runs our models in that tree's codes, and its corpora replay clean.
    tree = registry_tree(build_dir, "0.1.1")
    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_MUTANTS=OFF", "-DEQUIFUZZ_BENCH=OFF",
                    f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={tree}")
    assert cfg.returncode == 0, cfg.stderr
    out = cfg.stdout + cfg.stderr
    script = next(l for l in out.splitlines() if l.startswith("-- equifuzz: pair script: Core optimized side from user-optimized"))
    assert "lacks" in script and "SCRIPT_ERR_SCRIPTNUM" in script.split("lacks", 1)[1], script
    assert "equifuzz: pair xor: Core optimized side from user-optimized; has OBFUSCATION" in out
    b = subprocess.run(["cmake", "--build", build, "--target", "script_eval"], capture_output=True, text=True)
    assert b.returncode == 0, b.stdout[-3000:]
    run = subprocess.run([build / "fuzz_targets" / "script_eval", "-q", ROOT / "corpora" / "script_eval",
                          ROOT / "corpora" / "regressions" / "script_eval"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]


def test_a_tree_since_31144_serves_the_blockfile_pair_and_keeps_the_finding(tmp_path, build_dir):
    # Kernel 0.4.1 (v31.99): AutoFile keyed by an Obfuscation (#31144), master's BufferedWriter
    # without upstream's flush fix. The shim must serve it (it used to be left out), its corpora
    # must replay clean against our model of master's shape, and the finding must reproduce.
    tree = registry_tree(build_dir, "0.4.1")
    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_MUTANTS=OFF", "-DEQUIFUZZ_BENCH=OFF", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={tree}")
    assert cfg.returncode == 0, cfg.stderr
    assert ("equifuzz: pair blockfile: Core optimized side from user-optimized; has BUFFERED_WRITER, OBFUSCATION; "
            "lacks FLUSH_FORGETS_PENDING, EXPLICIT_FLUSH") in cfg.stdout
    b = subprocess.run(["cmake", "--build", build, "--target", "blockfile_faults"], capture_output=True, text=True)
    assert b.returncode == 0, b.stdout[-3000:]
    binary = build / "fuzz_targets" / "blockfile_faults"
    run = subprocess.run([binary, "-q", ROOT / "corpora" / "blockfile_faults", ROOT / "corpora" / "regressions" / "blockfile_faults"],
                         capture_output=True, text=True, env={"ASAN_OPTIONS": "handle_abort=1"})
    assert run.returncode == 0, run.stderr[-3000:]
    finding = ROOT / "corpora" / "regressions" / "blockfile_faults" / "master-retry-plaintext-transient-fault-buffer5"
    run = subprocess.run([binary, finding], capture_output=True, text=True,
                         env={"ASAN_OPTIONS": "handle_abort=1", "EQUIFUZZ_BLOCKFILE_CORE_STRICT": "1"})
    assert "signature: equifuzz-mismatch blockfile_faults:no-plaintext-on-disk" in run.stderr


def test_leveldb_is_compiled_with_the_definitions_cores_own_build_gives_it(build_dir):
    # Trees whose LevelDB port predates std::endian (masters of 2024-11 and 2024-12) need
    # LEVELDB_IS_BIG_ENDIAN, which Core's cmake/leveldb.cmake defines; without it the tree "does not
    # compile" in our build only.
    ninja = (build_dir / "build.ninja").read_text()
    statements = [s for s in ninja.split("\nbuild ")[1:] if s.split(":", 1)[0].endswith("/leveldb/db/db_impl.cc.o")]
    if not statements:
        pytest.skip(f"the build in {build_dir} compiles no LevelDB (Core sides off)")
    for s in statements:
        defines = next(l for l in s.splitlines() if l.strip().startswith("DEFINES = "))
        assert "-DLEVELDB_IS_BIG_ENDIAN=0" in defines.split() and "-DLEVELDB_PLATFORM_POSIX" in defines.split(), defines


def test_a_model_mutant_caught_only_against_cores_prefetch_queue_is_not_applicable_without_it(tmp_path, build_dir):
    # prevout_fetch's queue mutants are caught against Core's StartFetching (#35295); on a tree
    # from before it (a branch off master of 2026-06, say) they are listed as not applicable, with
    # why, not built and never "missed".
    tree = registry_tree(build_dir, "0.4.1")
    old = planted_tree(tree, tmp_path / "before-35295", "coins.h", "ResetGuard StartFetching(const CBlock& block",
                       "ResetGuard NoPrefetch(const CBlock& block")
    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_MUTANTS=ON", "-DEQUIFUZZ_ONLY_PAIRS=prevout_fetch", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={old}")
    assert cfg.returncode == 0, cfg.stderr
    m = manifest.read(build)
    left = {n.name: n.why for n in m.pairs["prevout_fetch"].mutants_not_applicable}
    for name in ("interrupted_queue_kept", "queue_match_anywhere"):
        assert left[name].startswith("it is caught only against Core's START_FETCHING, which the Core optimized tree "
                                     "lacks: START_FETCHING (coins.h has no line matching"), left
    variants = {v.name for t in m.targets if t.pair == "prevout_fetch" for v in t.variants}
    assert not {"interrupted_queue_kept", "queue_match_anywhere"} & variants
    assert "miss_fills_middle_cache" in variants
