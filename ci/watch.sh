#!/usr/bin/env bash
# The watch over Bitcoin Core's open pull requests (tools/equifuzz/watch.py): those that change a
# file a pair's Core side compiles are verified, each new head once, at most WATCH_MAX a run.
#   ci/watch.sh INDEX [PR...]
# INDEX: the files each pair's Core sides compile (python3 -m equifuzz.watch index); PR: only these.
# Environment: WATCH_STATE (the verified heads, kept between runs; default build/watch-state),
# WATCH_OUT (default build/artifacts/watch), WATCH_MAX (default 3), WATCH_MINUTES (default 10),
# GITHUB_TOKEN (read-only; raises the API's rate limit), EQUIFUZZ_CORE_GIT_REMOTE.
set -uo pipefail
cd "$(dirname "$0")/.."
if (($# < 1)); then
  echo "watch: usage: ci/watch.sh INDEX [PR...]" >&2
  exit 3
fi
index=$1
shift
prs=()
for pr in "$@"; do prs+=(--pr "$pr"); done
PYTHONPATH=tools python3 -m equifuzz.watch run --index "$index" --state "${WATCH_STATE:-build/watch-state}" \
  --out "${WATCH_OUT:-build/artifacts/watch}" --max "${WATCH_MAX:-3}" --minutes "${WATCH_MINUTES:-10}" "${prs[@]}"
