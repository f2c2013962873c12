"""verify's facts as dataclasses (report.py): report.json round-trips through them, a report of
another shape is refused in one sentence; the engines share one interface, one campaign type and
one result label, and the report's Targets table and the verdict count findings alike;
AFL++ records and attributes findings as libFuzzer does; minimization keeps the signature asked for."""
import inspect
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import engines, findings  # noqa: E402
from equifuzz.project import EquifuzzError, Target  # noqa: E402
from equifuzz.report import (Campaign, Mutant, PairSides, Replay, Report, TargetFacts, as_report,  # noqa: E402
                             result_label)
from equifuzz.report_md import SECTIONS, render_markdown, section_targets, write_report  # noqa: E402
from equifuzz.verdict import findings_of, verdict_of  # noqa: E402

from harness_lines import counts_line, echo, finding_line  # noqa: E402
from test_verify import recorded_facts  # noqa: E402


def a_finding(sig, attribution, cls="verdict", hits=3, kind="mismatch"):
    return findings.Finding(sig, kind, cls, ["core-original", "core-optimized"], sig.split(":")[1], hits=hits,
                            input=f"build/x/{sig.split(':')[1]}", attribution=attribution)


def a_report() -> Report:
    """Every kind of fact a run gathers: sides, a replay and a campaign with recorded findings (one
    minimized), a missed and a caught mutant, the pairs picked from a change."""
    rep = as_report(recorded_facts())
    rep.selection = {"pairs": {"serialize": {"files": ["src/serialize.h"]}}, "changed": ["src/serialize.h"],
                     "uncovered": [], "unusable": {}}
    rep.sides["serialize"] = PairSides(original="differential/serialize/original.cpp",
                                       optimized="differential/serialize/optimized.cpp",
                                       core=[{"role": "core-original", "tree": "git-dc282ff31d", "label": "git dc282ff31d"}])
    rep.targets["serialize_decode"] = TargetFacts(
        pair="serialize", sides=["original", "optimized", "core-original (git-dc282ff31d)"],
        replay=Replay(inputs=12, seconds=0.3, ok=True, recorded=[a_finding("serialize_decode:error:original|core-optimized",
                                                                           findings.ALLOWED, "diagnostic")]),
        campaign=Campaign(seconds=60.0, runs=1000, exec_per_sec=16, corpus=5, coverage_seeds=10, coverage_end=20,
                          timeline=[[1.0, 10], [50.0, 20]],
                          recorded=[a_finding("serialize_decode:accepted:original|core-optimized", findings.INTRODUCED),
                                    a_finding("serialize_decode:consumed:original|core-optimized", findings.PRESENT_BEFORE,
                                              "diagnostic")],
                          mismatches=[Path("build/x/accepted")], signatures=["serialize_decode:accepted:original|core-optimized"],
                          minimized={"serialize_decode:accepted:original|core-optimized": "build/x/accepted.min"}),
        kept=["corpora/regressions/serialize_decode/finding-accepted"])
    rep.mutants.append(Mutant(pair="serialize", mutant="fd_252", target="serialize_decode", description="fd accepts 252",
                              caught=False, status="missed"))
    return rep


def test_report_json_round_trips_through_the_dataclasses(tmp_path):
    pytest.importorskip("matplotlib")
    rep = a_report()
    verdict, code = write_report(rep, tmp_path)
    # The missed mutant is not a finding against the change: the verdict says it was not proven.
    assert code == 1 and verdict.startswith("FINDINGS: 1") and "mutant serialize/fd_252 was not caught" in verdict
    data = json.loads((tmp_path / "report.json").read_text())
    again = Report.read(tmp_path / "report.json")
    assert again == rep  # every field, the findings and the minimized inputs included
    assert isinstance(again.targets["serialize_decode"].campaign.recorded[0], findings.Finding)
    assert isinstance(again.mutants[-1], Mutant) and isinstance(again.sides["serialize"], PairSides)
    assert again.to_json() == data
    assert render_markdown(again) == (tmp_path / "report.md").read_text()


def test_the_report_lists_the_minimized_input_and_ranks_verdict_first(tmp_path):
    md = render_markdown(a_report())
    findings_table = md.split("## Findings")[1].split("##")[0]
    assert "`build/x/accepted.min`" in findings_table  # the minimized input is the reproducer
    assert "introduced by the change, verdict, 3 input(s)" in findings_table
    apart = md.split("## Differences the verdict does not count")[1].split("##")[0]
    assert apart.index("present before the change") < apart.index("allowed")


def test_each_section_renders_on_its_own():
    rep = a_report()
    rendered = [section(rep) for section in SECTIONS]
    assert all(isinstance(lines, list) for lines in rendered)
    titles = [lines[0] for lines in rendered if lines and lines[0].startswith("## ")]
    # The reach comes right after the findings: a CLEAN is only as good as what ran.
    assert titles[:4] == ["## Pairs picked from the change", "## Findings (reproducers first)",
                          "## Reach of the change", "## Differences the verdict does not count"]


def test_a_report_of_another_shape_is_refused_in_one_sentence(tmp_path):
    data = a_report().to_json()
    data["targets"]["xor_key"]["campaign"]["exec_per_second"] = 5  # a field no version has
    with pytest.raises(EquifuzzError, match=r"report\.targets\.xor_key\.campaign has field\(s\) this equifuzz does not "
                                            r"know: exec_per_second\.$"):
        Report.from_json(data)
    with pytest.raises(EquifuzzError, match=r"the report is of version 9; this equifuzz reads versions 1, 2"):
        Report.from_json({**a_report().to_json(), "report_version": 9})
    (tmp_path / "report.json").write_text("{not json")
    with pytest.raises(EquifuzzError, match="cannot be read as a report"):
        Report.read(tmp_path / "report.json")


def test_a_version_1_report_is_read_with_the_new_fields_defaulted():
    rep = Report.from_json(recorded_facts())  # recorded_facts is a version-1 report.json
    assert rep.report_version == 3 and rep.targets["xor_apply"].campaign.engine == "libfuzzer"
    assert rep.targets["xor_apply"].campaign.minimized == {}


def test_the_engines_share_one_interface_and_one_label():
    def parameters(method):
        return [(p.name, p.kind, p.default) for p in inspect.signature(method).parameters.values()]
    wanted = parameters(engines.Engine().run)
    assert set(engines.ENGINES) == {"libfuzzer", "afl"}
    for name, engine in engines.ENGINES.items():
        assert engine.name == name and engine.config and engine.coverage
        assert parameters(engine.run) == wanted, name
    assert engines.Campaign is Campaign  # one campaign type, from the engine to report.json
    r = engines.Campaign("t", "afl")
    assert r.label == "ok"
    r.problem = "afl-fuzz executed no input"
    assert r.label == "FAILED TO RUN"
    r.other_crashes = [Path("c")]
    assert r.label == "FINDING" == result_label(1, True, "x")
    assert TargetFacts(replay=Replay(inputs=3, ok=False, failure="mismatch")).result == "FINDING"
    assert TargetFacts().result == "did not run"
    assert TargetFacts(campaign=Campaign(interrupted=True)).result == "interrupted"


ATTRIBUTIONS = (findings.INTRODUCED, findings.PRESENT_BEFORE, findings.GONE_AFTER, findings.BEFORE_ONLY,
                findings.IN_MODELS, findings.MODELS, findings.UNATTRIBUTED, findings.ALLOWED, findings.INTERNAL,
                findings.OUTSIDE)


def one_target_facts():
    """Single-target reports of every shape a target's facts take: a signature of each attribution
    recorded by the replay or the campaign (alone, and beside one the other step recorded
    differently), a campaign without records (mismatch files, a lost one), a crash, a replay
    stopped by an input, an interrupted or failed campaign, nothing at all."""
    def target(replay=None, campaign=None):
        rep = as_report(recorded_facts())
        rep.targets = {"xor_apply": TargetFacts(pair="xor", sides=["original", "optimized"], replay=replay, campaign=campaign)}
        rep.mutants = []
        return rep
    sig = "xor_apply:out:original|core-optimized"

    def recording(f):
        # As the engines leave a campaign that recorded: its mismatch inputs are those of the kinds a
        # run aborts on, whatever their attribution (engines._settle).
        return Campaign(recorded=[f], mismatches=[Path(f.input)], signatures=[f.signature])
    for a in ATTRIBUTIONS:
        yield f"replay records {a}", target(Replay(inputs=3, ok=True, recorded=[a_finding(sig, a)]), Campaign())
        yield f"campaign records {a}", target(Replay(inputs=3, ok=True), recording(a_finding(sig, a)))
        for b in (findings.INTRODUCED, findings.PRESENT_BEFORE):
            # One signature in both steps: the replay's record (a committed input) speaks for it.
            yield (f"replay records {a}, campaign {b}",
                   target(Replay(inputs=3, ok=True, recorded=[a_finding(sig, a)]), recording(a_finding(sig, b))))
    yield "mismatch files", target(Replay(inputs=3, ok=True), Campaign(mismatches=[Path("c/1"), Path("c/2")], signatures=[sig, sig]))
    yield "a lost mismatch", target(Replay(inputs=3, ok=True), Campaign(signatures=[sig], lost_findings=1))
    yield "a crash", target(Replay(inputs=3, ok=True), Campaign(other_crashes=[Path("c/crash-1")]))
    yield "a recorded allowed difference and a crash", target(
        Replay(inputs=3, ok=True), Campaign(recorded=[a_finding(sig, findings.ALLOWED)], other_crashes=[Path("c/crash-1")]))
    yield "a replay stopped by an input", target(Replay(inputs=3, ok=False, failure="mismatch", input="corpora/x/1"), Campaign())
    yield "an interrupted campaign", target(Replay(inputs=3, ok=True), Campaign(interrupted=True))
    yield "a campaign that ran nothing", target(Replay(inputs=3, ok=True), Campaign(problem="libFuzzer executed no input"))
    yield "nothing", target(Replay(inputs=3, ok=True), Campaign())


def test_the_targets_table_and_the_verdict_count_alike():
    """A row of the Targets table says FINDING exactly when the verdict counts a finding of that
    target, and its "findings counted" is not 0 when the verdict counts one of its mismatches;
    `fuzz`'s label of the campaign alone agrees with the verdict of a report without a replay."""
    shapes = 0
    for shape, rep in one_target_facts():
        shapes += 1
        row = next(l for l in "\n".join(section_targets(rep)).splitlines() if l.startswith("| xor_apply "))
        cells = [c.strip() for c in row.strip("|").split("|")]
        counted_cell, result_cell = int(cells[8]), cells[-1]
        verdict, _ = verdict_of(rep)
        counted = findings_of(rep)
        assert (result_cell == "FINDING") == verdict.startswith("FINDINGS") == bool(counted), (shape, row, verdict)
        mismatches = [f for f in counted if f["kind"] != "crash" and f["kind"] != "replay"]
        assert (counted_cell > 0) == bool(mismatches), (shape, row, counted)
        alone = TargetFacts(campaign=rep.targets["xor_apply"].campaign)
        rep.targets["xor_apply"] = alone
        assert (alone.campaign.label == "FINDING") == verdict_of(rep)[0].startswith("FINDINGS"), shape
    assert shapes == 4 * len(ATTRIBUTIONS) + 8


# A stand-in target binary with the harness's recording (EQUIFUZZ_FINDINGS_DIR): an input holding
# "A" shows one signature, "S" is a sanitizer report, anything else passes.
RECORDING_TARGET = r"""#!/bin/sh
in="$1"
if grep -q S "$in"; then echo "ERROR: AddressSanitizer: heap-buffer-overflow" >&2; exit 1; fi
if grep -q A "$in"; then
  if [ -z "$EQUIFUZZ_FINDINGS_DIR" ]; then
    STOP_LINE; exit 1
  fi
  RECORD_LINE > "$EQUIFUZZ_FINDINGS_DIR/$$-0.findings"
  cp "$in" "$EQUIFUZZ_FINDINGS_DIR/$$-0.input"
  COUNTS_LINE > "$EQUIFUZZ_FINDINGS_DIR/$$.counts"
fi
exit 0
""".replace("STOP_LINE", echo(finding_line("xor_apply:oneshot:original|core-optimized", roles=("core-optimized-vs-model",)))).replace(
    "RECORD_LINE", echo(finding_line("xor_apply:oneshot:original|core-optimized", roles=("core-optimized-vs-model",), stop=False),
                        to_stderr=False)).replace(
    "COUNTS_LINE", echo(counts_line("xor_apply:oneshot:original|core-optimized"), to_stderr=False))


def test_afl_campaigns_record_and_count_every_signature_and_tell_sanitizer_crashes_apart(tmp_path, monkeypatch):
    real_popen = subprocess.Popen

    class FakeAfl:
        """afl-fuzz: writes its statistics and three crash files, ends at once; other commands run."""
        def __new__(cls, cmd, *a, **kw):
            if cmd[0] != "afl-fuzz":
                return real_popen(cmd, *a, **kw)
            return super().__new__(cls)

        def __init__(self, cmd, stdout=None, stderr=None, env=None, start_new_session=False):
            out = Path(cmd[cmd.index("-o") + 1]) / "default"
            (out / "crashes").mkdir(parents=True, exist_ok=True)
            (out / "fuzzer_stats").write_text("execs_done : 900\nexecs_per_sec : 300\ncorpus_count : 4\nbitmap_cvg : 1.50%\n")
            for i, data in enumerate((b"xAx", b"AA", b"S")):
                (out / "crashes" / f"id:00000{i},sig:06,time:{i}").write_bytes(data)
            self.env, self.pid = env, 0

        def poll(self):
            return 0

        def wait(self, timeout=None):
            return 0

    binary = tmp_path / "xor_apply"
    binary.write_text(RECORDING_TARGET)
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("EQUIFUZZ_CAMPAIGNS_DIR", str(tmp_path / "campaigns"))
    monkeypatch.setattr(engines.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(engines.subprocess, "Popen", FakeAfl)
    target = Target("xor_apply", "xor", binary, tmp_path / "none", tmp_path / "none", tmp_path / "none.dict")
    r = engines.ENGINES["afl"].run(target, binary, 1, live=False, keep_going=True, allow=["tail"])
    (f,) = r.recorded
    assert f.signature == "xor_apply:oneshot:original|core-optimized" and f.hits == 2 and f.cls == "data"
    assert Path(f.input).read_bytes() in (b"xAx", b"AA")
    assert [p.read_bytes() for p in r.other_crashes] == [b"S"] and r.label == "FINDING"
    settled = findings.settle(r.recorded, {"core-original", "core-optimized"})
    assert settled[0].attribution == findings.INTRODUCED
    # Without keep_going, each crash's own report decides, as before.
    r = engines.ENGINES["afl"].run(target, binary, 1, live=False)
    assert r.signatures == ["xor_apply:oneshot:original|core-optimized"] * 2 and not r.recorded
    assert len(r.other_crashes) == 1


# A stand-in libFuzzer binary whose input shows signature A when it holds "a" and B when it holds
# "b" (both finding lines, as the harness prints them); -minimize_crash writes shrinks-to and
# records the EQUIFUZZ_ONLY_SIGNATURE it was given.
MINIMIZING_TARGET = r"""for a in "$@"; do case "$a" in -exact_artifact_path=*) out="${a#-exact_artifact_path=}";; -*) ;; *) in="$a";; esac; done
if [ -n "$out" ]; then echo "$EQUIFUZZ_ONLY_SIGNATURE" > "$(dirname "$0")/only"; cat "$(dirname "$0")/shrinks-to" > "$out"; exit 0; fi
found=0
if grep -q a "$in"; then LINE_A; found=1; fi
if grep -q b "$in"; then LINE_B; found=1; fi
exit $found
""".replace("LINE_A", echo(finding_line("xor_apply:A:original|optimized"))).replace(
    "LINE_B", echo(finding_line("xor_apply:B:original|optimized", cls="verdict", i=1)))


def test_minimize_keeps_the_signature_asked_for_of_an_input_that_shows_two(tmp_path):
    from equifuzz import corpus
    from test_verify import stand_in_target
    from test_exit_codes import fake_fuzzer
    t = stand_in_target(tmp_path, fake_fuzzer(tmp_path, MINIMIZING_TARGET))
    crash = tmp_path / "crash"
    crash.write_bytes(b"aaaabbbb")
    (Path(t.binary).parent / "shrinks-to").write_bytes(b"b")
    r = corpus.minimize(t, crash, 1, signature="xor_apply:B:original|optimized")
    assert (Path(t.binary).parent / "only").read_text().strip() == "xor_apply:B:original|optimized"
    assert r["minimized"] and r["minimized"] != str(crash) + ".min" and Path(r["minimized"]).read_bytes() == b"b"
    # Shrunk to an input that no longer shows the signature asked for: the original is kept.
    r = corpus.minimize(t, crash, 1, signature="xor_apply:A:original|optimized")
    assert r["minimized"] is None and "another signature" in r["note"]
    with pytest.raises(EquifuzzError, match="does not show xor_apply:C"):
        corpus.minimize(t, crash, 1, signature="xor_apply:C:original|optimized")
    assert engines.minimize_each(t, [("xor_apply:B:original|optimized", str(crash))], 1) == {
        "xor_apply:B:original|optimized": r_path(crash, "xor_apply:B:original|optimized")}


def r_path(crash: Path, sig: str) -> str:
    from equifuzz.corpus import slug
    return str(crash.with_name(f"{crash.name}.{slug(sig)}.min"))
