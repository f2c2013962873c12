#!/usr/bin/env bash
# CI: every seed and regression input of every target, once, through the replay build (ASan+UBSan,
# no fuzzing engine). Fails on any mismatch or sanitizer report, or when a target has nothing to
# replay. The mutants' reproducers and the known answers are the test suite's (ci/test.sh).
#   ci/replay.sh            exit 0 clean, 1 a finding, 3 could not build or run (./equifuzz's codes)
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh --tests
# The replay preset without mutant binaries, tests or benchmarks: only what replays corpora.
./equifuzz build replay --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF --cmake-arg=-DEQUIFUZZ_TESTS=OFF --cmake-arg=-DEQUIFUZZ_BENCH=OFF
exec ./equifuzz replay
