"""Keeps two Core trees apart in a coverage profile: renames the profile name of every function of
one Core side object (`<role>|<name>`), so that the side's counters and coverage records are its
own.

Why: clang names a function's profile record by its mangled name (an MD5 of it, the "name
reference"). Two trees of Core define the same functions (`CCoinsViewCache::AddCoin` before and
after a change), so in one binary their records carry the same reference: llvm-profdata adds up
the counters of the two when the function's structural hash is the same (a change of a constant),
and llvm-cov's reader keeps the coverage records of the first tree only and drops the other's
(the report then has no figure for the Core optimized side at all). Renaming every name in one side
object gives each tree its own records and counters.

What a relocatable object built with -fprofile-instr-generate -fcoverage-mapping (clang 19) holds:
- `__llvm_prf_names`: blocks of names, each `ULEB128 length, ULEB128 compressed length (0: not
  compressed), bytes` (zlib when compressed), the names separated by byte 0x01;
- `__llvm_prf_data`: one record per instrumented function, its first 8 bytes the name reference
  (the low 64 bits of the name's MD5, little-endian), 8-byte aligned;
- `__llvm_covfun`: one record per function with coverage mapping, 8-byte aligned, its first 8
  bytes the name reference.
The renaming rewrites the names section (uncompressed blocks) and, in the other two, every record
whose reference is one of the object's names; it checks that every record was renamed, so a clang
whose layout differs stops the build with a sentence instead of mixing trees silently.

Usage: python3 -m equifuzz.profile_names <object> <role> <objcopy>
"""
from __future__ import annotations

import hashlib
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

SEPARATOR = b"\x01"
NAMES, DATA, COVFUN = "__llvm_prf_names", "__llvm_prf_data", "__llvm_covfun"
PREFIX_END = "|"


def name_ref(name: bytes) -> int:
    return struct.unpack("<Q", hashlib.md5(name).digest()[:8])[0]


def _uleb(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, at


def _uleb_bytes(value: int) -> bytes:
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        out.append(b | (0x80 if value else 0))
        if not value:
            return bytes(out)


def read_names(section: bytes) -> list[bytes]:
    names, at = [], 0
    while at < len(section):
        if section[at] == 0:  # padding between or after blocks
            at += 1
            continue
        length, at = _uleb(section, at)
        compressed, at = _uleb(section, at)
        if compressed:
            block = zlib.decompress(section[at:at + compressed])
            at += compressed
        else:
            block = section[at:at + length]
            at += length
        if len(block) != length:
            raise ValueError("a names block is shorter than it says")
        names += [n for n in block.split(SEPARATOR) if n]
    return names


def write_names(names: list[bytes]) -> bytes:
    block = SEPARATOR.join(names)
    return _uleb_bytes(len(block)) + _uleb_bytes(0) + block


def prefixed(role: str, name: bytes) -> bytes:
    return role.encode() + PREFIX_END.encode() + name


def strip(name: str) -> tuple[str, str]:
    """(role, the original name) of a renamed profile name; ("", name) for one not renamed."""
    role, sep, rest = name.partition(PREFIX_END)
    return (role, rest) if sep and role.startswith("core-") else ("", name)


def rename_records(section: bytes, refs: dict[int, int]) -> tuple[bytes, int]:
    """Every 8-byte aligned name reference of `refs` replaced by its new one; how many."""
    out = bytearray(section)
    count = 0
    for at in range(0, len(out) - 7, 8):
        old = struct.unpack_from("<Q", out, at)[0]
        new = refs.get(old)
        if new is not None:
            struct.pack_into("<Q", out, at, new)
            count += 1
    return bytes(out), count


def _record_starts(section: bytes, kind: str) -> int:
    """How many records a section holds (the check that every one was renamed)."""
    if kind == DATA:
        return len(section) // DATA_RECORD_SIZE
    count, at = 0, 0
    while at + 28 <= len(section):
        name, size = struct.unpack_from("<QI", section, at)
        if name == 0 and size == 0:
            at += 8
            continue
        count += 1
        at += 28 + size
        at = (at + 7) & ~7
    return count


# clang 19's __llvm_prf_data record: NameRef, FuncHash, CounterPtr, BitmapPtr, FunctionPointer,
# Values (8 bytes each), NumCounters (4), NumValueSites (2 x 2), NumBitmapBytes (4) = 64 bytes.
DATA_RECORD_SIZE = 64


def elf_sections(data: bytes) -> dict[str, tuple[int, int]]:
    """name -> (file offset, size) of every section of a 64-bit little-endian ELF object."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("equifuzz: not a 64-bit little-endian ELF object.")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_off, strtab_size = headers[shstrndx][4], headers[shstrndx][5]
    strtab = data[strtab_off:strtab_off + strtab_size]
    out = {}
    for h in headers:
        name = strtab[h[0]:strtab.index(b"\0", h[0])].decode()
        out[name] = (h[4], h[5])
    return out


def rename(obj: Path, role: str, objcopy: str) -> int:
    """Renames every profile name of `obj` in place; returns how many functions. The records are
    patched in the file (same size; objcopy's --update-section would drop their relocations), the
    names section replaced by objcopy (it has none)."""
    data = bytearray(obj.read_bytes())
    sections = elf_sections(bytes(data))
    if NAMES not in sections:
        raise SystemExit(f"equifuzz: {obj} has no coverage names ({NAMES}): is it a coverage build?")
    off, size = sections[NAMES]
    # An inline function used by several translation units is named in each of their blocks.
    names = list(dict.fromkeys(read_names(bytes(data[off:off + size]))))
    if any(n.startswith(role.encode() + PREFIX_END.encode()) for n in names):
        return 0  # renamed already (the command ran again on an unchanged object)
    refs = {name_ref(n): name_ref(prefixed(role, n)) for n in names}
    if len(refs) != len(names):
        raise SystemExit(f"equifuzz: {obj}: two profile names share a reference; cannot rename them apart.")
    for section in (DATA, COVFUN):
        if section not in sections:
            continue
        off, size = sections[section]
        old = bytes(data[off:off + size])
        new, count = rename_records(old, refs)
        expected = _record_starts(old, section)
        if count != expected:
            raise SystemExit(f"equifuzz: {obj}: renamed {count} of the {expected} records of {section}; this "
                             "clang's profile layout is not the one equifuzz knows (clang 19), so the two Core "
                             "trees' coverage cannot be kept apart.")
        data[off:off + size] = new
    obj.write_bytes(bytes(data))
    with tempfile.TemporaryDirectory(prefix="equifuzz-profile-names-") as tmp:
        names_file = Path(tmp) / "names"
        names_file.write_bytes(write_names([prefixed(role, n) for n in names]))
        subprocess.run([objcopy, "--update-section", f"{NAMES}={names_file}", str(obj)], check=True)
    return len(names)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    obj, role, objcopy = argv
    rename(Path(obj), role, objcopy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
