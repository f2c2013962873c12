"""One reader of the build manifest (tools/equifuzz/manifest.py): a manifest of another version is
refused in one sentence, no other file of tools/ or ci/ reads <build>/equifuzz-targets.json on its
own, and a real build's manifest reads into typed objects with the same content as its JSON."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import manifest  # noqa: E402
from equifuzz.errors import InfraError  # noqa: E402
from equifuzz.manifest import CoreSide, LeftOut, Manifest, NotApplicable, Pair, Target, Variant  # noqa: E402

NAME = "equifuzz-" + "targets.json"  # spelled apart, so that this file is not a reader by its own rule
JSON_READ = re.compile(r"json\.loads?\(")


# --- a manifest of another version ----------------------------------------------------------------
def equifuzz(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "equifuzz"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT)


@pytest.mark.parametrize("version, said", [(None, "its manifest has no version, this one reads 1"),
                                           (2, "manifest version 2, this one reads 1"),
                                           ("1", 'manifest version "1", this one reads 1')])
@pytest.mark.parametrize("verb", [["replay"], ["fuzz", "xor_apply", "--seconds", "1"], ["mutants", "--pair", "xor"]])
def test_a_manifest_of_another_version_is_refused_in_one_sentence(tmp_path, version, said, verb):
    data = {"engine": "replay", "pairs": {}, "targets": []}
    if version is not None:
        data = {"version": version, **data}
    (tmp_path / NAME).write_text(json.dumps(data))
    proc = equifuzz("--build-dir", tmp_path, *verb)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    assert lines == [f"equifuzz: {tmp_path} was configured by another equifuzz ({said}): configure it again with "
                     f"'./equifuzz build {tmp_path.name}' (or 'cmake --preset <config> -B {tmp_path}')."], proc.stderr


def test_no_manifest_and_a_broken_one_are_one_sentence_each(tmp_path):
    with pytest.raises(InfraError, match=re.escape(f"no build in {tmp_path}: run './equifuzz build {tmp_path.name}' first.")):
        manifest.read(tmp_path)
    (tmp_path / NAME).write_text("{not json")
    with pytest.raises(InfraError, match="is not valid JSON"):
        manifest.read(tmp_path)
    (tmp_path / NAME).write_text(json.dumps({"version": 1, "targets": [{"name": "t"}]}))
    with pytest.raises(InfraError, match="does not have the shape this equifuzz reads"):
        manifest.read(tmp_path)


def test_a_small_manifest_gets_the_defaults(tmp_path):
    (tmp_path / NAME).write_text(json.dumps({"version": 1, "pairs": {"p": {"core": [{"role": "core-original"}],
                                                                          "core_left_out": [{"role": "core-optimized",
                                                                                             "why": "no"}]}}}))
    m = manifest.read(tmp_path)
    assert m.targets == [] and m.engine == "" and m.sanitizers == ""
    assert m.pairs["p"] == Pair(name="p", core=(CoreSide(role="core-original"),),
                                core_left_out=(LeftOut(role="core-optimized", why="no"),))
    assert m.pair("absent") == Pair(name="absent")


# --- no reader but the module -----------------------------------------------------------------------
def readers_outside_the_module(root: Path) -> list[str]:
    """Every line of tools/ (but tools/equifuzz/manifest.py) and ci/ that names the manifest's file,
    or reads JSON from a path built with the module's file name."""
    found = []
    files = [*(root / "tools").rglob("*"), *(root / "ci").rglob("*")]
    for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts):
        if path == root / "tools" / "equifuzz" / "manifest.py":
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if NAME in line or (JSON_READ.search(line) and re.search(r"\bFILE\b|manifest_path|manifest\.", line)):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    return found


def test_no_file_reads_the_manifest_but_the_module():
    assert readers_outside_the_module(ROOT) == [], "read the build's manifest with equifuzz.manifest.read"


def test_the_check_finds_a_stray_reader(tmp_path):
    (tmp_path / "tools" / "equifuzz").mkdir(parents=True)
    (tmp_path / "ci").mkdir()
    (tmp_path / "tools" / "equifuzz" / "manifest.py").write_text(f'FILE = "{NAME}"\n')
    (tmp_path / "tools" / "stray.py").write_text(f'data = json.loads((bdir / "{NAME}").read_text())\n')
    (tmp_path / "tools" / "sly.py").write_text("data = json.loads((bdir / manifest.FILE).read_text())\n")
    (tmp_path / "ci" / "job.sh").write_text(f'python3 - "$build/{NAME}" <<PY\n')
    assert readers_outside_the_module(tmp_path) == [
        f'ci/job.sh:1: python3 - "$build/{NAME}" <<PY',
        "tools/sly.py:1: data = json.loads((bdir / manifest.FILE).read_text())",
        f'tools/stray.py:1: data = json.loads((bdir / "{NAME}").read_text())']


# --- a real build's manifest ----------------------------------------------------------------------
def real_builds() -> list[Path]:
    return sorted(p.parent for p in (ROOT / "build").glob(f"*/{NAME}"))


def versioned_copy(bdir: Path, tmp_path: Path) -> tuple[dict, Path]:
    """The build's manifest as JSON, and a directory holding it with a version (a build configured
    before the version was written has none): what the module reads."""
    raw = json.loads((bdir / NAME).read_text())
    raw.setdefault("version", manifest.VERSION)
    (tmp_path / NAME).write_text(json.dumps(raw))
    return raw, tmp_path


def same(typed, raw, where: str) -> None:
    """The typed record holds what the JSON does: every key as an attribute of the same value
    (a Path for a path, a tuple for a list), and nothing the JSON lacks but the defaults."""
    assert isinstance(raw, dict), where
    for key, value in raw.items():
        got = getattr(typed, key)
        if isinstance(got, Path):
            assert str(got) == value, f"{where}.{key}"
        elif got is None:
            assert value == "", f"{where}.{key}"
        elif isinstance(got, tuple) and got and hasattr(got[0], "__dataclass_fields__"):
            assert len(got) == len(value), f"{where}.{key}"
            for i, (t, r) in enumerate(zip(got, value)):
                same(t, r, f"{where}.{key}[{i}]")
        elif isinstance(got, tuple):
            assert list(got) == value, f"{where}.{key}"
        elif key == "variants":
            assert len(got) == len(value), f"{where}.{key}"
            for i, (t, r) in enumerate(zip(got, value)):
                same(t, r, f"{where}.{key}[{i}]")
        else:
            assert got == value, f"{where}.{key}"


@pytest.mark.parametrize("bdir", real_builds(), ids=lambda p: p.name)
def test_a_real_builds_manifest_reads_into_typed_objects(bdir, tmp_path):
    raw, copy = versioned_copy(bdir, tmp_path)
    m = manifest.read(copy)
    assert isinstance(m, Manifest) and m.version == manifest.VERSION
    for key in ("engine", "root", "compiler", "sanitizers", "optimization", "core_sides_missing_because",
                "core_trees_from", "core_oracle"):
        assert getattr(m, key) == raw[key], key
    assert list(m.pairs) == list(raw["pairs"])
    for name, p in m.pairs.items():
        assert isinstance(p, Pair) and p.name == name
        assert all(isinstance(c, CoreSide) for c in p.core)
        assert all(isinstance(c, LeftOut) for c in p.core_left_out)
        assert all(isinstance(c, NotApplicable) for c in p.mutants_not_applicable)
        same(p, raw["pairs"][name], f"pairs.{name}")
        # What a report keeps of them (verify.sides_of) is the manifest's JSON, key for key.
        for key in ("core", "core_left_out", "mutants_not_applicable"):
            assert [r.to_json() for r in getattr(p, key)] == raw["pairs"][name][key], f"pairs.{name}.{key}"
    assert len(m.targets) == len(raw["targets"])
    for t, r in zip(m.targets, raw["targets"]):
        assert isinstance(t, Target) and isinstance(t.binary, Path) and isinstance(t.corpus, Path)
        assert all(isinstance(v, Variant) and isinstance(v.binary, Path) for v in t.variants)
        same(t, r, f"targets.{t.name}")


def test_the_typed_records_are_frozen():
    side = CoreSide(role="core-original")
    with pytest.raises(AttributeError):
        side.role = "core-optimized"  # type: ignore[misc]


def test_the_project_still_gives_target_and_variant():
    from equifuzz import project
    assert project.Target is Target and project.Variant is Variant
    assert project.InfraError is InfraError


def test_cmake_writes_the_version_first():
    text = (ROOT / "cmake" / "Manifest.cmake").read_text()
    body = text[text.index("function(equifuzz_write_manifest)"):]
    content = body[body.index("CONTENT"):]
    assert re.match(r'CONTENT\s*\n"\{\\n  \\"version\\": (\d+),', content), content[:200]
    assert int(re.match(r'CONTENT\s*\n"\{\\n  \\"version\\": (\d+),', content).group(1)) == manifest.VERSION
