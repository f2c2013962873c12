// Optimized side (spec 1.3, PR #31682 at f3cc8fd27d): the input checks dispatch on the count.
// One input cannot repeat itself, and if it were null the transaction would be a coinbase; two
// inputs need one comparison; more are sorted, so duplicates are adjacent and every zero-hash
// prevout (the all-zero hash is the minimum in memcmp order) sits at the front, where the null
// one (n = 0xffffffff, the largest n) is the last of them.
#include "rules.h"

#include <algorithm>
#include <vector>

namespace equifuzz::tx_check {
namespace {

bool HashIsZero(const OutPoint& p)
{
    return std::all_of(p.hash.begin(), p.hash.end(), [](uint8_t b) { return b == 0; });
}

TxVerdict CheckInputs(const Transaction& tx)
{
    const auto& vin{tx.vin};
    if (vin.size() == 1) {
        if (tx.IsCoinBase()) {
            const size_t len{vin[0].script_sig.size()};
            if (len < 2 || len > 100) return {false, "bad-cb-length"};
        }
        return {};
    }
    if (vin.size() == 2) {
        if (vin[0].prevout == vin[1].prevout) return {false, "bad-txns-inputs-duplicate"};
        if (vin[0].prevout.IsNull() || vin[1].prevout.IsNull()) return {false, "bad-txns-prevout-null"};
        return {};
    }
    std::vector<OutPoint> sorted;
    sorted.reserve(vin.size());
    for (const TxIn& in : vin) sorted.push_back(in.prevout);
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return {false, "bad-txns-inputs-duplicate"};
    for (const OutPoint& p : sorted) {
        if (!HashIsZero(p)) break;
        if (p.IsNull()) return {false, "bad-txns-prevout-null"};
    }
    return {};
}

TxVerdict CheckTransaction(const Transaction& tx)
{
    if (std::string reason{CheckShapeAndOutputs(tx)}; !reason.empty()) return {false, reason};
    return CheckInputs(tx);
}

BlockVerdict CheckBlock(const Block& block)
{
    return CheckBlockTransactions(block, CheckTransaction);
}

const Side OPTIMIZED{"sorted vector, 1/2-input fast paths", CheckTransaction, CheckBlock};

} // namespace
} // namespace equifuzz::tx_check

EQUIFUZZ_EXPORT_SIDE(equifuzz::tx_check, equifuzz::tx_check::OPTIMIZED)
