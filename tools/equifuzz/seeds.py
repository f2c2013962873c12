"""The seed programs: `./equifuzz seeds` rewrites corpora/<target>/ from scratch.

Seeds are a starting point, not a test oracle: every decoder accepts any bytes, so a seed only has
to reach interesting shapes quickly. Every pair has a seed program (differential/<pair>/seeds.cpp,
differential/common/seeds.h), built as <pair>_seeds in a replay build and named by its manifest:
the pair's own encoder writes its seeds, so an input format has one writer. Its draws come from a
stream named by the target, so the same tree writes the same files everywhere; real data comes
from tests/data/bitcoin/. Inputs `./equifuzz merge` added from campaigns (merged-<sha1>) are kept.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .project import ROOT, EquifuzzError

DATA = ROOT / "tests" / "data" / "bitcoin"


def _start_afresh(directory: Path) -> None:
    """Empties <directory> but for the inputs `./equifuzz merge` added from campaigns (merged-<sha1>)."""
    merged = {p.name: p.read_bytes() for p in directory.glob("merged-*")} if directory.is_dir() else {}
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, data in merged.items():
        (directory / name).write_bytes(data)


def write_with_program(program: Path, targets: list[str], corpora: Path) -> dict[str, int]:
    """Runs a pair's seed program for <targets> (of its pair) into <corpora>/<target>/: how many
    seed files each got."""
    if not program.is_file():
        raise EquifuzzError(f"the seed program {program} is not built: build it with 'cmake --build <build> --target "
                            f"{program.name}'.")
    for t in targets:
        _start_afresh(corpora / t)
    proc = subprocess.run([str(program), "--data", str(DATA), "--out", str(corpora), *targets],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        said = proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
        raise EquifuzzError(f"{program.name} failed: {said[0]}")
    counts = dict.fromkeys(targets, 0)
    for line in proc.stdout.splitlines():
        name, _, n = line.partition(" ")
        counts[name] = int(n)
    return counts
