// The parts of CheckTransaction and CheckBlock that PR #31682 leaves unchanged: both sides use
// them, so they are written once. Each side supplies its own input checks (steps 5 and 6).
#pragma once

#include "side.h"

namespace equifuzz::tx_check {

inline bool MoneyRange(int64_t v) { return v >= 0 && v <= MAX_MONEY; }

//! Steps 1-4 in order: vin empty, vout empty, oversize (no-witness size), then per output in
//! vout order negative / too large / running total out of range. Empty reason = all passed.
std::string CheckShapeAndOutputs(const Transaction& tx);

//! CheckBlock's transaction rules: the first transaction must be a coinbase and no other may be;
//! then every transaction's CheckTransaction, the first failure's reason copied through.
template <typename CheckTx>
BlockVerdict CheckBlockTransactions(const Block& block, CheckTx check_tx)
{
    if (block.txs.empty() || !block.txs[0].IsCoinBase()) return {false, "bad-cb-missing", ""};
    for (size_t i = 1; i < block.txs.size(); ++i) {
        if (block.txs[i].IsCoinBase()) return {false, "bad-cb-multiple", ""};
    }
    for (const Transaction& tx : block.txs) {
        const TxVerdict v{check_tx(tx)};
        if (!v.valid) return {false, v.reason, "Transaction check failed (tx hash " + DisplayHex(Txid(tx)) + ") "};
    }
    return {};
}

} // namespace equifuzz::tx_check
