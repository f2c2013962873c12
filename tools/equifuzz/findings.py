"""The findings a harness reports and how the tools read them: the one reader of its finding lines
("equifuzz-finding" and a JSON object, version PROTOCOL; differential/harness/record.cpp,
PrintFinding), on a run's standard error and in what it records when fuzzing goes on after
findings (EQUIFUZZ_FINDINGS_DIR); where each finding comes from (attribution), how much it
matters (its field's class), and whether FINDINGS.md already knows it. Which differences a run
lists as notes (--allow) is allow.py's."""
from __future__ import annotations

import fnmatch
import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import EquifuzzError
from .manifest import Manifest
from .project import ROOT

# Where a finding comes from, decided from the sides' outcomes on its input.
INTRODUCED = "introduced by the change"        # Core after differs from Core before, or only Core after breaks
PRESENT_BEFORE = "present before the change"   # both Core sides break the property
GONE_AFTER = "gone after the change"           # only Core before breaks a property both are held to
BEFORE_ONLY = "only in Core before the change"  # Core before differs from its model, Core after agrees with its own
IN_MODELS = "in our models"                    # our models differ from both Core sides, which agree: ours to fix
MODELS = "between our models"                  # only our models are involved (no Core side in the check)
UNATTRIBUTED = "not attributed"                # a Core after side alone, with no before side to compare
ALLOWED = "allowed"                            # a difference in a field --allow names
INTERNAL = "internal state"                    # only fields Core is free to change differ (FieldClass::INTERNAL)
OUTSIDE = "outside the contract"               # the input broke a caller contract of the code under test

#: The harness's kinds of finding that a run aborts on; the rest are notes (allowed, internal,
#: outside-contract), which only --strict (internal) or --beyond-contract (outside) count, and
#: then the harness records them as mismatches and violations themselves.
COUNTED_KINDS = ("mismatch", "violation")

#: What the verdict counts: the change's own differences, and our models' (a finding of the
#: models' own comparison is what a build without Core sides has). The rest is listed apart.
COUNTED = (INTRODUCED, MODELS, UNATTRIBUTED)
CLASS_ORDER = {"verdict": 0, "data": 1, "diagnostic": 2, "internal": 3}

KNOWN_FILE = ROOT / "FINDINGS.json"

#: The version of the finding lines this module reads (record.cpp's FINDING_PROTOCOL).
PROTOCOL = 1
#: What starts a finding line on a run's standard error and in a .findings record.
MARK = "equifuzz-finding "
_KEYS = ("kind", "signature", "class", "roles", "name")


@dataclass
class Finding:
    signature: str            # "<target>:<field>:<side>|<side>" or "<target>:<property>[:<side>]"
    kind: str                 # mismatch | violation | allowed | internal | outside-contract
    cls: str                  # verdict | data | diagnostic | internal
    roles: list[str]          # which sides differed, by role (harness.cpp, MismatchRoles)
    name: str                 # the field or the property
    hits: int = 0             # inputs that showed it, over every process of the campaign
    input: str = ""           # the first input that showed it
    others: list[dict] = field(default_factory=list)  # the other findings of that input (parsed lines)
    attribution: str = ""
    known: str = ""           # FINDINGS.md's entry, when its signature is listed in FINDINGS.json
    detail: str = ""          # what differed on its first input: the field with each side's value (or what a
                              # property saw) and the decoded input, abbreviated (the harness's `detail:` line)

    @property
    def target(self) -> str:
        return self.signature.split(":", 1)[0]

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "Finding":
        return cls(**d)


def parse_line(line: str) -> dict | None:
    """One finding line as a dict (kind, signature, cls, roles, name, detail, i, stop), or None for
    any other line. A line of another protocol version, or one that is not the object it should
    be, is refused in one sentence (a harness built by another equifuzz: rebuild it)."""
    if not line.startswith(MARK):
        return None
    try:
        x = json.loads(line[len(MARK):])
    except ValueError:
        raise EquifuzzError(f"a harness wrote a finding line that is not JSON ({line[:120].rstrip()}); rebuild the targets.")
    if not isinstance(x, dict) or x.get("v") != PROTOCOL:
        v = x.get("v") if isinstance(x, dict) else None
        raise EquifuzzError(f"a harness wrote findings in protocol version {v}, this tool reads version {PROTOCOL}: "
                            "rebuild the targets with this checkout.")
    if any(k not in x for k in _KEYS) or not isinstance(x["roles"], list):
        raise EquifuzzError(f"a harness wrote a finding line without {', '.join(k for k in _KEYS if k not in x) or 'a list of roles'}; "
                            "rebuild the targets.")
    return {"kind": x["kind"], "signature": x["signature"], "cls": x["class"], "roles": [str(r) for r in x["roles"]],
            "name": x["name"], "detail": x.get("detail", ""), "i": int(x.get("i", 0)), "stop": bool(x.get("stop", False))}


def in_text(text: str) -> list[dict]:
    """Every finding line of a run's output, in order."""
    return [x for x in map(parse_line, text.splitlines()) if x]


def counted_signatures(text: str) -> list[str]:
    """The signatures of the counted kinds (a mismatch, a violated property) among a run's finding
    lines, each once, in order: what one input shows."""
    return list(dict.fromkeys(x["signature"] for x in in_text(text) if x["kind"] in COUNTED_KINDS))


def stops_in(text: str) -> list[str]:
    """For each input a run stopped on (its finding lines marked stop, from i = 0), the signature
    it stopped for: its first of the counted kinds. A fuzzing log holds one per crash file."""
    out: list[str] = []
    group: list[dict] = []
    for x in in_text(text) + [None]:
        if x is None or x["i"] == 0:
            sig = next((g["signature"] for g in group if g["stop"] and g["kind"] in COUNTED_KINDS), None)
            if sig:
                out.append(sig)
            group = []
        if x is not None:
            group.append(x)
    return out


def _brief(x: dict) -> dict:
    """What a Finding keeps of another finding of its input (for attribution): kind, signature,
    class, roles and field or property."""
    return {k: x[k] for k in ("kind", "signature", "cls", "roles", "name")}


def first_stop(text: str) -> str | None:
    """The signature a run stopped for (stops_in's first), if it stopped on a finding."""
    return next(iter(stops_in(text)), None)


def fresh_dir(directory: Path) -> Path:
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def processes_recorded(directory: Path) -> int:
    """How many processes wrote their counts into `directory` (each writes one file at exit): a run
    that added none recorded no finding."""
    return len(list(directory.glob("*.counts")))


def read_dir(directory: Path) -> list[Finding]:
    """Every signature the processes that wrote `directory` met: its first input (the lowest
    process and file number), the other findings of that input, and the hits summed."""
    hits: dict[str, int] = {}
    for counts in sorted(directory.glob("*.counts")):
        for line in counts.read_text(errors="replace").splitlines():
            try:
                x = json.loads(line)
            except ValueError:
                continue  # a line cut short by a process that died while writing
            if not isinstance(x, dict) or x.get("v") != PROTOCOL:
                raise EquifuzzError(f"{counts} was written in another protocol version than {PROTOCOL}: rebuild the targets.")
            hits[x["signature"]] = hits.get(x["signature"], 0) + int(x["hits"])
    found: dict[str, Finding] = {}

    def order(p: Path):
        pid, _, n = p.stem.partition("-")
        return (int(pid) if pid.isdigit() else 0, int(n) if n.isdigit() else 0)

    for rec in sorted(directory.glob("*.findings"), key=order):
        lines = in_text(rec.read_text(errors="replace"))
        for x in lines:
            if x["signature"] in found:
                continue
            found[x["signature"]] = Finding(x["signature"], x["kind"], x["cls"], x["roles"], x["name"],
                                            input=str(rec.with_suffix(".input")),
                                            others=[_brief(o) for o in lines if o is not x], detail=x["detail"])
    for sig, f in found.items():
        f.hits = max(1, hits.get(sig, 0))
    return list(found.values())


def attribute(f: Finding, core_roles: set[str]) -> str:
    """Where `f` comes from, from every finding on its input that concerns the same field or
    property (a Core side before and one after are often checked apart), and the Core sides the
    build has (`core_roles`: core-original, core-optimized)."""
    if f.kind == "allowed":
        return ALLOWED
    if f.kind == "internal":
        return INTERNAL
    if f.kind == "outside-contract":
        return OUTSIDE
    roles = set(f.roles)
    for o in f.others:
        if o["kind"] == f.kind and o["name"] == f.name:
            roles |= set(o["roles"])
    before, after = "core-original" in core_roles, "core-optimized" in core_roles
    if f.kind == "mismatch":
        if "core-differ" in roles:
            return INTRODUCED
        co, cp = "core-original-vs-model" in roles, "core-optimized-vs-model" in roles
        if co and cp:
            return IN_MODELS
        if cp:
            return INTRODUCED if before else UNATTRIBUTED
        if co:
            # Core after may be compared with another model (a pair whose after side has its own
            # shape): the difference is the before tree's, which may not be the pair's before.
            return BEFORE_ONLY
        return MODELS
    # A property of one side.
    co, cp = "core-original" in roles, "core-optimized" in roles
    if co and cp:
        return PRESENT_BEFORE
    if cp:
        return INTRODUCED if before else UNATTRIBUTED
    if co:
        return GONE_AFTER if after else PRESENT_BEFORE
    return MODELS


def load_known(path: Path = KNOWN_FILE) -> list[dict]:
    """FINDINGS.json: each entry of FINDINGS.md that has signatures, with them (fnmatch patterns)."""
    if not path.is_file():
        return []
    return json.loads(path.read_text()).get("findings", [])


def known_entry(signature: str, known: list[dict]) -> str:
    for entry in known:
        if any(fnmatch.fnmatchcase(signature, pattern) for pattern in entry.get("signatures", [])):
            return entry["entry"]
    return ""


def settle(found: list[Finding], core_roles: set[str], known: list[dict] | None = None) -> list[Finding]:
    """Attributes and marks each finding; returns them ranked: what the verdict counts first, then
    by class (verdict, data, diagnostic), then by hits."""
    known = load_known() if known is None else known
    for f in found:
        f.attribution = attribute(f, core_roles)
        f.known = known_entry(f.signature, known)
    return sorted(found, key=lambda f: (f.attribution not in COUNTED, f.attribution == ALLOWED,
                                        CLASS_ORDER.get(f.cls, 1), -f.hits, f.signature))


def core_roles(manifest: Manifest, pair: str) -> set[str]:
    """The Core sides (core-original, core-optimized) a build has for `pair`."""
    return manifest.pair(pair).roles()


def line(f: Finding) -> str:
    """One finding as the summaries print it."""
    known = f"; known: {f.known}" if f.known else ""
    detail = f"; {f.detail}" if f.detail else ""
    return f"{f.attribution}, {f.cls}: {f.signature} ({f.hits} input(s){known}){detail}"
