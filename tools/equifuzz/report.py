"""The facts of a `verify` run, typed: what report.json holds, written and read through these
dataclasses (Report.to_json, Report.from_json), so every renderer and the verdict read the same
named fields, and a recorded report.json can be rendered again.

A report.json of another version, or one with a field these classes do not know, is refused with
one sentence rather than rendered half-understood.
"""
from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path

from .campaign import Campaign, result_label, target_result  # noqa: F401 (result_label: every table's word)
from .findings import Finding
from .project import EquifuzzError

REPORT_VERSION = 3
#: Version 1 had no campaign engine nor minimized inputs, version 2 no campaign target: subsets,
#: read with their defaults.
READABLE_VERSIONS = (1, 2, 3)


# --- reading and writing dataclasses as JSON ---------------------------------------------------
def _decode(kind, value, where: str):
    """`value` (parsed JSON) as the annotated `kind`: dataclasses, lists and dicts of them,
    optionals; anything else as it is."""
    if value is None:
        return None
    if kind is Path:
        return Path(value) if value else None  # a path; "" (none) as older reports wrote it
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value, where) if len(inner) == 1 else value
    if dataclasses.is_dataclass(kind):
        return from_json(kind, value, where)
    if origin is list and args:
        if not isinstance(value, list):
            raise EquifuzzError(f"{where} is not a list.")
        return [_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict and len(args) == 2:
        if not isinstance(value, dict):
            raise EquifuzzError(f"{where} is not an object.")
        return {k: _decode(args[1], v, f"{where}.{k}") for k, v in value.items()}
    return value


def from_json(cls, data: dict, where: str = "report"):
    """An instance of the dataclass `cls` from its JSON object; missing fields take their
    defaults, an unknown field is refused."""
    if not isinstance(data, dict):
        raise EquifuzzError(f"{where} is not an object.")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise EquifuzzError(f"{where} has field(s) this equifuzz does not know: {', '.join(unknown)}.")
    return cls(**{k: _decode(hints[k], v, f"{where}.{k}") for k, v in data.items()})


def to_json(obj):
    """The JSON form of a dataclass (and of lists and dicts of them)."""
    if dataclasses.is_dataclass(obj):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list | tuple):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    if isinstance(obj, Path):
        return str(obj)
    return obj


# --- the facts ----------------------------------------------------------------------------------
@dataclass
class Replay:
    """Every seed and regression input of one target once through the libFuzzer binary."""
    inputs: int = 0
    seconds: float = 0.0
    ok: bool = False
    failure: str | None = None
    input: str = ""                    # the input the replay stopped at, when it stopped
    recorded: list[Finding] = field(default_factory=list)

    @property
    def failed_on_an_input(self) -> bool:
        return not self.ok and self.inputs > 0


@dataclass
class TargetFacts:
    pair: str = ""
    sides: list[str] = field(default_factory=list)
    replay: Replay | None = None
    campaign: Campaign | None = None
    kept: list[str] = field(default_factory=list)   # inputs kept as regression inputs
    build_dir_arg: str = ""   # the build its reproduce line names, when not the report's (the ThreadSanitizer build)

    @property
    def result(self) -> str:
        """The target's word (campaign.target_result): what the verdict counts of its replay and campaign."""
        return target_result(self.replay, self.campaign)


@dataclass
class Mutant:
    pair: str = ""
    mutant: str = ""
    target: str = ""
    description: str = ""
    caught: bool = False
    status: str = "missed"    # caught | missed | undecided (the clean build fails the same inputs);
    #                           a refactor: clean | finding
    kind: str = "bug"         # bug (must be caught) | refactor (behaviour kept: must stay clean)
    seconds: float = 0.0
    input: str = ""
    failure: str = ""


@dataclass
class PairSides:
    """A pair's sides: our two model sources, each Core side's tree, the Core sides left out."""
    original: str = ""
    optimized: str = ""
    core: list[dict] = field(default_factory=list)
    left_out: list[dict] = field(default_factory=list)
    mutants_not_applicable: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return to_json(self)


@dataclass
class Build:
    dir: str = ""
    compiler: str = "unknown"
    sanitizers: str = ""
    optimization: str = ""
    core_missing_because: str = ""
    core_trees_from: str = ""
    core_oracle: str = ""


@dataclass
class Budget:
    minutes: float = 0
    jobs: int = 1
    seconds_per_target: int = 0


@dataclass
class Report:
    report_version: int = REPORT_VERSION
    command: str = ""
    started: str = ""
    machine: str = ""
    equifuzz: dict = field(default_factory=lambda: {"commit": "unknown", "dirty": False})
    seed: int = 1
    build: Build = field(default_factory=Build)
    build_dir_arg: str = ""
    budget: Budget = field(default_factory=Budget)
    selection: dict | None = None          # the pairs picked from the change, and why
    sides: dict[str, PairSides] = field(default_factory=dict)
    allowed: dict[str, list[str]] = field(default_factory=dict)
    targets: dict[str, TargetFacts] = field(default_factory=dict)
    mutants: list[Mutant] = field(default_factory=list)
    mutants_missing: str = ""
    races: str = ""           # why data races were not checked ("" when they were, or no pair runs threads)
    races_problem: str = ""   # why the ThreadSanitizer build could not check them (the verdict is then INCOMPLETE)
    from_empty: dict | None = None
    from_empty_problem: str = ""
    coverage: dict | None = None
    coverage_note: str = ""
    coverage_problem: str = ""
    reach: dict | None = None       # pair -> reach.pair_reach (None for a pair without two Core sides)
    reach_note: str = ""            # why reach was not measured ("" when it was)
    min_reach: float = 0.0          # --min-reach: the least share of changed lines each side must reach
    interrupted: bool = False
    plots: list[str] = field(default_factory=list)
    plot_problem: str = ""
    verdict: str = ""
    exit_code: int | None = None

    def to_json(self) -> dict:
        return to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "Report":
        version = data.get("report_version", REPORT_VERSION) if isinstance(data, dict) else None
        if version not in READABLE_VERSIONS:
            raise EquifuzzError(f"the report is of version {version}; this equifuzz reads versions "
                                f"{', '.join(map(str, READABLE_VERSIONS))} (run verify again to write it anew).")
        return from_json(cls, {**data, "report_version": REPORT_VERSION})

    @classmethod
    def read(cls, path: Path) -> "Report":
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as e:
            raise EquifuzzError(f"{path} cannot be read as a report ({e}).")
        return cls.from_json(data)


def as_report(facts: "Report | dict") -> Report:
    """A Report from a Report or from its JSON form (a recorded report.json, or a test's facts)."""
    return facts if isinstance(facts, Report) else Report.from_json(facts)
