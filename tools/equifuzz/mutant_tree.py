"""A Core mutant as a tree of its own: the pair's pinned commit of the mutant's side, with the
mutant's substitution applied, written to a directory a reviewer (or `verify --core-optimized`)
can use like any checkout.

The substitution is the one cmake/CountOccurrences.cmake applies in the build directory: each
"Replace:" line (spaces around it aside) must occur exactly once in the file as the substitutions
before it left it, and is swapped for the "With:" line that follows it.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from . import core_git, mutant_file
from .project import ROOT, EquifuzzError

ROLES = {"core_original": "before", "core_optimized": "after"}


@dataclass
class SubMutant:
    pair: str
    name: str
    path: Path
    kind: str
    side: str
    file: str
    pairs: list[tuple[str, str]]


def read_sub(pair: str, name: str) -> SubMutant:
    m = mutant_file.find(pair, name)
    if m is None:
        raise EquifuzzError(f"{pair} has no Core mutant named '{name}' (differential/{pair}/mutants/{name}.sub).")
    if not m.is_core:
        raise EquifuzzError(f"{pair}/{name} is a mutant of our model (a .patch), not of Core's code: it has no Core tree.")
    if m.side not in ROLES:
        raise EquifuzzError(f"{m.path.name}: Side '{m.side}' is neither core_original nor core_optimized.")
    return SubMutant(pair, name, m.path, m.kind, m.side, m.file or "", list(m.substitutions))


def substitute(text: str, pairs: list[tuple[str, str]]) -> tuple[str, str]:
    """(the text with every substitution, "" or which line does not occur exactly once)."""
    for replace, with_ in pairs:
        count = text.count(replace)
        if count != 1:
            return text, f"the line '{replace[:60]}' occurs {count} times, not once"
        text = text.replace(replace, with_)
    return text, ""


def pinned_commit(pair: str, side: str) -> str:
    lock = core_git.load_lock()
    key = lock.get("pairs", {}).get(pair, pair)
    return core_git.lock_entry(key, lock)[ROLES[side]]["commit"]


def write_tree(pair: str, name: str, dest: Path) -> dict:
    """Writes the mutated tree to dest (which must not exist or be empty) and returns what it is."""
    m = read_sub(pair, name)
    if dest.exists() and any(dest.iterdir()):
        raise EquifuzzError(f"{dest} is not empty; name a new directory for the tree.")
    remote = core_git.default_remote()
    commit = pinned_commit(pair, m.side)
    try:
        tree = core_git.materialize(remote, commit)
    except core_git.CoreGitError as e:
        raise EquifuzzError(f"the pinned commit {commit} of {pair}'s {m.side} side could not be fetched: {e}")
    src = Path(tree.src)
    target = src / m.file
    if not target.is_file():
        raise EquifuzzError(f"{m.path.name} mutates src/{m.file}, which commit {commit} does not have.")
    text, problem = substitute(target.read_text(), m.pairs)
    if problem:
        raise EquifuzzError(f"{m.path.name} does not apply to commit {commit}: {problem}.")
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(src, dest / "src", symlinks=True)
    if (src.parent / "CMakeLists.txt").is_file():  # the tree's version, for the report's tree line
        shutil.copy(src.parent / "CMakeLists.txt", dest / "CMakeLists.txt")
    (dest / "src" / m.file).write_text(text)
    info = {"pair": pair, "mutant": name, "kind": m.kind, "side": m.side, "commit": commit, "file": f"src/{m.file}",
            "base": f"git:{commit}"}
    (dest / "equifuzz-mutant.json").write_text(json.dumps(info, indent=1) + "\n")
    return info
