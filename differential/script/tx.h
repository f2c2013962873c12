// Transactions for the script pair, on the suite's one transaction model (common/transaction.h:
// Transaction, TxIn, TxOut, its serialization and Txid): the credit/spend pair of
// script_tests.json, legacy, BIP143 and BIP341 signature hashes, and a checker that verifies
// signatures with libsecp256k1. The fuzz targets use FakeChecker (pair.h) instead: fast and
// deterministic.
#pragma once

#include "side.h"

#include <common/transaction.h>

#include <cstdint>

namespace equifuzz::script {

//! The full serialization: with the segwit marker, flag and witness stacks when any input has a
//! witness, otherwise without (Core refuses an all-empty witness section).
inline Bytes SerializeWithWitness(const Transaction& tx) { return SerializeTransaction(tx, /*with_witness=*/true); }

//! script_tests.json's transactions: the credit pays `amount` to `script_pubkey`; the spend
//! spends it with `script_sig` and `witness`.
Transaction BuildCreditingTransaction(const Bytes& script_pubkey, int64_t amount);
Transaction BuildSpendingTransaction(const Bytes& script_sig, const Stack& witness, const Transaction& credit);

Bytes LegacySignatureHash(const Bytes& script_code, const Transaction& tx, size_t input, int32_t hash_type);
Bytes SegwitV0SignatureHash(const Bytes& script_code, const Transaction& tx, size_t input, int32_t hash_type, int64_t amount);

//! BIP-341's signature message hash (TaggedHash("TapSighash", 0x00 || SigMsg)) for input `input`
//! of `tx`, whose inputs spend `spent` (one output per input). False when `hash_type` is not
//! valid or SIGHASH_SINGLE has no output at the input's index.
bool TaprootSignatureHash(const Transaction& tx, size_t input, const std::vector<TxOut>& spent, uint8_t hash_type,
                          const TaprootContext& context, Bytes& hash);

//! Verifies signatures against input `input` of `tx` (spending `amount`). Schnorr signatures also
//! need every spent output (`spent`, in input order); without them they fail, as in Core.
class TransactionChecker final : public Checker
{
public:
    TransactionChecker(const Transaction& tx, size_t input, int64_t amount, std::vector<TxOut> spent = {});
    ~TransactionChecker() override;
    bool CheckECDSASignature(const Bytes& sig, const Bytes& pubkey, const Bytes& script_code, SigVersion sigversion) const override;
    bool CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext& context, ScriptError& error) const override;
    bool CheckLockTime(int64_t locktime) const override;
    bool CheckSequence(int64_t sequence) const override;

private:
    const Transaction& m_tx;
    size_t m_input;
    int64_t m_amount;
    std::vector<TxOut> m_spent;
};

} // namespace equifuzz::script
