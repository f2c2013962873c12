"""The example report the README links (tests/example-report/) is what the report code renders
from its recorded facts: report.md is rendered again from report.json and must be the same; and it
shows what the README promises of it: a finding introduced by the change, one present before it,
and an allowed difference, each with what differed."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import findings, report_md, verdict  # noqa: E402

EXAMPLE = ROOT / "tests" / "example-report"


def test_report_md_is_rendered_from_report_json():
    facts = json.loads((EXAMPLE / "report.json").read_text())
    assert report_md.render_markdown(facts) == (EXAMPLE / "report.md").read_text(), \
        "the example report drifted from the report code: run tools/example_report.py on a new verify run"


def test_it_shows_each_kind_of_difference_with_its_values():
    facts = json.loads((EXAMPLE / "report.json").read_text())
    recorded = verdict.recorded_of(facts)
    kinds = {e["attribution"] for e in recorded}
    assert {findings.INTRODUCED, findings.PRESENT_BEFORE, findings.ALLOWED} <= kinds
    assert all(e["detail"] for e in recorded), "every recorded finding says what differed"
    text = (EXAMPLE / "report.md").read_text()
    assert text.splitlines()[2].startswith("**Verdict:** FINDINGS")
    assert verdict.verdict_of(facts)[1] == 1


def test_no_machine_path_is_left():
    for name in ("report.json", "report.md"):
        text = (EXAMPLE / name).read_text()
        assert "/work/" not in text and "/root/" not in text and "/home/" not in text, name
