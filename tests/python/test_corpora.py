"""Seed corpora are exactly what the pairs' seed programs write; inputs `merge` added are kept and
named by their bytes."""
import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(__import__("conftest").ROOT / "tools"))

from conftest import ROOT  # noqa: E402
from equifuzz import seeds  # noqa: E402
from equifuzz.project import declared_targets  # noqa: E402


def _assert_committed(target: str, generated_dir: Path) -> None:
    generated = {p.name: p.read_bytes() for p in generated_dir.iterdir()}
    committed = {p.name: p.read_bytes() for p in (ROOT / "corpora" / target).iterdir()}
    # Besides the writer's files, only inputs `./equifuzz merge` added: merged-<sha1 of the bytes>.
    merged = {n: b for n, b in committed.items() if n.startswith("merged-")}
    for name, data in merged.items():
        assert name == "merged-" + hashlib.sha1(data).hexdigest(), f"corpora/{target}/{name} is not named by its bytes"
    generated_only = {n: b for n, b in generated.items() if not n.startswith("merged-")}
    committed_seeds = {n: b for n, b in committed.items() if n not in merged}
    assert generated_only, f"the writer of {target} wrote nothing"
    assert generated_only == committed_seeds, f"corpora/{target} differs from its writer: run ./equifuzz seeds {target}"


def _programs(build_manifest) -> dict[str, Path]:
    return {name: Path(p.seed_writer) for name, p in build_manifest.pairs.items() if p.seed_writer}


def test_every_pair_has_a_seed_program_and_no_python_writes_seeds(build_manifest):
    """Each pair of the build has a seed program; no Python module writes fuzz inputs (the one
    writer of a format is its pair's encoder)."""
    programs = _programs(build_manifest)
    assert build_manifest.pairs and set(build_manifest.pairs) == set(programs), (
        f"pairs without a seed program: {sorted(set(build_manifest.pairs) - set(programs))}")
    for path in (ROOT / "tools").rglob("*.py"):
        text = path.read_text()
        for sign in ("FdpWriter", "GENERATORS", "getrandbits"):
            assert sign not in text, f"{path.relative_to(ROOT)} writes inputs in Python ({sign})"


def test_program_written_seeds_are_the_committed_ones(build_manifest, tmp_path):
    programs = _programs(build_manifest)
    targets = declared_targets()
    for pair, program in programs.items():
        of_pair = [t for t, p in targets.items() if p == pair]
        counts = seeds.write_with_program(program, of_pair, tmp_path)
        assert sorted(counts) == sorted(of_pair)
        for target in of_pair:
            assert counts[target] == len(list((tmp_path / target).iterdir()))
            _assert_committed(target, tmp_path / target)
        # Asked for one target, the program writes that one alone.
        one = tmp_path / "one" / pair
        counts = seeds.write_with_program(program, of_pair[:1], one)
        assert list(counts) == of_pair[:1] and sorted(p.name for p in one.iterdir()) == of_pair[:1]


def test_a_failing_seed_program_is_one_sentence(tmp_path):
    program = tmp_path / "broken_seeds"
    program.write_text("#!/bin/sh\necho 'equifuzz: the seeds were not written: cannot read x' >&2\nexit 1\n")
    program.chmod(0o755)
    with pytest.raises(seeds.EquifuzzError, match=r"^broken_seeds failed: equifuzz: the seeds were not written: cannot read x$"):
        seeds.write_with_program(program, ["t"], tmp_path / "out")
    with pytest.raises(seeds.EquifuzzError, match="is not built"):
        seeds.write_with_program(tmp_path / "absent_seeds", ["t"], tmp_path / "out")


def test_a_seed_program_asked_for_a_target_of_another_pair_says_so(build_manifest, tmp_path):
    pair, program = sorted(_programs(build_manifest).items())[0]
    with pytest.raises(seeds.EquifuzzError, match=rf"^{program.name} failed: .*writes no seeds for 'no_such_target'"):
        seeds.write_with_program(program, ["no_such_target"], tmp_path)
