"""Mutant files are read in one place (tools/equifuzz/mutant_file.py): every file of the repository
reads, a header that cannot be right is refused in one sentence, no other module of the tool reads
a header line itself, and what CMake read of the same files (the build's manifest) agrees."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import mutant_file  # noqa: E402
from equifuzz.errors import EquifuzzError  # noqa: E402

FILES = sorted([*ROOT.glob("differential/*/mutants/*.patch"), *ROOT.glob("differential/*/mutants/*.sub")])


def test_every_mutant_file_reads():
    assert len(FILES) > 100
    for path in FILES:
        m = mutant_file.read(path)
        assert m.description and path.read_text().startswith(f"Mutant: {m.description}"), path.name
        assert m.kind in ("bug", "refactor") and m.tier in mutant_file.TIERS, path.name
        if m.is_core:
            assert m.side in ("core_original", "core_optimized") and m.file and m.substitutions, path.name
        else:
            assert m.patches and (ROOT / m.patches).is_file(), f"{path.name} patches {m.patches}"
        assert m.kind == "bug" or m.caught_by is None, f"{path.name}: a refactor mutant is caught by nothing"


def test_every_patch_applies_at_the_lines_it_names():
    """The build applies patches without fuzz; a patch must also name the lines it changes today
    (a side edited above it moves them: python3 -m equifuzz.mutant_file --refresh <patch>)."""
    patches = [mutant_file.read(p) for p in FILES if p.suffix == ".patch"]
    assert len(patches) > 50
    drifted = [why for m in patches if (why := mutant_file.drift(m))]
    assert not drifted, "\n".join(drifted)


def _patch_of_xor_original(tmp_path: Path, first: int) -> tuple[Path, int]:
    """A patch adding a line to xor's original side amid four lines of it, its hunk said to start at
    line `first`; and the line where those four lines start."""
    source = (ROOT / "differential/xor/original.cpp").read_text().splitlines()
    at = next(i for i, line in enumerate(source) if line.startswith("namespace"))
    before, after = "".join(f" {x}\n" for x in source[at:at + 2]), "".join(f" {x}\n" for x in source[at + 2:at + 4])
    path = tmp_path / "pair" / "mutants" / "moved.patch"
    path.parent.mkdir(parents=True)
    path.write_text(f"Mutant: a test patch\n\n--- a/differential/xor/original.cpp\n+++ b/differential/xor/original.cpp\n"
                    f"@@ -{first},4 +{first},5 @@\n{before}+// added\n{after}")
    return path, at + 1


def test_a_moved_patch_is_found_and_refreshed(tmp_path):
    path, line = _patch_of_xor_original(tmp_path, 40)
    assert line != 40
    assert "only at other lines" in mutant_file.drift(mutant_file.read(path))
    assert mutant_file.refresh(mutant_file.read(path))
    assert f"@@ -{line},4 +{line},5 @@" in path.read_text() and path.read_text().startswith("Mutant: a test patch\n\n")
    assert mutant_file.drift(mutant_file.read(path)) is None
    assert not mutant_file.refresh(mutant_file.read(path))


def test_a_patch_whose_context_changed_is_refused(tmp_path):
    path, line = _patch_of_xor_original(tmp_path, 0)
    path.write_text(path.read_text().replace("@@ -0,4 +0,5 @@", f"@@ -{line},4 +{line},5 @@").replace("\n ", "\n X", 1))
    assert "no longer applies" in mutant_file.drift(mutant_file.read(path))
    with pytest.raises(EquifuzzError, match=r"does not apply to differential/xor/original.cpp without fuzz; write its change again"):
        mutant_file.refresh(mutant_file.read(path))


def test_the_headers_are_read_as_cmake_reads_them(tmp_path):
    d = tmp_path / "differential" / "p" / "mutants"
    d.mkdir(parents=True)
    f = d / "m.sub"
    f.write_text("Mutant: one sentence\nCaught-by: t1\nSide: core_optimized\nFile: coins.cpp\nRequires: core-feature X\n"
                 "Requires: thread-sanitizer\nReplace: a();\nWith: b();\nReplace: c();\nWith: d(); // Caught-by: t2\n"
                 "Tier: internal\n")
    m = mutant_file.read(f)
    assert (m.pair, m.name, m.description, m.caught_by, m.side, m.file) == ("p", "m", "one sentence", "t1", "core_optimized", "coins.cpp")
    assert m.requires == ("core-feature X", "thread-sanitizer") and m.tier == "internal" and m.kind == "bug"
    assert m.substitutions == (("a();", "b();"), ("c();", "d(); // Caught-by: t2"))
    p = d / "n.patch"
    p.write_text("Mutant: a diff\nKind: refactor\nSide: both\n--- a/differential/p/x.h\n+++ b/differential/p/x.h\t2026\n"
                 "@@ -1 +1 @@\n-Tier: nothing\n+Kind: nothing\n")
    n = mutant_file.read(p)
    assert (n.kind, n.side, n.patches, n.tier, n.is_core) == ("refactor", "both", "differential/p/x.h", "promise", False)


@pytest.mark.parametrize("text, said", [
    ("Mutant: x\nTier: sometimes\nSide: core_optimized\nFile: a.cpp\nReplace: a\nWith: b\n", "names the tier 'sometimes'"),
    ("Mutant: x\nSide: core_optimized\nFile: a.cpp\nReplace: a\n", "'Replace:' line is not followed by its 'With:' line"),
    ("Mutant: x\nFile: a.cpp\nReplace: a\nWith: b\n", "lacks a 'Side:', 'File:' or 'Replace:' line"),
    ("Mutant: x; y\nSide: core_optimized\nFile: a.cpp\nReplace: a\nWith: b\n", "has a semicolon"),
])
def test_a_header_that_cannot_be_right_is_one_sentence(tmp_path, text, said):
    f = tmp_path / "bad.sub"
    f.write_text(text)
    with pytest.raises(EquifuzzError) as e:
        mutant_file.read(f)
    assert said in str(e.value) and "\n" not in str(e.value)


# The header keys as a reader would spell them to parse one: only mutant_file.py may.
_HEADER_READ = re.compile(r"""["'](Mutant|Caught-by|Kind|Tier|Side|File|Requires|Replace|With): ["']"""
                          r"""|["'](Caught-by|Tier|Replace|Requires)["']|\^(Caught-by|Tier|Kind|Mutant|Side|Requires):""")


# CMake spelling a header key to parse it (file(STRINGS ... REGEX "^Mutant: ")).
_CMAKE_HEADER_READ = re.compile(r"\^(Mutant|Caught-by|Kind|Tier|Side|File|Requires|Replace|With): |\+\+\+ b/")  # escapes removed


def header_readers(root: Path) -> list[str]:
    out = []
    for path in sorted((root / "cmake").glob("*.cmake")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            parses = "REGEX" in line or "MATCHES" in line
            if parses and _CMAKE_HEADER_READ.search(line.replace("\\", "")) and not line.lstrip().startswith("#"):
                out.append(f"{path.relative_to(root)}:{i}: {line.strip()}")
    for path in sorted((root / "tools").rglob("*.py")):
        if path.name == "mutant_file.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if _HEADER_READ.search(line):
                out.append(f"{path.relative_to(root)}:{i}: {line.strip()}")
    return out


def test_no_module_but_mutant_file_reads_a_header():
    assert header_readers(ROOT) == []


def test_the_check_finds_a_stray_reader(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "cmake").mkdir()
    (tmp_path / "tools" / "x.py").write_text('tier = line.removeprefix("Tier: ")\nkey in ("Caught-by", "Side")\n'
                                             '# the mutant file\'s "Tier:" line, a comment\n')
    (tmp_path / "cmake" / "x.cmake").write_text('file(STRINGS "${f}" line REGEX "^Caught-by: " LIMIT_COUNT 1)\n'
                                                'file(STRINGS "${p}" t REGEX "^\\\\+\\\\+\\\\+ b/" LIMIT_COUNT 1)\n'
                                                '# a mutant\'s "Caught-by:" line, a comment\n')
    assert len(header_readers(tmp_path)) == 4


def test_cmake_reads_what_mutant_file_writes(tmp_path):
    """Every mutant file's header values, and some that would end a CMake bracket argument early,
    come out of CMake's own parser as the module read them (what the build includes)."""
    import shutil
    import subprocess
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("no cmake")
    d = tmp_path / "differential" / "p" / "mutants"
    d.mkdir(parents=True)
    tricky = ["ends with [a]", "has ]] inside", "has ]=] and ]==] and [[ too", 'quotes " and \\ and ${VAR} and $ENV{HOME}']
    files = [mutant_file.read(p) for p in sorted(ROOT.glob("differential/*/mutants/*.*")) if p.suffix in (".patch", ".sub")]
    for i, text in enumerate(tricky):
        f = d / f"t{i}.patch"
        f.write_text(f"Mutant: {text}\nRequires: core-sides\nRequires: core-feature X\n+++ b/differential/p/x.cpp\n")
        files.append(mutant_file.read(f))
    (tmp_path / "vars.cmake").write_text(mutant_file.cmake_vars(files))
    keys = ("DESCRIPTION", "KIND", "CAUGHT_BY", "TIER", "SIDE", "FILE", "PATCHES", "REQUIRES")
    script = ['include("${CMAKE_CURRENT_LIST_DIR}/vars.cmake")']
    for m in files:
        for k in keys:
            var = f"EQUIFUZZ_MUTANT_{m.pair}__{m.name}_{k}"
            script.append(f'file(APPEND "${{CMAKE_CURRENT_LIST_DIR}}/out.txt" "{m.pair}/{m.name} {k}=${{{var}}}\\n")')
    (tmp_path / "read.cmake").write_text("\n".join(script) + "\n")
    proc = subprocess.run([cmake, "-P", str(tmp_path / "read.cmake")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = dict(line.split("=", 1) for line in (tmp_path / "out.txt").read_text().splitlines())
    for m in files:
        want = {"DESCRIPTION": m.description, "KIND": m.kind, "CAUGHT_BY": m.caught_by or "", "TIER": m.tier,
                "SIDE": m.side or "", "FILE": m.file or "", "PATCHES": m.patches or "", "REQUIRES": ";".join(m.requires)}
        for k in keys:
            assert got[f"{m.pair}/{m.name} {k}"] == want[k], (m.path.name, k)
    assert len(files) > 100


def test_the_build_read_the_same_headers(build_manifest):
    """CMake reads each mutant's "Mutant:" and "Kind:" lines for the manifest; they are what
    mutant_file reads (a mutant a build leaves out is listed with its sentence too)."""
    checked = 0
    for t in build_manifest.targets:
        for v in t.variants:
            if v.kind == "adapter":
                continue
            m = mutant_file.find(t.pair, v.name)
            assert m is not None, f"{t.pair}/{v.name}: no mutant file"
            # A Core mutant's description says which tree and file it changes after the sentence.
            assert v.description == m.description or (m.is_core and v.description.startswith(m.description + " (")), \
                f"{t.pair}/{v.name}"
            assert (v.kind == "refactor") == (m.kind == "refactor"), f"{t.pair}/{v.name}"
            checked += 1
    for name, p in build_manifest.pairs.items():
        for left in p.mutants_not_applicable:
            m = mutant_file.find(name, left.name)
            assert m is not None and left.description.startswith(m.description), f"{name}/{left.name}"
    if not checked:
        pytest.skip("this build has no mutant")


def test_the_configure_step_refuses_a_bad_file_in_one_sentence(tmp_path, capsys):
    """What CMake runs (`python3 -m equifuzz.mutant_file --cmake <out> <file>...`): a file it
    cannot read right stops the configure with one sentence, no traceback; a good one is written,
    its directory made."""
    bad = tmp_path / "bad.sub"
    bad.write_text("Mutant: x\nTier: sometimes\nSide: core_optimized\nFile: a.cpp\nReplace: a\nWith: b\n")
    assert mutant_file.main(["--cmake", str(tmp_path / "out.cmake"), str(bad)]) == 1
    assert mutant_file.main(["--cmake", str(tmp_path / "out.cmake"), str(tmp_path / "missing.patch")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "names the tier 'sometimes'" in err[0] and "missing.patch: No such file" in err[1]
    good = sorted(ROOT.glob("differential/xor/mutants/*.patch"))[0]
    assert mutant_file.main(["--cmake", str(tmp_path / "new" / "dir" / "out.cmake"), str(good)]) == 0
    assert "EQUIFUZZ_MUTANT_xor__" in (tmp_path / "new" / "dir" / "out.cmake").read_text()


@pytest.mark.parametrize("name, said", [
    ("differential/blockfile/mutants/core_reader_refill_short.sub", r"is not a patch of our sides \(a \.sub names no lines"),
    ("differential/blockfile/mutants/no_such_mutant.patch", r"No such file or directory\.$"),
])
def test_refresh_refuses_what_is_not_a_patch_in_one_sentence(name, said, capsys):
    assert mutant_file.main(["--refresh", str(mutant_file.ROOT / name)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(said, err.strip())
