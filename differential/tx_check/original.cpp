// Original side (spec 1.2): every prevout inserted, in vin order, into an ordered set; an insert
// that finds the element present is a duplicate. Then the coinbase scriptSig length rule, or the
// scan for a null prevout in a non-coinbase.
#include "rules.h"

#include <set>

namespace equifuzz::tx_check {
namespace {

TxVerdict CheckTransaction(const Transaction& tx)
{
    if (std::string reason{CheckShapeAndOutputs(tx)}; !reason.empty()) return {false, reason};

    std::set<OutPoint> seen;
    for (const TxIn& in : tx.vin) {
        if (!seen.insert(in.prevout).second) return {false, "bad-txns-inputs-duplicate"};
    }

    if (tx.IsCoinBase()) {
        const size_t len{tx.vin[0].script_sig.size()};
        if (len < 2 || len > 100) return {false, "bad-cb-length"};
    } else {
        for (const TxIn& in : tx.vin) {
            if (in.prevout.IsNull()) return {false, "bad-txns-prevout-null"};
        }
    }
    return {};
}

BlockVerdict CheckBlock(const Block& block)
{
    return CheckBlockTransactions(block, CheckTransaction);
}

const Side ORIGINAL{"std::set", CheckTransaction, CheckBlock};

} // namespace
} // namespace equifuzz::tx_check

EQUIFUZZ_EXPORT_SIDE(equifuzz::tx_check, equifuzz::tx_check::ORIGINAL)
