"""Committed inputs carried over a change of a pair's choice weights (choices.json).

A weight change moves the integers a decoder maps to each value, so an input the fuzzer wrote
(a regression input, a seed found by a campaign) decodes to another scenario afterwards. This
rewrites such an input so that it decodes to the same scenario under the new weights:

1. the input runs through a binary built with the OLD weights, with EQUIFUZZ_TRACE_CHOICES set:
   the harness writes where the input's bytes are, and every choice the decoder reads writes the
   address of its bytes, how many, and the value's index (harness/equifuzz/choices.h);
2. each choice's bytes are replaced by the first integer of the same value (by its name) under
   the new weights, in as many bytes;
3. the rewritten input runs through a binary built with the NEW weights: it must read the same
   values at the same bytes, or the input is left as it was and the tool says why.

Only the bytes of choices change; what else a decoder reads stays where it was, because it reads
the same values in the same order.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import choices as choices_mod
from .project import ROOT, EquifuzzError, run_binary

TRACE = {"EQUIFUZZ_TRACE_CHOICES": "1"}


@dataclass(frozen=True)
class Read:
    """One choice the decoder read: the choice (its table's name), the input's bytes it took
    (offset, count) and the value's name."""
    choice: str
    offset: int
    count: int
    value: str


def old_tables(pair: str, rev: str) -> dict[str, choices_mod.Table]:
    """The pair's choices as commit `rev` declares them."""
    where = f"differential/{pair}/choices.json"
    text = committed(ROOT / where, rev)
    if text is None:
        raise EquifuzzError(f"{where} could not be read at {rev}: is {rev} a commit of this checkout that has it?")
    return choices_mod.parse(text.decode(), f"{where} at {rev}")


def trace(binary: Path, data: bytes, pair: str, tables: dict[str, choices_mod.Table], scratch: Path) -> list[Read]:
    """The choices `binary` reads from `data`, in order, named by `tables`."""
    scratch.write_bytes(data)
    done = run_binary([binary, scratch], timeout=120, env_extra=TRACE)
    base = None
    reads: list[Read] = []
    for line in done.stderr.splitlines():
        parts = line.split("\t")
        if parts[0] == "equifuzz-input" and len(parts) == 3:
            if base is not None:
                break  # one input per run: a second is libFuzzer's own (an empty one, say)
            base = int(parts[1], 16)
        elif parts[0] == "equifuzz-choice" and len(parts) == 5 and base is not None:
            owner, _, name = parts[1].partition(": ")
            if owner != pair or name not in tables:
                raise EquifuzzError(f"{binary.name} read a choice '{parts[1]}' that {pair}'s choices.json does not declare.")
            index = int(parts[4])
            values = tables[name].values
            if not 0 <= index < len(values):
                raise EquifuzzError(f"{binary.name} read value {index} of {name}, which has {len(values)}: was it built from these choices?")
            reads.append(Read(name, int(parts[2], 16) - base, int(parts[3]), values[index].name))
    if base is None:
        raise EquifuzzError(f"{binary} wrote no trace of its input: build it from this checkout (the trace is in harness/equifuzz/choices.h).")
    return reads


def rewrite(data: bytes, reads: list[Read], tables: dict[str, choices_mod.Table]) -> bytes:
    """`data` with each choice of `reads` holding its value's first integer under `tables`."""
    out = bytearray(data)
    for r in reads:
        first = tables[r.choice].first(r.value)
        if r.count == 0:
            if first != 0:
                raise EquifuzzError(f"the input ends before its choice of {r.value}, which then needs bytes: it cannot be carried over.")
            continue
        if first >= 1 << (8 * r.count):
            raise EquifuzzError(f"{r.choice} {r.value} is {first} under the new weights, more than {r.count} byte(s) hold.")
        for i in range(r.count):
            out[r.offset + i] = (first >> (8 * i)) & 0xFF  # the provider reads the last byte as the highest
    return bytes(out)


def committed(path: Path, rev: str) -> bytes | None:
    """`path` as commit `rev` holds it, or None when it holds no such file."""
    try:
        where = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{where.as_posix()}"], capture_output=True)
    return done.stdout if done.returncode == 0 else None


def carry(path: Path, pair: str, old_binary: Path, new_binary: Path, old: dict, new: dict, scratch: Path, rev: str) -> str:
    """Rewrites `path` in place; what was done, in a few words."""
    data = path.read_bytes()
    # Twice over would read a carried input with the old weights again: a committed input is
    # carried only while it is as `rev` holds it.
    held = committed(path, rev)
    if held is not None and held != data:
        raise EquifuzzError(f"it differs from its version at {rev} (carried over already?): left as it is.")
    before = trace(old_binary, data, pair, old, scratch)
    # A choice whose table changed (any weight: the span, so any integer, may read otherwise) is
    # written as its value's first integer; the others keep their bytes.
    moved = [r for r in before if old[r.choice] != new.get(r.choice)]
    if not moved:
        return "unchanged (none of its choices moved)"
    carried = rewrite(data, moved, new)
    after = trace(new_binary, carried, pair, new, scratch)
    if after != before:
        first = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
        raise EquifuzzError(f"{path.name}: the rewritten input reads other choices from choice {first + 1} on: left as it was.")
    if carried == data:
        return "unchanged (its bytes already read the same)"
    path.write_bytes(carried)
    return f"rewritten ({sum(1 for a, b in zip(data, carried) if a != b)} byte(s), {len(before)} choices read alike)"
