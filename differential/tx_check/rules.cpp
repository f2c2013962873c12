#include "rules.h"

namespace equifuzz::tx_check {

std::string CheckShapeAndOutputs(const Transaction& tx)
{
    if (tx.vin.empty()) return "bad-txns-vin-empty";
    if (tx.vout.empty()) return "bad-txns-vout-empty";
    // Witness bytes never count here: the stripped size times 4 against the block weight.
    if (SerializedSize(tx, /*with_witness=*/false) * WITNESS_SCALE_FACTOR > MAX_BLOCK_WEIGHT) return "bad-txns-oversize";
    int64_t total{0};
    for (const TxOut& out : tx.vout) {
        if (out.value < 0) return "bad-txns-vout-negative";
        if (out.value > MAX_MONEY) return "bad-txns-vout-toolarge";
        total += out.value; // both terms are in [0, MAX_MONEY]: no overflow
        if (!MoneyRange(total)) return "bad-txns-txouttotal-toolarge";
    }
    return "";
}

} // namespace equifuzz::tx_check
