"""The lines a harness writes for the tools (record.cpp, PrintFinding; findings.py reads them), for
stand-in binaries to print as the real ones do."""
from __future__ import annotations

import json
import shlex


def finding_line(signature: str, kind: str = "mismatch", cls: str = "data", roles: tuple[str, ...] = ("models",),
                 name: str | None = None, stop: bool = True, i: int = 0, detail: str = "", v: int = 1) -> str:
    """One finding line: `signature` is "<target>:<rest>"; `name` defaults to its second part."""
    name = signature.split(":")[1] if name is None else name
    return "equifuzz-finding " + json.dumps({"v": v, "i": i, "stop": stop, "kind": kind, "signature": signature, "class": cls,
                                             "roles": list(roles), "name": name, "detail": detail}, separators=(",", ":"))


def counts_line(signature: str, kind: str = "mismatch", hits: int = 1) -> str:
    """One line of a process's .counts record."""
    return json.dumps({"v": 1, "signature": signature, "kind": kind, "hits": hits}, separators=(",", ":"))


def echo(line: str, to_stderr: bool = True) -> str:
    """A shell command that prints `line` (to standard error unless told)."""
    return f"echo {shlex.quote(line)}" + (" >&2" if to_stderr else "")
