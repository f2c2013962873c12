"""Seeds for the UTXO flush target.

The decoder reads every choice (counts, txid bytes, indexes, coin fields, script kinds, flags,
batch sizes, the crash point) through the FuzzedDataProvider, so random inputs of assorted
lengths give blocks of assorted sizes; constant inputs pick the edge choices (all-zero: empty
blocks and batch size 0; all-ones: the largest counts).
"""
from typing import Iterator

from . import random_inputs


def utxo_flush_batches() -> Iterator[bytes]:
    yield from random_inputs("utxo_flush_batches", [0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200])
    for byte in (0x00, 0x01, 0x7F, 0xFF):
        for n in (16, 256, 1024):
            yield bytes([byte]) * n


GENERATORS = {"utxo_flush_batches": utxo_flush_batches}
