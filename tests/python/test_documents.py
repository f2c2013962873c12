"""Every relative link in every tracked Markdown file leads somewhere: `[text](path)` names a file
or directory the repository holds, and `[text](path#anchor)` or `[text](#anchor)` into a Markdown
file names one of its headings, by GitHub's rule for heading anchors. Links to other sites
(`https://...`) are not followed; code (fenced blocks, indented blocks, `inline`) is not read.
A document does not link to itself by its file name: an in-page link is `#anchor`.

The reproducer commands the documents print are run by test_findings.py.
"""
import re
import subprocess
import unicodedata
from pathlib import Path
from typing import Callable
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]

# [text](target) and ![alt](target), the target optionally in <...> and followed by a "title";
# the text may hold one level of brackets ([`x`][y] is not used here).
LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
FENCE = re.compile(r"(`{3,}|~{3,})")
HEADING = re.compile(r"#{1,6}\s+(.*?)\s*#*\s*$")


def tracked_markdown() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:  # a copy without .git: every Markdown file but the builds'
        return sorted(p for p in ROOT.rglob("*.md") if not {".git", "build", ".venv"} & set(p.relative_to(ROOT).parts))
    return [ROOT / line for line in out.stdout.splitlines()]


def repository_paths() -> Callable[[Path], bool]:
    """Whether a path (absolute, under ROOT) is a file the repository holds or a directory of one."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        return lambda p: p.exists()
    held = set()
    for line in out.stdout.splitlines():
        path = Path(line)
        held.add(path)
        held.update(path.parents)
    return lambda p: p.relative_to(ROOT) in held


def prose(text: str, inline_code: bool = False) -> list[str]:
    """The document's lines with code blocks blanked out (line numbers kept), and `inline code`
    too unless inline_code (a heading's anchor keeps its code's text)."""
    lines, fence, code, blank_before = [], None, False, True
    for line in text.splitlines():
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if fence:
            if stripped.startswith(fence):
                fence = None
            lines.append("")
            continue
        opening = FENCE.match(stripped)
        if opening and indent < 4:
            fence = opening.group(1)
            lines.append("")
            continue
        if (line.startswith("    ") or line.startswith("\t")) and (blank_before or code):
            code = True
            lines.append("")
            continue
        code = False
        blank_before = not stripped
        lines.append(line if inline_code else re.sub(r"(`+).*?\1", "", line))
    return lines


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: link syntax and code marks dropped, lower case, every
    character but letters, digits, spaces, '-' and '_' removed, spaces made '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    """Every heading anchor of a Markdown file; a repeated heading gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(doc.read_text(), inline_code=True):
        m = HEADING.match(line)
        if m:
            slug = github_slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def broken_links(doc: Path, root: Path, held: Callable[[Path], bool]) -> list[str]:
    """`<file>:<line>: <target>: <why>` for each relative link of `doc` that leads nowhere."""
    problems = []
    name = doc.relative_to(root)
    for number, line in enumerate(prose(doc.read_text()), 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            path, _, anchor = target.partition("#")
            path = unquote(path)
            if not path:
                dest = doc
            elif path.startswith("/"):
                dest = root / path.lstrip("/")
            else:
                dest = doc.parent / path
            dest = Path(*_normalized(dest.parts))
            where = f"{name}:{number}: {target}"
            if root not in (dest, *dest.parents):
                problems.append(f"{where}: outside the repository")
            elif path and dest == doc:
                problems.append(f"{where}: the document itself (an in-page link is #anchor)")
            elif not held(dest):
                problems.append(f"{where}: no such file in the repository")
            elif anchor and dest.suffix == ".md" and dest.is_file() and anchor not in anchors(dest):
                problems.append(f"{where}: {dest.relative_to(root)} has no heading #{anchor}")
    return problems


def _normalized(parts: tuple[str, ...]) -> list[str]:
    """The parts with '.' and 'name/..' resolved lexically (no symbolic links followed)."""
    out: list[str] = []
    for part in parts:
        if part == ".":
            continue
        if part == ".." and out and out[-1] not in ("/", ".."):
            out.pop()
        else:
            out.append(part)
    return out


def test_every_relative_link_in_every_document_leads_somewhere():
    held = repository_paths()
    docs = tracked_markdown()
    assert ROOT / "README.md" in docs and ROOT / "FINDINGS.md" in docs
    problems = [p for doc in docs for p in broken_links(doc, ROOT, held)]
    assert not problems, "links that lead nowhere:\n" + "\n".join(problems)


def test_the_check_finds_each_kind_of_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## How it works: in `one` step\n")
    (tmp_path / "outside.md").write_text("")
    doc = tmp_path / "docs" / "page.md"
    doc.write_text(
        "# A page\n\n"
        "[fine](other.md) [fine too](other.md#how-it-works-in-one-step) [here](#a-page) [dir](../docs)\n"
        "[missing](gone.md)\n"
        "[bad anchor](other.md#no-such-heading)\n"
        "[bad in-page anchor](#nowhere)\n"
        "[itself](page.md#a-page)\n"
        "[above the root](../../elsewhere.md)\n"
        "[web](https://example.org/gone.md) `[inline code](gone.md)`\n"
        "\n```\n[fenced](gone.md)\n```\n"
        "\n    [indented code](gone.md)\n")
    problems = broken_links(doc, tmp_path, lambda p: p.exists())
    assert [p.split(": ", 1)[0] for p in problems] == [f"docs/page.md:{n}" for n in (4, 5, 6, 7, 8)], problems
    assert "gone.md: no such file" in problems[0]
    assert "has no heading #no-such-heading" in problems[1]
    assert "has no heading #nowhere" in problems[2]
    assert "the document itself" in problems[3]
    assert "outside the repository" in problems[4]


def test_heading_anchors_follow_githubs_rule(tmp_path):
    assert github_slug("Is the optimized side faster? `./equifuzz bench` (2026-11-24)") == \
        "is-the-optimized-side-faster-equifuzz-bench-2026-11-24"
    assert github_slug("Structured mutations: long, well-formed inputs in one step") == \
        "structured-mutations-long-well-formed-inputs-in-one-step"
    assert github_slug("Configuring a side: `CORE_EDIT`") == "configuring-a-side-core_edit"
    doc = tmp_path / "d.md"
    doc.write_text("# Notes\n## Notes\n```\n# not a heading\n```\n## Notes\n")
    assert anchors(doc) == {"notes", "notes-1", "notes-2"}
