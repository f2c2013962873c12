"""The build manifest: what CMake writes into <build>/equifuzz-targets.json (cmake/Manifest.cmake,
equifuzz_write_manifest), read here and nowhere else.

read() gives typed, frozen records whose attributes are the JSON's keys: the build (engine,
compiler, sanitizers, where its Core trees came from), each pair's sides (our two models, each Core
side, the Core sides left out and the mutants not applicable), and the targets with their binaries,
corpora and variants. A manifest without this module's VERSION was written by another equifuzz
and is refused in one sentence; a key a small manifest leaves out gets an empty default.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from .errors import InfraError

#: The manifest's format: cmake/Manifest.cmake writes it as the manifest's first key. Raise both
#: together when a key changes its meaning or goes.
VERSION = 1
#: The manifest's file name in a build directory.
FILE = "equifuzz-targets.json"


@dataclass(frozen=True)
class CoreSide:
    """One Core side of a pair: the tree it is built from and how."""
    role: str = ""              # core-original or core-optimized
    tree: str = ""              # the tree's name: kernel-0.4.1, git-<commit>, user-optimized, ...
    label: str = ""             # what the tree is, in words
    src: str = ""               # the tree's src/ directory
    commit: str = ""            # its git commit, when it is one
    core_edit: bool = False     # whether the pair's CORE_EDIT was applied to it
    edit_dir: str = ""          # where the edited copies of its files are
    target: str = ""            # the CMake target of its object
    compiled: tuple[str, ...] = ()  # the Core sources it compiles, relative to src/

    def to_json(self) -> dict:
        """The record as the manifest has it."""
        return {**asdict(self), "compiled": list(self.compiled)}


@dataclass(frozen=True)
class LeftOut:
    """A Core side a build left out, and why. kind is "build" for a side that did not compile on
    its tree (error: its first compiler error); empty for a tree that lacks the pair's routine."""
    role: str = ""
    tree: str = ""
    why: str = ""
    kind: str = ""
    error: str = ""

    def to_json(self) -> dict:
        """The record as the manifest has it: kind and error only when set."""
        out = {"role": self.role, "tree": self.tree, "why": self.why}
        out.update({k: v for k, v in (("kind", self.kind), ("error", self.error)) if v})
        return out


@dataclass(frozen=True)
class NotApplicable:
    """A mutant this build leaves out (its tree has no line for it, or it needs another sanitizer)."""
    name: str = ""
    description: str = ""
    why: str = ""

    def to_json(self) -> dict:
        """The record as the manifest has it."""
        return asdict(self)


@dataclass(frozen=True)
class Pair:
    """A pair's sides: our two model sources, its Core sides, what was left out."""
    name: str = ""
    original: str = ""
    optimized: str = ""
    core: tuple[CoreSide, ...] = ()
    core_sources: tuple[str, ...] = ()
    core_shim: str = ""
    #: the pair's seed program in a replay build (differential/common/seeds.h), "" when it has none
    seed_writer: str = ""
    core_left_out: tuple[LeftOut, ...] = ()
    mutants_not_applicable: tuple[NotApplicable, ...] = ()

    def roles(self) -> set[str]:
        """The Core sides it has: core-original, core-optimized."""
        return {c.role for c in self.core}


@dataclass
class Variant:
    name: str
    kind: str  # "mutant" (a bug, must be caught), "refactor" (behaviour kept, must stay clean) or "adapter"
    description: str
    binary: Path


@dataclass
class Target:
    name: str
    pair: str
    binary: Path
    corpus: Path
    regressions: Path
    dict: Path
    variants: list[Variant] = field(default_factory=list)
    #: lib<target>_afl_mutator.so in an AFL++ build of a target with structured mutations, else None
    afl_mutator: Path | None = None

    def mutants(self) -> list[Variant]:
        return [v for v in self.variants if v.kind == "mutant"]

    def refactors(self) -> list[Variant]:
        """Behaviour-preserving rewrites (a mutant file's "Kind: refactor"): every committed input
        must pass through them, internal differences aside."""
        return [v for v in self.variants if v.kind == "refactor"]

    def seed_dirs(self) -> list[Path]:
        return [d for d in (self.corpus, self.regressions) if d.is_dir()]


@dataclass(frozen=True)
class Manifest:
    """A configured build, as its manifest says."""
    version: int
    engine: str = ""            # replay, libfuzzer, afl or external
    root: str = ""              # the checkout it was configured from
    compiler: str = ""
    sanitizers: str = ""        # as -fsanitize= takes them: "address,undefined"
    optimization: str = ""
    core_sides_missing_because: str = ""  # why the Core sides are off ("": they are on)
    core_trees_from: str = ""   # git at the pinned commits, or the registry crates (and why)
    core_oracle: str = ""       # the script pair's Bitcoin Core oracle, when it is off
    pairs: dict[str, Pair] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)

    def pair(self, name: str) -> Pair:
        """The pair's record; an empty one for a pair this build does not have."""
        return self.pairs.get(name) or Pair(name=name)


def configured(bdir: Path) -> bool:
    """Whether <bdir> is a configured equifuzz build (it has a manifest)."""
    return (bdir / FILE).is_file()


def read(bdir: Path) -> Manifest:
    """The manifest of the build in <bdir>. A missing or unreadable one, or one of another
    version, is an InfraError of one sentence."""
    path = bdir / FILE
    again = f"configure it again with './equifuzz build {bdir.name}' (or 'cmake --preset <config> -B {bdir}')"
    if not path.is_file():
        raise InfraError(f"no build in {bdir}: run './equifuzz build {bdir.name}' first.")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise InfraError(f"{path} is not valid JSON ({e.msg}); rebuild with './equifuzz build {bdir.name}'.")
    version = data.get("version") if isinstance(data, dict) else None
    if type(version) is not int or version != VERSION:
        said = "its manifest has no version" if version is None else f"manifest version {json.dumps(version)}"
        raise InfraError(f"{bdir} was configured by another equifuzz ({said}, this one reads {VERSION}): {again}.")
    try:
        return _manifest(data)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        what = f"a record without {e}" if isinstance(e, KeyError) else str(e)
        raise InfraError(f"{path} does not have the shape this equifuzz reads ({what}): {again}.")


# --- from JSON --------------------------------------------------------------------------------------
def _known(cls, data: dict) -> dict:
    """The keys of <data> that are fields of <cls>; a key this equifuzz does not read is left out."""
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _pair(name: str, data: dict) -> Pair:
    return Pair(**{**_known(Pair, data), "name": name,
                   "core": tuple(CoreSide(**{**_known(CoreSide, c), "compiled": tuple(c.get("compiled", ()))})
                                 for c in data.get("core", ())),
                   "core_sources": tuple(data.get("core_sources", ())),
                   "core_left_out": tuple(LeftOut(**_known(LeftOut, c)) for c in data.get("core_left_out", ())),
                   "mutants_not_applicable": tuple(NotApplicable(**_known(NotApplicable, m))
                                                   for m in data.get("mutants_not_applicable", ()))})


def _target(t: dict) -> Target:
    """A target's record; its name, pair, binary and corpus folders are required (no path is a
    sensible default for them)."""
    variants = [Variant(v["name"], v["kind"], v["description"], Path(v["binary"])) for v in t.get("variants", ())]
    return Target(t["name"], t["pair"], Path(t["binary"]), Path(t["corpus"]), Path(t["regressions"]),
                  Path(t["dict"]), variants, Path(t["afl_mutator"]) if t.get("afl_mutator") else None)


def _manifest(data: dict) -> Manifest:
    return Manifest(**{**_known(Manifest, data),
                       "pairs": {name: _pair(name, info) for name, info in (data.get("pairs") or {}).items()},
                       "targets": [_target(t) for t in data.get("targets") or ()]})
