"""What the verbs print: Markdown tables, and what a failed run reported."""
from __future__ import annotations

import shlex

from .findings import first_stop

#: The name suffix of a target run in the ThreadSanitizer build (verify's races check).
TSAN_SUFFIX = "@tsan"


def reproduce_command(target: str, path: str, build_dir_arg: str = "", mutant: str = "") -> str:
    """The command that runs `path` through `target` again (every verb prints this one; the harness
    prints its own for a binary run by hand): `build_dir_arg` is "--build-dir DIR " when the build
    is not the default one, `mutant` names the variant binary. A ThreadSanitizer target's name
    (TSAN_SUFFIX) names the plain target of the tsan build. "" without an input."""
    if not path:
        return ""
    return (f"./equifuzz {build_dir_arg}reproduce {target.removesuffix(TSAN_SUFFIX)} {shlex.quote(str(path))}"
            + (f" --mutant {mutant}" if mutant else ""))


def _cell(value) -> str:
    # A '|' inside a cell would end it: escaped, as Markdown renders it back to '|'.
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(headers: list[str], rows: list[list], aligned: bool = True) -> str:
    """A Markdown table, fit to paste into a pull request. Aligned: padded columns, readable in a
    terminal too; not aligned: the compact form a report file keeps."""
    cells = [[_cell(c) for c in r] for r in rows]
    if not aligned:
        return "\n".join(["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|",
                          *("| " + " | ".join(r) + " |" for r in cells)])
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, cells)])


def failure_of(proc) -> str | None:
    """What a failed run reported: its mismatch signature, a sanitizer's summary, or its exit code."""
    if proc.returncode == 0:
        return None
    from .project import HANG_MARK
    if hang := next((l for l in proc.stderr.splitlines() if l.startswith(HANG_MARK)), None):
        return "hang: " + hang.removeprefix(HANG_MARK).strip()
    if "SUMMARY: libFuzzer: timeout" in proc.stderr:
        return "hang: libFuzzer's per-input timeout (-timeout) expired"
    if sig := first_stop(proc.stderr):
        return f"mismatch {sig}"
    summary = next((l for l in proc.stderr.splitlines() if l.startswith("SUMMARY: ")), None)
    return f"sanitizer: {summary[9:]}" if summary else f"exit {proc.returncode}"
