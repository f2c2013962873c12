#!/usr/bin/env bash
# The whole test suite: installs what is missing, then configures, builds and tests the replay
# build (Catch2 known answers, corpus replay under ASan+UBSan, every mutant caught, pytest).
# It ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh --tests
exec cmake --workflow --preset replay
