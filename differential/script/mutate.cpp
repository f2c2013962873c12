// script_eval's structured mutation: the input decoded (sigversion, flags, initial stack, script),
// changed where the element-size rules live, and written back (EncodeEvalRaw). Script changes
// happen between whole operations, so a well-formed script stays well-formed: a push of a length
// that matters in one step, an opcode, a number of 4, 5 or more bytes, an operation removed.
#include "pair.h"
#include "pair_parts.h"

#include "crypto.h"
#include "opcodes.h"

#include <array>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

namespace equifuzz::script {
namespace {

//! Where the script's operations begin (and its end), up to its first truncated push.
std::vector<size_t> OpBoundaries(const Bytes& script)
{
    std::vector<size_t> at{0};
    size_t pc{0};
    while (ReadOp(script, pc)) at.push_back(pc);
    return at;
}

//! A push of a number's bytes: minimal, or as wide as a 4- or 5-byte number reader sees it.
Bytes NumberPush(Mutation& m)
{
    static constexpr std::array<int64_t, 12> VALUES{0, 1, -1, 16, 1000, 1001, 0x7fffffff, -0x7fffffff, 0x80000000LL,
                                                    0xffffffffLL, 0x7fffffffffLL, 0x8000000000LL};
    const int64_t v{m.Pick(VALUES)};
    Bytes num{ScriptNumBytes(v)};
    if (m.OneIn(4)) { // padded (non-minimal) to a width the readers disagree on
        const size_t width{m.Between(num.size(), 6)};
        const bool negative{!num.empty() && (num.back() & 0x80)};
        if (negative) num.back() &= 0x7f;
        num.resize(width, 0);
        if (!num.empty() && negative) num.back() |= 0x80;
    }
    Bytes push{static_cast<uint8_t>(num.size())};
    push.insert(push.end(), num.begin(), num.end());
    return push;
}

//! An opcode: one of those whose rules involve element sizes, numbers or stack depth, or any.
uint8_t Opcode(Mutation& m)
{
    static constexpr std::array<uint8_t, 28> RELEVANT{
        OP_DUP, OP_2DUP, OP_3DUP, OP_OVER, OP_2OVER, OP_PICK, OP_ROLL, OP_TUCK, OP_IFDUP, OP_NIP, OP_DROP, OP_2DROP,
        OP_SWAP, OP_SIZE, OP_EQUAL, OP_VERIFY, OP_NOT, OP_WITHIN, OP_IF, OP_NOTIF, OP_ELSE, OP_ENDIF,
        OP_CHECKLOCKTIMEVERIFY, OP_CHECKSEQUENCEVERIFY, OP_CHECKSIG, OP_CHECKSIGVERIFY, OP_CHECKMULTISIG, OP_CHECKSIGADD};
    return m.OneIn(2) ? m.Pick(RELEVANT) : static_cast<uint8_t>(m.Between(OP_1NEGATE, 0xff));
}

} // namespace

Bytes PushOfLength(Mutation& m, size_t length)
{
    const Bytes payload{m.Filler(length)};
    Bytes out;
    // The minimal form, or any longer form the length fits in (all are valid pushes).
    const int form{static_cast<int>(m.Below(4))};
    if (form == 0 && length < OP_PUSHDATA1) {
        out.push_back(static_cast<uint8_t>(length));
    } else if (form <= 1 && length <= 0xff) {
        out = {OP_PUSHDATA1, static_cast<uint8_t>(length)};
    } else if (form <= 2 && length <= 0xffff) {
        out = {OP_PUSHDATA2, static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8)};
    } else {
        out = {OP_PUSHDATA4, static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length >> 16), 0};
    }
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

Bytes PushPiece(Mutation& m)
{
    // The element limits and their neighbours (520, 8000), the push forms' boundaries, numbers.
    static constexpr std::array<size_t, 14> SIZES{0, 1, 4, 5, 6, 75, 76, 255, 256, 520, 521, 522, 8000, 8001};
    size_t length;
    switch (m.Below(3)) {
    case 0: length = m.Pick(SIZES); break;
    case 1: length = m.Between(521, m.OneIn(4) ? 8001 : 600); break; // over 520, mostly by a little
    default: length = m.Between(0, 80); break;
    }
    Bytes piece{PushOfLength(m, length)};
    if (m.OneIn(4)) { // inside a branch that does not run: 0 IF <push> ENDIF, or 1 NOTIF <push> ENDIF
        const bool notif{m.OneIn(2)};
        piece.insert(piece.begin(), {notif ? uint8_t{OP_1} : uint8_t{OP_0}, notif ? uint8_t{OP_NOTIF} : uint8_t{OP_IF}});
        piece.push_back(OP_ENDIF);
    }
    return piece;
}

namespace {

//! One change to a decoded input; false when there is nothing to change.
bool ChangeEval(Mutation& m, EvalInput& in)
{
    const std::vector<size_t> at{OpBoundaries(in.script)};
    const auto insert{[&](const Bytes& piece) {
        const size_t pos{at[m.Below(at.size())]};
        in.script.insert(in.script.begin() + static_cast<std::ptrdiff_t>(pos), piece.begin(), piece.end());
        return true;
    }};
    switch (m.Below(10)) {
    case 0: return insert(PushPiece(m));
    case 1:
    case 2: return insert(Bytes{Opcode(m)});
    case 3: return insert(NumberPush(m));
    case 4: { // one operation fewer
        if (at.size() < 2) return false;
        const size_t k{m.Below(at.size() - 1)};
        in.script.erase(in.script.begin() + static_cast<std::ptrdiff_t>(at[k]), in.script.begin() + static_cast<std::ptrdiff_t>(at[k + 1]));
        return true;
    }
    case 5: // the script up to an operation (what follows, an OP_SUCCESS say, is gone)
        if (at.size() < 2) return false;
        in.script.resize(at[m.Below(at.size() - 1)]);
        return true;
    case 6: { // another script version, or run as a witness script
        static constexpr std::array<std::pair<SigVersion, bool>, 5> VERSIONS{{{SigVersion::BASE, false}, {SigVersion::WITNESS_V0, false},
                                                                              {SigVersion::TAPSCRIPT, false}, {SigVersion::WITNESS_V0, true},
                                                                              {SigVersion::TAPSCRIPT, true}}};
        std::tie(in.sigversion, in.as_witness_script) = m.Pick(VERSIONS);
        return true;
    }
    case 7: in.flags ^= 1u << m.Below(32); return true; // a flag on or off
    case 8: { // an initial stack item at a size that matters (one over 520 run as a witness script)
        static constexpr std::array<size_t, 6> SIZES{0, 1, 520, 521, 1000, 8000};
        const Bytes item{m.Filler(m.Pick(SIZES))};
        if (item.size() > MAX_SCRIPT_ELEMENT_SIZE && !in.as_witness_script) { // where such an item is not cut to 520
            in.as_witness_script = true;
            in.sigversion = m.OneIn(2) ? SigVersion::TAPSCRIPT : SigVersion::WITNESS_V0;
        }
        if (in.stack.size() < 4 && (in.stack.empty() || m.OneIn(2))) {
            in.stack.insert(in.stack.begin() + static_cast<std::ptrdiff_t>(m.Below(in.stack.size() + 1)), item);
        } else {
            in.stack[m.Below(in.stack.size())] = item;
        }
        return true;
    }
    default: // one stack item fewer
        if (in.stack.empty()) return false;
        in.stack.erase(in.stack.begin() + static_cast<std::ptrdiff_t>(m.Below(in.stack.size())));
        return true;
    }
}

} // namespace

bool MutateEval(Mutation& m)
{
    return DecodeChangeEncode(
        m, [](FuzzedDataProvider& fdp) { return DecodeEvalRaw(fdp); }, [&](EvalInput& in) { return ChangeEval(m, in); },
        [](const EvalInput& in) { return EncodeEvalRaw(in); });
}

namespace {

//! The redeemScript a P2SH spend's scriptSig pushes last, when it is the one its scriptPubKey commits to.
std::optional<Bytes> Redeem(const SpendInput& in)
{
    std::optional<Bytes> last;
    size_t pc{0};
    while (pc < in.script_sig.size()) {
        const auto op{ReadOp(in.script_sig, pc)};
        if (!op) return std::nullopt;
        last = Bytes(op->data.begin(), op->data.end());
    }
    if (!last || P2shScript(*last) != in.script_pubkey) return std::nullopt;
    return last;
}

} // namespace

Bytes EncodeRawSpend(const SpendInput& in)
{
    FdpEncoder e;
    e.Integral<uint32_t>(in.flags);
    EncodeChoice(e, SpendKind::RAW);
    for (const Bytes* script : {&in.script_sig, &in.script_pubkey}) {
        const size_t n{std::min(script->size(), RAW_SPEND_SCRIPT)};
        e.Integral(n, 0, RAW_SPEND_SCRIPT);
        e.Bytes(std::span{*script}.first(n));
    }
    // The last items (a witness script is last); the decoder takes at most RAW_SPEND_WITNESS.
    const Stack witness{in.witness.size() > RAW_SPEND_WITNESS ? Stack(in.witness.end() - RAW_SPEND_WITNESS, in.witness.end()) : in.witness};
    EncodeStack(e, witness, RAW_SPEND_WITNESS);
    e.Integral(1, 0, STRAY_WITNESS_ONE_IN - 1); // no stray witness item
    return e.Finish();
}

bool MutateSpend(Mutation& m)
{
    FuzzedDataProvider fdp{m.bytes.data(), m.bytes.size()};
    SpendInput in{DecodeSpend(fdp)};
    std::optional<Bytes> redeem{Redeem(in)};
    if (!redeem || redeem->size() < 4 || (*redeem)[0] != OP_0 || m.OneIn(4)) {
        // A witness program to wrap: P2WPKH's (20 bytes) or P2WSH's (the witness script, last item).
        if (m.OneIn(2)) {
            redeem = Bytes{OP_0};
            AppendPush(*redeem, m.Filler(20));
        } else {
            if (in.witness.empty() || in.witness.back().size() > 80) in.witness.push_back(Bytes{OP_1});
            redeem = P2wshScript(in.witness.back());
        }
        in.script_pubkey = P2shScript(*redeem);
    }
    // The scriptSig: the one push BIP-141 allows, or not quite.
    in.script_sig.clear();
    switch (m.Below(4)) {
    case 0: AppendPush(in.script_sig, *redeem); break;
    case 1: // another push before it
        in.script_sig = {m.OneIn(2) ? uint8_t{OP_0} : static_cast<uint8_t>(m.Between(OP_1, OP_16))};
        AppendPush(in.script_sig, *redeem);
        break;
    case 2: // a wider push form than the minimal one (which MINIMALDATA would refuse first)
        if (!m.OneIn(4)) in.flags &= ~uint32_t{FLAG_MINIMALDATA};
        in.script_sig = {m.OneIn(2) ? uint8_t{OP_PUSHDATA1} : uint8_t{OP_PUSHDATA2}, static_cast<uint8_t>(redeem->size())};
        if (in.script_sig[0] == OP_PUSHDATA2) in.script_sig.push_back(0);
        in.script_sig.insert(in.script_sig.end(), redeem->begin(), redeem->end());
        break;
    default: // pushed twice (when that fits the raw form's 64 bytes)
        AppendPush(in.script_sig, *redeem);
        if (2 * in.script_sig.size() <= 64) AppendPush(in.script_sig, *redeem);
        break;
    }
    if (!m.OneIn(4)) in.flags = FillFlags(in.flags | FLAG_P2SH | FLAG_WITNESS);
    Bytes out{EncodeRawSpend(in)};
    if (out.size() > m.max_size) return false;
    m.bytes = std::move(out);
    return true;
}

} // namespace equifuzz::script
