"""Seeds for the script targets, from the rows of tests/data/bitcoin/script_tests.json.

The decoders read integers from the end of the input and byte strings from the front (clang's
FuzzedDataProvider), so each seed is written as `front + reversed(tail)`, with the tail in the
order the decoder consumes it (see differential/script/pair.cpp).
"""
from __future__ import annotations

import json
from typing import Iterator

from . import DATA, random_inputs, rng

# Flag bits in differential/script/side.h order.
FLAGS = ["P2SH", "STRICTENC", "DERSIG", "LOW_S", "NULLDUMMY", "SIGPUSHONLY", "MINIMALDATA",
         "DISCOURAGE_UPGRADABLE_NOPS", "CLEANSTACK", "CHECKLOCKTIMEVERIFY", "CHECKSEQUENCEVERIFY",
         "WITNESS", "DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM", "MINIMALIF", "NULLFAIL",
         "WITNESS_PUBKEYTYPE", "CONST_SCRIPTCODE", "TAPROOT", "DISCOURAGE_OP_SUCCESS",
         "DISCOURAGE_UPGRADABLE_PUBKEYTYPE"]

# Opcode names 0x61 (NOP) .. 0xb9 (NOP10).
NAMES = ("NOP VER IF NOTIF VERIF VERNOTIF ELSE ENDIF VERIFY RETURN TOALTSTACK FROMALTSTACK 2DROP 2DUP "
         "3DUP 2OVER 2ROT 2SWAP IFDUP DEPTH DROP DUP NIP OVER PICK ROLL ROT SWAP TUCK CAT SUBSTR LEFT "
         "RIGHT SIZE INVERT AND OR XOR EQUAL EQUALVERIFY RESERVED1 RESERVED2 1ADD 1SUB 2MUL 2DIV NEGATE "
         "ABS NOT 0NOTEQUAL ADD SUB MUL DIV MOD LSHIFT RSHIFT BOOLAND BOOLOR NUMEQUAL NUMEQUALVERIFY "
         "NUMNOTEQUAL LESSTHAN GREATERTHAN LESSTHANOREQUAL GREATERTHANOREQUAL MIN MAX WITHIN RIPEMD160 "
         "SHA1 SHA256 HASH160 HASH256 CODESEPARATOR CHECKSIG CHECKSIGVERIFY CHECKMULTISIG "
         "CHECKMULTISIGVERIFY NOP1 CHECKLOCKTIMEVERIFY CHECKSEQUENCEVERIFY NOP4 NOP5 NOP6 NOP7 NOP8 "
         "NOP9 NOP10").split()
OPCODES = {name: 0x61 + i for i, name in enumerate(NAMES)}
OPCODES["RESERVED"] = 0x50


def push(data: bytes) -> bytes:
    n = len(data)
    if n < 0x4c:
        return bytes([n]) + data
    if n <= 0xff:
        return bytes([0x4c, n]) + data
    if n <= 0xffff:
        return bytes([0x4d]) + n.to_bytes(2, "little") + data
    return bytes([0x4e]) + n.to_bytes(4, "little") + data


def script_num(v: int) -> bytes:
    out = bytearray()
    a = abs(v)
    while a:
        out.append(a & 0xff)
        a >>= 8
    if out and out[-1] & 0x80:
        out.append(0x80 if v < 0 else 0)
    elif v < 0:
        out[-1] |= 0x80
    return bytes(out)


def parse_asm(text: str) -> bytes | None:
    out = bytearray()
    for tok in text.split():
        if tok.lstrip("-").isdigit():
            n = int(tok)
            out += bytes([0]) if n == 0 else bytes([0x4f]) if n == -1 else bytes([0x50 + n]) if 1 <= n <= 16 else push(script_num(n))
        elif tok.startswith("0x"):
            out += bytes.fromhex(tok[2:])
        elif len(tok) >= 2 and tok[0] == tok[-1] == "'":
            out += push(tok[1:-1].encode())
        elif tok.removeprefix("OP_") in OPCODES:
            out.append(OPCODES[tok.removeprefix("OP_")])
        else:
            return None
    return bytes(out)


class Seed:
    """Writes what a FuzzedDataProvider-based decoder will read back."""

    def __init__(self) -> None:
        self.front = bytearray()
        self.tail = bytearray()

    def int(self, value: int, width: int) -> "Seed":  # most significant byte is read first
        self.tail += value.to_bytes(width, "big")
        return self

    def byte(self, value: int) -> "Seed":
        return self.int(value & 0xff, 1)

    def data(self, b: bytes) -> "Seed":
        self.front += b
        return self

    def element(self, b: bytes) -> "Seed":
        # ConsumeElementSize: case 2 (0..80) for short items, the special-size menu otherwise.
        special = [0, 1, 20, 32, 33, 65, 75, 76, 255, 256, 519, 520, 521, 1000, 7999, 8000]
        if len(b) <= 80:
            self.byte(2).byte(len(b))
        elif len(b) in special:
            self.byte(0).byte(special.index(len(b)))
        else:
            b = b[:80]
            self.byte(2).byte(len(b))
        self.byte(0)  # not all-equal: the bytes follow at the front
        return self.data(b)

    def bytes(self) -> bytes:
        return bytes(self.front) + bytes(reversed(self.tail))


def rows() -> Iterator[tuple[list[bytes], bytes, bytes, int]]:
    for row in json.loads((DATA / "script_tests.json").read_text()):
        if len(row) < 4:
            continue
        witness: list[bytes] = []
        if isinstance(row[0], list):
            if any("#" in str(w) for w in row[0]):
                continue
            witness = [bytes.fromhex(w) for w in row[0][:-1]]
            row = row[1:]
        sig, spk = parse_asm(row[0]), parse_asm(row[1])
        if sig is None or spk is None:
            continue
        flags = 0
        for name in filter(None, row[2].split(",")):
            if name in FLAGS:
                flags |= 1 << FLAGS.index(name)
        yield witness, sig, spk, flags


def script_eval() -> Iterator[bytes]:
    for witness, sig, spk, flags in rows():
        if witness and len(witness) <= 5:
            # The witness script as ExecuteWitnessScript (witness v0) and as tapscript.
            for mode in (3, 4):
                s = Seed().byte(mode).int(flags, 4).byte(len(witness) - 1)
                for item in witness[:-1]:
                    s.element(item)
                yield s.data(witness[-1]).bytes()
        else:
            yield Seed().byte(0).int(flags, 4).byte(0).data(sig + spk).bytes()
    # Items at the limits under every sigversion: DUP, SIZE and hashing of big items.
    for mode in range(5):
        for size_index in (10, 11, 12, 15):  # 519, 520, 521, 8000
            s = Seed().byte(mode).int(0, 4).byte(1).byte(0).byte(size_index).byte(1).byte(0x61)
            yield s.data(bytes([0x76, 0x82, 0x77, 0xa8, 0x75, 0x87])).bytes()


def script_build() -> Iterator[bytes]:
    yield from random_inputs("script_build", [8, 16, 32, 48, 64, 96, 128, 200, 300, 400])
    r = rng("script_build/sized")
    for _ in range(40):
        yield bytes(r.getrandbits(8) for _ in range(r.randrange(16, 256)))


def script_spend() -> Iterator[bytes]:
    for witness, sig, spk, flags in rows():
        if len(sig) > 64 or len(spk) > 64 or len(witness) > 3:
            continue
        s = Seed().int(flags, 4).byte(6)
        s.byte(len(sig)).data(sig).byte(len(spk)).data(spk)
        s.byte(len(witness))
        for item in witness:
            s.element(item)
        s.byte(1)  # no stray witness item
        yield s.int(0, 4).bytes()


def script_signed() -> Iterator[bytes]:
    """Every input decodes to a signed spend (differential/script/signed.cpp), so seeds are short
    random strings: each picks a template, wrapping, keys, hash type and spoiling."""
    yield b""
    yield from random_inputs("script_signed", [8, 12, 16, 24, 32] * 12)


GENERATORS = {"script_eval": script_eval, "script_build": script_build, "script_spend": script_spend,
              "script_signed": script_signed}
