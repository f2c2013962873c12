"""Findings when fuzzing goes on after them: what the harness records (EQUIFUZZ_FINDINGS_DIR, see
differential/harness/harness.cpp), where each finding comes from (attribution), how much it
matters (its field's class), and whether FINDINGS.md already knows it."""
from __future__ import annotations

import fnmatch
import json
import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .manifest import Manifest, configured, read as read_manifest
from .project import ROOT
from .sanitizer_env import harness_env

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

_LINE = re.compile(r"^finding: (\S+) (.*) class=(\S+) roles=(\S*) name=(.*)$")


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
    """One `finding:` line as a dict (kind, signature, cls, roles, name), or None."""
    m = _LINE.match(line.rstrip("\n"))
    if not m:
        return None
    return {"kind": m.group(1), "signature": m.group(2), "cls": m.group(3),
            "roles": [r for r in m.group(4).split(",") if r], "name": m.group(5)}


def fresh_dir(directory: Path) -> Path:
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def read_dir(directory: Path) -> list[Finding]:
    """Every signature the processes that wrote `directory` met: its first input (the lowest
    process and file number), the other findings of that input, and the hits summed."""
    hits: dict[str, int] = {}
    for counts in sorted(directory.glob("*.counts")):
        for line in counts.read_text(errors="replace").splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[0].isdigit():
                hits[parts[2]] = hits.get(parts[2], 0) + int(parts[0])
    found: dict[str, Finding] = {}

    def order(p: Path):
        pid, _, n = p.stem.partition("-")
        return (int(pid) if pid.isdigit() else 0, int(n) if n.isdigit() else 0)

    for rec in sorted(directory.glob("*.findings"), key=order):
        text = rec.read_text(errors="replace").splitlines()
        lines = [x for x in (parse_line(l) for l in text) if x]
        details = dict(l.removeprefix("detail: ").split("\t", 1) for l in text if l.startswith("detail: ") and "\t" in l)
        for x in lines:
            if x["signature"] in found:
                continue
            found[x["signature"]] = Finding(x["signature"], x["kind"], x["cls"], x["roles"], x["name"],
                                            input=str(rec.with_suffix(".input")),
                                            others=[o for o in lines if o is not x], detail=details.get(x["signature"], ""))
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


def allow_fields(allow: list[str], pairs: set[str]) -> dict[str, list[str]]:
    """--allow <pair>:<field> (and the lines of --allow-file) as the fields allowed per pair."""
    out: dict[str, list[str]] = {}
    for item in allow:
        pair, sep, name = item.partition(":")
        if not sep or not pair or not name:
            raise ValueError(f"--allow takes <pair>:<field>, not '{item}'")
        if pair not in pairs:
            raise ValueError(f"--allow names the pair '{pair}', which is not one of: {', '.join(sorted(pairs))}")
        out.setdefault(pair, []).append(name)
    return out


def read_allow_file(path: Path) -> list[str]:
    """One <pair>:<field> per line; '#' starts a comment."""
    return [l.split("#", 1)[0].strip() for l in path.read_text().splitlines() if l.split("#", 1)[0].strip()]


def core_roles(manifest: Manifest, pair: str) -> set[str]:
    """The Core sides (core-original, core-optimized) a build has for `pair`."""
    return manifest.pair(pair).roles()


def allow_for_targets(args, targets, known_pairs: set[str]) -> dict[str, list[str]]:
    """--allow and --allow-file as the fields allowed per target (a usage error on a bad item)."""
    from .project import EquifuzzError
    items = list(getattr(args, "allow", None) or [])
    if getattr(args, "allow_file", None):
        path = Path(args.allow_file)
        if not path.is_file():
            raise EquifuzzError(f"--allow-file {args.allow_file} does not exist.")
        items += read_allow_file(path)
    try:
        per_pair = allow_fields(items, known_pairs)
    except ValueError as e:
        raise EquifuzzError(f"{e}.")
    for pair, names in sorted(per_pair.items()):
        check_allowed_names(pair, names, [t for t in targets if t.pair == pair])
    return {t.name: per_pair.get(t.pair, []) for t in targets}


#: The word `--allow <pair>:internal` uses for every internal field of the pair (the harness's
#: EQUIFUZZ_ALLOW): listed, never counted, even under --strict.
ALLOW_INTERNAL = "internal"


def field_names(targets) -> set[str]:
    """Every field and property name the targets' comparisons meet on their seeds and regressions."""
    return set(field_classes(targets))


def field_classes(targets) -> dict[str, str]:
    """Every field and property name the targets' comparisons meet on their seeds and regressions,
    with its class (verdict, data, diagnostic, internal; "property" for a property): the harness's
    EQUIFUZZ_LIST_FIELDS."""
    import tempfile
    from .project import run_binary
    names: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="equifuzz-fields-") as tmp:
        listing, records = Path(tmp) / "fields.txt", Path(tmp) / "findings"
        env = {**harness_env("listing"), "EQUIFUZZ_LIST_FIELDS": str(listing), "EQUIFUZZ_FINDINGS_DIR": str(fresh_dir(records))}
        for t in targets:
            files = sorted(p for d in t.seed_dirs() for p in d.rglob("*") if p.is_file())
            if not files or not Path(t.binary).is_file():
                continue
            bdir = Path(t.binary).parent.parent
            engine = (read_manifest(bdir).engine or "libfuzzer") if configured(bdir) else "libfuzzer"
            if engine == "afl":
                for f in files:  # an AFL++ binary reads one input per run
                    run_binary([t.binary, f], timeout=120, env_extra=env)
            else:
                run_binary([t.binary, *(["-runs=1"] if engine == "libfuzzer" else []), *files], timeout=1800,
                           env_extra=env)
        if listing.is_file():
            for l in listing.read_text().splitlines():
                name, _, cls = l.partition("\t")
                if name:
                    names.setdefault(name, cls or "data")
    return names


def check_allowed_names(pair: str, allowed: list[str], targets) -> None:
    """Refuses an --allow name that matches no field or property of the pair's targets (a
    misspelt name would allow nothing, silently). Names with numbers ("step 12 key 34B") match
    the same name with other numbers; shell patterns ("step * key *") must match one name."""
    from .project import EquifuzzError
    wanted = [a for a in allowed if a != ALLOW_INTERNAL]
    if not wanted or not targets:
        return
    names = field_names(targets)
    if not names:
        return  # nothing to check against (no binary or no seed): the harness still applies the names
    shape = lambda s: re.sub(r"[0-9]+", "N", s)
    shapes = {shape(n) for n in names}
    unknown = [a for a in wanted if a not in names and shape(a) not in shapes
               and not any(fnmatch.fnmatchcase(n, a) for n in names)]
    if unknown:
        shown = sorted(shapes)
        listing = ", ".join(f"'{n}'" for n in shown[:40]) + (f" and {len(shown) - 40} more" if len(shown) > 40 else "")
        raise EquifuzzError(f"--allow {', '.join(f'{pair}:{a}' for a in unknown)}: pair {pair} has no such field or "
                            f"property (N stands for any number; '{pair}:{ALLOW_INTERNAL}' names its internal fields); "
                            f"its fields and properties are: {listing} (./equifuzz fields {pair} lists them with their tiers)")


def add_allow_arguments(p) -> None:
    p.add_argument("--allow", action="append", default=[], metavar="PAIR:FIELD",
                   help="differences in this field (or property) of PAIR's outcomes are recorded notes, not "
                        "findings; the comparison goes on to the next field (repeatable). FIELD may be a shell "
                        "pattern ('step * key *'), or 'internal': every internal field of PAIR, even with --strict. "
                        "A name that matches no field of the pair is refused")
    p.add_argument("--allow-file", metavar="FILE", help="one PAIR:FIELD per line ('#' comments): --allow for a PR")
    p.add_argument("--strict", action="store_true",
                   help="count differences in internal state too (entry counts, flush order, which partial batch "
                        "holds which coin): by default they are listed, not counted")
    p.add_argument("--beyond-contract", action="store_true",
                   help="let the decoders build states outside the caller contracts of Core's routines, and count "
                        "findings on such inputs (hunting robustness bugs); by default they are listed, not counted")


def tier_environment(args) -> dict[str, str]:
    """The harness's switches for --strict and --beyond-contract (EQUIFUZZ_STRICT,
    EQUIFUZZ_BEYOND_CONTRACT), as every run of a target binary gets them."""
    return {"EQUIFUZZ_STRICT": "1" if getattr(args, "strict", False) else "",
            "EQUIFUZZ_BEYOND_CONTRACT": "1" if getattr(args, "beyond_contract", False) else ""}


def add_minimize_arguments(p) -> None:
    p.add_argument("--minimize", action="store_true",
                   help="after fuzzing, shrink each signature's first input (libFuzzer -minimize_crash, keeping that "
                        "signature); the smaller input is the one reported and kept")
    p.add_argument("--minimize-seconds", type=int, default=30, metavar="S",
                   help="minimization budget per signature (default 30)")


def line(f: Finding) -> str:
    """One finding as the summaries print it."""
    known = f"; known: {f.known}" if f.known else ""
    detail = f"; {f.detail}" if f.detail else ""
    return f"{f.attribution}, {f.cls}: {f.signature} ({f.hits} input(s){known}){detail}"
