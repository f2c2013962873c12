"""A mutant file, read in one place: differential/<pair>/mutants/<name>.patch (a unified diff of one
of our sides) or <name>.sub (one-line substitutions in a Bitcoin Core file), and its header lines.

A header line is `Key: value` at the start of a line, the first of each key counting. The build
reads them through this module too: at configure time cmake/Mutants.cmake runs
`python3 -m equifuzz.mutant_file --cmake <out> <file>...` and includes what it writes (cmake_vars),
so CMake never parses a header itself (tests/python/test_mutant_file.py checks the manifest
against this module):

  Mutant:    what the bug (or the rewrite) is, in one sentence
  Kind:      "refactor" for a behaviour-preserving rewrite (must stay clean); a bug without it
  Caught-by: the target whose committed regression input catches it
  Tier:      where a bug shows (TIERS): promise (default), internal, beyond-contract
  Side:      a patch of a shared header: original, optimized (default) or both; a .sub: core_original
             or core_optimized
  File:      a .sub: the Core file it changes (relative to src/)
  Requires:  thread-sanitizer, core-oracle, core-sides, core-feature <NAME> (any number of lines)

A .sub's body is `Replace:` lines, each followed by its `With:` line (applied at build time by
cmake/core_substitute.cmake); a .patch's is the diff, whose `+++ b/<path>` names the file it patches.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import EquifuzzError

ROOT = Path(__file__).resolve().parents[2]
HEADER_KEYS = ("Mutant", "Kind", "Caught-by", "Tier", "Side", "File")
#: A bug mutant's "Tier:": where its bug shows. "promise" (the default): in what Core promises its
#: callers; "internal": only in internal state (a batch cut elsewhere, entries written twice),
#: caught with EQUIFUZZ_STRICT=1; "beyond-contract": only on inputs outside the caller contracts,
#: caught with EQUIFUZZ_BEYOND_CONTRACT=1.
TIERS = ("promise", "internal", "beyond-contract")


@dataclass(frozen=True)
class MutantFile:
    pair: str
    name: str
    path: Path
    description: str = ""
    kind: str = "bug"                      # bug | refactor
    caught_by: str | None = None
    tier: str = "promise"
    side: str | None = None
    file: str | None = None                # a .sub's Core file
    requires: tuple[str, ...] = ()
    substitutions: tuple[tuple[str, str], ...] = ()  # a .sub's (Replace, With) pairs, in order
    patches: str | None = None             # a .patch's "+++ b/<path>"

    @property
    def is_core(self) -> bool:
        """A substitution in a Bitcoin Core file (.sub), not a diff of our sides (.patch)."""
        return self.path.suffix == ".sub"


def folder(pair: str) -> Path:
    return ROOT / "differential" / pair / "mutants"


def read(path: Path) -> MutantFile:
    """The mutant file at `path`; a header that cannot be right (a tier not in TIERS, a Replace
    line without its With line, a .sub without Side, File or a Replace) is refused in one sentence."""
    lines = path.read_text(errors="replace").splitlines()
    head: dict[str, str] = {}
    requires: list[str] = []
    substitutions: list[tuple[str, str]] = []
    patches = None
    for i, line in enumerate(lines):
        key, sep, value = line.partition(": ")
        if sep and key in HEADER_KEYS:
            head.setdefault(key, value.strip())
        elif sep and key == "Requires":
            requires.append(value.strip())
        elif sep and key == "Replace" and path.suffix == ".sub":
            if i + 1 >= len(lines) or not lines[i + 1].startswith("With: "):
                raise EquifuzzError(f"{path.name}: a 'Replace:' line is not followed by its 'With:' line.")
            substitutions.append((value.strip(), lines[i + 1].removeprefix("With: ")))
        elif line.startswith("+++ b/") and patches is None:
            patches = line.removeprefix("+++ b/").split("\t")[0].split(" ")[0]
    if ";" in head.get("Mutant", ""):
        # CMake reads the sentence too (the build's manifest), and a semicolon is its list separator.
        raise EquifuzzError(f"{path.name}: its 'Mutant:' sentence has a semicolon, which the build cannot carry; "
                            f"write a comma.")
    tier = head.get("Tier", "promise")
    if tier not in TIERS:
        raise EquifuzzError(f"{path.name} names the tier '{tier}'; the tiers are: {', '.join(TIERS)}.")
    if path.suffix == ".sub" and (not substitutions or "Side" not in head or "File" not in head):
        raise EquifuzzError(f"{path.name} lacks a 'Side:', 'File:' or 'Replace:' line.")
    return MutantFile(pair=path.parent.parent.name, name=path.stem, path=path, description=head.get("Mutant", ""),
                      kind="refactor" if head.get("Kind") == "refactor" else "bug", caught_by=head.get("Caught-by") or None,
                      tier=tier, side=head.get("Side"), file=head.get("File"), requires=tuple(requires),
                      substitutions=tuple(substitutions), patches=patches)


def of_pair(pair: str) -> list[MutantFile]:
    """Every mutant file of `pair`, by name (patches and substitutions together)."""
    d = folder(pair)
    return [read(p) for p in sorted([*d.glob("*.patch"), *d.glob("*.sub")], key=lambda p: p.stem)]


def find(pair: str, name: str) -> MutantFile | None:
    for path in (folder(pair) / f"{name}.patch", folder(pair) / f"{name}.sub"):
        if path.is_file():
            return read(path)
    return None


def record_caught_by(pair: str, name: str, target: str) -> None:
    """Writes (or rewrites) the mutant file's "Caught-by: <target>" line, under its "Mutant:" line:
    the replay build compiles the mutant into that target only (EQUIFUZZ_MUTANT_TARGETS=caught-by)."""
    m = find(pair, name)
    if m is None:
        return
    lines = [l for l in m.path.read_text().split("\n") if not l.startswith("Caught-by: ")]
    at = 1 if lines and lines[0].startswith("Mutant: ") else 0
    lines.insert(at, f"Caught-by: {target}")
    m.path.write_text("\n".join(lines))


def _bracket(text: str) -> str:
    """`text` as a CMake bracket argument: taken as it is, no escape or variable expanded."""
    level = 0
    # The argument ends at the first closing bracket: none may start inside the text (one that
    # ends it, "[a]" before "]]", counts too).
    while (text + f"]{'=' * level}]").find(f"]{'=' * level}]") != len(text):
        level += 1
    return f"[{'=' * level}[{text}]{'=' * level}]"


def cmake_vars(files: list[MutantFile]) -> str:
    """What the build knows of each mutant file, as CMake `set()` lines it includes:
    EQUIFUZZ_MUTANT_<pair>__<name>_<KEY> for DESCRIPTION, KIND (bug or refactor), CAUGHT_BY, TIER,
    SIDE, FILE, PATCHES (a .patch's path) and REQUIRES (a list)."""
    out = ["# Written by tools/equifuzz/mutant_file.py (cmake_vars) at configure time: do not edit."]
    for m in files:
        prefix = f"EQUIFUZZ_MUTANT_{m.pair}__{m.name}_"
        values = {"DESCRIPTION": m.description, "KIND": m.kind, "CAUGHT_BY": m.caught_by or "", "TIER": m.tier,
                  "SIDE": m.side or "", "FILE": m.file or "", "PATCHES": m.patches or ""}
        out += [f"set({prefix}{key} {_bracket(value)})" for key, value in values.items()]
        out.append(f"set({' '.join([prefix + 'REQUIRES'] + [_bracket(r) for r in m.requires])})")
    return "\n".join(out) + "\n"


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _applied(m: MutantFile) -> tuple[bool, str]:
    """Whether the patch `m` applies as the build applies it (no fuzz: cmake/Mutants.cmake), and
    what `patch` said (which hunks it found at other lines). Nothing is written: the output goes
    to /dev/null. Only a .patch is applied; a .sub is refused in one sentence."""
    if m.is_core or m.patches is None:
        raise EquifuzzError(f"{_shown(m.path)} is not a patch of our sides (a .sub names no lines; "
                            f"only .patch files are checked or refreshed).")
    run = subprocess.run(["patch", "--force", "--fuzz=0", "--output=/dev/null", str(ROOT / m.patches), str(m.path)],
                         capture_output=True, text=True)
    return run.returncode == 0, run.stdout + run.stderr


def drift(m: MutantFile) -> str | None:
    """Why the patch `m` does not apply exactly where it says (its context moved or changed), or None.
    The build applies patches with no fuzz (cmake/Mutants.cmake), so a changed context line fails
    the build; a moved one would apply, but the file would name the wrong lines."""
    applies, said = _applied(m)
    if not applies:
        return f"{_shown(m.path)} no longer applies to {m.patches}: its context lines changed"
    if "offset" in said:
        return f"{_shown(m.path)} applies to {m.patches} only at other lines than it names"
    return None


def refresh(m: MutantFile) -> bool:
    """Rewrites the line numbers of the patch `m` to where its hunks apply today, its header lines
    and diff kept as written (True when the file changed). A patch whose context lines changed is
    refused: which lines it meant is for a person to say."""
    applies, said = _applied(m)
    if not applies:
        raise EquifuzzError(f"{_shown(m.path)} does not apply to {m.patches} without fuzz; "
                            f"write its change again on today's file.")
    offsets = {int(n): int(off) for n, off in re.findall(r"Hunk #(\d+) succeeded at \d+ \(offset (-?\d+) lines?\)", said)}
    hunk = 0

    def moved(match: re.Match) -> str:
        nonlocal hunk
        hunk += 1
        off = offsets.get(hunk, 0)
        return f"@@ -{int(match[1]) + off}{match[2] or ''} +{int(match[3]) + off}{match[4] or ''} @@"

    text = m.path.read_text()
    fresh = re.sub(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", moved, text, flags=re.M)
    if fresh == text:
        return False
    m.path.write_text(fresh)
    return True


def main(argv: list[str]) -> int:
    """`--cmake <out> <file>...`: writes cmake_vars of the files to <out>; a file that cannot be
    read right is refused in one sentence on standard error (the configure stops with it).
    `--refresh <file>...`: rewrites each patch at the lines it applies to today (refresh)."""
    if len(argv) >= 2 and argv[0] == "--refresh":
        failed = 0
        for p in argv[1:]:
            try:
                if refresh(read(Path(p).resolve())):
                    print(f"refreshed {p}")
            except EquifuzzError as e:
                print(e, file=sys.stderr)
                failed += 1
            except OSError as e:
                print(f"{e.filename}: {e.strerror}.", file=sys.stderr)
                failed += 1
        return 1 if failed else 0
    if len(argv) < 2 or argv[0] != "--cmake":
        print("usage: python3 -m equifuzz.mutant_file --cmake <out> <mutant file>... | --refresh <patch>...", file=sys.stderr)
        return 2
    try:
        text = cmake_vars([read(Path(p)) for p in argv[2:]])
        out = Path(argv[1])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    except EquifuzzError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{e.filename}: {e.strerror}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
