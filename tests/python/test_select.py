"""Which targets a command's names choose (project.select): a pair's name stands for every target of
the pair, also where one target has the pair's own name (coins_view and coins_view_faults), so that
`verify coins_view` or `fuzz coins_view` never leaves a target of the pair out; a command that takes
one target names it exactly."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz.project import EquifuzzError, Target, select  # noqa: E402


def target(name: str, pair: str) -> Target:
    p = Path("/nonexistent")
    return Target(name=name, pair=pair, binary=p / name, corpus=p, regressions=p, dict=p)


TARGETS = [target("coins_view", "coins_view"), target("coins_view_faults", "coins_view"),
           target("utxo_flush_disk", "utxo_flush"), target("utxo_flush_faults", "utxo_flush")]


def names(chosen):
    return [t.name for t in chosen]


def test_a_pair_name_chooses_every_target_of_the_pair_even_one_of_its_own_name():
    assert names(select(TARGETS, ["coins_view"])) == ["coins_view", "coins_view_faults"]
    assert names(select(TARGETS, ["utxo_flush"])) == ["utxo_flush_disk", "utxo_flush_faults"]


def test_a_target_name_chooses_that_target():
    assert names(select(TARGETS, ["coins_view_faults"])) == ["coins_view_faults"]
    assert names(select(TARGETS, ["coins_view_faults", "coins_view"])) == ["coins_view_faults", "coins_view"]


def test_exact_names_are_targets_only():
    assert names(select(TARGETS, ["coins_view"], exact=True)) == ["coins_view"]
    (one,) = select(TARGETS, ["coins_view"], exact=True)
    assert one.name == "coins_view"


def test_an_unknown_name_is_one_sentence():
    with pytest.raises(EquifuzzError, match="unknown target 'coins_vew'"):
        select(TARGETS, ["coins_vew"])
