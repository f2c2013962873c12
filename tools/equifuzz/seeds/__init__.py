"""The deterministic seed generator: `./equifuzz seeds` rewrites corpora/<target>/ from scratch.

Seeds are a starting point, not a test oracle: every decoder accepts any bytes, so a seed only
has to reach interesting shapes quickly. Each generator is seeded by the target's name, so the
same tree always produces the same files. Real data comes from tests/data/bitcoin/.

One module per pair (seeds/<pair>.py) defines GENERATORS = {target: function yielding bytes};
every module in this package is collected, so adding a pair adds a file and edits nothing here.
"""
from __future__ import annotations

import hashlib
import importlib
import pkgutil
import random
import shutil
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


def write(target: str, directory: Path) -> int:
    if target not in GENERATORS:
        raise EquifuzzError(f"no seed generator for target '{target}' (add tools/equifuzz/seeds/<pair>.py).")
    # Inputs `./equifuzz merge` added from campaigns (merged-<sha1>) are kept; the rest is rewritten.
    merged = {p.name: p.read_bytes() for p in directory.glob("merged-*")} if directory.is_dir() else {}
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, data in merged.items():
        (directory / name).write_bytes(data)
    n = 0
    for data in GENERATORS[target]():
        # Content-addressed names, as libFuzzer names corpus files.
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    return n
