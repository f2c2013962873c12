"""Seed corpora are exactly what the committed writers produce (a pair's seed program, else its
Python generator); inputs `merge` added are kept and named by their bytes."""
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


def test_python_generated_seeds_are_the_committed_ones(tmp_path):
    for target in declared_targets():
        if target in seeds.GENERATORS:
            seeds.write(target, tmp_path / target)
            _assert_committed(target, tmp_path / target)


def test_generators_are_deterministic():
    for target in seeds.GENERATORS:
        assert [*seeds.GENERATORS[target]()] == [*seeds.GENERATORS[target]()]


def _programs(build_manifest) -> dict[str, Path]:
    return {name: Path(p.seed_writer) for name, p in build_manifest.pairs.items() if p.seed_writer}


def test_every_target_has_one_writer(build_manifest):
    """Each target of the build's pairs has a seed program or a Python generator, never both (the
    generator of a pair whose encoder writes its seeds is gone)."""
    programs = _programs(build_manifest)
    for target, pair in declared_targets().items():
        if pair not in build_manifest.pairs:
            continue
        has_generator = target in seeds.GENERATORS
        assert has_generator != (pair in programs), (
            f"{target}: {'both a seed program and a Python generator' if has_generator else 'no seed writer'}")


def test_program_written_seeds_are_the_committed_ones(build_manifest, tmp_path):
    programs = _programs(build_manifest)
    if not programs:
        pytest.skip("this build has no pair with a seed program")
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
