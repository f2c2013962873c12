"""Which differences a run lists as notes instead of findings, and the arguments that say so:
--allow <pair>:<field> and --allow-file (checked against the fields and properties the pair's
targets report, so that a misspelt name is refused rather than allowing nothing), --strict and
--beyond-contract (the harness's tiers), --minimize. The finding protocol and its attribution are
findings.py's."""
from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from .findings import fresh_dir
from .manifest import configured, read as read_manifest
from .sanitizer_env import harness_env


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
