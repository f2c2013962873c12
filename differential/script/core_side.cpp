#include "core_side.h"

#include "crypto.h"
#include "opcodes.h"
#include "pair.h"

#include <array>

#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
#include <equifuzz_core_oracle.h>
#endif

namespace equifuzz::script {
namespace {

const char* VerdictName(CoreVerdict v)
{
    return v == CoreVerdict::VALID ? "valid" : v == CoreVerdict::INVALID ? "invalid" : "refused";
}

//! A spend's verdict, as the verdict oracle compares it.
struct Verdict {
    CoreVerdict verdict;
    bool operator==(const Verdict&) const = default;
    Outcome ToOutcome() const { return Outcome{}.Add("verdict", VerdictName(verdict)); }
};

} // namespace

uint32_t CoreFlags(uint32_t flags)
{
    // Core asserts that WITNESS comes with P2SH (libbitcoinconsensus passes the flags on as given).
    return FillFlags(flags & CoreConsensusFlags()) & CoreConsensusFlags();
}

bool CoreOracleAvailable()
{
#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
    return true;
#else
    return false;
#endif
}

uint32_t CoreConsensusFlags()
{
#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
    static const uint32_t flags{equifuzz_core_consensus_flags()};
    return flags;
#else
    return 0;
#endif
}

CoreContext ConsumeCoreContext(FuzzedDataProvider& fdp)
{
    CoreContext ctx;
    if (!fdp.ConsumeBool()) return ctx;
    static constexpr std::array<int32_t, 4> VERSIONS{1, 2, 0, -1};
    static constexpr std::array<uint32_t, 8> LOCKTIMES{0, 1, 1000, 499999999, 500000000, 500000001, 1700000000, 0xffffffff};
    static constexpr std::array<uint32_t, 10> SEQUENCES{0xffffffff, 0xfffffffe, 0, 1, 1000, 0x00400000, 0x00400001,
                                                         0x80000000, 0x7fffffff, 0x0040ffff};
    static constexpr std::array<int64_t, 5> AMOUNTS{0, 1, 100000000, 2100000000000000, -1};
    ctx.version = fdp.ConsumeBool() ? fdp.PickValueInArray(VERSIONS) : fdp.ConsumeIntegral<int32_t>();
    ctx.locktime = fdp.ConsumeBool() ? fdp.PickValueInArray(LOCKTIMES) : fdp.ConsumeIntegral<uint32_t>();
    ctx.sequence = fdp.ConsumeBool() ? fdp.PickValueInArray(SEQUENCES) : fdp.ConsumeIntegral<uint32_t>();
    ctx.amount = fdp.ConsumeBool() ? fdp.PickValueInArray(AMOUNTS) : fdp.ConsumeIntegral<int64_t>();
    return ctx;
}

SpendInput EvalAsSpend(const EvalInput& in)
{
    SpendInput s;
    s.flags = in.flags;
    if (in.sigversion == SigVersion::BASE) {
        for (const Bytes& item : in.stack) AppendPush(s.script_sig, item);
        s.script_pubkey = in.script;
        s.flags = FillFlags(s.flags);
        return s;
    }
    s.witness = in.stack;
    s.witness.push_back(in.script);
    Bytes key, control;
    if (in.sigversion == SigVersion::TAPSCRIPT && SingleLeafTaproot(in.script, key, control)) {
        s.script_pubkey = {OP_1, 32};
        s.script_pubkey.insert(s.script_pubkey.end(), key.begin(), key.end());
        s.witness.push_back(control);
        s.flags |= FLAG_TAPROOT;
    } else {
        const Bytes program{Sha256(in.script)};
        s.script_pubkey = {0x00, 0x20};
        s.script_pubkey.insert(s.script_pubkey.end(), program.begin(), program.end());
    }
    s.flags = FillFlags(s.flags | FLAG_WITNESS | FLAG_P2SH);
    return s;
}

Transaction CoreSpendingTransaction(const SpendInput& in, const CoreContext& ctx)
{
    Transaction tx{BuildSpendingTransaction(in.script_sig, in.witness, BuildCreditingTransaction(in.script_pubkey, ctx.amount))};
    tx.version = ctx.version;
    tx.lock_time = ctx.locktime;
    tx.vin[0].sequence = ctx.sequence;
    if (ctx.outputs == 0) tx.vout.clear();
    if (ctx.outputs >= 2) tx.vout.push_back({1, {0x51}});
    return tx;
}

const char* CoreCodeName(int code)
{
    static constexpr std::array<const char*, 10> NAMES{
        "VALID", "SCRIPT_FAILED", "TX_INDEX", "TX_SIZE_MISMATCH", "TX_DESERIALIZE", "AMOUNT_REQUIRED",
        "INVALID_FLAGS", "SPENT_OUTPUTS_REQUIRED", "SPENT_OUTPUTS_MISMATCH", "TOO_LARGE"};
    return code >= 0 && static_cast<size_t>(code) < NAMES.size() ? NAMES[static_cast<size_t>(code)] : "NO_ORACLE";
}

CoreAnswer CoreVerify(const SpendInput& in, const CoreContext& ctx, const Transaction& spending)
{
    CoreAnswer answer;
#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
    const Bytes tx{SerializeWithWitness(spending)};
    const EquifuzzCoreUtxo spent{in.script_pubkey.data(), in.script_pubkey.size(), ctx.amount};
    answer.code = equifuzz_core_verify(in.script_pubkey.data(), in.script_pubkey.size(), ctx.amount, tx.data(), tx.size(),
                                       &spent, 1, 0, CoreFlags(in.flags));
    answer.verdict = answer.code == EQUIFUZZ_CORE_VALID ? CoreVerdict::VALID
                     : answer.code == EQUIFUZZ_CORE_SCRIPT_FAILED ? CoreVerdict::INVALID
                                                                  : CoreVerdict::REFUSED;
#else
    (void)in;
    (void)ctx;
    (void)spending;
#endif
    return answer;
}

VerifyResult OursVerify(const SpendInput& in, const CoreContext& ctx, const Transaction& tx)
{
    const TransactionChecker checker{tx, 0, ctx.amount, {TxOut{ctx.amount, in.script_pubkey}}};
    SpendInput cut{in};
    cut.flags = CoreFlags(in.flags);
    return original_side().verify(cut, checker);
}

void CheckAgainstCore(const SpendInput& in, const CoreContext& ctx)
{
    if (!CoreOracleAvailable()) return;
    const Transaction tx{CoreSpendingTransaction(in, ctx)};
    const CoreAnswer core{CoreVerify(in, ctx, tx)};
    const VerifyResult ours{OursVerify(in, ctx, tx)};
    const auto describe = [&] {
        SpendInput cut{in};
        cut.flags = CoreFlags(in.flags);
        Description d{Describe(cut)};
        d.Add("tx_version", int64_t{ctx.version}).Add("tx_locktime", uint64_t{ctx.locktime});
        d.Add("tx_sequence", uint64_t{ctx.sequence}).Add("amount", ctx.amount).Add("tx_outputs", uint64_t{ctx.outputs});
        d.Add("spending_tx", SerializeWithWitness(tx));
        d.Add("ours_error", ErrorName(ours.error)).Add("core_outcome", CoreCodeName(core.code));
        return d;
    };
    Require(core.verdict != CoreVerdict::REFUSED, "core-refused-call", describe,
            [&] { return Outcome{}.Add("core_outcome", CoreCodeName(core.code)); });
    // A released Core as the oracle is a fixed reference, not a side of the change: a model's party.
    Compare(describe, {{Model("520 (ours)"), Verdict{ours.ok ? CoreVerdict::VALID : CoreVerdict::INVALID}},
                       {Model("Bitcoin Core 26.0"), Verdict{core.verdict}}});
}

} // namespace equifuzz::script
