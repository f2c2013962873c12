#!/usr/bin/env bash
# Says which Bitcoin Core trees this job's builds used: for each build/*/ that was configured, where
# its Core trees came from (git at the pinned commits, or the registry crates) and each pair's two
# Core sides; and what the tree cache ($EQUIFUZZ_CORE_CACHE) held. Appends Markdown to
# $GITHUB_STEP_SUMMARY (else prints it), and writes cacheable=true|false to $GITHUB_OUTPUT when set:
# true only when the builds took their trees from git and every one of them is whole in the cache,
# so that a job which fell back to the registry never saves a tree cache that lacks them.
#   ci/core-trees-summary.sh
#   EQUIFUZZ_TREE_CACHE_KEY, EQUIFUZZ_TREE_CACHE_MATCHED  the cache key asked for and the key restored
#                                                         (actions/cache/restore's outputs; optional)
# Always exits 0: it reports, and a job's outcome is its other steps'.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${GITHUB_STEP_SUMMARY:-/dev/stdout}
cache=${EQUIFUZZ_CORE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/equifuzz}
if ! command -v python3 >/dev/null 2>&1; then
  # The job stopped before ci/install-deps.sh installed python3: nothing was configured either.
  printf '### Bitcoin Core trees\n\nNo build was configured (no python3 here yet).\n' >> "$out"
  [[ -n "${GITHUB_OUTPUT:-}" ]] && echo "cacheable=false" >> "$GITHUB_OUTPUT"
  exit 0
fi
python3 - "$cache" "$out" "${GITHUB_OUTPUT:-}" <<'PY'
import os, sys
from pathlib import Path

sys.path.insert(0, str(Path("tools").resolve()))
from equifuzz.errors import InfraError
from equifuzz.manifest import FILE, read

cache, out, gh_output = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
key = os.environ.get("EQUIFUZZ_TREE_CACHE_KEY", "")
matched = os.environ.get("EQUIFUZZ_TREE_CACHE_MATCHED", "")
whole = sorted(p.parent.name for p in (cache / "trees").glob("*/tree.json"))

lines = ["### Bitcoin Core trees", ""]
if matched and matched == key:
    restored = f"restored from `{matched}`"
elif matched:
    restored = f"restored from the older key `{matched}` (the trees it lacked were fetched)"
elif key:
    restored = f"nothing restored for `{key}`: every tree came from the git remote"
else:
    restored = "not restored by this job"
lines += [f"Tree cache `{cache}`: {restored}; it holds {len(whole)} whole tree(s) now.", ""]

cacheable = True
builds = sorted(p.parent for p in Path("build").glob(f"*/{FILE}"))
if not builds:
    lines.append("No build was configured.")
    cacheable = False
git_trees = 0
for build in builds:
    try:
        m = read(build)
    except (OSError, InfraError) as e:
        lines += [f"**{build}**: its manifest could not be read: {e}", ""]
        cacheable = False
        continue
    sides = [s for info in m.pairs.values() for s in info.core]
    source = m.core_trees_from
    if source.startswith("registry"):
        cacheable = False  # the git trees were not to be had: the cache may lack them
    elif not source:
        source = ("the trees named by hand (--core-original, --core-optimized)" if sides
                  else "none: " + (m.core_sides_missing_because or "Core sides off"))
    lines += [f"**{build}**: Core trees from {source}", ""]
    rows = []
    for pair, info in sorted(m.pairs.items()):
        for side in info.core:
            if side.commit:
                git_trees += 1
                if side.commit not in whole:
                    cacheable = False
            rows.append(f"| {pair} | {side.role} | {side.label or side.tree} |")
    if rows:
        lines += ["| pair | side | tree |", "|---|---|---|", *rows, ""]
if git_trees == 0:
    cacheable = False
with open(out, "a") as f:
    f.write("\n".join(lines) + "\n")
if gh_output:
    with open(gh_output, "a") as f:
        f.write(f"cacheable={'true' if cacheable else 'false'}\n")
PY
exit 0
