"""Where things are: the source tree and the build trees (a build's targets come from its manifest: manifest.py)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

# The error classes and the manifest's Target and Variant, for the modules that import them from here.
from . import mutant_file
from .errors import EquifuzzError, InfraError  # noqa: F401
from .manifest import FILE as MANIFEST_FILE, CoreSide, Manifest, Target, Variant, configured  # noqa: F401
from .manifest import read as read_manifest
from .sanitizer_env import harness_env

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ("replay", "libfuzzer", "afl", "coverage", "tsan", "bench")

# What each configuration needs, as (program, Debian package that provides it).
TOOLCHAIN = {
    "replay": [("cmake", "cmake"), ("ninja", "ninja-build"), ("c++", "g++"), ("patch", "patch")],
    "libfuzzer": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19 libclang-rt-19-dev"),
                  ("patch", "patch")],
    "afl": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19 libclang-rt-19-dev"),
            ("afl-fuzz", "afl++")],
    "bench": [("cmake", "cmake"), ("ninja", "ninja-build"), ("c++", "g++")],
    "tsan": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19 libclang-rt-19-dev"),
             ("/usr/lib/llvm-19/include/c++/v1/atomic", "libc++-19-dev"), ("/usr/lib/llvm-19/lib/libc++abi.so", "libc++abi-19-dev")],
    "coverage": [("cmake", "cmake"), ("ninja", "ninja-build"), ("clang++-19", "clang-19"),
                 ("llvm-profdata-19", "llvm-19"), ("llvm-cov-19", "llvm-19")],
}


# Exit codes, the same for every verb (documented in --help and the README; CI relies on them).
EXIT_CLEAN = 0        # everything asked for was checked and nothing differed
EXIT_FINDING = 1      # a mismatch, a sanitizer finding, or a mutant not caught
EXIT_USAGE = 2        # a bad argument: unknown target, pair, mutant, configuration, file
EXIT_INFRA = 3        # could not build, write or run, or nothing was checked
EXIT_INTERRUPTED = 130

EXIT_CODES_HELP = """exit codes:
  0    clean: every input asked for was checked and nothing differed
  1    a finding: a mismatch, a sanitizer report, or a mutant that was not caught
  2    usage error: unknown target, pair, mutant or configuration, missing input file
  3    infrastructure failure: could not build, write or run, or nothing was checked
  130  interrupted (Ctrl-C); corpora and crash files are kept"""


def build_dir(config: str, override: str | None = None) -> Path:
    """build/<config>, or the --build-dir the user named, which must be a configured equifuzz build
    (never a reason to configure another one)."""
    if override:
        path = Path(override).resolve()
        if not configured(path):
            raise EquifuzzError(f"--build-dir {override} is not a configured equifuzz build (no {MANIFEST_FILE} "
                                f"there): configure one with 'cmake --preset <config> -B {override}' or leave --build-dir out.")
        return path
    return ROOT / "build" / config


def build_engine(bdir: Path) -> str:
    """The engine a configured build links ("replay" when the build is missing or unreadable:
    ensure_built() configures it, load_manifest() says what is wrong)."""
    try:
        return read_manifest(bdir).engine or "replay"
    except InfraError:
        return "replay"


def require_replay_build(bdir: Path, verb: str, libfuzzer_files: bool = False) -> None:
    """`verb` hands whole corpus directories to each binary: only a replay build reads them and
    stops; a libFuzzer or AFL++ binary given a directory fuzzes and writes new inputs into it.
    With `libfuzzer_files` the verb hands a libFuzzer binary each file instead (its individual-file
    mode runs each once, writes nothing but a crash), so a libFuzzer build is accepted too."""
    engine = build_engine(bdir)
    if engine == "libfuzzer" and libfuzzer_files:
        return
    if engine != "replay":
        raise EquifuzzError(f"{bdir} is a {engine} build: '{verb}' runs every input of a corpus directory once, which "
                            f"only a replay build does (a {engine} binary would fuzz and write into corpora/); name a "
                            "replay or coverage build, or leave --build-dir out.")


def check_toolchain(config: str) -> None:
    # A program on the PATH, or a file a package installs (libc++'s headers).
    missing = [(prog, pkg) for prog, pkg in TOOLCHAIN[config]
               if (not Path(prog).is_file() if prog.startswith("/") else shutil.which(prog) is None)]
    if missing:
        progs = ", ".join(p for p, _ in missing)
        pkgs = " ".join(sorted({k for _, pkg in missing for k in pkg.split()}))
        raise InfraError(f"the {config} build needs {progs}, which is not installed: run ci/install-deps.sh "
                            f"(or apt-get install {pkgs}).")


def core_opt_out_args() -> list[str]:
    """The presets require Bitcoin Core's code (its sides and the script pair's oracle): a build
    without it stops with one sentence. EQUIFUZZ_CORE=off in the environment leaves it out on
    purpose; the configure, ctest and every summary then say so."""
    value = os.environ.get("EQUIFUZZ_CORE", "")
    if value == "":
        return []
    if value == "off":
        return ["-DEQUIFUZZ_CORE_SIDES=OFF", "-DEQUIFUZZ_CORE_ORACLE=OFF"]
    raise EquifuzzError(f"EQUIFUZZ_CORE={value}: the only value is 'off' (leave Bitcoin Core's code out).")


def core_sides_rows(manifest: Manifest) -> tuple[list[list[str]], list[str]]:
    """What Bitcoin Core code a build has, for a summary: one row per pair with Core sides (pair,
    Core original, Core optimized: tree and commit, or why it was left out), and the lines to
    print under it (sides OFF and why, where the trees came from, the script pair's oracle)."""
    rows, notes = [], []
    for pair, info in sorted(manifest.pairs.items()):
        def cell(c: CoreSide) -> str:
            what = re.search(r"#\d+ (?:before|after)", c.label)
            commit = c.commit
            return (c.tree + (f" ({commit[:10]})" if commit and commit[:12] not in c.tree else "")
                    + (f" {what.group(0)}" if what else "") + (", edited" if c.core_edit else ""))
        cells = {c.role: cell(c) for c in info.core}
        cells.update({c.role: f"left out: {c.why}" for c in info.core_left_out})
        if cells:
            rows.append([pair, cells.get("core-original", "-"), cells.get("core-optimized", "-")])
    if manifest.core_sides_missing_because:
        notes.append(f"Bitcoin Core sides OFF: {manifest.core_sides_missing_because}")
    elif manifest.core_trees_from:
        notes.append(f"Core trees from {manifest.core_trees_from}")
    if manifest.core_oracle:
        notes.append(f"Bitcoin Core oracle (script pair) {manifest.core_oracle}")
    return rows, notes


def declared_targets() -> dict[str, str]:
    """Target name -> pair, read from fuzz_targets/CMakeLists.txt (the one list of targets)."""
    text = (ROOT / "fuzz_targets" / "CMakeLists.txt").read_text()
    return {m.group(1): m.group(2) for m in re.finditer(r"equifuzz_add_target\(\s*(\w+)\s+PAIR\s+(\w+)", text)}


def declared_mutants(pair: str) -> dict[str, str]:
    """Every mutant of `pair` (*.patch: a diff of one of our sides; *.sub: a one-line substitution in
    a Bitcoin Core file) and its "Mutant:" sentence (mutant_file reads them)."""
    return {m.name: m.description for m in mutant_file.of_pair(pair)}


def declared_caught_by(pair: str, mutant: str) -> str | None:
    """The target named by the mutant file's "Caught-by:" line, if it has one."""
    m = mutant_file.find(pair, mutant)
    return m.caught_by if m else None


#: What each tier of a bug mutant (mutant_file.TIERS, its file's "Tier:" line) needs in the
#: harness's environment to be caught.
TIER_ENVIRONMENT = {"promise": {}, "internal": {"EQUIFUZZ_STRICT": "1"},
                    "beyond-contract": {"EQUIFUZZ_BEYOND_CONTRACT": "1"}}


def declared_tier(pair: str, mutant: str) -> str:
    """The tier the mutant file's "Tier:" line names (TIER_ENVIRONMENT), "promise" without one."""
    m = mutant_file.find(pair, mutant)
    return m.tier if m else "promise"


record_caught_by = mutant_file.record_caught_by


def load_manifest(bdir: Path) -> list[Target]:
    """The build's targets (manifest.read says what is wrong with a build that has none to give)."""
    return read_manifest(bdir).targets


def validate_names(names: list[str] | None) -> None:
    """Checks target and pair names against fuzz_targets/CMakeLists.txt before anything is built."""
    declared = declared_targets()
    pairs = set(declared.values())
    for n in names or []:
        if n not in declared and n not in pairs:
            raise EquifuzzError(f"unknown target '{n}': the targets are {', '.join(sorted(declared))} (or a pair name: "
                                f"{', '.join(sorted(pairs))}).")


def select(targets: list[Target], names: list[str] | None, exact: bool = False) -> list[Target]:
    """The targets named, each once, in the order named. A pair's name stands for all its targets,
    also where one of them has the pair's name (coins_view: coins_view and coins_view_faults), so
    that verifying or fuzzing a pair never leaves one of its targets out; with `exact`, every name is
    a target's (a command that takes one target, or a list of targets already chosen)."""
    validate_names(names)
    if not names:
        return targets
    by_name = {t.name: t for t in targets}
    by_pair: dict[str, list[Target]] = {}
    for t in targets:
        by_pair.setdefault(t.pair, []).append(t)
    chosen: list[Target] = []
    for n in names:
        named = [by_name[n]] if n in by_name else []
        for t in named if exact or n not in by_pair else by_pair[n]:
            if t not in chosen:
                chosen.append(t)
    if not chosen:
        raise InfraError(f"the build has none of the targets named ({', '.join(names)}): rebuild it.")
    return chosen


#: The exit status run_binary gives a run it stopped at its timeout, and the line it adds to its stderr.
EXIT_HANG = 124
HANG_MARK = "equifuzz: hang:"


def run_binary(cmd: list, timeout: float | None = None, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = harness_env("replay")
    if env_extra:
        env.update(env_extra)
    try:
        return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, errors="replace",
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        # A run that does not end is a hang of the code under test (a worker waited for that never
        # comes): a failure with its own words, never an error of the tool.
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return subprocess.CompletedProcess([str(c) for c in cmd], EXIT_HANG, text(e.stdout),
                                           text(e.stderr) + f"\n{HANG_MARK} the run did not end within {timeout:g} s and was stopped\n")
    except FileNotFoundError:
        raise InfraError(f"{cmd[0]} does not exist: build it with './equifuzz build'.")
