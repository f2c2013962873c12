"""Where things are: the source tree, build trees and the targets manifest CMake writes."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ("replay", "libfuzzer", "afl", "coverage", "bench")

# What each configuration needs, as (program, Debian package that provides it).
TOOLCHAIN = {
    "replay": [("cmake", "cmake"), ("ninja", "ninja-build"), ("c++", "g++"), ("patch", "patch")],
    "libfuzzer": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19 libclang-rt-19-dev"),
                  ("patch", "patch")],
    "afl": [("cmake", "cmake"), ("ninja", "ninja-build"), ("afl-clang-fast++", "afl++ libclang-rt-14-dev lld-14"),
            ("afl-fuzz", "afl++")],
    "bench": [("cmake", "cmake"), ("ninja", "ninja-build"), ("c++", "g++")],
    "coverage": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19"),
                 ("llvm-profdata-19", "llvm-19"), ("llvm-cov-19", "llvm-19")],
}


class EquifuzzError(Exception):
    """An expected failure: its message is one plain sentence for the user."""


@dataclass
class Variant:
    name: str
    kind: str  # "mutant" or "adapter"
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

    def mutants(self) -> list[Variant]:
        return [v for v in self.variants if v.kind == "mutant"]

    def seed_dirs(self) -> list[Path]:
        return [d for d in (self.corpus, self.regressions) if d.is_dir()]


def build_dir(config: str, override: str | None = None) -> Path:
    if override:
        return Path(override).resolve()
    return ROOT / "build" / config


def check_toolchain(config: str) -> None:
    missing = [(prog, pkg) for prog, pkg in TOOLCHAIN[config] if shutil.which(prog) is None]
    if missing:
        progs = ", ".join(p for p, _ in missing)
        pkgs = " ".join(sorted({k for _, pkg in missing for k in pkg.split()}))
        raise EquifuzzError(f"the {config} build needs {progs}, which is not installed: run ci/install-deps.sh "
                            f"(or apt-get install {pkgs}).")


def declared_targets() -> dict[str, str]:
    """Target name -> pair, read from fuzz_targets/CMakeLists.txt (the one list of targets)."""
    text = (ROOT / "fuzz_targets" / "CMakeLists.txt").read_text()
    return {m.group(1): m.group(2) for m in re.finditer(r"equifuzz_add_target\(\s*(\w+)\s+PAIR\s+(\w+)", text)}


def declared_mutants(pair: str) -> dict[str, str]:
    out = {}
    # *.patch: a diff of one of our sides; *.sub: a one-line substitution in a Bitcoin Core file.
    folder = ROOT / "differential" / pair / "mutants"
    for patch in sorted([*folder.glob("*.patch"), *folder.glob("*.sub")]):
        first = patch.read_text().splitlines()[0] if patch.stat().st_size else ""
        out[patch.stem] = first.removeprefix("Mutant: ")
    return out


def load_manifest(bdir: Path) -> list[Target]:
    path = bdir / "equifuzz-targets.json"
    if not path.is_file():
        raise EquifuzzError(f"no build in {bdir}: run './equifuzz build {bdir.name}' first.")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise EquifuzzError(f"{path} is not valid JSON ({e.msg}); rebuild with './equifuzz build {bdir.name}'.")
    targets = []
    for t in data["targets"]:
        variants = [Variant(v["name"], v["kind"], v["description"], Path(v["binary"])) for v in t["variants"]]
        targets.append(Target(t["name"], t["pair"], Path(t["binary"]), Path(t["corpus"]), Path(t["regressions"]),
                              Path(t["dict"]), variants))
    return targets


def select(targets: list[Target], names: list[str] | None) -> list[Target]:
    if not names:
        return targets
    by_name = {t.name: t for t in targets}
    by_pair: dict[str, list[Target]] = {}
    for t in targets:
        by_pair.setdefault(t.pair, []).append(t)
    chosen: list[Target] = []
    for n in names:
        if n in by_name:
            chosen.append(by_name[n])
        elif n in by_pair:
            chosen.extend(by_pair[n])
        else:
            known = ", ".join(sorted(by_name))
            raise EquifuzzError(f"unknown target '{n}': the targets are {known} (or a pair name).")
    return chosen


def run_binary(cmd: list, timeout: float | None = None, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "handle_abort=1:detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    if env_extra:
        env.update(env_extra)
    try:
        return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, errors="replace",
                              timeout=timeout, env=env)
    except FileNotFoundError:
        raise EquifuzzError(f"{cmd[0]} does not exist: build it with './equifuzz build'.")
