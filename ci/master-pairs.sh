#!/usr/bin/env bash
# CI, nightly: the master check's plan for the night, resolved once so that every pair's job meets
# the same commit: the git remote's master (a commit id) and the pairs to check against it (those
# the build declares that differential/core/commits.json pins; any other is said on stderr).
#   ci/master-pairs.sh   prints master=<40 hex digits> and pairs=<JSON list>, and writes the same
#                        lines to $GITHUB_OUTPUT when set (the workflow's matrix reads them)
# Exit 0, or 3 when master could not be had or no pair could be listed (one sentence says which).
set -uo pipefail
cd "$(dirname "$0")/.."
# A debian:12 container has no python3 (the other scripts install it with the rest, ci/install-deps.sh).
if ! command -v python3 >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3; } >/tmp/equifuzz-apt.log 2>&1 \
      || { echo "master-pairs: apt-get could not install python3 (log: /tmp/equifuzz-apt.log)." >&2; exit 3; }
  else
    echo "master-pairs: python3 is missing; install it." >&2; exit 3
  fi
fi
if ! master=$(PYTHONPATH=tools python3 -m equifuzz.core_git tree --spec git:master | python3 -c 'import json, sys; print(json.load(sys.stdin)["commit"])'); then
  echo "master-pairs: the remote's master could not be had (\$EQUIFUZZ_CORE_GIT_REMOTE, else github.com/bitcoin/bitcoin); no pair can be checked against it." >&2
  exit 3
fi
if ! pins=$(PYTHONPATH=tools python3 -m equifuzz.core_git pins 2> >(sed 's/^/master-pairs: /' >&2)) || [[ -z "$pins" ]]; then
  echo "master-pairs: no pinned pair could be listed (python3 -m equifuzz.core_git pins)." >&2
  exit 3
fi
pairs=$(awk '{print $1}' <<< "$pins" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')
printf 'master=%s\npairs=%s\n' "$master" "$pairs" | tee -a "${GITHUB_OUTPUT:-/dev/null}"
