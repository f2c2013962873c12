// Original side: before #31645, nDefaultDbBatchSize = 16 << 20 (16 MiB).
#include "cache.h"
#include "side.h"

namespace equifuzz::utxo_flush {
namespace {
const Side SIDE{"16 MiB batches (before #31645)", 16 * MiB, [](const Scenario& s) { return RunModel(s, 16 * MiB); }, nullptr};
} // namespace
} // namespace equifuzz::utxo_flush

EQUIFUZZ_EXPORT_SIDE(equifuzz::utxo_flush, equifuzz::utxo_flush::SIDE)
