#!/usr/bin/env bash
# The main job: installs what is missing, builds every target with libFuzzer+ASan+UBSan, fuzzes
# each briefly and prints the summary table, with the reach of each pair's pinned change (the
# coverage build replays the seeds, regressions and the inputs the campaigns kept: how many of the
# executable lines the change alters each Core side ran). Budget per target: first argument
# (default 30 s). EQUIFUZZ_MAIN_REACH=0 leaves the reach (and the coverage build) out.
# Mutant binaries are left out here (they are the test suite's business: ci/test.sh); to hunt
# mutants with libFuzzer, build with them: ./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=ON
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF
reach=--reach
[[ "${EQUIFUZZ_MAIN_REACH:-1}" == 0 ]] && reach=
exec ./equifuzz fuzz --all --seconds "${1:-30}" --quiet $reach
