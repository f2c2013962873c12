"""The survival curve of `mutants --from-empty` (and `verify --from-empty`): the share of hunts not
yet caught over time, as text, as a PNG, and from earlier JSON files; and the options' bad use."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import mutants  # noqa: E402


def hunt(mutant: str, seconds: float, caught: bool) -> dict:
    return {"pair": "p", "mutant": mutant, "target": "t", "seed": 1, "caught": caught, "seconds": seconds}


HUNTS = [hunt("a", 0.5, True), hunt("a", 2.0, True), hunt("b", 60.0, False), hunt("b", 30.0, True)]


def test_survival_steps_down_at_each_catch_and_keeps_censored_hunts():
    points = mutants.survival(HUNTS, 60)
    assert points[0] == (mutants.SURVIVAL_FROM, 1.0)
    assert mutants.survival_at(points, 0.4) == 1.0
    assert mutants.survival_at(points, 0.5) == 0.75
    assert mutants.survival_at(points, 10) == 0.5
    assert mutants.survival_at(points, 30) == 0.25
    assert mutants.survival_at(points, 60) == 0.25  # the censored hunt never leaves


def test_survival_chart_names_the_shares_at_its_marks():
    chart = mutants.survival_chart(HUNTS, 60, "title")
    assert chart.splitlines()[0] == "title"
    assert "not yet caught at 0.1 s: 100 %, 1 s: 75 %, 10 s: 50 %, 60 s: 25 %" in chart
    rows = [line for line in chart.splitlines() if "% |" in line]
    assert len(rows) == 10
    assert rows[0].startswith(" 100% |█")       # everything alive at the left edge
    assert rows[-1].rstrip().endswith("█")      # 25 % still alive at the budget: the 10 % row is filled


def test_survival_chart_names_each_mark_once_and_none_past_the_budget():
    hunts = [hunt("a", 0.5, True), hunt("b", 10.0, False)]
    assert mutants.survival_chart(hunts, 10, "t").endswith("not yet caught at 0.1 s: 100 %, 1 s: 50 %, 10 s: 50 %")
    assert mutants.survival_chart(hunts, 5, "t").endswith("not yet caught at 0.1 s: 100 %, 1 s: 50 %, 5 s: 50 %")


def test_curve_of_reads_a_from_empty_json_and_refuses_anything_else(tmp_path):
    good = tmp_path / "lf.json"
    good.write_text(json.dumps({"engine": "afl", "budget_seconds": 60, "trials": 2, "seed": 1,
                                "mutants": [{"pair": "p", "mutant": "a", "runs": HUNTS[:2]}]}))
    engine, hunts, budget = mutants.curve_of(str(good))
    assert (engine, len(hunts), budget) == ("AFL++", 2, 60.0)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(mutants.EquifuzzError, match="is not a file written by 'mutants --from-empty --json'"):
        mutants.curve_of(str(bad))


def test_plot_survival_draws_two_curves(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "s.png"
    mutants.plot_survival([("libFuzzer", HUNTS, 60), ("AFL++", HUNTS[:2], 60)], out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--plot", "x.png"], "--plot and --plot-with draw the hunts of --from-empty: use them with it."),
    (["--from-empty", "--plot-with", "a.json"], "--plot-with adds curves to --plot's PNG: name the PNG with --plot."),
])
def test_plot_options_bad_use_is_one_sentence(args, message):
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "mutants", *args], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"equifuzz: {message}"


def test_a_missing_plot_with_file_stops_before_any_hunt(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "mutants", "--from-empty", "--plot", str(tmp_path / "s.png"),
                           "--plot-with", str(tmp_path / "none.json")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "none.json is not a file written by 'mutants --from-empty --json'" in proc.stderr
    assert "caught in" not in proc.stderr
