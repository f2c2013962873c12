// Original side: Core's FRESH/DIRTY state machine as its header documents it (model.h).
#include "model.h"

namespace equifuzz::coins_view {
namespace {
Result Run(const Scenario& s) { return RunModel(s, /*fresh_rule=*/true); }
const Side SIDE{"caches with FRESH and DIRTY entries (Core's documented state machine)", Run, nullptr, false};
} // namespace
} // namespace equifuzz::coins_view

EQUIFUZZ_EXPORT_SIDE(equifuzz::coins_view, equifuzz::coins_view::SIDE)
