"""The Core mutant files (differential/<pair>/mutants/*.sub) and the trees made of them
(tools/equifuzz/mutant_tree.py, `./equifuzz mutants --write-tree`)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import mutant_tree  # noqa: E402
from equifuzz.project import EquifuzzError  # noqa: E402

SUBS = sorted(ROOT.glob("differential/*/mutants/*.sub"))


@pytest.mark.parametrize("path", SUBS, ids=[f"{p.parent.parent.name}/{p.stem}" for p in SUBS])
def test_a_core_mutant_does_not_apply_to_its_own_output(path):
    # A tree that already has the rewrite (a refactor mutant's tree checked with verify) must find
    # the mutant not applicable, not apply it twice: no "With:" line holds a "Replace:" line.
    m = mutant_tree.read_sub(path.parent.parent.name, path.stem)
    # A text the mutant applies to: its Replace lines that no earlier With line made (markers).
    made: set[str] = set()
    original = []
    for replace, with_ in m.pairs:
        if replace not in made:
            original.append(replace)
        made.add(with_.strip())
    once, problem = mutant_tree.substitute("\n".join(original) + "\n", m.pairs)
    assert not problem, f"{path.name}: {problem}"
    _, again = mutant_tree.substitute(once, m.pairs)
    assert again, f"{path.name} applies to its own output"


def test_the_substitution_needs_each_line_exactly_once_in_order():
    pairs = [("a();", "b(); // x"), ("b();", "c();")]
    assert mutant_tree.substitute("a();\nz();\n", pairs) == ("c(); // x\nz();\n", "")
    text, problem = mutant_tree.substitute("a();\na();\n", pairs)
    assert "occurs 2 times" in problem
    assert "occurs 0 times" in mutant_tree.substitute("z();\n", pairs)[1]


def test_write_tree_names_what_it_cannot_make(tmp_path):
    with pytest.raises(EquifuzzError, match="no Core mutant named"):
        mutant_tree.write_tree("xor", "core_no_such", tmp_path / "t")
    model = next(ROOT.glob("differential/xor/mutants/*.patch")).stem
    with pytest.raises(EquifuzzError, match="mutant of our model"):
        mutant_tree.write_tree("xor", model, tmp_path / "t")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(EquifuzzError, match="not empty"):
        mutant_tree.write_tree("xor", "core_refactor_unroll_4", tmp_path / "full")
