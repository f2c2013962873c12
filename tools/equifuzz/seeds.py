"""The deterministic seed generator: `./equifuzz seeds` rewrites corpora/<target>/ from scratch.

Seeds are a starting point, not a test oracle: every decoder accepts any bytes, so a seed only
has to reach interesting shapes quickly. Each generator is seeded by the target's name, so the
same tree always produces the same files. Real data comes from tests/data/bitcoin/.
"""
from __future__ import annotations

import hashlib
import random
import shutil
from pathlib import Path
from typing import Callable, Iterator

from .project import ROOT, EquifuzzError

DATA = ROOT / "tests" / "data" / "bitcoin"


def _rng(name: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little"))


def _random_inputs(name: str, lengths: list[int]) -> Iterator[bytes]:
    rng = _rng(name)
    for n in lengths:
        yield bytes(rng.getrandbits(8) for _ in range(n))


def _real_block_slices(count: int, max_len: int, name: str) -> Iterator[bytes]:
    """Slices of a real mainnet block file (277647.dat): real data for byte-level targets."""
    blob = (DATA / "277647.dat").read_bytes()
    rng = _rng(name + "/slices")
    for _ in range(count):
        n = rng.randrange(1, max_len)
        start = rng.randrange(0, len(blob) - n)
        yield blob[start:start + n]


def xor_apply() -> Iterator[bytes]:
    # Lengths around multiples of 8 (the words), 64 (the unrolled blocks) and the tails.
    lengths = sorted({0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 71, 72, 73, 127, 128, 129, 200, 511, 512, 513, 640})
    yield from _random_inputs("xor_apply", lengths)
    yield from _real_block_slices(16, 700, "xor_apply")


def xor_key() -> Iterator[bytes]:
    yield from _random_inputs("xor_key", [0, 1, 2, 4, 8, 9, 10, 12, 16, 17, 24, 32, 40, 64])
    # Serialized keys as they sit in a LevelDB value, then a few extra bytes.
    yield bytes.fromhex("08") + bytes(range(1, 9)) + b"\x00\x00\x00"
    yield bytes.fromhex("fd0800") + bytes(8) + b"\x03"


GENERATORS: dict[str, Callable[[], Iterator[bytes]]] = {
    "xor_apply": xor_apply,
    "xor_key": xor_key,
}


def write(target: str, directory: Path) -> int:
    if target not in GENERATORS:
        raise EquifuzzError(f"no seed generator for target '{target}' in tools/equifuzz/seeds.py.")
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    n = 0
    for data in GENERATORS[target]():
        # Content-addressed names, as libFuzzer names corpus files.
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    return n
