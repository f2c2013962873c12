"""Seeds for the SipHash targets.

Both decoders read their choices (key kind, uint256 kind, index, op kinds) through the
FuzzedDataProvider, so random inputs of assorted lengths reach every shape quickly; constant
inputs pick the edge choices (zero key and txid, all-ones words) and real block bytes give
real txid-like material.
"""
from typing import Iterator

from . import random_inputs, real_block_slices


def _constant_inputs() -> Iterator[bytes]:
    for byte in (0x00, 0x01, 0x7F, 0x80, 0xFF):
        for n in (8, 40, 96, 200):
            yield bytes([byte]) * n


def siphash_sip24() -> Iterator[bytes]:
    # Short inputs decode to the outpoint shape alone; longer ones add byte runs and words.
    yield from random_inputs("siphash_sip24", [0, 4, 16, 36, 48, 64, 80, 100, 128, 160, 200, 256, 320, 400, 512, 700])
    yield from _constant_inputs()
    yield from real_block_slices(12, 400, "siphash_sip24")


def siphash_uj() -> Iterator[bytes]:
    yield from random_inputs("siphash_uj", [0, 4, 16, 36, 48, 64, 80, 100, 128, 160, 200, 256, 320, 400, 512])
    yield from _constant_inputs()
    yield from real_block_slices(12, 400, "siphash_uj")


GENERATORS = {"siphash_sip24": siphash_sip24, "siphash_uj": siphash_uj}
