#!/usr/bin/env bash
# CI: every target under libFuzzer + ASan + UBSan for a short budget, from its seeds and
# regressions and the corpus a previous run left in build/campaigns/ (CI restores it from cache).
# Fails on any mismatch or sanitizer report. The summary table and every crash input are copied
# into the artifacts directory, with a reproduce command per finding.
#   ci/smoke.sh [SECONDS]   budget per target (default $SMOKE_SECONDS or 60)
#   ARTIFACTS_DIR           where the summary and crash inputs go (default build/artifacts/smoke)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${SMOKE_SECONDS:-60}}
artifacts=${ARTIFACTS_DIR:-build/artifacts/smoke}
mkdir -p "$artifacts"
ci/install-deps.sh --tests
./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF
rc=0
touch "$artifacts/.started"
./equifuzz fuzz --all --seconds "$seconds" --quiet | tee "$artifacts/fuzz-summary.md" || rc=${PIPESTATUS[0]}
ci/collect-crashes.sh libfuzzer "$artifacts" "$artifacts/.started"
exit "$rc"
