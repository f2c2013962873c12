// Optimized side: #35295's prefetch queue. With workers, StartFetching queues every input of the
// block but the coinbase's, leaving out those whose txid is an earlier transaction's of the same
// block (AddCoins puts those in the overlay itself); a miss whose outpoint is the queue's next
// unconsumed entry takes it (the value is the middle cache's, which nothing changes while the
// block is connected), any other miss asks the middle cache directly and the queue's tail stays
// where it is. A flush with entries left logs a warning. A pool that refuses the tasks (it was
// interrupted) leaves nothing queued: a warning, then the serial path.
#include "model.h"

#include <vector>

namespace equifuzz::prevout_fetch {
namespace {

struct Queue final : Fetcher {
    Base& base;
    std::vector<Ref> inputs;
    size_t tail{0};
    bool submit_failed{false};
    Queue(Base& b, const Scenario& s, uint8_t workers) : base{b}
    {
        if (workers == 0) return;  // no pool started: nothing queued, the serial path
        for (size_t i = 1; i < s.vtx.size(); ++i) {
            for (const Ref& r : s.vtx[i].vin) {
                // The txid filter: an earlier non-coinbase transaction of this block (any output index).
                const bool earlier{!r.External() && r.tx >= 1 && r.tx < i};
                if (!earlier) inputs.push_back(r);
            }
        }
        if (!inputs.empty() && s.interrupted) {
            submit_failed = true;
            inputs.clear();
        }
    }
    std::optional<Coin> FetchFromBase(const Ref& at) override
    {
        if (tail < inputs.size() && inputs[tail] == at) ++tail;
        return base.middle.Peek(at);
    }
    bool Consumed() const { return tail == inputs.size(); }
};

Result Run(const Scenario& s, uint8_t workers)
{
    Base base{s};
    Queue queue{base, s, workers};
    return RunModel(s, base, queue, [&](Result& r, bool flushing) {
        if (!flushing) {
            if (queue.submit_failed) r.warnings.push_back(SubmitFailedWarning());
            r.consumed = queue.Consumed();
        } else if (!queue.Consumed()) {
            r.warnings.push_back(UnconsumedWarning());
        }
    });
}

const Side SIDE{"prefetch queue (#35295)", /*fetches=*/true, Run, /*read_block=*/nullptr, /*read_block_fetches=*/false};
} // namespace
} // namespace equifuzz::prevout_fetch

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevout_fetch, equifuzz::prevout_fetch::SIDE)
