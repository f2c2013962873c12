"""`fuzz --reach`: after the campaigns, the reach of each pair's pinned change from the coverage
build's replay, fed with the inputs the campaigns kept (libFuzzer's corpus, every AFL++ queue)."""
import json
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from equifuzz import coverage, engines  # noqa: E402
from equifuzz.commands import fuzz  # noqa: E402


def side(changed, executable, reached, unreached=()):
    return {"changed_lines": changed, "executable": executable, "reached": reached, "unreached": list(unreached)}


def test_campaign_inputs_of_each_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path))
    assert engines.campaign_inputs("t", "libfuzzer") == []          # no campaign yet: nothing, no error
    (tmp_path / "libfuzzer" / "t" / "corpus").mkdir(parents=True)
    for name in ("main", "s1"):
        (tmp_path / "afl" / "t" / "out" / name / "queue").mkdir(parents=True)
    assert engines.campaign_inputs("t", "libfuzzer") == [tmp_path / "libfuzzer" / "t" / "corpus"]
    assert engines.campaign_inputs("t", "afl") == [tmp_path / "afl" / "t" / "out" / n / "queue" for n in ("main", "s1")]


def test_reach_rows_use_the_campaign_inputs_and_name_what_no_input_ran(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path))
    (tmp_path / "libfuzzer" / "xor_apply" / "corpus").mkdir(parents=True)
    (tmp_path / "coverage").mkdir()
    (tmp_path / "coverage" / "equifuzz-targets.json").write_text(json.dumps({"version": 1, "pairs": {}}))
    targets = [SimpleNamespace(name="xor_apply", pair="xor"), SimpleNamespace(name="tx_check_pair", pair="tx_check")]
    monkeypatch.setattr(fuzz, "build_dir", lambda config, override: tmp_path / config)
    monkeypatch.setattr(fuzz, "ensure_built", lambda config, bdir: targets)
    monkeypatch.setattr(fuzz, "select", lambda built, names, exact=False: [t for t in built if t.name in names])
    seen = {}

    def by_pair(cov_targets, manifest, profdir, extra):
        seen.update(extra)
        yield "xor", cov_targets[:1], {}, {"sides": {
            "core-optimized": side(20, 10, 9),
            "core-original": side(30, 15, 0, [{"where": "src/streams.h:10-12", "function": "DataStream::Xor",
                                               "called": False}])}}
        yield "tx_check", cov_targets[1:], {}, None     # one Core side only: no row
    monkeypatch.setattr(coverage, "by_pair", by_pair)
    rows, missed = fuzz.reach_rows(targets, "libfuzzer")
    assert seen["xor_apply"] == [tmp_path / "libfuzzer" / "xor_apply" / "corpus"]
    assert seen["tx_check_pair"] == []
    assert rows == [["xor", "9/10 (90.0 %)", "0/15 (0.0 %)"]]
    # What would reach it (differential/core/drivers.json): here the pair itself, with a new operation.
    assert missed == ["xor: Core before: not reached: src/streams.h:10-12 DataStream::Xor (no input called it): "
                      "xor drives this code: a new operation or seed of xor would reach it"]


def test_a_change_without_executable_lines_says_so(tmp_path, monkeypatch):
    (tmp_path / "coverage").mkdir()
    (tmp_path / "coverage" / "equifuzz-targets.json").write_text('{"version": 1}')
    targets = [SimpleNamespace(name="prevector_ops", pair="prevector")]
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path))
    monkeypatch.setattr(fuzz, "build_dir", lambda config, override: tmp_path / config)
    monkeypatch.setattr(fuzz, "ensure_built", lambda config, bdir: targets)
    monkeypatch.setattr(fuzz, "select", lambda built, names, exact=False: built)
    monkeypatch.setattr(coverage, "by_pair", lambda *a: iter([("prevector", targets, {}, {"sides": {
        "core-optimized": side(1, 0, 0), "core-original": side(0, 0, 0)}})]))
    rows, missed = fuzz.reach_rows(targets, "libfuzzer")
    assert rows == [["prevector", "no executable line", "no change"]] and missed == []
