// Optimized side: the contract alone, every cache an overlay of the coins it changed, spent ones
// kept, nothing FRESH (model.h). It keeps more entries than Core and writes more erases, and must
// answer every call the same.
#include "model.h"

namespace equifuzz::coins_view {
namespace {
Result Run(const Scenario& s) { return RunModel(s, /*fresh_rule=*/false); }
const Side SIDE{"caches as overlays of their changes (the contract alone)", Run, nullptr, false};
} // namespace
} // namespace equifuzz::coins_view

EQUIFUZZ_EXPORT_SIDE(equifuzz::coins_view, equifuzz::coins_view::SIDE)
