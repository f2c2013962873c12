"""The repository stands alone: no file sends the reader outside it, and every pair's document
links the behaviour facts its models are written from, which live in the repository."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = "../" + "shared"  # spelled apart, so that this file does not name it either


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        return [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts and "build" not in p.parts]
    return [ROOT / line for line in out.stdout.splitlines()]


def test_no_file_names_a_directory_outside_the_repository():
    named = []
    for path in tracked():
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        if OUTSIDE in text:
            named.append(str(path.relative_to(ROOT)))
    assert not named, f"these files name {OUTSIDE}: {named}"


def test_every_pair_document_links_behaviour_facts_that_exist():
    for readme in sorted((ROOT / "differential").glob("*/README.md")):
        if readme.parent.name in ("core", "harness"):
            continue
        links = re.findall(r"\]\(((?:\.\./[a-z_]+/)?BEHAVIOUR\.md)\)", readme.read_text())
        assert links, f"{readme.relative_to(ROOT)} links no BEHAVIOUR.md"
        for link in links:
            assert (readme.parent / link).is_file(), f"{readme.relative_to(ROOT)} links {link}, which does not exist"
