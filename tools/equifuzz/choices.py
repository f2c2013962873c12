"""A pair's named choices (differential/<pair>/choices.json), for the seed programs and the build.

Each choice a decoder makes from the fuzz input (a script's kind, an operation, a fault) is
declared once, in the pair's choices.json; the build writes it as a C++ enum and list into
<equifuzz/choices/<pair>.h> (harness/equifuzz/choices.h reads it), and the seed generators
write a choice by its name here. Neither side spells a range.

    python3 tools/equifuzz/choices.py differential/<pair>/choices.json <out.h>

writes the header (CMake runs it when the JSON changes). Standalone: no import of the package.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ChoiceError(Exception):
    """A choices.json that cannot be used: one sentence saying where and why."""


@dataclass(frozen=True)
class Value:
    name: str    # the enumerator
    weight: int  # integers of the provider's range that decode to it (0: never decoded)
    says: str    # the words a report uses


@dataclass(frozen=True)
class Table:
    name: str
    about: str
    values: tuple[Value, ...]

    @property
    def span(self) -> int:
        return sum(v.weight for v in self.values)

    def first(self, name: str) -> int:
        """The first integer of `name`'s range: what the C++ EncodeChoice writes for it."""
        at = 0
        for v in self.values:
            if v.name == name:
                if v.weight == 0:
                    raise ChoiceError(f"choice {self.name}: {name} has weight 0 and is never decoded")
                return at
            at += v.weight
        raise ChoiceError(f"choice {self.name} has no value {name} (it has {', '.join(v.name for v in self.values)})")


def namespace_of(text: str, pair: str) -> str:
    """The C++ namespace of the pair's code: "namespace" in the JSON, else equifuzz::<pair>."""
    doc = json.loads(text)
    ns = doc.get("namespace", f"equifuzz::{pair}")
    if not isinstance(ns, str) or not re.fullmatch(r"[A-Za-z_]\w*(::[A-Za-z_]\w*)*", ns):
        raise ChoiceError(f"differential/{pair}/choices.json: \"namespace\" must be a C++ namespace name")
    return ns


def parse(text: str, where: str) -> dict[str, Table]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ChoiceError(f"{where} is not JSON: {e}") from None
    tables: dict[str, Table] = {}
    choices = doc.get("choices") if isinstance(doc, dict) else None
    if not isinstance(choices, dict) or not choices:
        raise ChoiceError(f"{where} needs an object \"choices\" with at least one choice")
    for name, body in choices.items():
        if not _IDENT.fullmatch(name):
            raise ChoiceError(f"{where}: choice name {name!r} is not a C++ identifier")
        if not isinstance(body, dict) or not isinstance(body.get("about"), str) or not isinstance(body.get("values"), list):
            raise ChoiceError(f"{where}: choice {name} needs \"about\" (text) and \"values\" (a list)")
        values = []
        for item in body["values"]:
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and _IDENT.fullmatch(item[0])
                    and isinstance(item[1], int) and not isinstance(item[1], bool) and item[1] >= 0 and isinstance(item[2], str)):
                raise ChoiceError(f"{where}: choice {name}: each value is [\"ENUMERATOR\", weight >= 0, \"words\"], not {item!r}")
            values.append(Value(*item))
        if len({v.name for v in values}) != len(values):
            raise ChoiceError(f"{where}: choice {name} names a value twice")
        if not 0 < len(values) <= 256 or sum(v.weight for v in values) == 0:
            raise ChoiceError(f"{where}: choice {name} needs 1 to 256 values, at least one of weight > 0")
        tables[name] = Table(name, body["about"], tuple(values))
    return tables


def load(pair: str) -> dict[str, Table]:
    path = ROOT / "differential" / pair / "choices.json"
    return parse(path.read_text(), f"differential/{pair}/choices.json")


def _cxx_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header(tables: dict[str, Table], pair: str, namespace: str | None = None) -> str:
    ns = namespace or f"equifuzz::{pair}"
    out = [f"// Generated from differential/{pair}/choices.json by tools/equifuzz/choices.py: edit the JSON.",
           "#pragma once", "", "#include <equifuzz/choices.h>", "", "#include <array>", "#include <cstdint>",
           "#include <string_view>", "", f"namespace {ns} {{"]
    for t in tables.values():
        out += ["", f"//! {t.about}", f"enum class {t.name} : uint8_t {{ {', '.join(v.name for v in t.values)} }};"]
    out += ["", f"}} // namespace {ns}", "", "namespace equifuzz {"]
    for t in tables.values():
        q = f"::{ns}::{t.name}"
        items = ", ".join(f"{{{q}::{v.name}, {v.weight}, {_cxx_string(v.says)}}}" for v in t.values)
        out += [f"template <>", f"struct ChoiceList<{q}> {{",
                f"    static constexpr std::string_view about{{{_cxx_string(pair + ': ' + t.name)}}};",
                f"    static constexpr std::array<Choice<{q}>, {len(t.values)}> list{{{{{items}}}}};", "};"]
    out += ["} // namespace equifuzz", ""]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: choices.py differential/<pair>/choices.json <out.h>", file=sys.stderr)
        return 2
    src, out = Path(argv[0]), Path(argv[1])
    pair = src.resolve().parent.name
    try:
        json_text = src.read_text()
        text = header(parse(json_text, f"differential/{pair}/choices.json"), pair, namespace_of(json_text, pair))
    except (ChoiceError, OSError) as e:
        print(f"choices: {e}", file=sys.stderr)
        return 1
    # Rewritten only when it changes, so that the pair is not recompiled for nothing.
    if not out.exists() or out.read_text() != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
