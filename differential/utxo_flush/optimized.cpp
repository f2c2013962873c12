// Optimized side: after #31645, DEFAULT_DB_CACHE_BATCH = 32 MiB.
#include "cache.h"
#include "side.h"

namespace equifuzz::utxo_flush {
namespace {
const Side SIDE{"32 MiB batches (after #31645)", 32 * MiB, [](const Scenario& s) { return RunModel(s, 32 * MiB); }, nullptr};
} // namespace
} // namespace equifuzz::utxo_flush

EQUIFUZZ_EXPORT_SIDE(equifuzz::utxo_flush, equifuzz::utxo_flush::SIDE)
