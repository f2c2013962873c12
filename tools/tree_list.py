#!/usr/bin/env python3
"""Writes differential/core/tree-check.json, the trees `./equifuzz trees` builds every pair's Core
side on (beside every commit differential/core/commits.json pins): master as each month from 2024-08
(v28.99) ended, the last first-parent commit before the next month's first day, up to the newest
master in the git remote, and that newest commit.

  EQUIFUZZ_CORE_GIT_REMOTE=<a clone of Core> tools/tree_list.py [--first 2024-08]
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE_LIST = ROOT / "differential" / "core" / "tree-check.json"


def git(remote: str, *args: str) -> str:
    return subprocess.run(["git", "-C", remote, *args], capture_output=True, text=True, check=True).stdout.strip()


def version(remote: str, commit: str) -> str:
    """vMAJOR.MINOR of the tree at `commit`, from its CMakeLists.txt or, before the CMake build,
    its configure.ac."""
    for path, pattern in (("CMakeLists.txt", r"set\(CLIENT_VERSION_(MAJOR|MINOR) (\d+)\)"),
                          ("configure.ac", r"define\(_CLIENT_VERSION_(MAJOR|MINOR), (\d+)\)")):
        try:
            text = git(remote, "show", f"{commit}:{path}")
        except subprocess.CalledProcessError:
            continue
        found = dict(re.findall(pattern, text))
        if "MAJOR" in found and "MINOR" in found:
            return f"v{found['MAJOR']}.{found['MINOR']}"
    return "unknown"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", default="2024-08", help="the first month (YYYY-MM, default 2024-08)")
    args = p.parse_args()
    remote = os.environ.get("EQUIFUZZ_CORE_GIT_REMOTE")
    if not remote:
        print("tree_list: set EQUIFUZZ_CORE_GIT_REMOTE to a clone of Bitcoin Core with its master branch.", file=sys.stderr)
        return 2
    master = "refs/heads/master"
    newest, newest_date = git(remote, "log", "-1", "--format=%H %cs", master).split()
    year, month = map(int, args.first.split("-"))
    commits, seen = [], set()
    while True:
        # A month's tree: master as it stood when the month ended (the last first-parent commit
        # before the next month's first day); the month still running is the newest commit below.
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        day = datetime.date(year, month, 1).isoformat()
        if day > newest_date:
            break
        line = git(remote, "log", "--first-parent", "-1", "--format=%H %cs", f"--before={day}T00:00:00Z", master)
        if line:
            commit, date = line.split()
            if commit not in seen:
                seen.add(commit)
                commits.append({"commit": commit, "date": date, "version": version(remote, commit), "what": f"master before {day}"})
    if newest not in seen:
        commits.append({"commit": newest, "date": newest_date, "version": version(remote, newest),
                        "what": "master (newest in the remote)"})
    about = ("The Core trees ./equifuzz trees builds every pair's Core side on (with every commit "
             f"differential/core/commits.json pins): master as each month from {args.first} ended (the last first-parent "
             "commit before the next month's first day) up to the newest master in the remote, and that newest commit "
             "(tools/tree_list.py writes this file). The pinned commits and their first parents come from commits.json.")
    TREE_LIST.write_text("{\n  \"about\": " + json.dumps(about) + ",\n  \"commits\": [\n"
                         + ",\n".join("    " + json.dumps(c) for c in commits) + "\n  ]\n}\n")
    print(f"tree_list: {len(commits)} trees written to {TREE_LIST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
