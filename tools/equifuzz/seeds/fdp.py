"""Writes inputs for decoders that read them through LLVM's FuzzedDataProvider.

FuzzedDataProvider takes integers from the end of the input (the first byte it takes, the last
byte of the input, is the most significant) and byte strings from the front; an integer in
[lo, hi] takes as many bytes as hi - lo needs, up to its type's width, and reduces them modulo
hi - lo + 1. This writer records both ends in the order a decoder consumes them and joins them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..choices import Table


class FdpWriter:
    def __init__(self) -> None:
        self._front = bytearray()
        self._back = bytearray()  # in the order the decoder takes them

    def int_in_range(self, lo: int, hi: int, value: int, width: int = 8) -> "FdpWriter":
        """ConsumeIntegralInRange<T>(lo, hi) returning value; width is sizeof(T)."""
        if not lo <= value <= hi:
            raise ValueError(f"{value} is not in [{lo}, {hi}]")
        span, n = hi - lo, 0
        while n < width and span >> (8 * n) > 0:
            n += 1
        self._back += (value - lo).to_bytes(n, "big") if n else b""
        return self

    def integral(self, value: int, width: int) -> "FdpWriter":
        """ConsumeIntegral<uintN_t>() (unsigned types only)."""
        return self.int_in_range(0, (1 << (8 * width)) - 1, value, width)

    def boolean(self, value: bool) -> "FdpWriter":
        """ConsumeBool(): the low bit of one byte."""
        return self.integral(1 if value else 0, 1)

    def choice(self, table: "Table", name: str) -> "FdpWriter":
        """A named choice of the pair's choices.json (ConsumeChoice in C++): its first integer."""
        return self.int_in_range(0, table.span - 1, table.first(name), 8)

    def raw(self, data: bytes) -> "FdpWriter":
        """ConsumeBytes(len(data)) once its length was chosen."""
        self._front += data
        return self

    def bytes(self) -> bytes:
        return bytes(self._front) + bytes(reversed(self._back))
