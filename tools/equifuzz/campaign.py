"""One fuzzing campaign of one target, from the engine that runs it to the report that keeps it
(one dataclass: engines fill it in, `fuzz` prints it, report.json holds it), and the one rule that
counts a target's findings (`counted`): the verdict, the report's Targets table, a campaign's label
and `fuzz`'s exit status all count with it, so none of them can say FINDING where another says
CLEAN."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .findings import COUNTED, COUNTED_KINDS, Finding


@dataclass
class Campaign:
    """One fuzzing campaign of one target."""
    target: str = ""
    engine: str = "libfuzzer"
    seconds: float = 0.0
    runs: int = 0
    exec_per_sec: int = 0
    corpus: int = 0               # inputs in the campaign's corpus at the end
    new_files: int = 0            # files this run added to the campaign's corpus directory
    coverage_seeds: int = 0       # libFuzzer's covered edges once the seeds ran (AFL++: none)
    coverage_end: int = 0         # at the end (AFL++: bitmap coverage, hundredths of a percent)
    timeline: list[list[float]] = field(default_factory=list)  # [seconds since start, coverage] as the run went
    mismatches: list[Path] = field(default_factory=list)     # inputs of the counted kinds (mismatch, violation)
    other_crashes: list[Path] = field(default_factory=list)  # sanitizer findings, timeouts, OOMs
    signatures: list[str] = field(default_factory=list)      # the i-th mismatch's signature
    lost_findings: int = 0        # mismatches the log reports but no crash file holds
    problem: str = ""             # why the run checked nothing or lost something (exit 3), one sentence
    note: str = ""
    interrupted: bool = False
    log: Path | None = None
    #: when fuzzing went on after findings: every signature met, with its hits, first input and
    #: attribution (findings.Finding; allowed differences too), ranked as findings.settle ranks them
    recorded: list[Finding] = field(default_factory=list)
    minimized: dict[str, str] = field(default_factory=dict)  # signature -> its input minimized (--minimize)

    @property
    def findings(self) -> int:
        """What the verdict counts of this campaign (`counted`)."""
        return len(counted(None, self))

    @property
    def label(self) -> str:
        return target_result(None, self)

    @property
    def new_coverage(self) -> int:
        return max(0, self.coverage_end - self.coverage_seeds)


def counts(f: Finding) -> bool:
    """Whether the verdict counts a recorded finding: once attributed, when the change introduced it
    or only our models are involved (findings.COUNTED); before (a campaign still settling), when it
    is of a kind a run aborts on (a mismatch, a violated property)."""
    return f.attribution in COUNTED if f.attribution else f.kind in COUNTED_KINDS


@dataclass
class Counted:
    """One finding the verdict counts, of one target."""
    kind: str                     # recorded | replay | mismatch | crash | lost
    what: str = ""                # the signature, the replay's failure, or the lost signatures
    input: str = ""
    count: int = 1                # inputs that showed it (a mismatch without records: files of one signature)


def by_signature(paths: list, signatures: list[str]) -> list[tuple[str, object, int]]:
    """Crash inputs grouped by their mismatch signature (the i-th path has the i-th signature):
    (signature, first input, how many inputs share it), in the order first seen."""
    groups: dict[str, list] = {}
    for i, path in enumerate(paths):
        sig = signatures[i] if i < len(signatures) else "signature unknown"
        if sig in groups:
            groups[sig][2] += 1
        else:
            groups[sig] = [sig, path, 1]
    return [tuple(g) for g in groups.values()]


def counted(replay, campaign: Campaign | None) -> list[Counted]:
    """Every finding of one target the verdict counts: each recorded signature it counts (the
    replay's first, then the campaign's; one per signature), a replay stopped by an input, and the
    campaign's crashes; without records (a campaign that stopped at its first finding), each
    mismatch signature and any mismatch whose input was lost."""
    out: list[Counted] = []
    seen: set[str] = set()
    for part in (replay, campaign):
        for f in part.recorded if part else []:
            if f.signature not in seen:
                seen.add(f.signature)
                if counts(f):
                    out.append(Counted("recorded", f.signature, f.input, f.hits))
    if replay is not None and replay.failed_on_an_input:
        out.append(Counted("replay", replay.failure or "", replay.input))
    c = campaign
    if c is None:
        return out
    if not c.recorded:
        out += [Counted("mismatch", sig, str(path), n) for sig, path, n in by_signature(c.mismatches, c.signatures)]
    out += [Counted("crash", "sanitizer report, timeout or out-of-memory", str(p)) for p in c.other_crashes]
    if not c.recorded and c.lost_findings:
        out.append(Counted("lost", ", ".join(c.signatures), "", c.lost_findings))
    return out


def result_label(findings: int, interrupted: bool, problem: str, ran: bool = True) -> str:
    """The one word a summary gives a campaign or a target (every table uses this one)."""
    if findings:
        return "FINDING"
    if interrupted:
        return "interrupted"
    if not ran:
        return "did not run"
    return "FAILED TO RUN" if problem else "ok"


def target_result(replay, campaign: Campaign | None) -> str:
    """A target's word in every table (the report's Targets table, `fuzz`'s summary), from `counted`."""
    c = campaign
    replay_failed = bool(replay is not None and replay.failed_on_an_input)
    return result_label(len(counted(replay, c)), bool(c and c.interrupted), c.problem if c else "",
                        ran=c is not None or replay_failed)


def columns(replay, campaign: Campaign | None) -> tuple[int, int]:
    """(findings counted, not counted) as a summary table shows them, from `counted`: the counted
    mismatches (each recorded signature once; without records, each input, and each lost one) and
    the recorded signatures it lists apart. A replay's stop and the crashes have columns of their
    own (the result, other crashes)."""
    cs = counted(replay, campaign)
    shown = sum(x.count if x.kind in ("mismatch", "lost") else 1 for x in cs if x.kind in ("recorded", "mismatch", "lost"))
    signatures = {f.signature for part in (replay, campaign) if part for f in part.recorded}
    return shown, len(signatures) - sum(1 for x in cs if x.kind == "recorded")
