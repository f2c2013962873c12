#!/usr/bin/env bash
# The whole test suite: installs what is missing, then configures, builds and tests the replay
# build (Catch2 known answers, corpus replay under ASan+UBSan, every mutant caught, pytest).
# It ends with ctest's summary line. Exit 0 every test passed, 1 a test failed, 2 a bad EQUIFUZZ_CORE,
# 3 could not set up, configure or build. Bitcoin Core's code (the Core sides and the script pair's
# oracle) is required: without it the configure stops with one sentence. EQUIFUZZ_CORE=off
# leaves it out on purpose; ctest then lists core/sides-OFF and core/oracle-OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
core=()
case "${EQUIFUZZ_CORE:-}" in
  "") ;;
  off) core=(-DEQUIFUZZ_CORE_SIDES=OFF -DEQUIFUZZ_CORE_ORACLE=OFF)
       echo "test: EQUIFUZZ_CORE=off: Bitcoin Core's code is left out of this run" ;;
  *) echo "test: EQUIFUZZ_CORE=${EQUIFUZZ_CORE}: the only value is 'off' (leave Bitcoin Core's code out)." >&2; exit 2 ;;
esac
ci/install-deps.sh --tests
if ! cmake --preset replay "${core[@]}"; then
  echo "test: the configure failed (its reason is above); to run without Bitcoin Core's code on purpose: EQUIFUZZ_CORE=off ci/test.sh" >&2
  exit 3
fi
if ! cmake --build --preset replay; then
  echo "test: the build failed (its first error is above)." >&2
  exit 3
fi
# ctest's own status is 8 for a failing test; the tool's codes say 1 (a test that fails found something).
if ! ctest --preset replay; then
  echo "test: a test failed (ctest's summary is above)." >&2
  exit 1
fi
