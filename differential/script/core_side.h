// Script pair: Bitcoin Core 26.0's own verifier (libbitcoinconsensus, via the Rust crate in
// core_oracle/) as a third side. Our interpreter is a model of Core's; this side makes the model
// answer to the real thing, on the verdict (valid / invalid) only: the library reports no error
// codes. It sees what the 520-versus-8000 differential cannot: a bug shared by all three of our
// configurations (they are one interpreter).
//
// The comparison: the spend is put in a real transaction (script_tests.json's crediting and
// spending pair, with a fuzzed version, lock time, sequence and amount), the flags are cut to the
// consensus flags the library accepts, and our 520 side, with the real signature checker over
// that transaction, must give Core's verdict. Without the oracle (no Rust toolchain at configure
// time) CoreOracleAvailable() is false and CheckAgainstCore() does nothing.
#pragma once

#include "side.h"
#include "tx.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

namespace equifuzz::script {

bool CoreOracleAvailable();
//! The flags the library accepts (Core's bit positions, which are ours): P2SH, DERSIG, NULLDUMMY,
//! CHECKLOCKTIMEVERIFY, CHECKSEQUENCEVERIFY, WITNESS, TAPROOT. 0 without the oracle.
uint32_t CoreConsensusFlags();
//! `flags` as Core is given them: cut to the consensus set, with P2SH wherever WITNESS is (Core
//! asserts that pairing).
uint32_t CoreFlags(uint32_t flags);

//! The transaction around a spend.
struct CoreContext {
    int32_t version{1};
    uint32_t locktime{0};
    uint32_t sequence{0xffffffff};
    int64_t amount{0};
    uint8_t outputs{1}; //!< 0, 1 or 2 outputs (the first pays `amount` to an empty script)
};
//! Mostly script_tests.json's values (an empty provider gives exactly those), often values that
//! make lock-time checks pass or fail at their boundaries.
CoreContext ConsumeCoreContext(FuzzedDataProvider& fdp);

//! The spend that runs an EvalInput's script as Core would: BASE as a bare scriptPubKey under a
//! push-only scriptSig holding the initial stack; WITNESS_V0 as P2WSH; TAPSCRIPT as a single-leaf
//! P2TR script path. Flags are those of the input plus what the wrapping needs.
SpendInput EvalAsSpend(const EvalInput& in);

//! The spending transaction for `in` in `ctx` (serialize it with SerializeWithWitness, tx.h).
Transaction CoreSpendingTransaction(const SpendInput& in, const CoreContext& ctx);

enum class CoreVerdict { VALID, INVALID, REFUSED };
struct CoreAnswer {
    CoreVerdict verdict{CoreVerdict::REFUSED};
    int code{-1}; //!< the library's outcome (see core_oracle/include/equifuzz_core_oracle.h)
};
//! Core's verdict on `in` (flags cut to the consensus set) in `ctx`; `tx` is
//! CoreSpendingTransaction(in, ctx), made once when both verifiers run.
CoreAnswer CoreVerify(const SpendInput& in, const CoreContext& ctx, const Transaction& tx);
inline CoreAnswer CoreVerify(const SpendInput& in, const CoreContext& ctx) { return CoreVerify(in, ctx, CoreSpendingTransaction(in, ctx)); }
//! Our 520 side's answer on the same spend, with the real checker over the same transaction.
VerifyResult OursVerify(const SpendInput& in, const CoreContext& ctx, const Transaction& tx);
inline VerifyResult OursVerify(const SpendInput& in, const CoreContext& ctx) { return OursVerify(in, ctx, CoreSpendingTransaction(in, ctx)); }
const char* CoreCodeName(int code);

//! Aborts with a report (signature <target>:verdict) when Core and our 520 side disagree, or
//! with <target>:core-refused-call when the library refuses a call we built.
void CheckAgainstCore(const SpendInput& in, const CoreContext& ctx);

} // namespace equifuzz::script
