#!/usr/bin/env python3
"""Makes the committed example report (tests/example-report/) from the output directory of a
`verify` run: report.json with this machine's paths replaced by the names a reader knows (the two
trees, the output directory, the checkout), report.md rendered from it, and the run's plots.
tests/python/test_example_report.py renders report.md from report.json again, so the example
cannot drift from what the report code writes.

  tools/example_report.py OUT_DIR --before-tree PATH --after-tree PATH
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import report_md  # noqa: E402

EXAMPLE = ROOT / "tests" / "example-report"
#: What the example's paths read as: the trees as a reviewer's two checkouts, the output directory
#: as one of verify's report directories.
BEFORE, AFTER, OUT = "~/bitcoin-master", "~/bitcoin-pr", "build/verify/example"


def sanitized(text: str, before: Path, after: Path, out: Path) -> str:
    for path, name in ((out, OUT), (before, BEFORE), (after, AFTER), (ROOT, ".")):
        text = text.replace(f"{path}/", "" if name == "." else f"{name}/").replace(str(path), name)
    return text


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="the verify run's --out directory")
    p.add_argument("--before-tree", type=Path, required=True)
    p.add_argument("--after-tree", type=Path, required=True)
    args = p.parse_args()
    facts = args.out / "report.json"
    if not facts.is_file():
        print(f"example_report: {facts} does not exist: give the --out directory of a finished verify run.", file=sys.stderr)
        return 2
    EXAMPLE.mkdir(parents=True, exist_ok=True)
    text = sanitized(facts.read_text(), args.before_tree.resolve(), args.after_tree.resolve(), args.out.resolve())
    (EXAMPLE / "report.json").write_text(text)
    (EXAMPLE / "report.md").write_text(report_md.render_markdown(json.loads(text)))
    for png in ("coverage.png", "mutants.png", "survival.png"):
        if (args.out / png).is_file():
            shutil.copyfile(args.out / png, EXAMPLE / png)
    print(f"example_report: wrote {EXAMPLE.relative_to(ROOT)}/report.json and report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
