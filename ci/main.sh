#!/usr/bin/env bash
# The main job: installs what is missing, builds every target with libFuzzer+ASan+UBSan, fuzzes
# each briefly and prints the summary table. Budget per target: first argument (default 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
./equifuzz build libfuzzer
exec ./equifuzz fuzz --all --seconds "${1:-30}" --quiet
