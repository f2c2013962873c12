"""Seeds for the prevector targets: op programs around the inline boundaries and growth steps of
both sides (28/29, 36/37, 43/44, 55/56), the edge cases of spec 1d, and every script type.

The decoders read integers with FuzzedDataProvider, which takes them from the *end* of the input
(most significant byte first) and raw bytes from the front; `Encoder` writes inputs that way.
"""
from __future__ import annotations

from typing import Iterator

from ..choices import load
from . import rng

# The decoder's named choices (differential/prevector/choices.json), by the report's words.
_CHOICES = load("prevector")
OPS = [v.says for v in _CHOICES["OpKind"].values]
K = {v.says: _CHOICES["OpKind"].first(v.name) for v in _CHOICES["OpKind"].values}
USES_Y = {K["insert_self_element"], K["insert_count"], K["insert_self_range"], K["erase_range"], K["set"]}
USES_VALUES = {K["insert_range"], K["assign_range"], K["b=Vec(range)"]}
SCRIPTS = [v.says for v in _CHOICES["ScriptKind"].values]
_SCRIPT = {v.says: _CHOICES["ScriptKind"].first(v.name) for v in _CHOICES["ScriptKind"].values}


class Encoder:
    """Integers in the order the decoder consumes them; bytes() lays them out for the provider."""

    def __init__(self) -> None:
        self.stream = bytearray()

    def integral(self, value: int, lo: int, hi: int) -> None:
        span = hi - lo
        nbytes = 0
        while nbytes < 8 and (span >> (8 * nbytes)) > 0:
            nbytes += 1
        v = value - lo
        assert 0 <= v <= span
        self.stream += v.to_bytes(nbytes, "big") if nbytes else b""

    def u8(self, v: int) -> None:
        self.integral(v & 0xFF, 0, 255)

    def param(self, v: int) -> None:
        """ConsumeParam in pair.cpp: 0..15 directly, else one byte, else two."""
        if v < 16:
            self.integral(1, 0, 3)
            self.integral(v, 0, 15)
        elif v < 256:
            self.integral(2, 0, 3)
            self.u8(v)
        else:
            self.integral(3, 0, 3)
            self.integral(v & 0xFFFF, 0, 0xFFFF)

    def op(self, name: str, x: int = 0, y: int = 0, z: int = 0, value: int = 0, count: int = 0, step: int = 1) -> "Encoder":
        k = K[name]
        self.integral(k, 0, _CHOICES["OpKind"].span - 1)
        self.param(x)
        if k in USES_Y:
            self.param(y)
        if k == K["insert_self_range"]:
            self.param(z)
        self.u8(value)
        if k in USES_VALUES:
            self.param(count)
            self.integral(step, 0, 3)
        return self

    def bytes(self, front: bytes = b"") -> bytes:
        return front + bytes(reversed(self.stream))


def program(*ops: tuple) -> bytes:
    e = Encoder()
    for o in ops:
        name, *args = o
        e.op(name, *args)
    return e.bytes()


def pushes(n: int, value: int = 1) -> list[tuple]:
    return [("push_back", 0, 0, 0, (value + i) & 0xFF) for i in range(n)]


def ops_programs() -> Iterator[bytes]:
    # Push-back steps through both sides' growth sequences.
    for n in (27, 28, 29, 35, 36, 37, 44, 56, 67, 85):
        yield program(*pushes(n))
    for n in (27, 28, 29, 35, 36, 37, 38):
        # shrink_to_fit at N and N+1, after growing past it and erasing back.
        yield program(*pushes(60), ("resize", n), ("shrink_to_fit",), ("relations",))
        # reserve at N and N+1 on an empty / small vector, then clear keeps the heap.
        yield program(("reserve", n), *pushes(3), ("clear",), ("shrink_to_fit",))
        # copy constructor (exact from size) versus copy assignment (keeps capacity).
        yield program(*pushes(60), ("b=a",), ("resize", n), ("a=Vec(b)",), ("b=Vec(n,v)", n, 0, 0, 9), ("a=b",))
        # range construction and assign of n elements.
        yield program(("b=Vec(range)", 0, 0, 0, 3, n, 1), ("assign_range", 0, 0, 0, 5, n, 2), ("swap",), ("relations",))
        yield program(("assign_count", n, 0, 0, 7), ("insert_count", 0, 0, 0, 1), ("insert_count", 5, 2), ("relations",))
        yield program(("b=reserialize(a)",), *pushes(n), ("b=reserialize(a)",), ("relations",))
    # Empty ranges, self insertion, moves, swaps between inline and heap vectors.
    yield program(*pushes(30), ("erase_range", 5, 0), ("erase_range", 30, 0), ("erase", 0), ("pop_back",))
    yield program(*pushes(20), ("insert_self_range", 3, 0, 20), ("insert_self_range", 0, 10, 40), ("insert_self_element", 4, 7))
    yield program(*pushes(36), ("insert_self_range", 36, 0, 36), ("shrink_to_fit",), ("insert_self_range", 1, 2, 30))
    yield program(*pushes(40), ("b=Vec(n,v)", 10, 0, 0, 2), ("swap",), ("a=move(b)",), ("move_rotate",), ("relations",))
    yield program(*pushes(33), ("swap",), *pushes(5), ("swap",), ("a=a",), ("set", 2, 1, 0, 99), ("set", 0, 2, 0, 98), ("relations",))
    yield program(("resize_uninitialized", 37, 0, 0, 4), ("resize_uninitialized", 20), ("resize_uninitialized", 29), ("resize", 0))
    # A vector and a shorter, lexicographically greater one: size-first ordering.
    yield program(("push_back", 0, 0, 0, 1), ("push_back", 0, 0, 0, 1), ("b=Vec(n,v)", 1, 0, 0, 2), ("relations",))
    # Random programs.
    r = rng("prevector_ops")
    for _ in range(40):
        e = Encoder()
        for _ in range(r.randrange(5, 60)):
            name = r.choice(OPS)
            e.op(name, r.choice([0, 1, 2, 27, 28, 29, 35, 36, 37, 43, 55, r.randrange(0, 600)]),
                 r.randrange(0, 60), r.randrange(0, 60), r.randrange(0, 256), r.randrange(0, 80), r.randrange(0, 4))
        yield e.bytes()


def prevector_ops() -> Iterator[bytes]:
    yield from ops_programs()


def prevector_ops_wide() -> Iterator[bytes]:
    yield from ops_programs()


def script_input(kind: str, length: int = 0, push_lengths: list[int] | None = None, data: bytes = b"") -> bytes:
    e = Encoder()
    e.integral(_SCRIPT[kind], 0, _CHOICES["ScriptKind"].span - 1)
    def length_field(n: int) -> None:
        e.u8(1)  # ConsumeBool: true -> a uint16 length
        e.integral(n, 0, 0xFFFF)
    length_field(length)
    if kind == "pushes":
        lens = push_lengths or []
        e.integral(len(lens), 0, 6)
        for n in lens:
            length_field(n)
    return e.bytes(front=data)


def prevector_script() -> Iterator[bytes]:
    r = rng("prevector_script")
    data = bytes(r.getrandbits(8) for _ in range(200))
    for kind in SCRIPTS:
        if kind in ("OP_RETURN", "raw"):
            for n in (0, 1, 20, 26, 27, 28, 29, 32, 34, 35, 36, 37, 38, 75, 76, 80, 255, 256, 300, 520):
                yield script_input(kind, n, data=data)
        elif kind == "pushes":
            for lens in ([], [20], [32], [33], [75, 76], [0, 1, 2], [255, 256], [26, 8], [34, 2, 1]):
                yield script_input(kind, 0, lens, data)
        else:
            yield script_input(kind, 0, data=data)
            yield script_input(kind, 0, data=b"")


GENERATORS = {"prevector_ops": prevector_ops, "prevector_ops_wide": prevector_ops_wide, "prevector_script": prevector_script}
