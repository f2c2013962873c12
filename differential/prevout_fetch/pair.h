// The prevout fetch pair's fuzz input (a scenario, side.h) decoded from the fuzzer's bytes, its
// description, what the sides' results are compared on, and the check.
#pragma once

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

#include "side.h"

#include <optional>
#include <string>
#include <vector>

namespace equifuzz::prevout_fetch {

//! Database coins and middle-cache entries over a few outpoints, a block of up to six
//! transactions whose inputs spend database coins, middle-cache coins (spent ones too), missing
//! outpoints, outputs of earlier or later transactions of the block (never a cycle) and the same
//! outpoint twice; a worker count from WORKER_CHOICES; an access pattern; flush or not.
Scenario Decode(FuzzedDataProvider& fdp);
//! Decode's mirror (encode.cpp): the bytes Decode reads back as `s`, for the seed program. A value
//! Decode cannot produce is written as the nearest one it can (a count past its range is cut, a
//! reference that would close a cycle becomes the external x1:0).
Bytes EncodeScenario(const Scenario& s);
Description Describe(const Scenario& s);
std::string RefName(const Ref& r);
//! The first caller contract the scenario breaks, in one sentence, or "": the middle cache gets
//! an AddCoin without possible_overwrite only for an outpoint it and the database below show no
//! unspent coin at (AddCoin's contract: FRESH only for a coin no parent holds), and no transaction
//! spends one outpoint twice (ConnectBlock is called on blocks CheckBlock accepted). Decode builds
//! only such scenarios unless EQUIFUZZ_BEYOND_CONTRACT.
std::string ContractBreak(const Scenario& s);

//! What every side must agree on: every access's result, how the block ended, the overlay's
//! content before the flush, the flush, and the middle cache after (nullopt: left out, a side
//! could not flush, side.h's flush_withheld).
struct Observed {
    std::vector<Access> accesses;
    std::string stopped;
    Snapshot overlay;
    bool flushed{false};
    std::string flush_error;
    std::optional<Snapshot> middle;
    bool operator==(const Observed&) const = default;
    Outcome ToOutcome() const;
};

//! What the prefetch queue's sides (our optimized model, Core's merge with workers) must agree on.
struct Fetching {
    bool consumed{false};
    std::vector<std::string> warnings;
    bool operator==(const Fetching&) const = default;
    Outcome ToOutcome() const;
};

//! Runs the scenario on every side (Core's merge also with 0 workers) and compares what they
//! observed; with workers, compares the queue's consumption and warnings of our optimized model
//! and Core's merge; and checks that ConnectBlock's order over a block a node could accept
//! (no input spending the coinbase or the same outpoint twice) consumes every queued input.
void Check(const Scenario& s);

} // namespace equifuzz::prevout_fetch
