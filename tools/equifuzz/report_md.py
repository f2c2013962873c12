"""A `verify` report's files from its facts (report.Report): report.md, one renderer per section
(SECTIONS, in the order they appear), the PNG plots, and report.json."""
from __future__ import annotations

import json
from pathlib import Path

from .campaign import columns
from .mutants import FROM_EMPTY_HEADERS, from_empty_rows, plot_survival, survival_chart
from .output import table
from .project import EXIT_CLEAN, EXIT_INFRA, InfraError
from .report import Report, as_report
from . import reach
from .verdict import field_template, findings_of, not_counted_of, reach_of, verdict_of


def table_md(headers: list[str], rows: list[list]) -> str:
    """A table of report.md: the compact Markdown form."""
    return table(headers, rows, aligned=False)


def code(text: str) -> str:
    """`text` as inline code; a text with a backquote of its own (a value the harness printed) is
    fenced with two."""
    if not text:
        return ""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


# --- the sections ---------------------------------------------------------------------------------
def section_selection(rep: Report) -> list[str]:
    sel = rep.selection
    if not sel:
        return []
    lines = ["## Pairs picked from the change", "",
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
    return lines


def section_findings(rep: Report) -> list[str]:
    counted = findings_of(rep)
    if not counted:
        return []
    lines = ["## Findings (reproducers first)", ""]
    lines += [table_md(["target", "kind", "what", "what differed (first input)", "input", "reproduce"],
                       [[f["target"], f["kind"], f"`{f['what']}`", code(f.get("detail", "")), code(f["input"]), code(f["reproduce"])]
                        for f in counted]), ""]
    minimized = [(name, sig, path) for name, t in rep.targets.items() if t.campaign
                 for sig, path in t.campaign.minimized.items()]
    if minimized:
        lines += ["Inputs minimized (`--minimize`, each keeping its signature): "
                  + ", ".join(f"`{path}`" for _, _, path in minimized), ""]
    return lines


def by_field(entries: list[dict]) -> list[dict]:
    """Entries of the same target and field template as one row: the signature with its numbers as
    N and how many signatures it stands for, the inputs summed, and the first input of the
    signature met on the most inputs (ties: the first listed). Internal state and inputs outside
    the contract name a field per call and outpoint; a reviewer reads them by field."""
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for e in entries:
        name = e.get("name") or e["what"]
        groups.setdefault((e["target"], e["attribution"], field_template(name)), []).append(e)
    rows = []
    for (_, _, name), es in groups.items():
        first = max(es, key=lambda e: e["hits"])
        what = first["what"].replace(first.get("name") or first["what"], name) if len(es) > 1 else first["what"]
        rows.append({**first, "what": what, "hits": sum(e["hits"] for e in es), "signatures": len(es)})
    return rows


def section_not_counted(rep: Report) -> list[str]:
    from . import findings
    apart = not_counted_of(rep)
    internal = by_field([e for e in apart if e["attribution"] == findings.INTERNAL])
    outside = by_field([e for e in apart if e["attribution"] == findings.OUTSIDE])
    rest = [e for e in apart if e["attribution"] not in (findings.INTERNAL, findings.OUTSIDE)]
    headers = ["target", "where it comes from", "class", "signature", "what differed (first input)", "inputs", "known", "input"]
    row = lambda e: [e["target"], e["attribution"], e["class"],
                     f"`{e['what']}`" + (f" ({e['signatures']} signatures, numbers as N)" if e.get("signatures", 1) > 1 else ""),
                     code(e.get("detail", "")), e["hits"], e["known"], code(e["input"])]
    lines = []
    if rest:
        lines += ["## Differences the verdict does not count", "",
                  "Every signature the replay and the fuzzing met that the change did not introduce: present in Core "
                  "before the change as well, gone after it, only in Core before it (the before tree differs from its "
                  "model, the after tree agrees with its own), in our models (both Core sides agree against them), or "
                  "in a field `--allow` names. Each was recorded with its first input; the fuzzing went on.", ""]
        lines += [table_md(headers, [row(e) for e in rest]), ""]
    if internal:
        lines += ["## Internal state the change alters", "",
                  f"The change alters internal state on {sum(e['hits'] for e in internal)} input(s): "
                  + ", ".join(sorted({field_template(e.get("name") or e["what"]) for e in internal}))
                  + ". These fields are state Core is free to change (entry counts, flush order, which partial batch "
                  "holds which coin); what Core promises was equal on those inputs. Not counted; `--strict` counts them.", ""]
        lines += [table_md(headers, [row(e) for e in internal]), ""]
    if outside:
        lines += ["## Outside the contract", "",
                  "Inputs that put the code under test in a state its callers never create (each pair's BEHAVIOUR.md "
                  "states the contracts): Core promises nothing there. Listed, not counted; `--beyond-contract` counts "
                  "them.", ""]
        lines += [table_md(headers, [row(e) for e in outside]), ""]
    return lines


def section_kept(rep: Report) -> list[str]:
    kept = [k for t in rep.targets.values() for k in t.kept]
    if not kept or not findings_of(rep):
        return []
    return ["Kept as regression inputs (described in `corpora/regressions/README.md`): "
            + ", ".join(f"`{k}`" for k in kept), ""]


def section_run(rep: Report) -> list[str]:
    rev, b = rep.equifuzz, rep.build
    return ["## What was run", "",
            f"- equifuzz commit `{rev['commit']}`" + (" (with uncommitted changes)" if rev.get("dirty") else ""),
            f"- command: `{rep.command}`",
            f"- started {rep.started}, {rep.machine}",
            f"- fuzzing: libFuzzer, {rep.budget.jobs} campaign(s) at a time, "
            f"{rep.budget.seconds_per_target} s per target (budget {rep.budget.minutes} min), seed {rep.seed}",
            f"- build: `{b.dir}`, {b.compiler}, "
            f"`-fsanitize=fuzzer,{b.sanitizers} -fno-sanitize-recover=all {b.optimization}`", ""]


def _core_cell(s, role: str) -> str:
    core = {c["role"]: c for c in s.core}
    left = {c["role"]: c for c in s.left_out}
    if role in core:
        c = core[role]
        return (f"{c['tree']}: {c['label']}"
                + (f", commit {c['commit']}" if c.get("commit") and c["commit"] not in c["label"] else "")
                + (" (CORE_EDIT applied)" if c.get("core_edit") else ""))
    return f"left out: {left[role]['why']}" if role in left else "not built"


def section_sides(rep: Report) -> list[str]:
    lines = ["## Sides", ""]
    rows = [[pair, f"`{s.original}`", f"`{s.optimized}`", _core_cell(s, "core-original"), _core_cell(s, "core-optimized")]
            for pair, s in sorted(rep.sides.items())]
    lines += [table_md(["pair", "original", "optimized", "Core original", "Core optimized"], rows), ""]
    if rep.build.core_missing_because:
        lines += [f"Bitcoin Core sides not built: {rep.build.core_missing_because}", ""]
    elif rep.build.core_trees_from:
        lines += [f"Core trees from {rep.build.core_trees_from}.", ""]
    if rep.build.core_oracle:
        lines += [f"Bitcoin Core oracle (script pair): {rep.build.core_oracle}.", ""]
    return lines


def section_targets(rep: Report) -> list[str]:
    rows = []
    for name, t in rep.targets.items():
        r, c = t.replay, t.campaign
        # The signatures the replay and the campaign met, counted as the verdict counts them.
        counted, apart = columns(r, c)
        rows.append([name, ", ".join(t.sides), r.inputs if r else "", c.seconds if c else "", f"{c.runs if c else 0:,}",
                     f"{c.exec_per_sec if c else 0:,}", c.corpus if c else "",
                     f"{c.coverage_seeds} → {c.coverage_end}" if c else "",
                     counted, apart, len(c.other_crashes) if c else 0, t.result])
    return ["## Targets", "",
            table_md(["target", "sides compared", "inputs replayed", "fuzz s", "runs", "exec/s", "corpus",
                      "coverage (edges): seeds → end", "findings counted", "not counted", "other crashes", "result"], rows), "",
            "Coverage is libFuzzer's count of covered edges in the whole binary (both models and every Core side). "
            "Findings are distinct signatures, counted as the verdict counts them; \"not counted\" are those listed "
            "apart (present before the change, in our models, allowed, internal, outside the contract).", ""]


def section_reach(rep: Report) -> list[str]:
    lines = ["## Reach of the change", ""]
    measured = {p: r for p, r in (rep.reach or {}).items() if r}
    if not measured:
        said, _ = reach_of(rep)
        return lines + [f"Not measured: {said.removeprefix('reach not measured ').strip('()')}. Nothing says that "
                        "the fuzzers executed the changed lines.", ""]
    lines += ["The lines the change removes or modifies in Core before, and adds or modifies in Core after, of the "
              "files each pair's Core sides compile; of those the executable ones (the coverage build), and how "
              "many the replay of every seed, regression and campaign input executed on that side.", ""]
    rows = []
    for pair, r in measured.items():
        for role in reach.ROLES:
            side = r["sides"][role]
            files = ", ".join(f"`{f['file']}` {len(f['reached'])}/{len(f['executable'])}" for f in side["files"]
                              if f["changed"]) or "-"
            rows.append([pair, reach.SIDE_WORDS[role], side["changed_lines"], side["executable"], side["reached"],
                         f"{reach.percent(side['reached'], side['executable'])} %" if side["executable"] else "-",
                         files])
    lines += [table_md(["pair", "side", "changed lines", "executable", "reached", "share", "per file (reached/executable)"],
                       rows), ""]
    missed = [(pair, role, u) for pair, r in measured.items() for role in reach.ROLES
              for u in r["sides"][role]["unreached"]]
    if missed:
        lines += ["Changed lines no input executed, by the function that holds them (a pair's decoder or seeds "
                  "could reach them; a function no input called needs a new operation):", ""]
        lines += [f"- {pair}, {reach.SIDE_WORDS[role]}: `{u['where']}` {u['function'] or '(outside any function)'}"
                  f"{'' if u['called'] else ', never called'} ({u['lines']} line(s))"
                  + (f": {reach.driver_of(u['function'], pair)}" if u["function"] and not u["called"] else "")
                  for pair, role, u in missed]
        lines.append("")
    return lines


def section_coverage(rep: Report) -> list[str]:
    lines = []
    if rep.coverage:
        lines += ["## Coverage of every side", "",
                  "The coverage build (clang source-based) replaying every seed, regression and campaign input. Our sides "
                  "are their source files; a Core side is every file of its tree in the pair's binaries.", ""]
        pct = lambda x: f"{x['covered']}/{x['count']} ({x['percent']} %)" if x["count"] else "-"
        rows = [[pair, side, pct(v["summary"]["lines"]), pct(v["summary"]["branches"]), pct(v["summary"]["functions"])]
                for pair, sides in rep.coverage.items() for side, v in sides.items()]
        lines += [table_md(["pair", "side", "lines", "branches", "functions"], rows), ""]
        unreached = [(pair, side, fn) for pair, sides in rep.coverage.items() for side, v in sides.items()
                     for fn in v.get("unreached_functions", [])]
        lines += (["Functions of our sides that no input reached:", ""] +
                  [f"- {pair} {side}: `{fn}`" for pair, side, fn in unreached] + [""]) if unreached else \
                 ["Every function of our sides was reached.", ""]
    for note in (rep.coverage_note, rep.coverage_problem):
        if note:
            lines += [note, ""]
    return lines


def section_mutants(rep: Report) -> list[str]:
    lines = ["## Mutants (injected bugs; each must be caught)", ""]
    if rep.mutants_missing:
        lines += [rep.mutants_missing, ""]
    bugs = [m for m in rep.mutants if m.kind != "refactor"]
    refactors = [m for m in rep.mutants if m.kind == "refactor"]
    if bugs:
        lines += [f"{sum(m.caught for m in bugs)} of {len(bugs)} caught by a committed regression input "
                  "that the clean build passes.", ""]
        lines += [table_md(["pair", "mutant", "caught", "by", "seconds to catch", "how"],
                           [[m.pair, m.mutant, "yes" if m.caught else (m.status if m.status in ("undecided", "not applicable") else "**NO**"),
                             code(m.input), m.seconds, m.failure] for m in bugs]), ""]
    if refactors:
        lines += ["Refactor mutants (behaviour-preserving rewrites of Core's code; each must pass every committed input "
                  f"the clean build passes): {sum(not m.caught and m.status == 'clean' for m in refactors)} of "
                  f"{sum(m.status != 'not applicable' for m in refactors)} clean"
                  + (f", {sum(m.status == 'not applicable' for m in refactors)} not applicable to this tree"
                     if any(m.status == "not applicable" for m in refactors) else "") + ".", ""]
        lines += [table_md(["pair", "refactor", "target", "result", "input", "what"],
                           [[m.pair, m.mutant, m.target,
                             m.status if m.status == "not applicable" else "clean" if not m.caught else "**FINDING**", code(m.input),
                             m.failure or m.description] for m in refactors]), ""]
    not_applicable = [(pair, m) for pair, sd in sorted(rep.sides.items()) for m in sd.mutants_not_applicable]
    if not_applicable:
        lines += ["Not built in this build, not counted (a Core mutant whose line is not in the tree once, or one "
                  "only ThreadSanitizer catches):", ""]
        lines += [table_md(["pair", "mutant", "why"], [[pair, m["name"], m["why"]] for pair, m in not_applicable]), ""]
    return lines


def section_from_empty(rep: Report) -> list[str]:
    lines = ["## Mutants from an empty corpus (fuzzing power)", ""]
    fe = rep.from_empty
    if fe and fe["mutants"]:
        hunts = [run for m in fe["mutants"] for run in m["runs"]]
        lines += [f"Each mutant hunted by libFuzzer from an empty corpus (no seeds, no regressions) in {fe['trials']} "
                  f"trial(s), seeds {fe['seed']}.., each censored at {fe['budget_seconds']} s; a crash counts only when "
                  "the clean build passes its input. A measurement, not part of the verdict.", ""]
        lines += [table_md(FROM_EMPTY_HEADERS, from_empty_rows(fe)), ""]
        lines += ["```", survival_chart(hunts, fe["budget_seconds"], f"Survival: share of the {len(hunts)} hunts not yet "
                                        "caught (libFuzzer, log time)"), "```", ""]
    else:
        lines += [rep.from_empty_problem or "Not measured (add `--from-empty 3` to hunt every mutant from an "
                  "empty corpus three times).", ""]
    return lines


def section_plots(rep: Report) -> list[str]:
    lines = ["## Plots", ""]
    for png, what in (("coverage.png", "coverage over time per target"), ("mutants.png", "time to catch per mutant"),
                      ("survival.png", "mutants surviving from an empty corpus")):
        if png in rep.plots:
            lines += [f"![{what}]({png})", ""]
    if rep.plot_problem:
        lines += [rep.plot_problem, ""]
    return lines + [f"Reproduce this report: `{rep.command}`", ""]


#: report.md, top to bottom: what a reviewer needs first comes first.
SECTIONS = (section_selection, section_findings, section_reach, section_not_counted, section_kept, section_run, section_sides,
            section_targets, section_coverage, section_mutants, section_from_empty, section_plots)


def render_markdown(facts: Report | dict) -> str:
    rep = as_report(facts)
    verdict, _ = verdict_of(rep)
    lines = [f"# equifuzz verify: {verdict.split(':')[0]}", "", f"**Verdict:** {verdict}", ""]
    for section in SECTIONS:
        lines += section(rep)
    return "\n".join(lines)


# --- the plots and the files ------------------------------------------------------------------------
def plot(rep: Report, out: Path) -> list[str]:
    """coverage.png, mutants.png and survival.png; raises InfraError (one sentence) without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InfraError("matplotlib is not installed, so the plots were not drawn: run ci/install-deps.sh "
                         "(it installs requirements.txt into .venv).")
    made = []
    timelines = {n: t.campaign.timeline for n, t in rep.targets.items() if t.campaign and t.campaign.timeline}
    if timelines:
        n = len(timelines)
        cols = min(4, n)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.6 * rows), squeeze=False)
        for ax, (name, tl) in zip(axes.flat, sorted(timelines.items())):
            ax.step([p[0] for p in tl], [p[1] for p in tl], where="post", color="tab:blue")
            ax.set_title(name, fontsize=9)
            ax.set_xlabel("seconds", fontsize=8)
            ax.set_ylabel("edges", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
        for ax in list(axes.flat)[n:]:
            ax.axis("off")
        fig.suptitle(f"Coverage over time (libFuzzer + ASan + UBSan, seed {rep.seed})", fontsize=11)
        fig.tight_layout()
        fig.savefig(out / "coverage.png", dpi=110)
        plt.close(fig)
        made.append("coverage.png")
    mutants = rep.mutants
    if mutants:
        fig, ax = plt.subplots(figsize=(9, 0.22 * len(mutants) + 1.2))
        colors = ["tab:green" if m.caught else ("tab:orange" if m.status == "undecided" else "tab:red") for m in mutants]
        ax.barh(range(len(mutants)), [m.seconds for m in mutants], color=colors)
        ax.set_yticks(range(len(mutants)), [f"{m.pair}/{m.mutant}" for m in mutants], fontsize=6)
        ax.set_ylim(len(mutants) - 0.5, -0.5)  # first mutant on top, no empty margin
        ax.set_xlabel("seconds to catch (replaying the committed regression inputs); red: not caught; "
                      "orange: undecided (the clean build fails too)", fontsize=8)
        ax.set_title(f"Mutants: {sum(m.caught for m in mutants)} of {len(mutants)} caught", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "mutants.png", dpi=110)
        plt.close(fig)
        made.append("mutants.png")
    fe = rep.from_empty
    if fe and fe["mutants"]:
        plot_survival([("libFuzzer", [run for m in fe["mutants"] for run in m["runs"]], fe["budget_seconds"])],
                      out / "survival.png")
        made.append("survival.png")
    return made


def write_report(facts: Report | dict, out: Path) -> tuple[str, int]:
    """report.json, the plots and report.md from the facts; returns the verdict and the exit code."""
    rep = as_report(facts)
    out.mkdir(parents=True, exist_ok=True)
    rep.plot_problem = ""
    try:
        rep.plots = plot(rep, out)
    except InfraError as e:
        rep.plots, rep.plot_problem = [], str(e)
    rep.verdict, rep.exit_code = verdict_of(rep)
    (out / "report.json").write_text(json.dumps(rep.to_json(), indent=2) + "\n")
    (out / "report.md").write_text(render_markdown(rep))
    if rep.plot_problem and rep.exit_code == EXIT_CLEAN:
        return rep.verdict + f" (but {rep.plot_problem})", EXIT_INFRA
    return rep.verdict, rep.exit_code
