#!/usr/bin/env bash
# The main job: installs what is missing, builds every target with libFuzzer+ASan+UBSan, fuzzes
# each briefly and prints the summary table. Budget per target: first argument (default 30 s).
# Mutant binaries are left out here (they are the test suite's business: ci/test.sh); to hunt
# mutants with libFuzzer, build with them: ./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=ON
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF
exec ./equifuzz fuzz --all --seconds "${1:-30}" --quiet
