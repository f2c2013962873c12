// The script pair's input generator: elements at the sizes that matter, stacks, and structured
// scripts (every push form, numbers, opcodes, conditionals, truncated pushes).
#include "pair_parts.h"

#include "crypto.h"
#include "opcodes.h"
#include "script_util.h"

#include <algorithm>
#include <array>

namespace equifuzz::script {
namespace {

//! Element sizes ConsumeElementSize picks by name.
constexpr std::array<size_t, 16> SPECIAL{0, 1, 20, 32, 33, 65, 75, 76, 255, 256, 519, 520, 521, 1000, 7999, 8000};

//! An element size: mostly small, often at the limits that matter.
size_t ConsumeElementSize(FuzzedDataProvider& fdp)
{
    switch (ConsumeChoice<ElementSize>(fdp)) {
    case ElementSize::SPECIAL: return fdp.PickValueInArray(SPECIAL);
    case ElementSize::AROUND_520: return fdp.ConsumeIntegralInRange<size_t>(510, 530);
    case ElementSize::SMALL: return fdp.ConsumeIntegralInRange<size_t>(0, 80);
    }
    return 0;
}


} // namespace

Bytes ScriptNumBytes(int64_t v)
{
    Bytes out;
    uint64_t abs{v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)};
    while (abs) { out.push_back(static_cast<uint8_t>(abs & 0xff)); abs >>= 8; }
    if (!out.empty() && (out.back() & 0x80)) out.push_back(v < 0 ? 0x80 : 0x00); else if (v < 0) out.back() |= 0x80;
    return out;
}

Bytes ConsumeElement(FuzzedDataProvider& fdp)
{
    const size_t n{ConsumeElementSize(fdp)};
    if (fdp.ConsumeBool() && n > 0) return Bytes(n, fdp.ConsumeIntegral<uint8_t>()); // all-equal: zeros, 0x01, 0x80...
    return ConsumeBytesPadded(fdp, n);
}

size_t EncodeElement(FdpEncoder& e, const Bytes& item)
{
    // The largest size ConsumeElementSize can give that is not above the item's: its own, or for
    // a size no form gives, the largest of a special size, SMALL's 80 and AROUND_520's 530 below it.
    const auto is_special{[](size_t n) { return std::find(SPECIAL.begin(), SPECIAL.end(), n) != SPECIAL.end(); }};
    size_t n{item.size()};
    if (!is_special(n) && !(n >= 510 && n <= 530) && n > 80) {
        n = std::max({*std::prev(std::upper_bound(SPECIAL.begin(), SPECIAL.end(), n)), size_t{80}, n > 530 ? size_t{530} : size_t{0}});
    }
    if (is_special(n)) {
        EncodeChoice(e, ElementSize::SPECIAL);
        e.Integral(static_cast<uint64_t>(std::find(SPECIAL.begin(), SPECIAL.end(), n) - SPECIAL.begin()), 0, SPECIAL.size() - 1);
    } else if (n >= 510 && n <= 530) {
        EncodeChoice(e, ElementSize::AROUND_520);
        e.Integral(n, 510, 530);
    } else {
        EncodeChoice(e, ElementSize::SMALL);
        e.Integral(n, 0, 80);
    }
    const bool all_equal{n > 0 && std::all_of(item.begin(), item.begin() + static_cast<std::ptrdiff_t>(n), [&](uint8_t b) { return b == item[0]; })};
    e.Bool(all_equal);
    if (all_equal) {
        e.Integral<uint8_t>(item[0]);
    } else {
        e.Bytes(std::span{item}.first(n));
    }
    return n;
}

void EncodeStack(FdpEncoder& e, const Stack& stack, size_t max_items)
{
    const size_t n{std::min(stack.size(), max_items)};
    e.Integral(n, 0, max_items);
    for (size_t i = 0; i < n; ++i) EncodeElement(e, stack[i]);
}

Stack ConsumeStack(FuzzedDataProvider& fdp, size_t max_items)
{
    Stack s;
    const size_t n{fdp.ConsumeIntegralInRange<size_t>(0, max_items)};
    for (size_t i = 0; i < n; ++i) s.push_back(ConsumeElement(fdp));
    return s;
}

Bytes BuildScript(FuzzedDataProvider& fdp, size_t max_ops)
{
    Bytes s;
    const size_t n{fdp.ConsumeIntegralInRange<size_t>(0, max_ops)};
    for (size_t i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
        switch (ConsumeChoice<ScriptPiece>(fdp)) {
        case ScriptPiece::PUSH: {
            const Bytes data{ConsumeElement(fdp)};
            const PushForm form{ConsumeChoice<PushForm>(fdp)};
            if (form == PushForm::MINIMAL || (form == PushForm::DIRECT && data.size() >= 0x4c)) {
                AppendPush(s, data);
            } else {
                const uint8_t op{form == PushForm::DIRECT      ? static_cast<uint8_t>(data.size())
                                 : form == PushForm::PUSHDATA1 ? uint8_t{OP_PUSHDATA1}
                                 : form == PushForm::PUSHDATA2 ? uint8_t{OP_PUSHDATA2}
                                                               : uint8_t{OP_PUSHDATA4}};
                if (op == OP_PUSHDATA1 && data.size() > 0xff) { AppendPush(s, data); break; }
                s.push_back(op);
                const size_t width{op == OP_PUSHDATA1 ? 1u : op == OP_PUSHDATA2 ? 2u : op == OP_PUSHDATA4 ? 4u : 0u};
                for (size_t k = 0; k < width; ++k) s.push_back(static_cast<uint8_t>(data.size() >> (8 * k)));
                s.insert(s.end(), data.begin(), data.end());
            }
            break;
        }
        case ScriptPiece::NUMBER: { // minimal or not
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
        case ScriptPiece::SMALL_INTEGER:
            s.push_back(fdp.ConsumeBool() ? uint8_t{OP_0} : static_cast<uint8_t>(fdp.ConsumeIntegralInRange<int>(OP_1NEGATE, OP_16)));
            break;
        case ScriptPiece::CONDITIONAL: {
            static constexpr std::array<uint8_t, 5> FLOW{OP_IF, OP_NOTIF, OP_ELSE, OP_ENDIF, OP_VERIFY};
            s.push_back(fdp.PickValueInArray(FLOW));
            break;
        }
        case ScriptPiece::STACK_OP: { // where large items multiply
            static constexpr std::array<uint8_t, 14> DUPS{OP_DUP, OP_DUP, OP_2DUP, OP_3DUP, OP_2OVER, OP_IFDUP, OP_OVER,
                                                          OP_PICK, OP_ROLL, OP_TUCK, OP_DROP, OP_2DROP, OP_TOALTSTACK, OP_FROMALTSTACK};
            s.push_back(fdp.PickValueInArray(DUPS));
            break;
        }
        case ScriptPiece::CRYPTO_OP: {
            static constexpr std::array<uint8_t, 13> OPS{OP_SIZE, OP_RIPEMD160, OP_SHA1, OP_SHA256, OP_HASH160, OP_HASH256, OP_EQUAL,
                                                         OP_EQUALVERIFY, OP_CHECKSIG, OP_CHECKSIGVERIFY, OP_CHECKMULTISIG, OP_CHECKSIGADD,
                                                         OP_CODESEPARATOR};
            s.push_back(fdp.PickValueInArray(OPS));
            break;
        }
        case ScriptPiece::ANY_OPCODE:
            s.push_back(fdp.ConsumeIntegralInRange<uint8_t>(OP_NOP, 0xff));
            break;
        case ScriptPiece::LOCKTIME_OR_NOP:
            s.push_back(fdp.ConsumeIntegralInRange<uint8_t>(OP_NOP1, OP_NOP10));
            break;
        case ScriptPiece::TRUNCATED_PUSH: {
            s.push_back(fdp.PickValueInArray({uint8_t{0x05}, uint8_t{OP_PUSHDATA1}, uint8_t{OP_PUSHDATA2}, uint8_t{OP_PUSHDATA4}}));
            const Bytes tail{fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 3))};
            s.insert(s.end(), tail.begin(), tail.end());
            break;
        }
        }
    }
    return s;
}

} // namespace equifuzz::script
