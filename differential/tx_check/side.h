// CheckTransaction pair (spec section 1): the context-free transaction checks, with duplicate-input
// and null-prevout detection done by an ordered set (original) or by PR #31682's dispatch on the
// input count: nothing for one input, a comparison for two, a sorted vector for more (optimized).
#pragma once

#include <common/transaction.h>
#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <functional>
#include <string>

namespace equifuzz::tx_check {

//! What CheckTransaction makes observable: the verdict and the exact reject reason.
struct TxVerdict {
    bool valid{true};
    std::string reason; //!< empty when valid
    bool operator==(const TxVerdict&) const = default;
};

//! What CheckBlock's transaction rules make observable (merkle root, size, sigops not modelled).
struct BlockVerdict {
    bool valid{true};
    std::string reason;
    std::string debug;   //!< "Transaction check failed (tx hash <txid>) " for a bad transaction
    bool operator==(const BlockVerdict&) const = default;
};

struct Side {
    const char* name;
    TxVerdict (*check_transaction)(const Transaction& tx);
    //! The coinbase placement rules, then CheckTransaction on every transaction in order.
    BlockVerdict (*check_block)(const Block& block);
    //! Benchmarks only (bench/tx_check_bench.cpp): `tx` converted once into the side's own type,
    //! then a call that checks it with no conversion inside. Null on our sides, whose own type is
    //! the model: the bench calls check_transaction.
    std::function<TxVerdict()> (*prepare_check)(const Transaction& tx){nullptr};
};

//! Our std::set and #31682 models, then Bitcoin Core's CheckTransaction from two trees when built.
EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::tx_check
