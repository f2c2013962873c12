"""verify: the reviewer's certificate. One command builds what it needs, replays every seed and
regression input, fuzzes every target (several at once), checks that every mutant is caught, and
writes a report directory: report.md (fit to paste into a pull request), report.json (the same
facts for machines) and PNG plots (coverage over time per target, time to catch per mutant).

The facts are gathered into one dict (`facts`); the report files are made from it alone, so a
recorded report.json can be rendered again (`write_report`) and the tests can check the rendering.
"""
from __future__ import annotations

import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import core_build, core_git, corpus, coverage, engines, findings
from .building import cmake, configure_with_sides, core_tree_args, jobs_arg
from .engines import shown_text
from .mutants import (FROM_EMPTY_HEADERS, built_mutants, check_regressions, from_empty_hunts, from_empty_rows,
                      plot_survival, regression_files, survival_chart)
from .output import failure_of, table
from .project import (EXIT_CLEAN, EXIT_FINDING, EXIT_INFRA, EXIT_INTERRUPTED, ROOT, EquifuzzError, InfraError,
                      Target, build_dir, check_toolchain, load_manifest, run_binary, select, validate_names)


def table_md(headers: list[str], rows: list[list]) -> str:
    """A table of report.md: the compact Markdown form."""
    return table(headers, rows, aligned=False)

REPORT_VERSION = 1


def _git(*args: str, cwd: Path = ROOT) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def equifuzz_revision() -> dict:
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {"commit": commit or "unknown (not a git checkout)", "dirty": dirty}


def sides_of(manifest: dict) -> dict:
    """Per pair: our two model sources and each Core side's tree (with its git commit when the
    tree is a checkout)."""
    out = {}
    for pair, info in (manifest.get("pairs") or {}).items():
        core = []
        for c in info.get("core", []):
            src = Path(c.get("src", ""))
            commit = c.get("commit") or (_git("rev-parse", "HEAD", cwd=src) if src.is_dir() and (src.parent / ".git").exists() else "")
            core.append({**c, "commit": commit})
        out[pair] = {"original": shown_text(info.get("original", "")), "optimized": shown_text(info.get("optimized", "")),
                     "core": core, "left_out": info.get("core_left_out", []),
                     "mutants_not_applicable": info.get("mutants_not_applicable", [])}
    return out


def sides_compared(pair_sides: dict | None) -> list[str]:
    if not pair_sides:
        return ["original", "optimized"]
    return ["original", "optimized"] + [f"{c['role']} ({c['tree']}{', edited' if c.get('core_edit') else ''})"
                                        for c in pair_sides.get("core", [])]


# --- the steps --------------------------------------------------------------------------------
def replay_target(t: Target, allow: list[str] | None = None, core_roles: set[str] | None = None,
                  record_dir: Path | None = None) -> dict:
    """Every seed and regression input once through the libFuzzer binary (ASan+UBSan). With
    `record_dir`, a mismatch or violated property does not stop the replay: every signature is
    recorded there (its first input, how many inputs show it) and attributed like a campaign's."""
    files = sorted(p for d in t.seed_dirs() for p in d.rglob("*") if p.is_file())
    if not files:
        return {"inputs": 0, "seconds": 0.0, "ok": False, "failure": "no seed or regression input"}
    start = time.monotonic()
    env = {"EQUIFUZZ_ALLOW": ",".join(allow or [])}
    if record_dir:
        env["EQUIFUZZ_FINDINGS_DIR"] = str(findings.fresh_dir(record_dir))
    proc = run_binary([t.binary, "-runs=1", *files], timeout=1800, env_extra=env)
    failure, failed_input = None, None
    if proc.returncode != 0:
        failure = failure_of(proc)
        failed_input = next((shown_text(l.split("Running: ", 1)[1].strip()) for l in reversed(proc.stderr.splitlines())
                             if l.startswith("Running: ")), None)
    recorded = []
    if record_dir:
        # A recorded input is one of the committed files: name it, not the record's copy.
        by_bytes = {}
        for f in files:
            by_bytes.setdefault(f.read_bytes(), f)
        recorded = findings.settle(findings.read_dir(record_dir), core_roles or set())
        for f in recorded:
            copy = Path(f.input)
            if copy.is_file() and copy.read_bytes() in by_bytes:
                f.input = shown_text(str(by_bytes[copy.read_bytes()]))
    return {"inputs": len(files), "seconds": round(time.monotonic() - start, 2), "ok": proc.returncode == 0,
            "failure": failure, **({"input": failed_input} if failed_input else {}),
            "recorded": [f.to_json() for f in recorded]}


def fuzz_seconds(minutes: float, jobs: int, targets: int) -> int:
    """--minutes is the wall-clock fuzzing budget: JOBS campaigns at a time share it."""
    slots = minutes * 60 * jobs
    return max(5, int(slots / max(1, targets)))


def campaign_facts(r) -> dict:
    return {"seconds": round(r.seconds, 1), "runs": r.runs, "exec_per_sec": r.exec_per_sec, "corpus": r.corpus_size,
            "new_files": r.new_files, "coverage_seeds": r.cov_start, "coverage_end": r.cov_end,
            "timeline": r.timeline, "mismatches": [str(p) for p in r.mismatches],
            "other_crashes": [str(p) for p in r.other_crashes], "signatures": r.signatures,
            "lost_findings": r.lost_findings, "problem": r.problem, "note": r.note, "interrupted": r.interrupted,
            "log": str(r.log) if r.log else "", "recorded": [f.to_json() for f in r.recorded]}


def check_mutants(targets: list[Target], allowed: dict[str, list[str]] | None = None) -> list[dict]:
    """Each mutant built into the libFuzzer build must fail on a committed regression input that
    the clean build passes; the time is what it took to find that input. When the clean build
    itself fails the inputs the mutant fails (a finding of its own, reported above), the mutant is
    undecided, not missed."""
    rows = []
    for t in targets:
        files = regression_files(t)
        clean_failure: dict[Path, str | None] = {}
        for v in t.mutants():
            check = check_regressions(t, v.binary, files, clean_failure,
                                      {"EQUIFUZZ_ALLOW": ",".join((allowed or {}).get(t.name, []))})
            caught, clean_fails = check["caught"], check["clean_fails"]
            status = "caught" if caught else ("undecided" if clean_fails else "missed")
            rows.append({"pair": t.pair, "mutant": v.name, "target": t.name, "description": v.description,
                         "caught": caught is not None, "status": status, "seconds": round(check["seconds"], 2),
                         **({"input": shown_text(str(caught["input"])), "failure": caught["failure"]} if caught else
                            {"input": "", "failure": f"the clean build fails the {clean_fails} input(s) this "
                                                     "mutant fails" if clean_fails else ""})})
    return rows


# --- the verdict ------------------------------------------------------------------------------
def _recorded_entry(name: str, step: str, d: dict, bdir: str) -> dict:
    f = findings.Finding.from_json(d)
    return {"target": name, "kind": f"{step} {f.kind}", "what": f.signature, "input": f.input, "hits": f.hits,
            "class": f.cls, "attribution": f.attribution, "known": f.known,
            "reproduce": f"./equifuzz {bdir}reproduce {name} {shlex.quote(f.input)}" if f.input else ""}


def recorded_of(facts: dict) -> list[dict]:
    """Every signature the replay and the campaigns recorded (they went on after findings), with
    its attribution and class, ranked: what the verdict counts first, verdicts before data before
    diagnostics."""
    out, seen = [], {}
    bdir = facts.get("build_dir_arg", "")
    for name, t in facts["targets"].items():
        # One row per signature: the replay's input (a committed file) when it met it, the
        # campaign's otherwise; the inputs of both counted.
        for step in ("replay", "campaign"):
            for d in (t.get(step) or {}).get("recorded", []):
                e = _recorded_entry(name, step, d, bdir)
                if (name, e["what"]) in seen:
                    seen[(name, e["what"])]["hits"] += e["hits"]
                    continue
                seen[(name, e["what"])] = e
                out.append(e)
    return sorted(out, key=lambda e: (e["attribution"] not in findings.COUNTED, e["attribution"] == findings.ALLOWED,
                                      findings.CLASS_ORDER.get(e["class"], 1), -e["hits"]))


def findings_of(facts: dict) -> list[dict]:
    """Every finding the verdict counts, reproducer first: replay failures, campaign mismatches
    and crashes, missed mutants. A recorded finding counts when the change introduced it or only
    our models are involved (findings.COUNTED); the rest is listed apart (not_counted_of)."""
    out = []
    bdir = facts.get("build_dir_arg", "")
    for e in recorded_of(facts):
        if e["attribution"] in findings.COUNTED:
            out.append({**e, "what": f"{e['what']} ({e['attribution']}, {e['class']}, {e['hits']} input(s))"})
    for name, t in facts["targets"].items():
        r = t.get("replay") or {}
        if r and not r["ok"] and r.get("inputs"):
            path = r.get("input", "")
            out.append({"target": name, "kind": "replay", "what": r["failure"], "input": path,
                        "reproduce": f"./equifuzz {bdir}reproduce {name} {shlex.quote(path)}" if path else ""})
        c = t.get("campaign") or {}
        if c.get("recorded"):
            for path in c.get("other_crashes", []):
                out.append({"target": name, "kind": "crash", "what": "sanitizer report, timeout or out-of-memory", "input": path,
                            "reproduce": f"./equifuzz {bdir}reproduce {name} {shlex.quote(path)}"})
            continue
        for sig, path, count in engines.by_signature(c.get("mismatches", []), c.get("signatures", [])):
            out.append({"target": name, "kind": "mismatch" + (f" ({count} inputs, one signature)" if count > 1 else ""),
                        "what": sig, "input": path, "reproduce": f"./equifuzz {bdir}reproduce {name} {shlex.quote(path)}"})
        for path in c.get("other_crashes", []):
            out.append({"target": name, "kind": "crash", "what": "sanitizer report, timeout or out-of-memory", "input": path,
                        "reproduce": f"./equifuzz {bdir}reproduce {name} {shlex.quote(path)}"})
        if c.get("lost_findings"):
            out.append({"target": name, "kind": "mismatch (input lost)", "what": ", ".join(c.get("signatures", [])),
                        "input": "", "reproduce": ""})
    for m in facts.get("mutants", []):
        if not m["caught"] and m.get("status", "missed") == "missed":
            out.append({"target": m["target"], "kind": "mutant not caught", "what": f"{m['mutant']}: {m['description']}",
                        "input": "", "reproduce": f"./equifuzz mutants --pair {m['pair']} --mutant {m['mutant']}"})
    return out


def not_counted_of(facts: dict) -> list[dict]:
    """Recorded findings the verdict does not count: present before the change, gone after it, in
    our models (both Core sides agree against them); and the allowed differences."""
    return [e for e in recorded_of(facts) if e["attribution"] not in findings.COUNTED]


def trees_not_used(facts: dict) -> list[str]:
    """A tree the user named (user-original/-optimized) that a verified pair could not use, and any
    Core side that did not compile: nothing of that tree was checked there, so the verdict cannot
    be CLEAN."""
    out = []
    for pair, s in sorted((facts.get("sides") or {}).items()):
        for c in s.get("left_out", []):
            role, user = c["role"].removeprefix("core-"), c.get("tree", "").startswith("user-")
            if c.get("kind") == "build":
                out.append(f"pair {pair}: {'your' if user else 'the pinned'} Core {role} tree could not be built "
                           f"({c.get('error') or c['why']})")
            elif user:
                out.append(f"pair {pair}: your Core {role} tree was not used ({c['why']})")
    return out


def problems_of(facts: dict) -> list[str]:
    out = trees_not_used(facts)
    for name, t in facts["targets"].items():
        if t.get("replay") and not t["replay"]["ok"] and not t["replay"].get("inputs"):
            out.append(f"{name}: {t['replay']['failure']}")
        if (t.get("campaign") or {}).get("problem"):
            out.append(f"{name}: {t['campaign']['problem']}")
    if facts.get("mutants_missing"):
        out.append(facts["mutants_missing"])
    if facts.get("coverage_problem"):
        out.append(facts["coverage_problem"])
    return out


def verdict_of(facts: dict) -> tuple[str, int]:
    counted, problems = findings_of(facts), problems_of(facts)
    if counted:
        # A finding decides the exit status, but what was not checked is said in the same line.
        return (f"FINDINGS: {len(counted)} (" + "; ".join(f"{f['target']}: {f['what']}" for f in counted[:3]) +
                (", ..." if len(counted) > 3 else "") + ")"
                + (f"; and not checked: {'; '.join(problems)}" if problems else "")), EXIT_FINDING
    if facts.get("interrupted"):
        return "INTERRUPTED: the report covers what ran before Ctrl-C; nothing differed in it", EXIT_INTERRUPTED
    if problems:
        return "INCOMPLETE: " + "; ".join(problems), EXIT_INFRA
    targets = len(facts["targets"])
    mutants = facts.get("mutants", [])
    apart = not_counted_of(facts)
    before = [e for e in apart if e["attribution"] != findings.ALLOWED]
    allowed = [e for e in apart if e["attribution"] == findings.ALLOWED]
    besides = "".join([
        f"; {len(before)} difference(s) the change did not introduce, listed apart ({', '.join(sorted({e['attribution'] for e in before}))})" if before else "",
        f"; {len(allowed)} allowed difference(s) ({', '.join(sorted({e['what'].split(':', 1)[0] + ':' + e['what'].split(':')[2] for e in allowed}))}) in {sum(e['hits'] for e in allowed)} input(s)" if allowed else ""])
    return (f"CLEAN: {targets} targets replayed and fuzzed {facts['budget']['seconds_per_target']} s each "
            f"with no {'other ' if besides else ''}mismatch and no sanitizer report; "
            f"{sum(m['caught'] for m in mutants)}/{len(mutants)} mutants caught{besides}"), EXIT_CLEAN


# --- the report -------------------------------------------------------------------------------
def render_markdown(facts: dict) -> str:
    verdict, _ = verdict_of(facts)
    rev = facts["equifuzz"]
    lines = [f"# equifuzz verify: {verdict.split(':')[0]}", "", f"**Verdict:** {verdict}", ""]
    sel = facts.get("selection")
    if sel:
        lines += ["## Pairs picked from the change", "",
                  "No pair was named, so the pairs are those whose Core sides compile a file (a source, or a header "
                  "one includes: the compiler's dependency files) that differs between the two Core trees.", ""]
        lines += [table_md(["pair", "picked by"], [[p, w.get("unbuilt") or ", ".join(f"`{f}`" for f in w["files"])]
                                                   for p, w in sorted(sel["pairs"].items())]), ""]
        if sel.get("unusable"):
            lines += ["Pairs that cannot use these trees, so whether the change touches them is not known: "
                      + "; ".join(f"{p} ({why})" for p, why in sel["unusable"].items()) + ".", ""]
        if sel.get("uncovered"):
            lines += [f"Files the change touches that no pair's Core side compiles ({len(sel['uncovered'])}): "
                      + ", ".join(f"`{f}`" for f in sel["uncovered"][:40])
                      + (f" and {len(sel['uncovered']) - 40} more" if len(sel["uncovered"]) > 40 else "") + ".", ""]
    findings_ = findings_of(facts)
    if findings_:
        lines += ["## Findings (reproducers first)", ""]
        lines += [table_md(["target", "kind", "what", "input", "reproduce"],
                            [[f["target"], f["kind"], f"`{f['what']}`", f"`{f['input']}`" if f["input"] else "",
                              f"`{f['reproduce']}`" if f["reproduce"] else ""] for f in findings_]), ""]
    apart = not_counted_of(facts)
    if apart:
        lines += ["## Differences the verdict does not count", "",
                  "Every signature the replay and the fuzzing met that the change did not introduce: present in Core "
                  "before the change as well, gone after it, only in Core before it (the before tree differs from its "
                  "model, the after tree agrees with its own), in our models (both Core sides agree against them), or "
                  "in a field `--allow` names. Each was recorded with its first input; the fuzzing went on.", ""]
        lines += [table_md(["target", "where it comes from", "class", "signature", "inputs", "known", "input"],
                           [[e["target"], e["attribution"], e["class"], f"`{e['what']}`", e["hits"], e["known"],
                             f"`{e['input']}`" if e["input"] else ""] for e in apart]), ""]
    if findings_:
        kept = [k for t in facts["targets"].values() for k in t.get("kept", [])]
        if kept:
            lines += ["Kept as regression inputs (described in `corpora/regressions/README.md`): "
                      + ", ".join(f"`{k}`" for k in kept), ""]
    lines += ["## What was run", "",
              f"- equifuzz commit `{rev['commit']}`" + (" (with uncommitted changes)" if rev["dirty"] else ""),
              f"- command: `{facts['command']}`",
              f"- started {facts['started']}, {facts['machine']}",
              f"- fuzzing: libFuzzer, {facts['budget']['jobs']} campaign(s) at a time, "
              f"{facts['budget']['seconds_per_target']} s per target (budget {facts['budget']['minutes']} min), seed {facts['seed']}",
              f"- build: `{facts['build']['dir']}`, {facts['build']['compiler']}, "
              f"`-fsanitize=fuzzer,{facts['build']['sanitizers']} -fno-sanitize-recover=all {facts['build']['optimization']}`", ""]
    lines += ["## Sides", ""]
    rows = []
    for pair, s in sorted(facts["sides"].items()):
        core = {c["role"]: c for c in s["core"]}
        left = {c["role"]: c for c in s.get("left_out", [])}
        cell = lambda role: (f"{core[role]['tree']}: {core[role]['label']}"
                             + (f", commit {core[role]['commit']}" if core[role].get("commit") and core[role]['commit'] not in core[role]['label'] else "")
                             + (" (CORE_EDIT applied)" if core[role].get("core_edit") else "")) if role in core else \
                            (f"left out: {left[role]['why']}" if role in left else "not built")
        rows.append([pair, f"`{s['original']}`", f"`{s['optimized']}`", cell("core-original"), cell("core-optimized")])
    lines += [table_md(["pair", "original", "optimized", "Core original", "Core optimized"], rows), ""]
    if facts["build"].get("core_missing_because"):
        lines += [f"Bitcoin Core sides not built: {facts['build']['core_missing_because']}", ""]
    elif facts["build"].get("core_trees_from"):
        lines += [f"Core trees from {facts['build']['core_trees_from']}.", ""]
    if facts["build"].get("core_oracle"):
        lines += [f"Bitcoin Core oracle (script pair): {facts['build']['core_oracle']}.", ""]
    lines += ["## Targets", ""]
    rows = []
    for name, t in facts["targets"].items():
        r, c = t.get("replay") or {}, t.get("campaign") or {}
        n_mm = len(c.get("mismatches", [])) + c.get("lost_findings", 0)
        result = ("FINDING" if (n_mm or c.get("other_crashes") or (r and not r.get("ok") and r.get("inputs")))
                  else "interrupted" if c.get("interrupted") else "did not run" if not c else "ok")
        rows.append([name, ", ".join(t["sides"]), r.get("inputs", ""), c.get("seconds", ""), f"{c.get('runs', 0):,}",
                     f"{c.get('exec_per_sec', 0):,}", c.get("corpus", ""),
                     f"{c.get('coverage_seeds', '')} → {c.get('coverage_end', '')}" if c else "",
                     n_mm, len(c.get("other_crashes", [])), result])
    lines += [table_md(["target", "sides compared", "inputs replayed", "fuzz s", "runs", "exec/s", "corpus",
                         "coverage (edges): seeds → end", "mismatches", "other crashes", "result"], rows), ""]
    lines += ["Coverage is libFuzzer's count of covered edges in the whole binary (both models and every Core side).", ""]
    if facts.get("coverage"):
        lines += ["## Coverage of every side", "",
                  "The coverage build (clang source-based) replaying every seed, regression and campaign input. Our sides "
                  "are their source files; a Core side is every file of its tree in the pair's binaries.", ""]
        pct = lambda x: f"{x['covered']}/{x['count']} ({x['percent']} %)" if x["count"] else "-"
        rows = [[pair, side, pct(v["summary"]["lines"]), pct(v["summary"]["branches"]), pct(v["summary"]["functions"])]
                for pair, sides in facts["coverage"].items() for side, v in sides.items()]
        lines += [table_md(["pair", "side", "lines", "branches", "functions"], rows), ""]
        unreached = [(pair, side, fn) for pair, sides in facts["coverage"].items() for side, v in sides.items()
                     for fn in v.get("unreached_functions", [])]
        lines += (["Functions of our sides that no input reached:", ""] +
                  [f"- {pair} {side}: `{fn}`" for pair, side, fn in unreached] + [""]) if unreached else \
                 ["Every function of our sides was reached.", ""]
    for note in ("coverage_note", "coverage_problem"):
        if facts.get(note):
            lines += [facts[note], ""]
    mutants = facts.get("mutants", [])
    lines += ["## Mutants (injected bugs; each must be caught)", ""]
    if facts.get("mutants_missing"):
        lines += [facts["mutants_missing"], ""]
    if mutants:
        lines += [f"{sum(m['caught'] for m in mutants)} of {len(mutants)} caught by a committed regression input that the "
                  "clean build passes.", ""]
        lines += [table_md(["pair", "mutant", "caught", "by", "seconds to catch", "how"],
                            [[m["pair"], m["mutant"], "yes" if m["caught"] else ("undecided" if m.get("status") == "undecided" else "**NO**"),
                              m["input"] and f"`{m['input']}`",
                              m["seconds"], m["failure"]] for m in mutants]), ""]
    not_applicable = [(pair, m) for pair, sd in sorted(facts["sides"].items()) for m in sd.get("mutants_not_applicable", [])]
    if not_applicable:
        lines += ["Not applicable to these trees (the line a Core mutant replaces is not in the tree once; "
                  "not built, not counted):", ""]
        lines += [table_md(["pair", "mutant", "why"], [[pair, m["name"], m["why"]] for pair, m in not_applicable]), ""]
    lines += ["## Mutants from an empty corpus (fuzzing power)", ""]
    fe = facts.get("from_empty")
    if fe and fe["mutants"]:
        hunts = [run for m in fe["mutants"] for run in m["runs"]]
        lines += [f"Each mutant hunted by libFuzzer from an empty corpus (no seeds, no regressions) in {fe['trials']} "
                  f"trial(s), seeds {fe['seed']}.., each censored at {fe['budget_seconds']} s; a crash counts only when "
                  "the clean build passes its input. A measurement, not part of the verdict.", ""]
        lines += [table_md(FROM_EMPTY_HEADERS, from_empty_rows(fe)), ""]
        lines += ["```", survival_chart(hunts, fe["budget_seconds"], f"Survival: share of the {len(hunts)} hunts not yet "
                                        "caught (libFuzzer, log time)"), "```", ""]
    else:
        lines += [facts.get("from_empty_problem") or "Not measured (add `--from-empty 3` to hunt every mutant from an "
                  "empty corpus three times).", ""]
    lines += ["## Plots", ""]
    for png, what in (("coverage.png", "coverage over time per target"), ("mutants.png", "time to catch per mutant"),
                      ("survival.png", "mutants surviving from an empty corpus")):
        if png in facts.get("plots", []):
            lines += [f"![{what}]({png})", ""]
    if facts.get("plot_problem"):
        lines += [facts["plot_problem"], ""]
    lines += [f"Reproduce this report: `{facts['command']}`", ""]
    return "\n".join(lines)


def plot(facts: dict, out: Path) -> list[str]:
    """coverage.png and mutants.png; raises InfraError (one sentence) without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InfraError("matplotlib is not installed, so the plots were not drawn: run ci/install-deps.sh "
                         "(it installs requirements.txt into .venv).")
    made = []
    timelines = {n: t["campaign"]["timeline"] for n, t in facts["targets"].items() if (t.get("campaign") or {}).get("timeline")}
    if timelines:
        n = len(timelines)
        cols = min(4, n)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.6 * rows), squeeze=False)
        for ax, (name, tl) in zip(axes.flat, sorted(timelines.items())):
            xs, ys = [p[0] for p in tl], [p[1] for p in tl]
            ax.step(xs, ys, where="post", color="tab:blue")
            ax.set_title(name, fontsize=9)
            ax.set_xlabel("seconds", fontsize=8)
            ax.set_ylabel("edges", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
        for ax in list(axes.flat)[n:]:
            ax.axis("off")
        fig.suptitle(f"Coverage over time (libFuzzer + ASan + UBSan, seed {facts['seed']})", fontsize=11)
        fig.tight_layout()
        fig.savefig(out / "coverage.png", dpi=110)
        plt.close(fig)
        made.append("coverage.png")
    mutants = facts.get("mutants", [])
    if mutants:
        fig, ax = plt.subplots(figsize=(9, 0.22 * len(mutants) + 1.2))
        labels = [f"{m['pair']}/{m['mutant']}" for m in mutants]
        secs = [m["seconds"] for m in mutants]
        colors = ["tab:green" if m["caught"] else ("tab:orange" if m.get("status") == "undecided" else "tab:red")
                  for m in mutants]
        ax.barh(range(len(mutants)), secs, color=colors)
        ax.set_yticks(range(len(mutants)), labels, fontsize=6)
        ax.set_ylim(len(mutants) - 0.5, -0.5)  # first mutant on top, no empty margin
        ax.set_xlabel("seconds to catch (replaying the committed regression inputs); red: not caught; "
                      "orange: undecided (the clean build fails too)", fontsize=8)
        ax.set_title(f"Mutants: {sum(m['caught'] for m in mutants)} of {len(mutants)} caught", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "mutants.png", dpi=110)
        plt.close(fig)
        made.append("mutants.png")
    fe = facts.get("from_empty")
    if fe and fe["mutants"]:
        plot_survival([("libFuzzer", [run for m in fe["mutants"] for run in m["runs"]], fe["budget_seconds"])],
                      out / "survival.png")
        made.append("survival.png")
    return made


def write_report(facts: dict, out: Path) -> tuple[str, int]:
    """report.json, the plots and report.md from `facts`; returns the verdict and the exit code."""
    out.mkdir(parents=True, exist_ok=True)
    facts.pop("plot_problem", None)
    try:
        facts["plots"] = plot(facts, out)
    except InfraError as e:
        facts["plots"], facts["plot_problem"] = [], str(e)
    verdict, code = verdict_of(facts)
    facts["verdict"], facts["exit_code"] = verdict, code
    (out / "report.json").write_text(json.dumps(facts, indent=2) + "\n")
    (out / "report.md").write_text(render_markdown(facts))
    if facts.get("plot_problem") and code == EXIT_CLEAN:
        return verdict + f" (but {facts['plot_problem']})", EXIT_INFRA
    return verdict, code


# --- the verb ---------------------------------------------------------------------------------
def cmd_verify(args) -> int:
    if args.minutes <= 0:
        raise EquifuzzError("--minutes must be more than 0.")
    jobs = jobs_arg(args.jobs)
    validate_names(args.targets)
    if args.build_dir and (args.core_original or args.core_optimized or args.pr is not None):
        raise EquifuzzError("--pr and --core-original/--core-optimized configure a build; they cannot be used with --build-dir.")
    out = Path(args.out) if args.out else ROOT / "build" / "verify" / time.strftime("%Y%m%d-%H%M%S")
    out = out.resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
        engines._check_writable(out)
    except OSError as e:
        raise InfraError(f"cannot write the report to {out} ({e.strerror}).")
    command = "./equifuzz " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "./equifuzz verify"
    facts: dict = {"report_version": REPORT_VERSION, "command": command, "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                   "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform(terse=True)}",
                   "equifuzz": equifuzz_revision(), "seed": args.seed, "targets": {}, "mutants": []}
    bdir = build_dir("libfuzzer", args.build_dir) if args.build_dir else build_for_verify(args)
    if getattr(args, "selection", None):
        facts["selection"] = args.selection
    manifest_path = bdir / "equifuzz-targets.json"
    if not manifest_path.is_file():
        raise InfraError(f"no libFuzzer build in {bdir}.")
    manifest = json.loads(manifest_path.read_text())
    targets = select(load_manifest(bdir), args.targets)
    sides = sides_of(manifest)
    facts["sides"] = {p: s for p, s in sides.items() if any(t.pair == p for t in targets)}
    facts["build"] = {"dir": shown_text(str(bdir)), "compiler": manifest.get("compiler", "unknown"),
                      "sanitizers": manifest.get("sanitizers", ""), "optimization": manifest.get("optimization", ""),
                      "core_missing_because": manifest.get("core_sides_missing_because", ""),
                      "core_trees_from": manifest.get("core_trees_from", ""), "core_oracle": manifest.get("core_oracle", "")}
    # Reproduce lines name the build that found it: no other build is needed to run them.
    facts["build_dir_arg"] = f"--build-dir {shlex.quote(args.build_dir or shown_text(str(bdir)))} "
    seconds = fuzz_seconds(args.minutes, jobs, len(targets))
    facts["budget"] = {"minutes": args.minutes, "jobs": jobs, "seconds_per_target": seconds}
    for t in targets:
        facts["targets"][t.name] = {"pair": t.pair, "sides": sides_compared(sides.get(t.pair))}
    allowed = findings.allow_for_targets(args, targets, set((manifest.get("pairs") or {}).keys()))
    facts["allowed"] = {pair: sorted({f for t in targets if t.pair == pair for f in allowed[t.name]})
                        for pair in sorted({t.pair for t in targets}) if any(allowed[t.name] for t in targets if t.pair == pair)}
    roles = {t.name: findings.core_roles(manifest, t.pair) for t in targets}
    say = (lambda msg: None) if args.quiet else (lambda msg: print(f"equifuzz verify: {msg}", file=sys.stderr, flush=True))
    # Every campaign starts from the committed seeds, in the report's own directory: the same seed
    # and budget give the same verdict, and the report holds its corpora and crash files.
    os.environ["EQUIFUZZ_CAMPAIGNS_DIR"] = str(out / "campaigns")
    shutil.rmtree(out / "campaigns", ignore_errors=True)  # a report directory used again starts afresh
    try:
        say(f"replaying the seeds and regressions of {len(targets)} targets")
        for t in targets:
            facts["targets"][t.name]["replay"] = replay_target(t, allowed[t.name], roles[t.name],
                                                               out / "campaigns" / "replay-findings" / t.name)
        say(f"fuzzing {len(targets)} targets, {seconds} s each, {jobs} at a time")
        results = engines.run_many(jobs, targets, lambda t: _fuzz_one(t, seconds, args.seed, say, allowed[t.name]))
        by_name = {t.name: t for t in targets}
        for r in results:
            r.recorded = findings.settle(r.recorded, roles[r.target])
            facts["targets"][r.target]["campaign"] = campaign_facts(r)
            if not args.no_keep:
                # A new finding is a regression input from now on: one per signature the verdict
                # counts, described (a difference present before the change is not the change's).
                counted = [(f.signature, f.input) for f in r.recorded if f.attribution in findings.COUNTED]
                facts["targets"][r.target]["kept"] = [
                    shown_text(str(corpus.keep(by_name[r.target], Path(path),
                                           f"found by `{command}` on {facts['started']}: {sig}", sig)))
                    for sig, path in (counted if r.recorded else
                                      [(sig, path) for sig, path, _ in engines.by_signature(r.mismatches, r.signatures)])]
        if any(r.interrupted for r in results) or len(results) < len(targets):
            raise KeyboardInterrupt
        say("checking that every mutant is caught")
        if not any(t.mutants() for t in targets):
            facts["mutants_missing"] = (f"the build in {shown_text(str(bdir))} has no mutant variants (configure it with "
                                        "-DEQUIFUZZ_MUTANTS=ON): the mutant check did not run.")
        facts["mutants"] = check_mutants(targets, allowed)
        if args.from_empty > 0:
            say(f"hunting every mutant from an empty corpus, {args.from_empty} trial(s) of {args.from_empty_seconds} s")
            try:
                found = built_mutants(targets, bdir, "libfuzzer", None, None)
                facts["from_empty"], complete = from_empty_hunts(found, "libfuzzer", args.from_empty_seconds,
                                                                 args.from_empty, args.seed, jobs)
                if not complete:
                    raise KeyboardInterrupt
            except InfraError as e:
                facts["from_empty_problem"] = f"mutants from an empty corpus not measured: {e}"
        if args.build_dir and not args.no_coverage:
            facts["coverage_note"] = ("coverage of the sides left out: --build-dir names a prebuilt build, and the "
                                      "coverage build must match it (run without --build-dir, or ./equifuzz coverage).")
        elif not args.no_coverage:
            say("measuring the coverage of every side (coverage build)")
            try:
                facts["coverage"] = coverage_of_sides(args, targets, out / "campaigns", args.quiet)
            except InfraError as e:
                facts["coverage_problem"] = f"coverage of the sides not measured: {e}"
    except KeyboardInterrupt:
        engines.stop_all()
        facts["interrupted"] = True
    verdict, code = write_report(facts, out)
    for f in findings_of(facts):
        print(f"{f['target']}: {f['kind']} {f['what']}" + (f"\n  input: {f['input']}\n  reproduce: {f['reproduce']}" if f["input"] else
                                                          (f"\n  reproduce: {f['reproduce']}" if f["reproduce"] else "")))
    print(f"equifuzz verify: {verdict}")
    print(f"equifuzz verify: report in {shown_text(str(out))}/report.md (and report.json, "
          f"{', '.join(facts.get('plots') or []) or 'no plots'})")
    return code


VERIFY_BUILD = ROOT / "build" / "verify-build"


def build_for_verify(args) -> Path:
    """verify's own libFuzzer build (build/verify-build): the libfuzzer preset with each mutant in
    the target that catches it, and the Core trees the command names (the registry trees without
    --core-original/--core-optimized). Kept apart from build/libfuzzer, which `fuzz` uses.

    Every Core side of the pairs in question is built on its own first: one that does not compile
    on its tree is left out (the verdict then says INCOMPLETE with its first error) and the other
    pairs go on. With Core trees named and no target or pair, the pairs are picked from the change
    (pick_pairs); args.targets and args.selection say which and why."""
    check_toolchain("libfuzzer")
    core = core_tree_args(args)
    auto = not args.targets and bool(args.pr is not None or args.core_original or args.core_optimized)
    print(f"equifuzz: building libfuzzer with mutants in {shown_text(str(VERIFY_BUILD))}", file=sys.stderr)
    configure = ["cmake", "--preset", "libfuzzer", "-B", str(VERIFY_BUILD), *core, "-DEQUIFUZZ_MUTANTS=ON",
                 "-DEQUIFUZZ_MUTANT_TARGETS=caught-by"]
    scope = None if auto else (lambda _: {t.pair for t in select(load_manifest(VERIFY_BUILD), args.targets)})
    manifest = configure_with_sides(VERIFY_BUILD, configure, scope, args.quiet)
    if auto:
        args.selection = pick_pairs(VERIFY_BUILD, manifest)
        args.targets = sorted(args.selection["pairs"])
        print(f"equifuzz: {selection_line(args.selection)}", file=sys.stderr)
    # Only the named targets and their mutant variants: a reviewer's tree is built for the pairs
    # that are verified, not for every pair.
    chosen = select(load_manifest(VERIFY_BUILD), args.targets)
    cmake(["cmake", "--build", str(VERIFY_BUILD), "--target", *[Path(b).name for t in chosen
                                                               for b in [t.binary, *(v.binary for v in t.variants)]]],
          quiet=args.quiet)
    return VERIFY_BUILD


def pick_pairs(bdir: Path, manifest: dict) -> dict:
    """The pairs a change touches: those whose Core sides compile a file (source or header, from
    the compiler's dependency files) that differs between the pair's two Core trees, and those
    whose side could not be built (whether the change touches them is unknown, and the verdict
    says so). Also the changed files no pair compiles, when both trees are the user's. A change
    that touches no pair is one sentence naming its files, exit 3."""
    files = core_build.side_files(bdir, manifest)
    touched = core_build.touched_pairs(manifest, files)
    pairs = {p: {"files": files} for p, files in touched.items()}
    broken = {}  # role -> the error, where the tree itself does not compile
    for pair, info in (manifest.get("pairs") or {}).items():
        unbuilt = [c for c in info.get("core_left_out", []) if c.get("kind") == "build"]
        for c in unbuilt:
            if c.get("error", "").startswith(core_build.TREE_ITSELF):
                broken.setdefault(c["role"].removeprefix("core-"), c["error"].removeprefix(core_build.TREE_ITSELF))
        if unbuilt and pair not in pairs:
            pairs[pair] = {"files": [], "unbuilt": f"its Core {unbuilt[0]['role'].removeprefix('core-')} side could not "
                                                    "be built, so whether the change touches it is not known"}
    # Pairs whose routine a tree lacks (a CORE_REQUIRE probe): no dependency files say whether the
    # change touches them, so they are named beside the choice.
    unusable = {pair: c["why"] for pair, info in sorted((manifest.get("pairs") or {}).items()) if pair not in pairs
                for c in info.get("core_left_out", [])[:1] if c.get("kind") != "build"}
    if broken and pairs and all(w.get("unbuilt") for w in pairs.values()):
        role, error = next(iter(sorted(broken.items())))
        raise InfraError(f"your Core {role} tree itself does not compile ({error}), so no pair can check the change.")
    user = {}
    for info in (manifest.get("pairs") or {}).values():
        for c in [*info.get("core", []), *info.get("core_left_out", [])]:
            if c.get("tree", "").startswith("user-") and c.get("src"):
                user[c["tree"]] = c
    changed, uncovered = None, None
    if {"user-original", "user-optimized"} <= set(user):
        before, after = user["user-original"], user["user-optimized"]
        # Two commits of the git remote: git's own list of what the change touches; else (a
        # checkout) the two trees' contents compared.
        changed = (core_git.changed_paths(before["commit"], after["commit"])
                   if before.get("commit") and after.get("commit") else None)
        if changed is None:
            changed = core_build.changed_files(before["src"], after["src"])
        covered = set().union(*files.values())
        uncovered = [f for f in changed if f not in covered]
    if not pairs:
        files = changed if changed is not None else []
        shown = ", ".join(files[:20]) + (f" and {len(files) - 20} more" if len(files) > 20 else "")
        raise InfraError("the change touches none of the files the pairs' Core sides compile, so no pair can check it"
                         + (f"; it changes {shown}" if files else "; its two trees have the same files")
                         + (f"; pairs that cannot use these trees: "
                            + "; ".join(f"{p} ({why})" for p, why in unusable.items()) if unusable else "") + ".")
    return {"pairs": pairs, "changed": changed, "uncovered": uncovered, "unusable": unusable}


def selection_line(sel: dict) -> str:
    parts = []
    for pair, why in sorted(sel["pairs"].items()):
        if why.get("unbuilt"):
            parts.append(f"{pair} ({why['unbuilt']})")
        else:
            files = why["files"]
            parts.append(f"{pair} (by {', '.join(files[:4])}{f' and {len(files) - 4} more' if len(files) > 4 else ''})")
    return "pairs picked from the change: " + "; ".join(parts)


VERIFY_COVERAGE_BUILD = ROOT / "build" / "verify-coverage"


def coverage_of_sides(args, targets: list[Target], campaigns: Path, quiet: bool) -> dict:
    """The coverage build of the named targets with the same Core trees (build/verify-coverage),
    replaying every seed, regression and campaign input: line, branch and function coverage of
    each side, and the functions of our models no input reached."""
    check_toolchain("coverage")
    names = [t.name for t in targets]
    pairs = {t.pair for t in targets}
    configure_with_sides(VERIFY_COVERAGE_BUILD, ["cmake", "--preset", "coverage", "-B", str(VERIFY_COVERAGE_BUILD),
                                                 *core_tree_args(args)], lambda _: pairs, quiet=True)
    cmake(["cmake", "--build", str(VERIFY_COVERAGE_BUILD), "--target", *names], quiet=quiet)
    manifest = json.loads((VERIFY_COVERAGE_BUILD / "equifuzz-targets.json").read_text())
    cov_targets = select(load_manifest(VERIFY_COVERAGE_BUILD), names)
    extra = {t.name: [campaigns / "libfuzzer" / t.name / "corpus"] for t in cov_targets}
    return {pair: sides for pair, _, sides in coverage.by_pair(cov_targets, manifest, VERIFY_COVERAGE_BUILD / "profiles", extra)}


def _fuzz_one(t: Target, seconds: int, seed: int, say, allow: list[str] | None = None):
    """One campaign that goes on after findings for its whole budget."""
    r = engines.run_libfuzzer(t, t.binary, seconds, live=False, seed=seed, keep_going=True, allow=allow)
    if r is not None:
        got = (f"{len(r.signatures)} signature(s) in {sum(f.hits for f in r.recorded if f.kind != 'allowed')} input(s)"
               if r.signatures else "FINDING" if r.findings else "interrupted" if r.interrupted else "ok")
        say(f"{t.name}: {r.runs:,} runs, {r.exec_per_sec:,} exec/s, cov {r.cov_start} → {r.cov_end}, {got}")
    return r


