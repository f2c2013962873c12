"""cmake/PairRecord.cmake: a pair's, a variant's and a tree's record keep what they are given under
declared keys only; a misspelt key stops the configure with its name instead of reading nothing."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cmake(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "probe.cmake"
    script.write_text(f'cmake_minimum_required(VERSION 3.25)\ninclude("{ROOT}/cmake/PairRecord.cmake")\n{body}')
    return subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True)


def test_declared_keys_keep_their_values(tmp_path):
    proc = run_cmake(tmp_path, """
equifuzz_pair_set(xor SOURCES a.cpp b.cpp)
equifuzz_pair_append(xor SOURCES c.cpp)
equifuzz_pair_set(xor CORE_optimized_TREE kernel-0.1.1)
equifuzz_pair_set(xor SHARED_some_mutant_REPLACES "/x\\\\.o$")
equifuzz_variant_set(xor flip KIND mutant)
equifuzz_tree_set(git-abc SRC /t/src)
equifuzz_pair_get(xor SOURCES sources)
equifuzz_pair_get(xor CORE_optimized_TREE tree)
equifuzz_pair_get(xor CORE_ROLES roles)
equifuzz_variant_get(xor flip KIND kind)
equifuzz_tree_get(git-abc SRC src)
equifuzz_pair_property(xor NOT_APPLICABLE name)
message(STATUS "sources=[${sources}] tree=[${tree}] roles=[${roles}] kind=[${kind}] src=[${src}] name=[${name}]")
""")
    assert proc.returncode == 0, proc.stderr
    assert ("sources=[a.cpp;b.cpp;c.cpp] tree=[kernel-0.1.1] roles=[] kind=[mutant] src=[/t/src] "
            "name=[EQUIFUZZ_PAIR_xor_NOT_APPLICABLE]") in proc.stdout


def test_a_misspelt_key_stops_the_configure(tmp_path):
    for call, what in (("equifuzz_pair_get(xor CORE_ROLE roles)", "'CORE_ROLE' is not a key of a pair record"),
                       ("equifuzz_pair_set(xor CORE_sideways_TREE t)", "'CORE_sideways_TREE' is not a key of a pair record"),
                       ("equifuzz_variant_get(xor flip KINDS k)", "'KINDS' is not a key of a variant record"),
                       ("equifuzz_tree_set(git-abc SOURCE /t)", "'SOURCE' is not a key of a tree record")):
        proc = run_cmake(tmp_path, call + "\n")
        assert proc.returncode != 0, call
        assert what in proc.stderr, proc.stderr


def test_no_cmake_file_spells_a_record_property_itself():
    """Every read and write of a pair's, variant's or tree's record goes through PairRecord.cmake."""
    files = [*ROOT.glob("cmake/*.cmake"), ROOT / "CMakeLists.txt", *ROOT.glob("differential/**/CMakeLists.txt"),
             *ROOT.glob("fuzz_targets/CMakeLists.txt"), *ROOT.glob("tests/CMakeLists.txt"), *ROOT.glob("bench/CMakeLists.txt")]
    offenders = []
    for f in files:
        if f.name == "PairRecord.cmake":
            continue
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if re.search(r"(PROPERTY |\()EQUIFUZZ_(PAIR|VARIANT|CORE_TREE)_\$\{", line):
                offenders.append(f"{f.relative_to(ROOT)}:{n}")
    assert not offenders, offenders
