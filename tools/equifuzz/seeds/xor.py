"""Seeds for the obfuscation XOR targets."""
from typing import Iterator

from . import random_inputs, real_block_slices


def xor_apply() -> Iterator[bytes]:
    # Lengths around multiples of 8 (the words), 64 (the unrolled blocks) and the tails.
    lengths = sorted({0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 71, 72, 73, 127, 128, 129, 200, 511, 512, 513, 640})
    yield from random_inputs("xor_apply", lengths)
    yield from real_block_slices(16, 700, "xor_apply")


def xor_key() -> Iterator[bytes]:
    yield from random_inputs("xor_key", [0, 1, 2, 4, 8, 9, 10, 12, 16, 17, 24, 32, 40, 64])
    # Serialized keys as they sit in a LevelDB value, then a few extra bytes.
    yield bytes.fromhex("08") + bytes(range(1, 9)) + b"\x00\x00\x00"
    yield bytes.fromhex("fd0800") + bytes(8) + b"\x03"


GENERATORS = {"xor_apply": xor_apply, "xor_key": xor_key}
