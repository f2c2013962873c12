// The script pair's decoders (fuzz bytes to typed inputs), their descriptions and the sides'
// outcomes as report fields.
#include "pair.h"
#include "pair_parts.h"

#include "crypto.h"
#include "opcodes.h"
#include "script_util.h"

#include <utility>

EQUIFUZZ_DEFINE_SIDES(equifuzz::script)

namespace equifuzz::script {
namespace {

void AddStackDesc(Description& d, const std::string& name, const Stack& stack)
{
    d.Add(name + "_items", static_cast<uint64_t>(stack.size()));
    for (size_t i = 0; i < stack.size() && i < 8; ++i) d.Add(name + "[" + std::to_string(i) + "]", stack[i]);
}

const char* SigVersionName(SigVersion v)
{
    return v == SigVersion::BASE ? "BASE" : v == SigVersion::WITNESS_V0 ? "WITNESS_V0" : "TAPSCRIPT";
}

//! Plain EvalScript gets its stack from checked pushes (a scriptSig, or the checked witness), so
//! its items are capped at 520 there; only ExecuteWitnessScript sees larger initial items.
void CapPlainEvalStack(EvalInput& in)
{
    if (in.as_witness_script) return;
    for (Bytes& item : in.stack) {
        if (item.size() > MAX_SCRIPT_ELEMENT_SIZE) item.resize(MAX_SCRIPT_ELEMENT_SIZE);
    }
}

void ConsumeSigVersion(FuzzedDataProvider& fdp, EvalInput& in)
{
    // (sigversion, run as ExecuteWitnessScript)
    const auto [sigversion, as_witness_script] = CallOneOf(
        fdp, [] { return std::pair{SigVersion::BASE, false}; }, [] { return std::pair{SigVersion::WITNESS_V0, false}; },
        [] { return std::pair{SigVersion::TAPSCRIPT, false}; }, [] { return std::pair{SigVersion::WITNESS_V0, true}; },
        [] { return std::pair{SigVersion::TAPSCRIPT, true}; });
    in.sigversion = sigversion;
    in.as_witness_script = as_witness_script;
}

} // namespace

void AddStack(Outcome& o, const std::string& name, const Stack& stack)
{
    Bytes flat;
    for (const Bytes& item : stack) AppendPush(flat, item);
    o.Add(name + "_depth", static_cast<uint64_t>(stack.size())).Add(name, flat);
}

uint32_t FillFlags(uint32_t flags)
{
    // Consensus never runs WITNESS without P2SH: without it a P2SH-wrapped witness spend would
    // fail WITNESS_UNEXPECTED, and removing P2SH would break a passing spend.
    if (flags & FLAG_CLEANSTACK) flags |= FLAG_P2SH | FLAG_WITNESS;
    if (flags & FLAG_WITNESS) flags |= FLAG_P2SH;
    return flags;
}

namespace {

//! The sigversion, flags and initial stack, then the script `make_script` takes from the rest.
template <typename MakeScript>
EvalInput DecodeEval(FuzzedDataProvider& fdp, MakeScript make_script)
{
    EvalInput in;
    ConsumeSigVersion(fdp, in);
    in.flags = fdp.ConsumeIntegral<uint32_t>() & FUZZ_FLAGS;
    in.stack = ConsumeStack(fdp, EVAL_STACK_ITEMS);
    in.script = make_script(fdp);
    CapPlainEvalStack(in);
    return in;
}

} // namespace

EvalInput DecodeEvalRaw(FuzzedDataProvider& fdp)
{
    return DecodeEval(fdp, [](FuzzedDataProvider& f) { return f.ConsumeRemainingBytes<uint8_t>(); });
}

Bytes EncodeEvalRaw(const EvalInput& in)
{
    FdpEncoder e;
    const size_t sigversion{in.sigversion == SigVersion::BASE ? 0u : in.sigversion == SigVersion::WITNESS_V0 ? (in.as_witness_script ? 3u : 1u)
                                                                                                                : (in.as_witness_script ? 4u : 2u)};
    e.Integral(sigversion, 0, 4);
    e.Integral<uint32_t>(in.flags);
    EncodeStack(e, in.stack, EVAL_STACK_ITEMS);
    e.Bytes(in.script);
    return e.Finish();
}

EvalInput DecodeEvalBuilt(FuzzedDataProvider& fdp)
{
    return DecodeEval(fdp, [](FuzzedDataProvider& f) { return BuildScript(f, 40); });
}

Description Describe(const EvalInput& in)
{
    Description d;
    d.Add("sigversion", SigVersionName(in.sigversion)).Add("as_witness_script", in.as_witness_script);
    d.Add("flags", FlagsToString(in.flags)).Add("script", in.script).Add("max_push", static_cast<uint64_t>(MaxPush(in.script)));
    AddStackDesc(d, "stack", in.stack);
    return d;
}

Outcome ToOutcome(const EvalResult& r)
{
    Outcome o;
    o.Add("ok", r.ok).Add("error", ErrorName(r.error));
    AddStack(o, "stack", r.stack);
    AddStack(o, "altstack", r.altstack);
    o.Add("opcodes_read", r.opcodes_read).Add("max_dup_item", r.max_dup_item);
    return o;
}

SpendInput DecodeSpend(FuzzedDataProvider& fdp)
{
    SpendInput in;
    in.flags = FillFlags(fdp.ConsumeIntegral<uint32_t>() & FUZZ_FLAGS);
    const SpendKind kind{ConsumeChoice<SpendKind>(fdp)};
    const auto wpkh = [&]() {
        Bytes spk{OP_0};
        AppendPush(spk, fdp.ConsumeBool() ? Hash160(ConsumeBytesPadded(fdp, 33)) : ConsumeBytesPadded(fdp, 20));
        return spk;
    };
    const auto push_only = [&](size_t max_items) {
        Bytes s;
        for (const Bytes& item : ConsumeStack(fdp, max_items)) AppendPush(s, item);
        return s;
    };
    switch (kind) {
    case SpendKind::BARE:
        in.script_sig = fdp.ConsumeBool() ? push_only(4) : BuildScript(fdp, 8);
        in.script_pubkey = BuildScript(fdp, 20);
        break;
    case SpendKind::P2SH: {
        const Bytes redeem{BuildScript(fdp, 20)};
        in.script_sig = push_only(3);
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = P2shScript(redeem);
        break;
    }
    case SpendKind::P2WSH: {
        const Bytes ws{BuildScript(fdp, 20)};
        in.witness = ConsumeStack(fdp, 4);
        in.witness.push_back(ws);
        in.script_pubkey = P2wshScript(ws);
        break;
    }
    case SpendKind::P2SH_P2WSH: {
        const Bytes ws{BuildScript(fdp, 20)};
        in.witness = ConsumeStack(fdp, 4);
        in.witness.push_back(ws);
        const Bytes redeem{P2wshScript(ws)};
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = P2shScript(redeem);
        break;
    }
    case SpendKind::P2WPKH:
        in.script_pubkey = wpkh();
        in.witness = ConsumeStack(fdp, 3);
        break;
    case SpendKind::P2SH_P2WPKH: {
        const Bytes redeem{wpkh()};
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = P2shScript(redeem);
        in.witness = ConsumeStack(fdp, 3);
        break;
    }
    case SpendKind::P2TR_SCRIPT: { // a tapscript leaf, the only one of its tree, usually with TAPROOT
        const Bytes leaf{BuildScript(fdp, 20)};
        Bytes output_key, control;
        if (!SingleLeafTaproot(leaf, output_key, control)) break;
        in.witness = ConsumeStack(fdp, 4);
        in.witness.push_back(leaf);
        in.witness.push_back(control);
        if (fdp.ConsumeIntegralInRange<int>(0, 7) == 0) in.witness.push_back(Bytes{0x50, 0x01}); // an annex
        in.script_pubkey = {OP_1};
        AppendPush(in.script_pubkey, output_key);
        if (fdp.ConsumeIntegralInRange<int>(0, 3) != 0) in.flags = FillFlags(in.flags | FLAG_TAPROOT | FLAG_WITNESS);
        break;
    }
    case SpendKind::RAW:
        in.script_sig = fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, RAW_SPEND_SCRIPT));
        in.script_pubkey = fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, RAW_SPEND_SCRIPT));
        in.witness = ConsumeStack(fdp, RAW_SPEND_WITNESS);
        break;
    }
    if (fdp.ConsumeIntegralInRange<int>(0, STRAY_WITNESS_ONE_IN - 1) == 0) in.witness.push_back(ConsumeElement(fdp)); // stray witness
    return in;
}

Description Describe(const SpendInput& in)
{
    Description d;
    d.Add("flags", FlagsToString(in.flags)).Add("script_sig", in.script_sig).Add("script_pubkey", in.script_pubkey);
    AddStackDesc(d, "witness", in.witness);
    return d;
}

Outcome ToOutcome(const VerifyResult& r)
{
    Outcome o;
    o.Add("ok", r.ok).Add("error", ErrorName(r.error));
    AddStack(o, "stack", r.stack);
    o.Add("max_dup_item", r.max_dup_item);
    return o;
}

uint32_t ConsumeFlagToggle(FuzzedDataProvider& fdp)
{
    // Lock-time flags stay as they are: with a satisfiable lock time DISCOURAGE_UPGRADABLE_NOPS
    // fails a NOP that CLTV/CSV would pass.
    constexpr uint32_t TOGGLE{FUZZ_FLAGS & ~(FLAG_CHECKLOCKTIMEVERIFY | FLAG_CHECKSEQUENCEVERIFY)};
    return fdp.ConsumeIntegral<uint32_t>() & TOGGLE;
}

} // namespace equifuzz::script
