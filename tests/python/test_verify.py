"""verify: argument errors, the report made from a recorded run, the verdict and its exit code,
findings first, and Ctrl-C. The runs use stand-in binaries (shell scripts that print what libFuzzer
prints), so each case is fast and decided by this test, not by the fuzzer's luck."""
import json
import signal
import subprocess
import sys
import time

import pytest

from harness_lines import echo, finding_line
from test_exit_codes import fake_build, fake_fuzzer, one_sentence, run_tool

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "tools"))
from equifuzz import campaign, verify  # noqa: E402
from equifuzz.project import ROOT  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# A stand-in libFuzzer binary: a replay (-runs=1) passes; a campaign prints libFuzzer's lines.
CLEAN_FUZZER = """case "$1" in
  -runs=*) exit 0;;
esac
echo '#2 INITED cov: 10 ft: 10 corp: 2/2b exec/s: 0 rss: 30Mb' >&2
echo '#64 NEW cov: 12 ft: 12 corp: 3/3b lim: 4 exec/s: 0 rss: 30Mb' >&2
echo 'stat::number_of_executed_units: 640' >&2
echo 'stat::average_exec_per_sec: 640' >&2
exit 0"""


def mismatching_fuzzer(tmp_path):
    # A campaign that finds a mismatch: the report's signature on stderr, the crash file written.
    return f"""case "$1" in
  -runs=*) exit 0;;
esac
for a in "$@"; do case "$a" in -artifact_prefix=*) dir="${{a#-artifact_prefix=}}";; esac; done
echo '#2 INITED cov: 10 ft: 10 corp: 2/2b exec/s: 0 rss: 30Mb' >&2
{echo(finding_line("xor_apply:oneshot:original|optimized"))}
printf 'x' > "$dir/crash-0123"
echo 'stat::number_of_executed_units: 5' >&2
exit 1"""


def corpus_dir(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "seed").write_bytes(b"\0")
    return corpus


def recorded_facts(**over):
    """A recorded run, as report.json holds it: two targets, one mutant."""
    facts = {
        "report_version": 1, "command": "./equifuzz verify xor --minutes 1", "started": "2026-11-24 03:00:00 UTC",
        "machine": "x86_64, 2 cores, Linux", "equifuzz": {"commit": "abc123", "dirty": False}, "seed": 7,
        "budget": {"minutes": 1, "jobs": 2, "seconds_per_target": 60},
        "build": {"dir": "build/libfuzzer", "compiler": "clang++-19", "sanitizers": "address,undefined",
                  "optimization": "-O1", "core_missing_because": ""},
        "build_dir_arg": "",
        "sides": {"xor": {"original": "differential/xor/original.cpp", "optimized": "differential/xor/optimized.cpp",
                          "core": [{"role": "core-original", "tree": "kernel-0.0.20", "label": "crate 0.0.20",
                                    "src": "/x", "core_edit": False, "commit": ""}]}},
        "targets": {
            "xor_apply": {"pair": "xor", "sides": ["original", "optimized", "core-original (kernel-0.0.20)"],
                          "replay": {"inputs": 46, "seconds": 0.1, "ok": True, "failure": None},
                          "campaign": {"seconds": 60.0, "runs": 600000, "exec_per_sec": 10000, "corpus": 80, "new_files": 34,
                                       "coverage_seeds": 900, "coverage_end": 950,
                                       "timeline": [[0.5, 900], [10.0, 930], [59.0, 950]], "mismatches": [],
                                       "other_crashes": [], "signatures": [], "lost_findings": 0, "problem": "",
                                       "note": "", "interrupted": False, "log": ""}},
            "xor_key": {"pair": "xor", "sides": ["original", "optimized"],
                        "replay": {"inputs": 17, "seconds": 0.1, "ok": True, "failure": None},
                        "campaign": {"seconds": 60.0, "runs": 300000, "exec_per_sec": 5000, "corpus": 40, "new_files": 3,
                                     "coverage_seeds": 400, "coverage_end": 410, "timeline": [[0.4, 400], [30.0, 410]],
                                     "mismatches": [], "other_crashes": [], "signatures": [], "lost_findings": 0,
                                     "problem": "", "note": "", "interrupted": False, "log": ""}}},
        "mutants": [{"pair": "xor", "mutant": "tail_skipped", "target": "xor_apply", "description": "tail left",
                     "caught": True, "seconds": 0.2, "input": "corpora/regressions/xor_apply/m1",
                     "failure": "mismatch xor_apply:oneshot:original|optimized"}],
    }
    facts.update(over)
    return facts


def test_a_recorded_clean_run_renders_a_clean_report_with_tables_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    verdict, code = verify.write_report(recorded_facts(), tmp_path)
    assert code == 0 and verdict.startswith("CLEAN: 2 targets"), verdict
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# equifuzz verify: CLEAN")
    assert "equifuzz commit `abc123`" in md and "seed 7" in md
    assert "| xor_apply | original, optimized, core-original (kernel-0.0.20) | 46 | 60.0 | 600,000 | 10,000 | 80 | 900 → 950 | 0 | 0 | 0 | ok |" in md
    assert "| xor | tail_skipped | yes |" in md and "1 of 1 caught" in md
    assert "kernel-0.0.20: crate 0.0.20" in md and "not built" in md  # the Core optimized side was not built
    for png in ("coverage.png", "mutants.png"):
        assert (tmp_path / png).read_bytes()[:8] == PNG_MAGIC and f"]({png})" in md
    # The JSON holds the same facts and the verdict; rendering it again gives the same Markdown.
    again = json.loads((tmp_path / "report.json").read_text())
    assert again["verdict"] == verdict and again["exit_code"] == 0
    assert verify.render_markdown(again) == md


def test_mutants_from_an_empty_corpus_are_a_table_a_chart_and_a_plot_or_said_to_be_unmeasured(tmp_path):
    pytest.importorskip("matplotlib")
    runs = [{"pair": "xor", "mutant": "tail_skipped", "target": "xor_apply", "seed": s, "caught": s != 3,
             "seconds": 60.0 if s == 3 else 0.2 * s} for s in (1, 2, 3)]
    fe = {"engine": "libfuzzer", "budget_seconds": 60, "trials": 3, "seed": 1,
          "mutants": [{"pair": "xor", "mutant": "tail_skipped", "target": "xor_apply", "caught": 2, "trials": 3,
                       "median_seconds": 0.4, "min_seconds": 0.2, "max_seconds": 60.0, "censored_at": 60, "runs": runs}]}
    verdict, code = verify.write_report(recorded_facts(from_empty=fe), tmp_path)
    assert code == 0, verdict  # a measurement, not part of the verdict
    md = (tmp_path / "report.md").read_text()
    assert "| xor | tail_skipped | xor_apply | 2/3 | 0.4 | 0.2–60.0 (censored) |" in md
    assert "not yet caught at 0.1 s: 100 %, 1 s: 33 %, 10 s: 33 %, 60 s: 33 %" in md
    assert (tmp_path / "survival.png").read_bytes()[:8] == PNG_MAGIC and "](survival.png)" in md
    verify.write_report(recorded_facts(), tmp_path / "plain")
    assert "Not measured (add `--from-empty 3`" in (tmp_path / "plain" / "report.md").read_text()


def test_the_coverage_of_every_side_is_in_the_report(tmp_path):
    s = lambda c, n: {"count": n, "covered": c, "percent": round(100 * c / n, 1)}
    side = lambda c, n, unreached=(): {"files": ["x"], "summary": {"lines": s(c, n), "branches": s(c, n),
                                                                    "functions": s(1, 1)},
                                       "unreached_functions": list(unreached)}
    facts = recorded_facts(coverage={"xor": {"original": side(40, 40), "optimized": side(70, 72, ["Peel()"]),
                                             "core-original (kernel-0.0.20)": side(165, 940)}})
    verify.write_report(facts, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "## Coverage of every side" in md
    assert "| xor | optimized | 70/72 (97.2 %) | 70/72 (97.2 %) | 1/1 (100.0 %) |" in md
    assert "- xor optimized: `Peel()`" in md


def test_a_mismatch_is_a_finding_listed_first_and_a_missed_mutant_says_what_was_not_proven(tmp_path):
    facts = recorded_facts()
    c = facts["targets"]["xor_key"]["campaign"]
    c["mismatches"], c["signatures"] = ["build/verify/x/campaigns/libfuzzer/xor_key/crashes/crash-1"], ["xor_key:key:original|optimized"]
    facts["mutants"][0]["caught"] = False
    verdict, code = verify.write_report(facts, tmp_path)
    # The missed mutant is the tool's failure, not a finding against the change: said in the line.
    assert code == 1 and verdict.startswith("FINDINGS: 1"), verdict
    assert "the targets could not prove themselves on your trees: mutant xor/tail_skipped was not caught" in verdict
    md = (tmp_path / "report.md").read_text()
    assert md.index("## Findings") < md.index("## What was run") < md.index("## Targets")
    assert "`./equifuzz reproduce xor_key build/verify/x/campaigns/libfuzzer/xor_key/crashes/crash-1`" in md
    assert "**NO**" in md


def test_a_missed_mutant_alone_is_incomplete_never_findings(tmp_path):
    facts = recorded_facts()
    facts["mutants"][0]["caught"] = False
    verdict, code = verify.verdict_of(facts)
    assert code == 3 and verdict.startswith("INCOMPLETE: the targets could not prove themselves"), verdict


def test_a_mutant_whose_only_effect_is_not_counted_here_is_not_applicable(tmp_path):
    facts = recorded_facts()
    caught = dict(facts["mutants"][0], mutant="head_skipped")
    facts["mutants"][0].update(caught=False, status="not applicable",
                               failure="its only effect is in a field this run does not count")
    facts["mutants"].append(caught)
    verdict, code = verify.write_report(facts, tmp_path)
    assert code == 0 and verdict.startswith("CLEAN"), verdict
    assert "not applicable" in (tmp_path / "report.md").read_text()


def test_a_pair_with_no_applicable_bug_mutant_cannot_be_clean(tmp_path):
    # Every bug mutant of the pair fails to compile on the reviewer's trees: nothing shows that the
    # targets can fail there, so a run with no mismatch is INCOMPLETE, never CLEAN.
    facts = recorded_facts()
    facts["mutants"][0].update(caught=False, status="not applicable",
                               failure="it does not compile on this tree: coins.cpp:103: error: use of undeclared identifier")
    verdict, code = verify.verdict_of(facts)
    assert code == 3 and verdict.startswith("INCOMPLETE"), verdict
    assert "none of the 1 bug mutants of xor applies to these trees (1 do not compile on this tree)" in verdict, verdict


def test_a_refactor_mutant_must_stay_clean(tmp_path):
    refactor = {"pair": "xor", "mutant": "core_refactor_x", "target": "xor_apply", "description": "a rewrite",
                "kind": "refactor", "caught": False, "status": "clean", "seconds": 0.1, "input": "", "failure": ""}
    facts = recorded_facts(mutants=recorded_facts()["mutants"] + [refactor])
    verdict, code = verify.write_report(facts, tmp_path)
    assert code == 0 and "1/1 mutants caught, 1/1 refactor mutants clean" in verdict, verdict
    assert "core_refactor_x" in (tmp_path / "report.md").read_text()
    refactor.update(caught=True, status="finding", input="corpora/xor_apply/s1", failure="mismatch xor_apply:out:a|b")
    verdict, code = verify.verdict_of(recorded_facts(mutants=recorded_facts()["mutants"] + [refactor]))
    assert code == 3 and "refactor mutant xor/core_refactor_x (xor_apply) reported a finding" in verdict, verdict


def test_internal_state_and_inputs_outside_the_contract_are_listed_not_counted(tmp_path):
    facts = recorded_facts()
    rec = lambda kind, sig, cls, name: {"signature": sig, "kind": kind, "cls": cls, "roles": ["core-differ"], "name": name,
                                        "hits": 4, "input": "corpora/xor_apply/s", "others": [], "attribution": "",
                                        "known": ""}
    facts["targets"]["xor_apply"]["campaign"]["recorded"] = [
        rec("internal", "xor_apply:internal:entries:core-original|core-optimized", "internal", "entries"),
        rec("internal", "xor_apply:internal:step 1 stopped:core-original|core-optimized", "internal", "step 1 stopped"),
        rec("internal", "xor_apply:internal:step 12 stopped:core-original|core-optimized", "internal", "step 12 stopped"),
        rec("outside-contract", "xor_apply:outside-contract:value:core-original|core-optimized", "data", "value")]
    from equifuzz import findings
    for r in facts["targets"]["xor_apply"]["campaign"]["recorded"]:
        r["attribution"] = findings.attribute(findings.Finding.from_json(r), {"core-original", "core-optimized"})
    verdict, code = verify.write_report(facts, tmp_path)
    assert code == 0 and verdict.startswith("CLEAN"), verdict
    # Names that differ only in a number are one ("step N stopped").
    assert "internal state (not a promise) differs: entries, step N stopped in 12 input(s)" in verdict
    assert "1 difference(s) on inputs outside the caller contract" in verdict
    md = (tmp_path / "report.md").read_text()
    assert "## Internal state the change alters" in md and "## Outside the contract" in md
    # The report reads them by field too: one row for "step N stopped", its inputs summed, its
    # first input that of the signature met first (here all met on 4 inputs).
    assert "on 12 input(s): entries, step N stopped." in md
    section = md.split("## Internal state the change alters")[1].split("## Outside the contract")[0]
    rows = [l for l in section.splitlines() if l.startswith("| xor_apply")]
    assert len(rows) == 2, rows
    assert ("`xor_apply:internal:step N stopped:core-original\\|core-optimized` (2 signatures, numbers as N)" in rows[1]
            and "| 8 |" in rows[1]), rows[1]
    assert "`xor_apply:internal:entries:core-original\\|core-optimized` |" in rows[0] and "| 4 |" in rows[0], rows[0]


def test_a_replay_failure_is_a_finding_and_a_target_without_inputs_is_incomplete(tmp_path):
    facts = recorded_facts()
    facts["targets"]["xor_apply"]["replay"] = {"inputs": 46, "seconds": 0.1, "ok": False, "failure": "mismatch xor_apply:oneshot:a|b"}
    assert verify.verdict_of(facts)[1] == 1
    facts = recorded_facts()
    facts["targets"]["xor_key"]["replay"] = {"inputs": 0, "seconds": 0, "ok": False, "failure": "no seed or regression input"}
    verdict, code = verify.verdict_of(facts)
    assert code == 3 and "xor_key: no seed or regression input" in verdict


def test_the_budget_is_shared_by_the_targets_and_never_below_five_seconds():
    assert verify.fuzz_seconds(1, 2, 20) == 6
    assert verify.fuzz_seconds(10, 2, 20) == 60
    assert verify.fuzz_seconds(0.05, 1, 20) == 5


@pytest.mark.parametrize("args, said", [
    (["--minutes", "0"], "--minutes must be more than 0"),
    (["nosuchtarget"], "unknown target 'nosuchtarget'"),
    (["-j", "0"], "-j must be at least 1"),
    (["--build-dir", "/nonexistent", "--core-original", "/tmp"], "cannot be used with --build-dir"),
])
def test_argument_errors_are_one_sentence_and_exit_2(args, said):
    if args[0] == "--build-dir":
        proc = run_tool(args[0], args[1], "verify", *args[2:], "--minutes", "1")
    else:
        proc = run_tool("verify", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    one_sentence(proc)
    assert said in proc.stderr


def test_a_clean_run_on_a_stand_in_build_writes_the_report_and_exits_0(tmp_path):
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, CLEAN_FUZZER), corpus=corpus_dir(tmp_path))
    out = tmp_path / "report"
    proc = run_tool("--build-dir", bdir, "verify", "xor_apply", "--minutes", "0.05", "-j", "1", "--out", out, "--quiet")
    facts = json.loads((out / "report.json").read_text())
    # The stand-in build has no mutant variants: said, and the verdict is not clean.
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "has no mutant variants" in facts["verdict"]
    t = facts["targets"]["xor_apply"]
    assert t["replay"] == {"inputs": 1, "seconds": t["replay"]["seconds"], "ok": True, "failure": None, "input": "", "recorded": []}
    assert t["campaign"]["runs"] == 640 and t["campaign"]["coverage_seeds"] == 10 and t["campaign"]["coverage_end"] == 12
    assert [p[1] for p in t["campaign"]["timeline"]] == [10, 12]
    assert (out / "report.md").is_file()
    # The campaign ran in the report's own directory.
    assert (out / "campaigns" / "libfuzzer" / "xor_apply" / "corpus").is_dir()


def test_a_mismatch_on_a_stand_in_build_exits_1_with_the_reproducer_printed(tmp_path):
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, mismatching_fuzzer(tmp_path)), corpus=corpus_dir(tmp_path))
    out = tmp_path / "report"
    proc = run_tool("--build-dir", bdir, "verify", "xor_apply", "--minutes", "0.05", "-j", "1", "--out", out, "--quiet")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("xor_apply: mismatch xor_apply:oneshot:original|optimized"), proc.stdout
    assert f"reproduce: ./equifuzz --build-dir {bdir} reproduce xor_apply " in proc.stdout
    md = (out / "report.md").read_text()
    assert md.startswith("# equifuzz verify: FINDINGS")
    # The finding is kept as a regression input of the target, described in one line.
    kept = list((tmp_path / "regressions").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith("finding-xor-apply-oneshot-original-optimized-")
    assert kept[0].read_bytes() == b"x"
    index = (tmp_path / "README.md").read_text()
    assert f"- `xor_apply/{kept[0].name}`: found by `./equifuzz --build-dir" in index
    assert "xor_apply:oneshot:original|optimized" in index and "Kept as regression inputs" in md


def test_ctrl_c_keeps_the_campaign_and_writes_a_partial_report_exit_130(tmp_path):
    body = ('case "$1" in -runs=*) exit 0;; esac\n'
            "echo '#2 INITED cov: 10 ft: 10 corp: 2/2b exec/s: 0 rss: 30Mb' >&2\n"
            "trap 'exit 0' INT\nsleep 30 & wait")
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body), corpus=corpus_dir(tmp_path))
    out = tmp_path / "report"
    proc = subprocess.Popen([sys.executable, str(ROOT / "equifuzz"), "--build-dir", str(bdir), "verify", "xor_apply",
                             "--minutes", "5", "-j", "2", "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr
    facts = json.loads((out / "report.json").read_text())
    assert facts["interrupted"] and facts["verdict"].startswith("INTERRUPTED")
    assert facts["targets"]["xor_apply"]["campaign"]["interrupted"]
    assert (out / "campaigns" / "libfuzzer" / "xor_apply" / "corpus").is_dir()


def test_crash_inputs_are_deduplicated_by_signature():
    groups = campaign.by_signature(["a", "b", "c", "d"], ["x:f:1|2", "y:g:1|3", "x:f:1|2", "x:f:1|2"])
    assert groups == [("x:f:1|2", "a", 3), ("y:g:1|3", "b", 1)]


def test_a_report_lists_one_finding_per_signature(tmp_path):
    facts = recorded_facts()
    c = facts["targets"]["xor_key"]["campaign"]
    c["mismatches"] = ["crashes/id:000", "crashes/id:001", "crashes/id:002"]
    c["signatures"] = ["xor_key:key:original|optimized", "xor_key:key:original|optimized", "xor_key:hex:original|core-optimized"]
    findings = verify.findings_of(facts)
    assert [(f["what"], f["input"]) for f in findings] == [("xor_key:key:original|optimized", "crashes/id:000"),
                                                           ("xor_key:hex:original|core-optimized", "crashes/id:002")]
    assert findings[0]["kind"] == "mismatch (2 inputs, one signature)"
    assert verify.verdict_of(facts)[0].startswith("FINDINGS: 2")


def test_from_empty_trials_start_empty_and_are_censored_at_the_budget(tmp_path):
    """mutants --from-empty on a stand-in build: a mutant 'binary' that never crashes is not caught
    in any trial (exit 1, censored median), and no seed directory reaches the fuzzer."""
    corpus = corpus_dir(tmp_path)
    body = f'echo "$@" >> {tmp_path}/args\n' + CLEAN_FUZZER
    fuzzer = fake_fuzzer(tmp_path, body)
    bdir = fake_build(tmp_path, "xor_apply", fuzzer, corpus=corpus,
                      variants=[{"name": "tail_skipped", "kind": "mutant", "description": "tail left", "binary": str(fuzzer)}])
    out = tmp_path / "fe.json"
    proc = run_tool("--build-dir", bdir, "mutants", "--pair", "xor", "--mutant", "tail_skipped", "--from-empty",
                    "--trials", "3", "--seconds", "2", "-j", "2", "--json", out, "--quiet")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "| xor  | tail_skipped | xor_apply | 0/3    | >2" in proc.stdout
    calls = (tmp_path / "args").read_text().splitlines()
    assert len(calls) == 3 and not any(str(corpus) in c for c in calls)
    assert sorted(c.split("-seed=")[1].split()[0] for c in calls) == ["1", "2", "3"]
    figures = json.loads(out.read_text())["mutants"][0]
    assert figures["caught"] == 0 and figures["trials"] == 3 and figures["median_seconds"] == 2.0


def stand_in_target(tmp_path, binary):
    from equifuzz.project import Target
    corpus = corpus_dir(tmp_path)
    return Target("xor_apply", "xor", binary, corpus, tmp_path / "regressions", tmp_path / "none.dict")


def test_merge_adds_only_what_libfuzzer_keeps_as_merged_files(tmp_path):
    from equifuzz import corpus
    # Stand-in for -set_cover_merge=1 OUT IN: keeps IN's file "new" (it "adds coverage"), not "old".
    body = ('out=""; for a in "$@"; do case "$a" in -*) ;; *) if [ -z "$out" ]; then out="$a"; else src="$a"; fi;; esac; done\n'
            'cp "$src/new" "$out/new"\n'
            "echo 'MERGE-OUTER: 1 new files with 3 new features added; 2 new coverage edges' >&2")
    t = stand_in_target(tmp_path, fake_fuzzer(tmp_path, body))
    campaign = tmp_path / "campaign"
    campaign.mkdir()
    (campaign / "new").write_bytes(b"covers more")
    (campaign / "old").write_bytes(b"covers nothing new")
    r = corpus.merge(t, campaign)
    assert r["candidates"] == 2 and r["added"] == 1 and r["new_edges"] == 2
    import hashlib
    assert sorted(p.name for p in t.corpus.iterdir()) == sorted(["seed", "merged-" + hashlib.sha1(b"covers more").hexdigest()])


def test_merge_holds_back_an_input_that_shows_a_finding(tmp_path):
    from equifuzz import corpus
    # Stand-in: the merge keeps both campaign files; run on one file, "finding" aborts like the harness.
    body = ('n=0; for a in "$@"; do case "$a" in -*) ;; *) n=$((n+1)); eval "arg$n=\"$a\"";; esac; done\n'
            'if [ "$n" = 1 ]; then if grep -q finding "$arg1"; then ' + echo(finding_line("xor_apply:f:a|b")) + '; exit 1; fi; exit 0; fi\n'
            'cp "$arg2/new" "$arg2/finding" "$arg1/"\n'
            "echo 'MERGE-OUTER: 2 new files with 3 new features added; 2 new coverage edges' >&2")
    t = stand_in_target(tmp_path, fake_fuzzer(tmp_path, body))
    campaign = tmp_path / "campaign"
    campaign.mkdir()
    (campaign / "new").write_bytes(b"covers more")
    (campaign / "finding").write_bytes(b"a finding input")
    r = corpus.merge(t, campaign)
    assert r["added"] == 1 and r["held_back"] == 1, r
    import hashlib
    assert sorted(p.name for p in t.corpus.iterdir()) == sorted(["seed", "merged-" + hashlib.sha1(b"covers more").hexdigest()])


def test_minimize_keeps_the_smaller_input_only_with_the_same_signature(tmp_path):
    from equifuzz import corpus
    # Stand-in: any input reports signature A, except inputs holding "B"; minimizing writes "aB" or "a".
    body = ('for a in "$@"; do case "$a" in -exact_artifact_path=*) out="${a#-exact_artifact_path=}";; '
            '-*) ;; *) in="$a";; esac; done\n'
            'if [ -n "$out" ]; then cat ' + str(tmp_path) + '/shrinks-to > "$out"; exit 0; fi\n'
            'if grep -q B "$in"; then ' + echo(finding_line("xor_apply:other:a|b")) + '; exit 1; fi\n'
            + echo(finding_line("xor_apply:oneshot:a|b")) + '; exit 1')
    t = stand_in_target(tmp_path, fake_fuzzer(tmp_path, body))
    crash = tmp_path / "crash"
    crash.write_bytes(b"aaaaaaaa")
    (tmp_path / "shrinks-to").write_bytes(b"a")
    r = corpus.minimize(t, crash, 1)
    assert r["minimized"] == str(crash) + ".min" and r["minimized_size"] == 1
    (tmp_path / "shrinks-to").write_bytes(b"B")
    r = corpus.minimize(t, crash, 1)
    assert r["minimized"] is None and "another signature" in r["note"] and not (tmp_path / "crash.min").exists()


def test_keep_copies_once_and_describes_the_input(tmp_path):
    from equifuzz import corpus
    t = stand_in_target(tmp_path, tmp_path / "unused")
    crash = tmp_path / "crash"
    crash.write_bytes(b"input")
    first = corpus.keep(t, crash, "OP_IF on an empty stack:   Core says so", "script_eval:error:520|core-original")
    again = corpus.keep(t, crash, "the same bytes again")
    assert first == again and first.parent == tmp_path / "regressions"
    assert (tmp_path / "README.md").read_text().count("- `xor_apply/finding-") == 1
    assert "OP_IF on an empty stack: Core says so" in (tmp_path / "README.md").read_text()
    with pytest.raises(Exception, match="one-line description"):
        corpus.keep(t, crash, "   ")


def test_an_options_file_is_passed_to_libfuzzer_and_other_sections_are_not(tmp_path):
    from equifuzz import engines
    t = stand_in_target(tmp_path, tmp_path / "unused")
    (tmp_path / "none.options").write_text("[libfuzzer]\nmax_len = 4096\n# a comment\nuse_value_profile=1\n"
                                           "[afl]\nsomething = 1\n")
    assert engines.options_of(t) == ["-max_len=4096", "-use_value_profile=1"]


def test_one_target_on_several_cores_forks_libfuzzer_and_reads_its_status(tmp_path):
    body = (f'echo "$@" > {tmp_path}/args\n'
            "echo '#1000: cov: 50 ft: 60 corp: 7 exec/s: 500 oom/timeout/crash: 0/0/0 time: 2s job: 1 dft_time: 0' >&2\n"
            "echo '#3000: cov: 55 ft: 66 corp: 9 exec/s: 700 oom/timeout/crash: 0/0/0 time: 4s job: 2 dft_time: 0' >&2\n"
            "exit 0")
    bdir = fake_build(tmp_path, "xor_apply", fake_fuzzer(tmp_path, body), corpus=corpus_dir(tmp_path))
    proc = run_tool("--build-dir", bdir, "fuzz", "xor_apply", "--seconds", "1", "-j", "2", "--quiet")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "-fork=2" in (tmp_path / "args").read_text().split()
    assert "| xor_apply | 3,000 | 700 " in proc.stdout and "50 → 55 (+5)" in proc.stdout


def test_afl_runs_one_main_and_secondaries_for_one_target():
    from equifuzz import engines
    assert engines.afl_instances(1) == ["default"]
    assert engines.afl_instances(3) == ["main", "secondary1", "secondary2"]


def test_a_mutant_that_does_not_compile_on_the_tree_is_not_applicable_with_its_error(tmp_path):
    # A real CMake + Ninja build: one variant compiles, one does not (a Core mutant that applies
    # to a reviewer's tree as text, not as code). The build goes on past it and names its error.
    src = tmp_path / "src"
    src.mkdir()
    (src / "good.c").write_text("int main(void) { return 0; }\n")
    (src / "bad.c").write_text("int main(void) { return no_such_name; }\n")
    # A glob with CONFIGURE_DEPENDS, as ours: ninja's dry run (-n) then shows every target out of
    # date, and a variant that was built must not count as unbuilt for it.
    (src / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.20)\nproject(t C)\n"
                                        "file(GLOB sources CONFIGURE_DEPENDS \"${CMAKE_SOURCE_DIR}/*.c\")\n"
                                        "add_executable(t__good good.c)\nadd_executable(t__core_bad_mutant bad.c)\n")
    bdir = tmp_path / "b"
    subprocess.run(["cmake", "-G", "Ninja", "-S", str(src), "-B", str(bdir)], check=True, capture_output=True)
    variants = [verify.Variant("good", "mutant", "compiles", bdir / "t__good"),
                verify.Variant("core_bad_mutant", "mutant", "does not compile", bdir / "t__core_bad_mutant")]
    unbuilt = verify.build_variants(bdir, variants, quiet=True)
    assert list(unbuilt) == ["core_bad_mutant"] and "no_such_name" in unbuilt["core_bad_mutant"], unbuilt
    assert (bdir / "t__good").is_file() and verify.unbuilt_variants(bdir) == unbuilt
    # An old binary of the failing variant (another tree's) does not make it count as built.
    (bdir / "t__core_bad_mutant").write_text("stale")
    assert list(verify.build_variants(bdir, variants, quiet=True)) == ["core_bad_mutant"]
    (src / "bad.c").write_text("int main(void) { return 1; }\n")
    assert verify.build_variants(bdir, variants, quiet=True) == {} and verify.unbuilt_variants(bdir) == {}


def test_the_verdict_says_why_mutants_are_not_applicable():
    facts = recorded_facts()
    caught = dict(facts["mutants"][0], mutant="head_skipped")
    facts["mutants"][0].update(caught=False, status="not applicable",
                               failure="it does not compile on this tree: obfuscation.h:3: error: no member named 'x'")
    facts["mutants"].append(caught)
    verdict, code = verify.verdict_of(facts)
    assert code == 0 and "(1 not applicable to this run: 1 do not compile on this tree)" in verdict, verdict


def test_a_threadsanitizer_target_reproduces_in_its_own_build_and_a_race_is_a_finding(tmp_path):
    facts = recorded_facts()
    race = {"inputs": 3, "seconds": 1.0, "ok": False, "failure": "sanitizer: ThreadSanitizer: data race",
            "input": "corpora/prevout_fetch/seed-1", "recorded": []}
    facts["targets"]["prevout_fetch@tsan"] = {"pair": "prevout_fetch", "sides": ["core-original", "core-optimized"],
                                              "replay": race, "build_dir_arg": "--build-dir build/verify-tsan "}
    verdict, code = verify.write_report(facts, tmp_path)
    assert code == 1 and "prevout_fetch@tsan" in verdict and "ThreadSanitizer: data race" in verdict, verdict
    assert ("./equifuzz --build-dir build/verify-tsan reproduce prevout_fetch corpora/prevout_fetch/seed-1"
            in (tmp_path / "report.md").read_text())


def test_races_not_checked_are_said_and_a_failed_threadsanitizer_build_is_incomplete():
    facts = recorded_facts()
    facts["races"] = "--no-tsan left out the ThreadSanitizer build"
    verdict, code = verify.verdict_of(facts)
    assert code == 0 and verdict.endswith("; data races not checked: --no-tsan left out the ThreadSanitizer build"), verdict
    facts = recorded_facts()
    facts["races_problem"] = "data races not checked: the ThreadSanitizer build failed (x)"
    verdict, code = verify.verdict_of(facts)
    assert code == 3 and verdict.startswith("INCOMPLETE: data races not checked"), verdict


def test_the_pairs_whose_core_code_runs_threads_are_the_tsan_presets():
    assert verify.thread_pairs() == {"prevout_fetch", "utxo_flush", "coins_view"}


def test_the_targets_table_counts_as_the_verdict_counts():
    # A CLEAN run whose campaign met a difference present before the change, nine times: the
    # table says 0 counted, 1 not counted, ok (it used to say 9 mismatches and FINDING).
    from equifuzz import report_md
    facts = recorded_facts()
    before = {"signature": "xor_apply:oneshot:core-original", "kind": "violation", "cls": "data", "roles": ["core-original"],
              "name": "oneshot", "hits": 9, "input": "x", "others": [], "attribution": "present before the change",
              "known": "", "detail": ""}
    campaign = facts["targets"]["xor_apply"]["campaign"]
    campaign.update(mismatches=[f"crash-{i}" for i in range(9)], recorded=[before])
    assert verify.verdict_of(facts)[1] == 0
    md = report_md.render_markdown(facts)
    assert "| 900 → 950 | 0 | 1 | 0 | ok |" in md, md
