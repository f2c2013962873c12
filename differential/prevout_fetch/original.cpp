// Original side: before #35295, the overlay's every miss asks the middle cache (PeekCoin) when it
// happens; nothing is queued, whatever the worker count.
#include "model.h"

namespace equifuzz::prevout_fetch {
namespace {

struct Serial final : Fetcher {
    Base& base;
    explicit Serial(Base& b) : base{b} {}
    std::optional<Coin> FetchFromBase(const Ref& at) override { return base.middle.Peek(at); }
};

Result Run(const Scenario& s, uint8_t /*workers*/)
{
    Base base{s};
    Serial fetcher{base};
    return RunModel(s, base, fetcher, [](Result&, bool) {});
}

const Side SIDE{"serial overlay (before #35295)", /*fetches=*/false, Run, /*read_block=*/nullptr, /*read_block_fetches=*/false};
} // namespace
} // namespace equifuzz::prevout_fetch

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevout_fetch, equifuzz::prevout_fetch::SIDE)
