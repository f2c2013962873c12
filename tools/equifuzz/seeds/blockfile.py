"""Seeds for the block/undo file targets.

The decoders read their choices (key, start offset, buffer size, op kinds, chunk sizes, faults)
from the end of the input and the written bytes from the front, so random inputs of many lengths
reach every op kind, and slices of a real block file give real record bytes to write and read.
"""
from typing import Iterator

from . import random_inputs, real_block_slices

LENGTHS = [8, 16, 24, 32, 48, 64, 96, 128, 200, 300, 512, 800, 1200, 2000, 4200, 9000]


def blockfile_write() -> Iterator[bytes]:
    yield from random_inputs("blockfile_write", LENGTHS)
    yield from real_block_slices(12, 3000, "blockfile_write")


def blockfile_read() -> Iterator[bytes]:
    yield from random_inputs("blockfile_read", LENGTHS)
    yield from real_block_slices(12, 3000, "blockfile_read")


def blockfile_faults() -> Iterator[bytes]:
    yield from random_inputs("blockfile_faults", LENGTHS)
    yield from real_block_slices(12, 3000, "blockfile_faults")


def blockfile_records() -> Iterator[bytes]:
    yield from random_inputs("blockfile_records", LENGTHS)
    yield from real_block_slices(12, 3000, "blockfile_records")


GENERATORS = {"blockfile_write": blockfile_write, "blockfile_read": blockfile_read, "blockfile_faults": blockfile_faults,
              "blockfile_records": blockfile_records}
