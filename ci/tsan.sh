#!/usr/bin/env bash
# ThreadSanitizer over the pairs whose Bitcoin Core code runs threads (prevout_fetch's worker
# pool, utxo_flush's and coins_view's LevelDB, coins_view's compaction thread): the tsan preset
# (clang-19, libc++, libFuzzer) built into build/tsan, every seed and regression input of its
# targets run once, and every mutant only ThreadSanitizer can catch (a data race no output shows)
# caught by its committed input. The test suite runs it (ctest tsan/replay-and-mutants); the
# nightly fuzzes the same build.
#   ci/tsan.sh       exit 0 clean, 1 a race or a mismatch or a mutant not caught, 3 could not build or run
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh --tests
# The suppressions of libc++'s future and promise frames (harness.cpp) match symbolized frames:
# clang 19's own symbolizer, not whichever llvm-symbolizer is first on PATH (an older one can fail
# on clang 19's debug info under load, and an unsymbolized report is then a false race).
export TSAN_OPTIONS="external_symbolizer_path=/usr/lib/llvm-19/bin/llvm-symbolizer${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
./equifuzz build tsan
./equifuzz --build-dir build/tsan replay
exec ./equifuzz --build-dir build/tsan mutants --check-regressions
