"""The verdict of a `verify` report, from its facts (report.Report) alone: what counts as a finding,
what is listed apart (differences the change did not introduce, allowed ones), what was not
checked, and the one line that says it all with its exit status."""
from __future__ import annotations

import re

from . import findings, reach
from .campaign import counted
from .output import reproduce_command
from .project import EXIT_CLEAN, EXIT_FINDING, EXIT_INFRA, EXIT_INTERRUPTED
from .report import Report, as_report


def _reproduce(rep: Report, target: str, path: str) -> str:
    """The command that runs the input again, in the build that found it (a ThreadSanitizer
    target's name carries TSAN_SUFFIX; its binary is the plain name in the tsan build)."""
    t = rep.targets.get(target)
    return reproduce_command(target, path, t.build_dir_arg if t and t.build_dir_arg else rep.build_dir_arg)


def recorded_of(facts: Report | dict) -> list[dict]:
    """Every signature the replay and the campaigns recorded (they went on after findings), with
    its attribution and class, ranked: what the verdict counts first, verdicts before data before
    diagnostics."""
    rep = as_report(facts)
    out, seen = [], {}
    for name, t in rep.targets.items():
        # One row per signature: the replay's input (a committed file) when it met it, the
        # campaign's otherwise; the inputs of both counted.
        for step, part in (("replay", t.replay), ("campaign", t.campaign)):
            for f in part.recorded if part else []:
                if (name, f.signature) in seen:
                    seen[(name, f.signature)]["hits"] += f.hits
                    continue
                minimized = t.campaign.minimized.get(f.signature, "") if t.campaign and step == "campaign" else ""
                e = {"target": name, "kind": f"{step} {f.kind}", "what": f.signature, "name": f.name, "input": minimized or f.input,
                     "hits": f.hits, "class": f.cls, "attribution": f.attribution, "known": f.known, "detail": f.detail,
                     "reproduce": _reproduce(rep, name, minimized or f.input)}
                seen[(name, f.signature)] = e
                out.append(e)
    return sorted(out, key=lambda e: (e["attribution"] not in findings.COUNTED, e["attribution"] == findings.ALLOWED,
                                      findings.CLASS_ORDER.get(e["class"], 1), -e["hits"]))


def findings_of(facts: Report | dict) -> list[dict]:
    """Every finding the verdict counts (campaign.counted, the rule every table shares), reproducer
    first: recorded signatures the change introduced or our models alone show (ranked across the
    targets), replay failures, campaign mismatches without records, crashes; the rest of what was
    recorded is listed apart (not_counted_of)."""
    rep = as_report(facts)
    counted_by = {name: counted(t.replay, t.campaign) for name, t in rep.targets.items()}
    recorded = {(name, x.what) for name, cs in counted_by.items() for x in cs if x.kind == "recorded"}
    out = [{**e, "what": f"{e['what']} ({e['attribution']}, {e['class']}, {e['hits']} input(s))"}
           for e in recorded_of(rep) if (e["target"], e["what"]) in recorded]
    for name, cs in counted_by.items():
        for x in cs:
            if x.kind == "replay":
                out.append({"target": name, "kind": "replay", "what": x.what, "input": x.input,
                            "reproduce": _reproduce(rep, name, x.input)})
            elif x.kind == "mismatch":
                out.append({"target": name, "kind": "mismatch" + (f" ({x.count} inputs, one signature)" if x.count > 1 else ""),
                            "what": x.what, "input": x.input, "reproduce": _reproduce(rep, name, x.input)})
            elif x.kind == "crash":
                out.append({"target": name, "kind": "crash", "what": x.what, "input": x.input,
                            "reproduce": _reproduce(rep, name, x.input)})
            elif x.kind == "lost":
                out.append({"target": name, "kind": "mismatch (input lost)", "what": x.what, "input": "", "reproduce": ""})
    return out


def unproven_of(facts: Report | dict) -> list[str]:
    """What makes the targets unable to vouch for a verdict on these trees: a bug mutant no
    committed input caught, or a refactor mutant on which they reported a counted finding. The
    tool's failure, never the change's: the verdict is then INCOMPLETE, not FINDINGS."""
    out = []
    for m in as_report(facts).mutants:
        if m.kind == "refactor" and m.caught:
            out.append(f"refactor mutant {m.pair}/{m.mutant} ({m.target}) reported a finding on {m.input or 'an input'}: "
                       f"{m.failure}")
        elif m.kind != "refactor" and not m.caught and m.status == "missed":
            out.append(f"mutant {m.pair}/{m.mutant} was not caught ({m.description})")
    # A pair none of whose bug mutants applies to these trees (they do not compile on them, say)
    # has nothing to show that its targets can fail here: a clean run of it proves nothing.
    bugs: dict[str, list] = {}
    for m in as_report(facts).mutants:
        if m.kind != "refactor":
            bugs.setdefault(m.pair, []).append(m)
    for pair, ms in sorted(bugs.items()):
        if all(m.status == "not applicable" for m in ms):
            why = "; ".join(f"{n} {w}" for w, n in sorted(_why_not_applicable(ms).items()))
            out.append(f"none of the {len(ms)} bug mutants of {pair} applies to these trees ({why}): "
                       f"nothing shows that its targets can fail on them")
    return out


def field_template(name: str) -> str:
    """A field's name with its numbers as N: "22 SpendCoin x1:0 (no coin there)" is one field of
    "N SpendCoin xN:N (no coin there)", whatever call and outpoint it names."""
    return re.sub(r"[0-9]+", "N", name)


def not_counted_of(facts: Report | dict) -> list[dict]:
    """Recorded findings the verdict does not count: present before the change, gone after it, in
    our models (both Core sides agree against them); and the allowed differences."""
    return [e for e in recorded_of(facts) if e["attribution"] not in findings.COUNTED]


def trees_not_used(facts: Report | dict) -> list[str]:
    """A tree the user named (user-original/-optimized) that a verified pair could not use, and any
    Core side that did not compile: nothing of that tree was checked there, so the verdict cannot
    be CLEAN."""
    out = []
    for pair, s in sorted(as_report(facts).sides.items()):
        for c in s.left_out:
            role, user = c["role"].removeprefix("core-"), c.get("tree", "").startswith("user-")
            if c.get("kind") == "build":
                out.append(f"pair {pair}: {'your' if user else 'the pinned'} Core {role} tree could not be built "
                           f"({c.get('error') or c['why']})")
            elif user:
                out.append(f"pair {pair}: your Core {role} tree was not used ({c['why']})")
    return out


def problems_of(facts: Report | dict) -> list[str]:
    rep = as_report(facts)
    out = trees_not_used(rep)
    for name, t in rep.targets.items():
        if t.replay and not t.replay.ok and not t.replay.inputs:
            out.append(f"{name}: {t.replay.failure}")
        if t.campaign and t.campaign.problem:
            out.append(f"{name}: {t.campaign.problem}")
    out += [p for p in (rep.mutants_missing, rep.coverage_problem, rep.races_problem) if p]
    unproven = unproven_of(rep)
    if unproven:
        out.append("the targets could not prove themselves on your trees: " + "; ".join(unproven))
    return out


def _why_not_applicable(mutants) -> dict[str, int]:
    """How many mutants are not applicable for each kind of reason (the report's table says which)."""
    out: dict[str, int] = {}
    for m in mutants:
        why = ("do not compile on this tree" if m.failure.startswith("it does not compile")
               else "have their bugs in what this run does not count")
        out[why] = out.get(why, 0) + 1
    return out


def reach_of(facts: Report | dict) -> tuple[str, str]:
    """(what the CLEAN line says of the change's reach, why the change is NOT REACHED or ""). A
    changed line counts as reached when any pair executed it on that side; a side with executable
    changed lines of which no input executed one (or fewer than --min-reach) is not reached."""
    rep = as_report(facts)
    if rep.reach is None:
        return f"reach not measured ({rep.reach_note or 'no coverage build'})", ""
    measured = {p: r for p, r in rep.reach.items() if r}
    if not measured:
        return "reach not measured (no verified pair has two Core sides)", ""
    totals = reach.totals(measured)
    if not any(t["changed_lines"] for t in totals.values()):
        return "the two Core trees do not differ in the files the pairs compile", ""
    said, short = [], []
    for role in ("core-optimized", "core-original"):
        t, word = totals[role], reach.SIDE_WORDS[role]
        if not t["executable"]:
            said.append(f"no executable changed line in {word}" if t["changed_lines"] else f"no changed line in {word}")
            continue
        pct = reach.percent(t["reached"], t["executable"])
        said.append(f"reached {t['reached']} of {t['executable']} changed lines in {word} ({pct} %)")
        if t["reached"] == 0 or (rep.min_reach and pct < rep.min_reach):
            # One tree's line once, however many pairs compile it.
            missed = list(dict.fromkeys(f"{u['where']} {u['function'] or ''}".strip()
                                        + ("" if u["called"] else " (never called)")
                                        for r in measured.values() for u in r["sides"][role]["unreached"]))
            short.append((f"no input executed any of the {t['executable']} executable changed lines of {word}"
                          if t["reached"] == 0 else
                          f"{word}: {t['reached']} of {t['executable']} executable changed lines executed ({pct} %), "
                          f"below --min-reach {rep.min_reach:g} %")
                         + (f" (not reached: {'; '.join(missed[:6])}{', ...' if len(missed) > 6 else ''})" if missed else ""))
    if all(not totals[r]["executable"] for r in totals):
        said = ["the change alters no executable line of the files the pairs compile (comments, declarations, "
                "constants): judged on the code around it"]
    return ", ".join(said), "; ".join(short)


def verdict_of(facts: Report | dict) -> tuple[str, int]:
    rep = as_report(facts)
    counted, problems = findings_of(rep), problems_of(rep)
    if counted:
        # A finding decides the exit status, but what was not checked is said in the same line.
        return (f"FINDINGS: {len(counted)} (" + "; ".join(f"{f['target']}: {f['what']}" for f in counted[:3]) +
                (", ..." if len(counted) > 3 else "") + ")"
                + (f"; and not checked: {'; '.join(problems)}" if problems else "")), EXIT_FINDING
    if rep.interrupted:
        return "INTERRUPTED: the report covers what ran before Ctrl-C; nothing differed in it", EXIT_INTERRUPTED
    if problems:
        return "INCOMPLETE: " + "; ".join(problems), EXIT_INFRA
    reached, not_reached = reach_of(rep)
    if not_reached:
        # Nothing differed, but nothing of the change ran either: no assurance, never CLEAN.
        return (f"NOT REACHED: nothing differed, but {not_reached}; the targets do not exercise this change "
                f"({len(rep.targets)} targets, {rep.budget.seconds_per_target} s each)"), EXIT_INFRA
    bugs = [m for m in rep.mutants if m.kind != "refactor" and m.status != "not applicable"]
    unapplied = [m for m in rep.mutants if m.kind != "refactor" and m.status == "not applicable"]
    refactors = [m for m in rep.mutants if m.kind == "refactor" and m.status != "not applicable"]
    apart = not_counted_of(rep)
    notes = (findings.ALLOWED, findings.INTERNAL, findings.OUTSIDE)
    before = [e for e in apart if e["attribution"] not in notes]
    allowed = [e for e in apart if e["attribution"] == findings.ALLOWED]
    internal = [e for e in apart if e["attribution"] == findings.INTERNAL]
    outside = [e for e in apart if e["attribution"] == findings.OUTSIDE]
    besides = "".join([
        f"; {len(before)} difference(s) the change did not introduce, listed apart "
        f"({', '.join(sorted({e['attribution'] for e in before}))})" if before else "",
        f"; internal state (not a promise) differs: "
        f"{', '.join(sorted({field_template(e.get('name') or e['what']) for e in internal}))} "
        f"in {sum(e['hits'] for e in internal)} input(s)" if internal else "",
        f"; {len(outside)} difference(s) on inputs outside the caller contract, listed apart "
        f"in {sum(e['hits'] for e in outside)} input(s)" if outside else "",
        f"; {len(allowed)} allowed difference(s) "
        f"({', '.join(sorted({e['what'].split(':', 1)[0] + ':' + e['what'].split(':')[2] for e in allowed}))}) "
        f"in {sum(e['hits'] for e in allowed)} input(s)" if allowed else ""])
    return (f"CLEAN: {len(rep.targets)} targets replayed and fuzzed {rep.budget.seconds_per_target} s each "
            f"with no {'other ' if besides else ''}mismatch and no sanitizer report; "
            f"{sum(m.caught for m in bugs)}/{len(bugs)} mutants caught"
            + (f" ({len(unapplied)} not applicable to this run: "
               + "; ".join(f"{n} {why}" for why, n in sorted(_why_not_applicable(unapplied).items())) + ")"
               if unapplied else "")
            + (f", {sum(not m.caught for m in refactors)}/{len(refactors)} refactor mutants clean" if refactors else "")
            + f"; {reached}"
            + besides + (f"; data races not checked: {rep.races}" if rep.races else "")), EXIT_CLEAN
