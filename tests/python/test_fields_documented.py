"""Each pair's document lists its fields and properties with their tier and class, generated from
the comparisons themselves (./equifuzz fields --write): the list in differential/<pair>/README.md
must be what the replay build's targets meet on the committed seeds and regressions."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz.commands import fields  # noqa: E402
from equifuzz.project import load_manifest  # noqa: E402


def test_every_pairs_document_lists_the_fields_its_targets_meet(build_dir):
    targets = [t for t in load_manifest(build_dir) if Path(t.binary).is_file()]
    if not targets:
        pytest.skip(f"no target binary in {build_dir}")
    stale = []
    for pair, text in fields.generated(targets).items():
        committed = fields.committed_section((ROOT / "differential" / pair / "README.md").read_text())
        if committed != text:
            stale.append(pair)
    assert not stale, (f"the field lists of {', '.join(stale)} differ from what their targets meet: run "
                       f"./equifuzz fields --write and review the difference")


def test_the_section_is_replaced_in_place_and_added_once():
    text = "# pair\n\nintro\n"
    once = fields.replace_section(text, fields.section("p", [["`a`", "data", "promise", "t"]]))
    assert once.count(fields.BEGIN) == 1 and once.startswith(text.rstrip("\n"))
    again = fields.replace_section(once + "\n## later\n", fields.section("p", [["`b`", "internal", "internal", "t"]]))
    assert again.count(fields.BEGIN) == 1 and "`b`" in again and "`a`" not in again and again.endswith("## later\n")


def test_numbered_names_fold_into_one_row_and_properties_come_first():
    rows = fields.pair_rows({"t1": {"step 1 key 34B": "data", "step 2 key 36B": "data", "entries": "internal",
                                    "recovery": "property", "error": "diagnostic"},
                             "t2": {"step 7 key 1B": "data"}})
    assert rows == [["`recovery`", "property", "promise", "t1"], ["`step N key NB`", "data", "promise", "t1, t2"],
                    ["`entries`", "internal", "internal", "t1"], ["`error`", "diagnostic", "diagnostic", "t1"]]
