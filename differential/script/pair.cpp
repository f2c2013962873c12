#include "pair.h"

#include "crypto.h"
#include "opcodes.h"
#include "script_util.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

EQUIFUZZ_DEFINE_SIDES(equifuzz::script)

namespace equifuzz::script {

bool FakeChecker::CheckECDSASignature(const Bytes& sig, const Bytes& pubkey, const Bytes&, SigVersion) const
{
    return !sig.empty() && !pubkey.empty() && (sig[0] & 1) == (pubkey[0] & 1);
}

bool FakeChecker::CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext&, ScriptError& error) const
{
    if (sig.size() != 64 && sig.size() != 65) {
        error = ScriptError::SCHNORR_SIG_SIZE;
        return false;
    }
    if (sig.size() == 65 && sig[64] == 0x00) {
        error = ScriptError::SCHNORR_SIG_HASHTYPE;
        return false;
    }
    if ((sig[0] & 1) != (pubkey[0] & 1)) {
        error = ScriptError::SCHNORR_SIG;
        return false;
    }
    return true;
}

bool FakeChecker::CheckLockTime(int64_t locktime) const { return locktime <= 1000; }
bool FakeChecker::CheckSequence(int64_t sequence) const { return (sequence & 0xffff) <= 1000; }

namespace {

//! Tapscript's OP_SUCCESSx (spec 2d).
bool IsOpSuccess(uint8_t op)
{
    return op == 0x50 || op == 0x62 || (op >= 0x7e && op <= 0x81) || (op >= 0x83 && op <= 0x86) || op == 0x89 || op == 0x8a ||
           op == 0x8d || op == 0x8e || (op >= 0x95 && op <= 0x99) || (op >= 0xbb && op <= 0xfe);
}

//! Pushes of `script` in order, up to the first truncated one. `truncated` reports one;
//! `op_success`, an OP_SUCCESSx before it.
std::vector<size_t> PushSizes(std::span<const uint8_t> s, bool* truncated = nullptr, bool* op_success = nullptr)
{
    std::vector<size_t> sizes;
    if (truncated) *truncated = false;
    if (op_success) *op_success = false;
    size_t pc{0};
    while (pc < s.size()) {
        const std::optional<ScriptOp> op{ReadOp(s, pc)};
        if (!op) {
            if (truncated) *truncated = true;
            break;
        }
        if (op_success && IsOpSuccess(op->opcode)) *op_success = true;
        if (op->opcode <= OP_PUSHDATA4) sizes.push_back(op->data.size());
    }
    return sizes;
}

size_t MaxItem(const Stack& items)
{
    size_t m{0};
    for (const Bytes& b : items) m = std::max(m, b.size());
    return m;
}

void AddStack(Outcome& o, const std::string& name, const Stack& stack)
{
    Bytes flat;
    for (const Bytes& item : stack) AppendPush(flat, item);
    o.Add(name + "_depth", static_cast<uint64_t>(stack.size())).Add(name, flat);
}

void AddStackDesc(Description& d, const std::string& name, const Stack& stack)
{
    d.Add(name + "_items", static_cast<uint64_t>(stack.size()));
    for (size_t i = 0; i < stack.size() && i < 8; ++i) d.Add(name + "[" + std::to_string(i) + "]", stack[i]);
}

const char* SigVersionName(SigVersion v)
{
    return v == SigVersion::BASE ? "BASE" : v == SigVersion::WITNESS_V0 ? "WITNESS_V0" : "TAPSCRIPT";
}

//! Flags the targets use: all of them.
constexpr uint32_t FUZZ_FLAGS{ALL_FLAGS};

//! An element size: mostly small, often at the limits that matter.
size_t ConsumeElementSize(FuzzedDataProvider& fdp)
{
    static constexpr std::array<size_t, 16> SPECIAL{0, 1, 20, 32, 33, 65, 75, 76, 255, 256, 519, 520, 521, 1000, 7999, 8000};
    switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return fdp.PickValueInArray(SPECIAL);
    case 1: return fdp.ConsumeIntegralInRange<size_t>(510, 530);
    default: return fdp.ConsumeIntegralInRange<size_t>(0, 80);
    }
}

Bytes ConsumeElement(FuzzedDataProvider& fdp)
{
    const size_t n{ConsumeElementSize(fdp)};
    if (fdp.ConsumeBool() && n > 0) return Bytes(n, fdp.ConsumeIntegral<uint8_t>()); // all-equal: zeros, 0x01, 0x80...
    return ConsumeBytesPadded(fdp, n);
}

Stack ConsumeStack(FuzzedDataProvider& fdp, size_t max_items)
{
    Stack s;
    const size_t n{fdp.ConsumeIntegralInRange<size_t>(0, max_items)};
    for (size_t i = 0; i < n; ++i) s.push_back(ConsumeElement(fdp));
    return s;
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

Bytes ScriptNumBytes(int64_t v)
{
    Bytes out;
    uint64_t abs{v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)};
    while (abs) { out.push_back(static_cast<uint8_t>(abs & 0xff)); abs >>= 8; }
    if (!out.empty() && (out.back() & 0x80)) out.push_back(v < 0 ? 0x80 : 0x00); else if (v < 0) out.back() |= 0x80;
    return out;
}

//! A structured script: sized pushes in every push form, numbers (minimal or not), opcodes,
//! conditionals, and now and then a truncated push at the end.
Bytes BuildScript(FuzzedDataProvider& fdp, size_t max_ops)
{
    Bytes s;
    const size_t n{fdp.ConsumeIntegralInRange<size_t>(0, max_ops)};
    for (size_t i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
        switch (fdp.ConsumeIntegralInRange<int>(0, 9)) {
        case 0:
        case 1: { // a push of a sized element, in a chosen form
            const Bytes data{ConsumeElement(fdp)};
            const int form{fdp.ConsumeIntegralInRange<int>(0, 4)};
            if (form == 0 || (form == 1 && data.size() >= 0x4c)) {
                AppendPush(s, data);
            } else {
                const uint8_t op{form == 1 ? static_cast<uint8_t>(data.size()) : form == 2 ? uint8_t{OP_PUSHDATA1} : form == 3 ? uint8_t{OP_PUSHDATA2} : uint8_t{OP_PUSHDATA4}};
                if (op == OP_PUSHDATA1 && data.size() > 0xff) { AppendPush(s, data); break; }
                s.push_back(op);
                const size_t width{op == OP_PUSHDATA1 ? 1u : op == OP_PUSHDATA2 ? 2u : op == OP_PUSHDATA4 ? 4u : 0u};
                for (size_t k = 0; k < width; ++k) s.push_back(static_cast<uint8_t>(data.size() >> (8 * k)));
                s.insert(s.end(), data.begin(), data.end());
            }
            break;
        }
        case 2: { // a number
            static constexpr std::array<int64_t, 16> NUMS{0, 1, -1, 16, 17, 127, 128, 255, 256, 0x7fff, 0x8000, 0x7fffffff, -0x7fffffff, 0x80000000LL, 0xffffffffLL, 0x7fffffffffLL};
            const int64_t v{fdp.ConsumeBool() ? fdp.PickValueInArray(NUMS) : fdp.ConsumeIntegralInRange<int64_t>(-1000, 1000)};
            Bytes num{ScriptNumBytes(v)};
            if (fdp.ConsumeBool()) { // non-minimal: negative zero or padding
                num.push_back(v < 0 ? 0x80 : 0x00);
                if (v < 0 && num.size() > 1) num[num.size() - 2] &= 0x7f;
            }
            AppendPush(s, num);
            break;
        }
        case 3:
            s.push_back(fdp.ConsumeBool() ? uint8_t{OP_0} : static_cast<uint8_t>(fdp.ConsumeIntegralInRange<int>(OP_1NEGATE, OP_16)));
            break;
        case 4: { // conditionals
            static constexpr std::array<uint8_t, 5> FLOW{OP_IF, OP_NOTIF, OP_ELSE, OP_ENDIF, OP_VERIFY};
            s.push_back(fdp.PickValueInArray(FLOW));
            break;
        }
        case 5: { // the duplicating and stack opcodes, where large items multiply
            static constexpr std::array<uint8_t, 14> DUPS{OP_DUP, OP_DUP, OP_2DUP, OP_3DUP, OP_2OVER, OP_IFDUP, OP_OVER,
                                                          OP_PICK, OP_ROLL, OP_TUCK, OP_DROP, OP_2DROP, OP_TOALTSTACK, OP_FROMALTSTACK};
            s.push_back(fdp.PickValueInArray(DUPS));
            break;
        }
        case 6: { // size, hashes, equality, signature ops
            static constexpr std::array<uint8_t, 13> OPS{OP_SIZE, OP_RIPEMD160, OP_SHA1, OP_SHA256, OP_HASH160, OP_HASH256, OP_EQUAL,
                                                         OP_EQUALVERIFY, OP_CHECKSIG, OP_CHECKSIGVERIFY, OP_CHECKMULTISIG, OP_CHECKSIGADD,
                                                         OP_CODESEPARATOR};
            s.push_back(fdp.PickValueInArray(OPS));
            break;
        }
        case 7: // any opcode
            s.push_back(fdp.ConsumeIntegralInRange<uint8_t>(OP_NOP, 0xff));
            break;
        case 8: // lock times and NOPs
            s.push_back(fdp.ConsumeIntegralInRange<uint8_t>(OP_NOP1, OP_NOP10));
            break;
        default: { // a truncated push
            s.push_back(fdp.PickValueInArray({uint8_t{0x05}, uint8_t{OP_PUSHDATA1}, uint8_t{OP_PUSHDATA2}, uint8_t{OP_PUSHDATA4}}));
            const Bytes tail{fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 3))};
            s.insert(s.end(), tail.begin(), tail.end());
            break;
        }
        }
    }
    return s;
}

//! Tapscript, initial items over 520 and at most 8000 bytes: T runs exactly as G until it meets
//! OP_DUP of an item over 520 bytes (DUP_ELEMENT_SIZE) or a push over 520 bytes (PUSH_SIZE, checked
//! on every push, executed or not). So T fails with DUP_ELEMENT_SIZE exactly when G duplicated such
//! an item before any large push, and T ends any other way only if it equals G.
void CheckTapscriptTAgainstG(const DescribeFn& desc, size_t max_push, const auto& g, const auto& t)
{
    if (max_push <= MAX_SCRIPT_ELEMENT_SIZE) {
        if (g.max_dup_item > MAX_SCRIPT_ELEMENT_SIZE) {
            Require(t.error == ScriptError::DUP_ELEMENT_SIZE, "T-fails-OP_DUP-over-520", desc, t);
        } else {
            Compare(desc, {{"G", g}, {"T", t}});
        }
        return;
    }
    if (t.error == ScriptError::DUP_ELEMENT_SIZE) {
        Require(g.max_dup_item > MAX_SCRIPT_ELEMENT_SIZE, "T-DUP_ELEMENT_SIZE-only-after-G-duplicated-a-large-item", desc, g);
    } else if (t.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{"G", g}, {"T", t}});
    }
}

} // namespace

size_t MaxPush(std::span<const uint8_t> script)
{
    const auto sizes{PushSizes(script)};
    return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

uint32_t FillFlags(uint32_t flags)
{
    // Consensus never runs WITNESS without P2SH: without it a P2SH-wrapped witness spend would
    // fail WITNESS_UNEXPECTED, and removing P2SH would break a passing spend.
    if (flags & FLAG_CLEANSTACK) flags |= FLAG_P2SH | FLAG_WITNESS;
    if (flags & FLAG_WITNESS) flags |= FLAG_P2SH;
    return flags;
}

EvalInput DecodeEvalRaw(FuzzedDataProvider& fdp)
{
    EvalInput in;
    ConsumeSigVersion(fdp, in);
    in.flags = fdp.ConsumeIntegral<uint32_t>() & FUZZ_FLAGS;
    in.stack = ConsumeStack(fdp, 4);
    in.script = fdp.ConsumeRemainingBytes<uint8_t>();
    CapPlainEvalStack(in);
    return in;
}

EvalInput DecodeEvalBuilt(FuzzedDataProvider& fdp)
{
    EvalInput in;
    ConsumeSigVersion(fdp, in);
    in.flags = fdp.ConsumeIntegral<uint32_t>() & FUZZ_FLAGS;
    in.stack = ConsumeStack(fdp, 4);
    in.script = BuildScript(fdp, 40);
    CapPlainEvalStack(in);
    return in;
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

namespace {

//! What Bitcoin Core's EvalScript makes observable: the result, the error code and the stack it
//! leaves (not after ExecuteWitnessScript, which runs on a copy). Our sides are compared on the
//! same fields.
struct EvalCoreView {
    const EvalResult* r;
    bool with_stack;
    bool operator==(const EvalCoreView& o) const
    {
        return r->ok == o.r->ok && r->error == o.r->error && (!with_stack || r->stack == o.r->stack);
    }
    Outcome ToOutcome() const
    {
        Outcome o;
        o.Add("ok", r->ok).Add("error", ErrorName(r->error));
        if (with_stack) AddStack(o, "stack", r->stack);
        return o;
    }
};

struct VerifyCoreView {
    const VerifyResult* r;
    bool operator==(const VerifyCoreView& o) const { return r->ok == o.r->ok && r->error == o.r->error; }
    Outcome ToOutcome() const { return Outcome{}.Add("ok", r->ok).Add("error", ErrorName(r->error)); }
};

//! The Core sides this build has, each beside the model that must equal it: Core as it is beside
//! our 520 side, Core at 8000-byte elements beside Variant G.
template <typename Result, typename Run>
void CompareWithCore(const DescribeFn& desc, const Result& ours_520, const Result& ours_g, Run run, auto view)
{
    for (const auto& [label, side] : Sides()) {
        const bool core_original{std::string_view{label} == "core-original"};
        const bool core_optimized{std::string_view{label} == "core-optimized"};
        if (!core_original && !core_optimized) continue;
        const Result core{run(*side)};
        Compare(desc, {{core_original ? "520" : "G", view(core_original ? ours_520 : ours_g)}, {label, view(core)}});
    }
}

} // namespace

void CheckEvalRelations(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const EvalResult& t)
{
    const size_t max_push{MaxPush(in.script)};
    const size_t max_item{MaxItem(in.stack)};
    const bool small{max_push <= MAX_SCRIPT_ELEMENT_SIZE && max_item <= MAX_SCRIPT_ELEMENT_SIZE};
    // The 520 side's own rule: an initial witness item over 520 bytes that reaches the element
    // check fails it (tapscript: unless the OP_SUCCESS pre-scan or the stack size decided first).
    if (in.as_witness_script && max_item > MAX_SCRIPT_ELEMENT_SIZE) {
        bool truncated{false}, op_success{false};
        PushSizes(in.script, &truncated, &op_success);
        const bool prescan_decides{in.sigversion == SigVersion::TAPSCRIPT && (truncated || op_success || in.stack.size() > 1000)};
        if (!prescan_decides) Require(o.error == ScriptError::PUSH_SIZE, "520-fails-large-witness-item", desc, o);
        // Tapscript's pre-scan (OP_SUCCESSx, BAD_OPCODE) and stack-size check come before any
        // size check, so they decide alike at every limit.
        if (prescan_decides && max_item <= LARGE_ELEMENT_SIZE) {
            Compare(desc, {{"520", o}, {"G", g}, {"T", t}});
            return;
        }
    }
    if (small || o.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{"520", o}, {"G", g}, {"T", t}});
        return;
    }
    if (max_push <= LARGE_ELEMENT_SIZE && max_item <= LARGE_ELEMENT_SIZE) {
        Require(g.error != ScriptError::PUSH_SIZE, "G-accepts-elements-up-to-8000", desc, g);
    }
    if (in.sigversion != SigVersion::TAPSCRIPT || max_item <= MAX_SCRIPT_ELEMENT_SIZE) {
        // T differs from the 520 side only through tapscript's initial items (and OP_DUP of one).
        Compare(desc, {{"520", o}, {"T", t}});
    } else if (max_item <= LARGE_ELEMENT_SIZE) {
        CheckTapscriptTAgainstG(desc, max_push, g, t);
    }
}

void CompareEvalWithCore(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const Checker& checker)
{
    CompareWithCore(desc, o, g, [&](const Side& side) { return side.eval(in, checker); },
                    [&](const EvalResult& r) { return EvalCoreView{&r, !in.as_witness_script}; });
}

SpendInput DecodeSpend(FuzzedDataProvider& fdp)
{
    SpendInput in;
    in.flags = FillFlags(fdp.ConsumeIntegral<uint32_t>() & FUZZ_FLAGS);
    const int kind{fdp.ConsumeIntegralInRange<int>(0, 7)};
    const auto wsh = [](const Bytes& script) {
        Bytes spk{OP_0};
        AppendPush(spk, Sha256(script));
        return spk;
    };
    const auto wpkh = [&]() {
        Bytes spk{OP_0};
        AppendPush(spk, fdp.ConsumeBool() ? Hash160(ConsumeBytesPadded(fdp, 33)) : ConsumeBytesPadded(fdp, 20));
        return spk;
    };
    const auto p2sh = [](const Bytes& redeem) {
        Bytes spk{OP_HASH160};
        AppendPush(spk, Hash160(redeem));
        spk.push_back(OP_EQUAL);
        return spk;
    };
    const auto push_only = [&](size_t max_items) {
        Bytes s;
        for (const Bytes& item : ConsumeStack(fdp, max_items)) AppendPush(s, item);
        return s;
    };
    switch (kind) {
    case 0: // bare
        in.script_sig = fdp.ConsumeBool() ? push_only(4) : BuildScript(fdp, 8);
        in.script_pubkey = BuildScript(fdp, 20);
        break;
    case 1: { // P2SH
        const Bytes redeem{BuildScript(fdp, 20)};
        in.script_sig = push_only(3);
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = p2sh(redeem);
        break;
    }
    case 2: { // P2WSH
        const Bytes ws{BuildScript(fdp, 20)};
        in.witness = ConsumeStack(fdp, 4);
        in.witness.push_back(ws);
        in.script_pubkey = wsh(ws);
        break;
    }
    case 3: { // P2SH-P2WSH
        const Bytes ws{BuildScript(fdp, 20)};
        in.witness = ConsumeStack(fdp, 4);
        in.witness.push_back(ws);
        const Bytes redeem{wsh(ws)};
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = p2sh(redeem);
        break;
    }
    case 4: // P2WPKH
        in.script_pubkey = wpkh();
        in.witness = ConsumeStack(fdp, 3);
        break;
    case 5: { // P2SH-P2WPKH
        const Bytes redeem{wpkh()};
        AppendPush(in.script_sig, redeem);
        in.script_pubkey = p2sh(redeem);
        in.witness = ConsumeStack(fdp, 3);
        break;
    }
    case 7: { // P2TR script path: a tapscript leaf, the only one of its tree, usually with TAPROOT
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
    default: // raw
        in.script_sig = fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 64));
        in.script_pubkey = fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 64));
        in.witness = ConsumeStack(fdp, 3);
        break;
    }
    if (fdp.ConsumeIntegralInRange<int>(0, 15) == 0) in.witness.push_back(ConsumeElement(fdp)); // stray witness
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

void CompareSpendWithCore(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const Checker& checker)
{
    CompareWithCore(desc, o, g, [&](const Side& side) { return side.verify(in, checker); },
                    [](const VerifyResult& r) { return VerifyCoreView{&r}; });
}

void CheckSpendRelations(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const VerifyResult& t)
{
    // Every element the spend can put on a stack: pushes of both scripts, of any pushed script
    // (a redeemScript), the witness items and the pushes of any witness item (a witnessScript).
    size_t max_element{std::max(MaxPush(in.script_sig), MaxPush(in.script_pubkey))};
    for (const Bytes& item : in.witness) max_element = std::max({max_element, item.size(), MaxPush(item)});
    // Each push of the scriptSig, scanned as a redeemScript.
    size_t pc{0};
    while (const std::optional<ScriptOp> op{ReadOp(in.script_sig, pc)}) {
        if (op->opcode <= OP_PUSHDATA4) max_element = std::max(max_element, MaxPush(op->data));
    }
    // Could the spend run a tapscript? (TAPROOT and WITNESS, a v1 32-byte program, two or more
    // witness items besides an annex.) If not, Variant T (which changes only tapscript) is the
    // 520 side, whatever the sizes.
    size_t tap_items{in.witness.size()};
    if (tap_items >= 2 && !in.witness.back().empty() && in.witness.back()[0] == 0x50) --tap_items;
    const bool tapscript{(in.flags & FLAG_TAPROOT) && (in.flags & FLAG_WITNESS) && in.script_pubkey.size() == 34 &&
                         in.script_pubkey[0] == OP_1 && in.script_pubkey[1] == 32 && tap_items >= 2};
    if (!tapscript) Compare(desc, {{"520", o}, {"T", t}});
    if (max_element <= MAX_SCRIPT_ELEMENT_SIZE || o.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{"520", o}, {"G", g}, {"T", t}});
    } else {
        if (max_element <= LARGE_ELEMENT_SIZE) {
            Require(g.error != ScriptError::PUSH_SIZE, "G-accepts-elements-up-to-8000", desc, g);
        }
        if (tapscript) {
            // The initial stack: the items before the leaf script and control block (and annex).
            const Stack items(in.witness.begin(), in.witness.begin() + static_cast<std::ptrdiff_t>(tap_items - 2));
            if (MaxItem(items) <= MAX_SCRIPT_ELEMENT_SIZE) {
                Compare(desc, {{"520", o}, {"T", t}});
            } else if (MaxItem(items) <= LARGE_ELEMENT_SIZE) {
                CheckTapscriptTAgainstG(desc, MaxPush(in.witness[tap_items - 2]), g, t);
            }
        }
    }
}

uint32_t ConsumeFlagToggle(FuzzedDataProvider& fdp)
{
    // Lock-time flags stay as they are: with a satisfiable lock time DISCOURAGE_UPGRADABLE_NOPS
    // fails a NOP that CLTV/CSV would pass.
    constexpr uint32_t TOGGLE{FUZZ_FLAGS & ~(FLAG_CHECKLOCKTIMEVERIFY | FLAG_CHECKSEQUENCEVERIFY)};
    return fdp.ConsumeIntegral<uint32_t>() & TOGGLE;
}

void CheckFlagMonotonicity(const SpendInput& in, uint32_t extra, const DescribeFn& desc, const VerifyResult& o, const Checker& checker)
{
    SpendInput other{in};
    other.flags = o.ok ? FillFlags(in.flags & ~extra) : FillFlags(in.flags | extra);
    const VerifyResult m{original_side().verify(other, checker)};
    Require(m.ok == o.ok, o.ok ? "removing-flags-keeps-pass" : "adding-flags-keeps-fail", desc,
            [&] { return ToOutcome(m).Add("other_flags", FlagsToString(other.flags)); });
}

} // namespace equifuzz::script
