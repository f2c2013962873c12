#!/usr/bin/env bash
# The watch over Bitcoin Core's open pull requests (tools/equifuzz/watch.py): those that change a
# file a pair's Core side compiles are verified, each new head once, at most WATCH_MAX a run.
#   ci/watch.sh [PR...]        PR: only these (else WATCH_PRS, else every open pull request)
# Environment: WATCH_INDEX (the files each pair's Core sides compile; default: written here from a
# configure of the replay preset, its Core sides built), WATCH_STATE (the verified heads, kept
# between runs; default build/watch-state), WATCH_OUT (default build/artifacts/watch), WATCH_MAX
# (default 3), WATCH_MINUTES (each verify's budget, default 10), GITHUB_TOKEN (read-only; the API's
# rate limit), EQUIFUZZ_CORE_GIT_REMOTE (where the heads are fetched from), WATCH_ARGS (below).
#   exit 0 it ran (the verdicts are in the summary), 3 the API, the remote or a verify could not
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ "${WATCH_SKIP_DEPS:-}" != 1 ]]; then
  ci/install-deps.sh --tests || exit 3
fi
out=${WATCH_OUT:-build/artifacts/watch}
mkdir -p "$out"
index=${WATCH_INDEX:-}
if [[ -z "$index" ]]; then
  index="$out/compiled-files.json"
  PYTHONPATH=tools python3 -m equifuzz.watch index --build-dir build/watch-index --configure --out "$index" || exit 3
fi
prs=()
# shellcheck disable=SC2206  # numbers separated by spaces
for pr in "$@" ${WATCH_PRS:-}; do prs+=(--pr "$pr"); done
# WATCH_ARGS: more arguments of python3 -m equifuzz.watch run, split at spaces (--repo, --api, ...).
read -r -a extra <<< "${WATCH_ARGS:-}"
PYTHONPATH=tools python3 -m equifuzz.watch run --index "$index" --state "${WATCH_STATE:-build/watch-state}" \
  --out "$out" --max "${WATCH_MAX:-3}" --minutes "${WATCH_MINUTES:-10}" "${prs[@]}" "${extra[@]}"
