"""Findings when fuzzing goes on after them (tools/equifuzz/findings.py): the records the harness
writes, where each finding comes from, its rank, --allow, and FINDINGS.json."""
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz import allow, findings  # noqa: E402
from equifuzz.errors import EquifuzzError  # noqa: E402
from equifuzz.findings import (ALLOWED, BEFORE_ONLY, GONE_AFTER, IN_MODELS, INTRODUCED, MODELS, PRESENT_BEFORE,  # noqa: E402
                               UNATTRIBUTED, Finding)
from harness_lines import counts_line, finding_line  # noqa: E402

BOTH = {"core-original", "core-optimized"}


def line(kind, sig, cls="data", roles="", name=None, i=0, detail=""):
    return finding_line(sig, kind, cls, tuple(r for r in roles.split(",") if r), name, stop=False, i=i, detail=detail)


def write_records(d: Path, pid: int, inputs: list[tuple[bytes, list[str]]], counts: dict[str, tuple[int, str]]):
    for n, (data, lines) in enumerate(inputs, 1):
        (d / f"{pid}-{n}.input").write_bytes(data)
        (d / f"{pid}-{n}.findings").write_text("\n".join(lines) + "\n")
    (d / f"{pid}.counts").write_text("".join(counts_line(s, k, c) + "\n" for s, (c, k) in counts.items()))


def test_a_finding_line_parses_with_spaces_and_quotes_in_its_fields():
    got = findings.parse_line(finding_line("blockfile_faults:no-plaintext-on-disk:core-original writer", "violation",
                                           roles=("core-original",), name="no-plaintext-on-disk", detail='a "b"\tc'))
    assert got == {"kind": "violation", "signature": "blockfile_faults:no-plaintext-on-disk:core-original writer",
                   "cls": "data", "roles": ["core-original"], "name": "no-plaintext-on-disk", "detail": 'a "b"\tc',
                   "i": 0, "stop": True}
    assert findings.parse_line("signature: equifuzz-mismatch x:y") is None
    assert findings.parse_line("finding: mismatch x:y class=data roles=models name=y") is None


@pytest.mark.parametrize("bad,says", [
    (finding_line("x:y", v=2), "protocol version 2, this tool reads version 1"),
    ("equifuzz-finding {not json", "not JSON"),
    ("equifuzz-finding " + json.dumps({"v": 1, "kind": "mismatch", "signature": "x:y"}), "without class, roles, name"),
])
def test_a_finding_line_of_another_version_or_shape_is_refused_in_one_sentence(bad, says):
    with pytest.raises(EquifuzzError) as e:
        findings.parse_line(bad)
    assert says in str(e.value) and "rebuild" in str(e.value) and "\n" not in str(e.value)


def test_a_run_stops_for_the_first_counted_finding_of_each_input_it_stopped_on():
    log = "\n".join([
        "#2 INITED",
        finding_line("t:internal:usage:a|b", "internal", stop=False),          # a note of an input that went on
        finding_line("t:allowed:f:a|b", "allowed", stop=True, i=0),            # the input the run stopped on
        finding_line("t:g:a|b", "mismatch", stop=True, i=1),
        finding_line("t:h:a|b", "violation", stop=True, i=2),
        "==12== ERROR: libFuzzer: deadly signal",
        finding_line("t:k:a|b", "violation", stop=True, i=0),                  # a second stop (libFuzzer -fork)
    ])
    assert findings.stops_in(log) == ["t:g:a|b", "t:k:a|b"]
    assert findings.first_stop(log) == "t:g:a|b"
    assert findings.counted_signatures(log) == ["t:g:a|b", "t:h:a|b", "t:k:a|b"]
    assert findings.stops_in(finding_line("t:internal:u:a|b", "internal", stop=False)) == []


def test_records_of_two_processes_merge_by_signature_first_input_and_summed_hits(tmp_path):
    # The harness writes what differed with a finding when it printed its report.
    a_detail = line("mismatch", "serialize_decode:error:original|core-optimized", "diagnostic", "core-differ",
                    detail='error: original "x"; core-optimized "y"; input: kind 1')
    a = line("mismatch", "serialize_decode:error:original|core-optimized", "diagnostic", "core-differ")
    b = line("mismatch", "serialize_decode:accepted:original|core-optimized", "verdict", "core-differ", i=1)
    write_records(tmp_path, 7, [(b"first", [a_detail])], {"serialize_decode:error:original|core-optimized": (5, "mismatch")})
    write_records(tmp_path, 9, [(b"later", [a, b])], {"serialize_decode:error:original|core-optimized": (3, "mismatch"),
                                                       "serialize_decode:accepted:original|core-optimized": (2, "mismatch")})
    got = {f.signature: f for f in findings.read_dir(tmp_path)}
    assert set(got) == {"serialize_decode:error:original|core-optimized", "serialize_decode:accepted:original|core-optimized"}
    err = got["serialize_decode:error:original|core-optimized"]
    assert (err.hits, Path(err.input).read_bytes(), err.cls) == (8, b"first", "diagnostic")
    acc = got["serialize_decode:accepted:original|core-optimized"]
    assert (acc.hits, Path(acc.input).read_bytes()) == (2, b"later")
    assert [o["signature"] for o in acc.others] == ["serialize_decode:error:original|core-optimized"]
    assert err.detail == 'error: original "x"; core-optimized "y"; input: kind 1'
    assert acc.detail == ""  # its first input's process printed no report for it


def test_counts_of_another_version_are_refused(tmp_path):
    (tmp_path / "1.counts").write_text(json.dumps({"v": 9, "signature": "x:y", "kind": "mismatch", "hits": 1}) + "\n")
    with pytest.raises(EquifuzzError, match="another protocol version"):
        findings.read_dir(tmp_path)


@pytest.mark.parametrize("kind,roles,others,core,expected", [
    # Core after differs from Core before in the same comparison.
    ("mismatch", ["core-differ", "core-optimized-vs-model"], [], BOTH, INTRODUCED),
    # Both Core sides agree against our models: a model bug.
    ("mismatch", ["core-original-vs-model", "core-optimized-vs-model"], [], BOTH, IN_MODELS),
    # Core after differs from its model, Core before (compared apart) did not.
    ("mismatch", ["core-optimized-vs-model"], [], BOTH, INTRODUCED),
    ("mismatch", ["core-optimized-vs-model"], [], {"core-optimized"}, UNATTRIBUTED),
    # The same field of both Core sides, each compared with its own model: ours.
    ("mismatch", ["core-optimized-vs-model"], [("mismatch", ["core-original-vs-model"])], BOTH, IN_MODELS),
    ("mismatch", ["core-original-vs-model"], [], BOTH, BEFORE_ONLY),
    ("mismatch", ["models"], [], BOTH, MODELS),
    ("mismatch", ["models"], [], set(), MODELS),
    # A property of one side.
    ("violation", ["core-original"], [("violation", ["core-optimized"])], BOTH, PRESENT_BEFORE),
    ("violation", ["core-optimized"], [], BOTH, INTRODUCED),
    ("violation", ["core-original"], [], BOTH, GONE_AFTER),
    ("violation", ["core-original"], [], {"core-original"}, PRESENT_BEFORE),
    ("violation", ["model"], [], BOTH, MODELS),
    ("allowed", ["core-differ"], [], BOTH, ALLOWED),
])
def test_attribution(kind, roles, others, core, expected):
    f = Finding("t:prop:x", kind, "data", roles, "prop",
                others=[{"kind": k, "signature": "t:prop:y", "cls": "data", "roles": r, "name": "prop"} for k, r in others])
    assert findings.attribute(f, core) == expected


def test_another_field_on_the_same_input_does_not_change_the_attribution():
    f = Finding("t:a:x", "violation", "data", ["core-optimized"], "a",
                others=[{"kind": "violation", "signature": "t:b:y", "cls": "data", "roles": ["core-original"], "name": "b"}])
    assert findings.attribute(f, BOTH) == INTRODUCED


def test_settle_ranks_counted_first_then_verdict_data_diagnostic_and_marks_known():
    known = [{"entry": "BufferedWriter", "signatures": ["blockfile_faults:no-plaintext-on-disk:core-*"]}]
    fs = [Finding("serialize_decode:error:a|core-optimized", "mismatch", "diagnostic", ["core-differ"], "error", hits=9),
          Finding("blockfile_faults:no-plaintext-on-disk:core-original", "violation", "data", ["core-original"], "no-plaintext-on-disk",
                  others=[{"kind": "violation", "signature": "s", "cls": "data", "roles": ["core-optimized"], "name": "no-plaintext-on-disk"}]),
          Finding("serialize_decode:accepted:a|core-optimized", "mismatch", "verdict", ["core-differ"], "accepted", hits=1),
          Finding("serialize_decode:allowed:error:a|core-optimized", "allowed", "diagnostic", ["core-differ"], "error", hits=50)]
    got = findings.settle(fs, BOTH, known)
    assert [f.name for f in got] == ["accepted", "error", "no-plaintext-on-disk", "error"]
    assert [f.attribution for f in got] == [INTRODUCED, INTRODUCED, PRESENT_BEFORE, ALLOWED]
    assert got[2].known == "BufferedWriter" and got[0].known == ""


def test_a_finding_round_trips_through_json():
    f = Finding("t:a:x|y", "mismatch", "verdict", ["core-differ"], "a", hits=3, input="i", attribution=INTRODUCED, known="k",
                others=[{"kind": "violation", "signature": "t:b", "cls": "data", "roles": ["model"], "name": "b"}])
    assert Finding.from_json(json.loads(json.dumps(f.to_json()))) == f


def test_allow_takes_pair_and_field_and_refuses_anything_else(tmp_path):
    assert allow.allow_fields(["serialize:error", "serialize:consumed", "tx_check:reason"], {"serialize", "tx_check"}) == \
        {"serialize": ["error", "consumed"], "tx_check": ["reason"]}
    with pytest.raises(ValueError, match="<pair>:<field>"):
        allow.allow_fields(["error"], {"serialize"})
    with pytest.raises(ValueError, match="not one of"):
        allow.allow_fields(["nosuch:error"], {"serialize"})
    path = tmp_path / "allow.txt"
    path.write_text("# the branch changes error texts\nserialize:error\n\n  tx_check:reason  # and reasons\n")
    assert allow.read_allow_file(path) == ["serialize:error", "tx_check:reason"]


def test_findings_json_names_entries_of_findings_md_and_patterns_with_a_target():
    headings = {re.sub(r"[`*]", "", l[4:]).strip() for l in (ROOT / "FINDINGS.md").read_text().splitlines() if l.startswith("### ")}
    known = findings.load_known()
    assert known
    for entry in known:
        assert entry["entry"] in headings, entry["entry"]
        for pattern in entry["signatures"]:
            target = pattern.split(":", 1)[0]
            assert (ROOT / "fuzz_targets" / f"{target}.cpp").is_file(), pattern


# --- the harness, end to end (the replay build's mutant variants of serialize_decode) --------------
def mutant_binary(build_dir: Path, name: str) -> Path:
    binary = build_dir / "fuzz_targets" / f"serialize_decode__{name}"
    if not binary.is_file():
        pytest.skip(f"{binary} is not built (a build with Core sides and mutants)")
    return binary


def run(binary: Path, *inputs: Path, **env):
    import os
    import subprocess
    return subprocess.run([binary, *inputs], capture_output=True, text=True, errors="replace", cwd=ROOT,
                          env=dict(os.environ, ASAN_OPTIONS="handle_abort=1:detect_leaks=0", **env), timeout=300)


TOO_LARGE = ROOT / "corpora" / "regressions" / "serialize_decode" / "compactsize-too-large-max-size-plus-one"
FD_FC_00 = ROOT / "corpora" / "regressions" / "serialize_decode" / "compactsize-fd-fc00-non-canonical"


def test_an_error_text_change_is_a_diagnostic_the_change_introduced_and_allow_makes_it_a_note(build_dir):
    binary = mutant_binary(build_dir, "core_size_too_large_text")
    plain = run(binary, TOO_LARGE)
    assert plain.returncode != 0
    (stop,) = [x for x in findings.in_text(plain.stderr) if x["stop"]]
    assert (stop["kind"], stop["signature"], stop["cls"], stop["roles"], stop["name"]) == (
        "mismatch", "serialize_decode:error:original|core-optimized", "diagnostic", ["core-differ", "core-optimized-vs-model"], "error")
    assert stop["detail"].startswith("error: original ")
    assert "class: diagnostic" in plain.stderr
    allowed = run(binary, TOO_LARGE, EQUIFUZZ_ALLOW="error")
    assert allowed.returncode == 0, allowed.stderr[-2000:]
    assert "allowed difference (EQUIFUZZ_ALLOW) in serialize_decode: field 'error'" in allowed.stderr


def test_allowing_the_error_text_still_finds_the_verdict_and_recording_goes_on(build_dir, tmp_path):
    binary = mutant_binary(build_dir, "core_fd_text_and_252_accepted")
    got = run(binary, FD_FC_00, EQUIFUZZ_ALLOW="error")
    assert got.returncode != 0
    assert findings.first_stop(got.stderr) == "serialize_decode:accepted:original|core-optimized"
    assert next(x["cls"] for x in findings.in_text(got.stderr) if x["stop"] and x["kind"] == "mismatch") == "verdict"
    # Going on after findings: every committed input runs, each signature's first input is kept.
    inputs = [ROOT / "corpora" / "serialize_decode", ROOT / "corpora" / "regressions" / "serialize_decode"]
    fd_text = tmp_path / "fd-fb-00"
    fd_text.write_bytes(bytes([9, 0xfd, 0xfb, 0x00]))
    rec = tmp_path / "rec"
    rec.mkdir()
    kept = run(binary, *inputs, fd_text, EQUIFUZZ_ALLOW="error", EQUIFUZZ_FINDINGS_DIR=str(rec))
    assert kept.returncode == 0, kept.stderr[-2000:]
    found = {f.signature: f for f in findings.settle(findings.read_dir(rec), BOTH, [])}
    verdict = found["serialize_decode:accepted:original|core-optimized"]
    assert (verdict.attribution, verdict.cls) == (INTRODUCED, "verdict")
    # What differed, with each side's value and the decoded input: the report's row shows it.
    assert verdict.detail.startswith("accepted: original 0; core-optimized 1; input: kind "), verdict.detail
    again = run(binary, Path(verdict.input), EQUIFUZZ_ALLOW="error")  # the kept input reproduces it
    assert findings.first_stop(again.stderr) == "serialize_decode:accepted:original|core-optimized"
    note = found["serialize_decode:allowed:error:original|core-optimized"]
    assert note.attribution == ALLOWED and note.hits >= 1
    assert re.match(r'error: original "[^"]+"; core-optimized "[^"]*"; input: ', note.detail), note.detail
    assert list(found)[0] == "serialize_decode:accepted:original|core-optimized"  # verdicts first


def _target(build_dir: Path, name: str, pair: str):
    from equifuzz.project import Target
    binary = build_dir / "fuzz_targets" / name
    if not binary.is_file():
        pytest.skip(f"{binary} is not built")
    return Target(name=name, pair=pair, binary=binary, corpus=ROOT / "corpora" / name,
                  regressions=ROOT / "corpora" / "regressions" / name, dict=ROOT / "x")


def test_the_field_names_come_from_the_comparisons_on_the_seeds(build_dir):
    names = allow.field_names([_target(build_dir, "utxo_flush_steps", "utxo_flush")])
    assert "each-coin-old-or-new" in names  # a property
    assert any(re.fullmatch(r"step [0-9]+ key [0-9]+B", n) for n in names)  # a field named at run time
    assert "error" in allow.field_names([_target(build_dir, "serialize_decode", "serialize")])


def test_allow_refuses_a_name_the_pair_does_not_have_and_takes_patterns_numbers_and_internal(build_dir):
    from equifuzz.project import EquifuzzError
    steps = [_target(build_dir, "utxo_flush_steps", "utxo_flush")]
    for good in (["step * key *"], ["step 99 stopped"], ["internal"], ["each-coin-old-or-new", "value"]):
        allow.check_allowed_names("utxo_flush", good, steps)
    with pytest.raises(EquifuzzError, match=r"utxo_flush:each-coin-old-or-nw: pair utxo_flush has no such field.*"
                                            r"'each-coin-old-or-new'"):
        allow.check_allowed_names("utxo_flush", ["value", "each-coin-old-or-nw"], steps)
    with pytest.raises(EquifuzzError, match="stepp"):
        allow.check_allowed_names("utxo_flush", ["stepp * key *"], steps)


def test_allow_internal_keeps_internal_fields_notes_under_strict(build_dir):
    binary = build_dir / "fuzz_targets" / "utxo_flush_steps__core_partial_batch_not_cleared"
    if not binary.is_file():
        pytest.skip(f"{binary} is not built (a build with Core sides and mutants)")
    inputs = [ROOT / "corpora" / "utxo_flush_steps", ROOT / "corpora" / "regressions" / "utxo_flush_steps"]
    assert run(binary, *inputs).returncode == 0  # an internal-tier bug: notes by default
    assert run(binary, *inputs, EQUIFUZZ_STRICT="1").returncode != 0  # counted under --strict
    kept = run(binary, *inputs, EQUIFUZZ_STRICT="1", EQUIFUZZ_ALLOW="internal")
    assert kept.returncode == 0, kept.stderr[-2000:]
    assert "internal state differs in utxo_flush_steps" in kept.stderr


def test_only_signature_aborts_on_that_signature_alone(build_dir, tmp_path):
    binary = mutant_binary(build_dir, "core_fd_text_and_252_accepted")
    accepted = "serialize_decode:accepted:original|core-optimized"
    text_only = tmp_path / "fd-fb-00"
    text_only.write_bytes(bytes([9, 0xfd, 0xfb, 0x00]))  # rejected on both sides, in another text
    assert run(binary, text_only).returncode != 0
    assert run(binary, text_only, EQUIFUZZ_ONLY_SIGNATURE=accepted).returncode == 0
    assert run(binary, FD_FC_00, EQUIFUZZ_ONLY_SIGNATURE=accepted).returncode != 0


def test_minimizing_for_one_signature_gives_a_smaller_input_that_still_shows_it(tmp_path):
    from equifuzz import corpus
    from equifuzz.project import Target
    # libFuzzer's -minimize_crash: a libFuzzer build (verify's own), not the replay build.
    binary = mutant_binary(ROOT / "build" / "verify-build", "core_fd_text_and_252_accepted")
    accepted = "serialize_decode:accepted:original|core-optimized"
    crash = tmp_path / "crash"
    crash.write_bytes(FD_FC_00.read_bytes() + bytes(40))
    t = Target("serialize_decode", "serialize", binary, tmp_path, tmp_path, tmp_path / "none.dict")
    r = corpus.minimize(t, crash, 5, binary, signature=accepted)
    assert r["signature"] == accepted and r["minimized"], r
    assert r["minimized_size"] < crash.stat().st_size
    assert accepted in corpus.signatures_of_run(binary, Path(r["minimized"]))


# --- verify's verdict from recorded findings ----------------------------------------------------
def facts_with(*recorded: Finding) -> dict:
    return {"targets": {"serialize_decode": {"replay": {"inputs": 3, "ok": True, "failure": None, "recorded": []},
                                             "campaign": {"recorded": [f.to_json() for f in recorded], "mismatches": [],
                                                          "signatures": [], "other_crashes": []}}},
            "budget": {"seconds_per_target": 60}, "mutants": [{"caught": True}], "build_dir_arg": ""}


def recorded(sig, kind, cls, attribution, hits=1, known=""):
    return Finding(sig, kind, cls, [], sig.split(":")[-2], hits=hits, input="in", attribution=attribution, known=known)


def test_the_verdict_counts_what_the_change_introduced_and_lists_the_rest():
    from equifuzz import verify
    text = recorded("serialize_decode:allowed:error:original|core-optimized", "allowed", "diagnostic", ALLOWED, hits=40)
    before = recorded("serialize_decode:p:core-original", "violation", "data", PRESENT_BEFORE, known="BufferedWriter")
    verdict, code = verify.verdict_of(facts_with(text, before))
    assert code == 0 and verdict.startswith("CLEAN:")
    assert "1 difference(s) the change did not introduce, listed apart (present before the change)" in verdict
    assert "1 allowed difference(s) (serialize_decode:error) in 40 input(s)" in verdict
    assert [e["attribution"] for e in verify.not_counted_of(facts_with(text, before))] == [PRESENT_BEFORE, ALLOWED]

    new = recorded("serialize_decode:accepted:original|core-optimized", "mismatch", "verdict", INTRODUCED, hits=2)
    verdict, code = verify.verdict_of(facts_with(text, before, new))
    assert code == 1 and verdict.startswith("FINDINGS: 1 (serialize_decode: serialize_decode:accepted:original|core-optimized "
                                            "(introduced by the change, verdict, 2 input(s))")


def test_the_readme_triage_table_has_every_attribution_and_says_which_count():
    # The table a reviewer reads (README.md, "Triage") against the code: every attribution and
    # tier is a row, and its "counted" cell agrees with findings.COUNTED.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = readme.split("### Triage: what each difference means", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[2]
    names = [v for k, v in vars(findings).items() if k.isupper() and isinstance(v, str) and k in (
        "INTRODUCED", "PRESENT_BEFORE", "GONE_AFTER", "BEFORE_ONLY", "IN_MODELS", "MODELS", "UNATTRIBUTED",
        "ALLOWED", "INTERNAL", "OUTSIDE")]
    assert len(names) == 10
    for name in names:
        row = next((cell for key, cell in rows.items() if key.startswith(f"*{name}*")), None)
        assert row is not None, f"README's triage table has no row for '{name}'"
        assert row.startswith("yes") == (name in findings.COUNTED), (name, row)


def test_finding_lines_have_one_reader_and_one_version():
    # The harness and the tools agree on the protocol's version...
    harness = (ROOT / "differential" / "harness" / "record.cpp").read_text()
    (version,) = re.findall(r"constexpr int FINDING_PROTOCOL\{(\d+)\};", harness)
    assert int(version) == findings.PROTOCOL
    # ...and no module but findings.py reads a harness's lines: the finding lines, the human
    # report's signature line, or a record's files.
    readers = []
    for path in sorted((ROOT / "tools" / "equifuzz").rglob("*.py")):
        if path.name == "findings.py":
            continue
        for n, text in enumerate(path.read_text().splitlines(), 1):
            if re.search(r'equifuzz-finding|equifuzz-mismatch|"finding: |\.counts"|\*\.findings"', text):
                readers.append(f"{path.relative_to(ROOT)}:{n}: {text.strip()}")
    assert not readers, "read only through findings.py:\n" + "\n".join(readers)
