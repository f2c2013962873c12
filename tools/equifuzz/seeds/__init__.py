"""The deterministic seed writers: `./equifuzz seeds` rewrites corpora/<target>/ from scratch.

Seeds are a starting point, not a test oracle: every decoder accepts any bytes, so a seed only
has to reach interesting shapes quickly. Each writer draws from a stream named by the target, so
the same tree always produces the same files. Real data comes from tests/data/bitcoin/.

A pair with an encoder has a seed program (differential/<pair>/seeds.cpp, built as <pair>_seeds
in a replay build; the manifest names it): the pair's own encoder writes its seeds, so its input
format has one writer. The other pairs have a module here (seeds/<pair>.py) defining
GENERATORS = {target: function yielding bytes}; every module in this package is collected.
"""
from __future__ import annotations

import hashlib
import importlib
import pkgutil
import random
import shutil
import subprocess
from pathlib import Path
from typing import Callable, Iterator

from ..project import ROOT, EquifuzzError

DATA = ROOT / "tests" / "data" / "bitcoin"


def rng(name: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little"))


def random_inputs(name: str, lengths: list[int]) -> Iterator[bytes]:
    r = rng(name)
    for n in lengths:
        yield bytes(r.getrandbits(8) for _ in range(n))


def real_block_slices(count: int, max_len: int, name: str) -> Iterator[bytes]:
    """Slices of a real mainnet block file (277647.dat): real data for byte-level targets."""
    blob = (DATA / "277647.dat").read_bytes()
    r = rng(name + "/slices")
    for _ in range(count):
        n = r.randrange(1, max_len)
        start = r.randrange(0, len(blob) - n)
        yield blob[start:start + n]


def _collect() -> dict[str, Callable[[], Iterator[bytes]]]:
    found: dict[str, Callable[[], Iterator[bytes]]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.update(getattr(module, "GENERATORS", {}))
    return found


GENERATORS: dict[str, Callable[[], Iterator[bytes]]] = _collect()


def _start_afresh(directory: Path) -> None:
    """Empties <directory> but for the inputs `./equifuzz merge` added from campaigns (merged-<sha1>)."""
    merged = {p.name: p.read_bytes() for p in directory.glob("merged-*")} if directory.is_dir() else {}
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, data in merged.items():
        (directory / name).write_bytes(data)


def write_with_program(program: Path, targets: list[str], corpora: Path) -> dict[str, int]:
    """Runs a pair's seed program for <targets> (all of its pair) into <corpora>/<target>/: how
    many seeds each got."""
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


def write(target: str, directory: Path) -> int:
    """Writes <target>'s seeds with its pair's Python generator (a pair without a seed program)."""
    if target not in GENERATORS:
        raise EquifuzzError(f"no seed generator for target '{target}': its pair needs a seed program "
                            "(SEED_WRITER in its CMakeLists.txt) or a module tools/equifuzz/seeds/<pair>.py.")
    _start_afresh(directory)
    n = 0
    for data in GENERATORS[target]():
        # Content-addressed names, as libFuzzer names corpus files.
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    return n
