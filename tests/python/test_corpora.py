"""Seed corpora are exactly what the committed generator produces; regressions are kept."""
import hashlib
import sys

sys.path.insert(0, str(__import__("conftest").ROOT / "tools"))

from conftest import ROOT  # noqa: E402
from equifuzz import seeds  # noqa: E402
from equifuzz.project import declared_targets  # noqa: E402


def test_every_target_has_a_generator_and_committed_seeds_match_it(tmp_path):
    for target in declared_targets():
        assert target in seeds.GENERATORS, f"{target} has no seed generator"
        seeds.write(target, tmp_path / target)
        generated = {p.name: p.read_bytes() for p in (tmp_path / target).iterdir()}
        committed = {p.name: p.read_bytes() for p in (ROOT / "corpora" / target).iterdir()}
        # Besides the generator's files, only inputs `./equifuzz merge` added: merged-<sha1 of the bytes>.
        merged = {n: b for n, b in committed.items() if n.startswith("merged-")}
        for name, data in merged.items():
            assert name == "merged-" + hashlib.sha1(data).hexdigest(), f"corpora/{target}/{name} is not named by its bytes"
        generated_only = {n: b for n, b in generated.items() if not n.startswith("merged-")}
        committed_seeds = {n: b for n, b in committed.items() if n not in merged}
        assert generated_only == committed_seeds, f"corpora/{target} differs from the generator: run ./equifuzz seeds {target}"


def test_generator_is_deterministic(tmp_path):
    for target in declared_targets():
        a = [*seeds.GENERATORS[target]()]
        b = [*seeds.GENERATORS[target]()]
        assert a == b
