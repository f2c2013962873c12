// The script interpreter, written from spec section 2a/2d. It is compiled into each side's
// translation unit (original.cpp, optimized.cpp) with that side's Config, inside an anonymous
// namespace, so the copies never merge at link time and a mutant can patch one side's copy
// (a mutant patch of this file names its role: see cmake/Equifuzz.cmake).
//
// Include it only from a side's .cpp, as <script/interpreter.h>.
#pragma once

#include <common/compact_size.h>
#include <script/crypto.h>
#include <script/opcodes.h>
#include <script/side.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace equifuzz::script {
namespace {
namespace interp {

constexpr size_t MAX_OPS_PER_SCRIPT{201};
constexpr size_t MAX_SCRIPT_SIZE{10000};
constexpr size_t MAX_STACK_SIZE{1000};
constexpr int64_t MAX_PUBKEYS_PER_MULTISIG{20};
constexpr int64_t VALIDATION_WEIGHT_PER_SIGOP{50};
constexpr int64_t VALIDATION_WEIGHT_OFFSET{50};

//! A script-number decoding failure (caught by EvalScript as SCRIPTNUM).
struct ScriptNumError {};

//! Reads one opcode at `pc`; a push's payload goes to `data`. False on a truncated push.
bool GetOp(const Bytes& s, size_t& pc, uint8_t& opcode, Bytes& data)
{
    data.clear();
    const std::optional<ScriptOp> op{ReadOp(s, pc)};
    if (!op) return false;
    opcode = op->opcode;
    data.assign(op->data.begin(), op->data.end());
    return true;
}

int64_t DecodeNum(const Bytes& v, bool require_minimal, size_t max_size = 4)
{
    if (v.size() > max_size) throw ScriptNumError{};
    if (require_minimal && !v.empty()) {
        // The top byte (sign bit aside) must be needed: either it is non-zero, or the byte
        // below has its high bit set and so needs a separate sign byte.
        if ((v.back() & 0x7f) == 0 && (v.size() == 1 || (v[v.size() - 2] & 0x80) == 0)) throw ScriptNumError{};
    }
    if (v.empty()) return 0;
    uint64_t magnitude{0};
    for (size_t i = 0; i < v.size(); ++i) magnitude |= uint64_t{v[i]} << (8 * i);
    const uint64_t sign_bit{uint64_t{0x80} << (8 * (v.size() - 1))};
    if (v.back() & 0x80) return -static_cast<int64_t>(magnitude & ~sign_bit);
    return static_cast<int64_t>(magnitude);
}

Bytes EncodeNum(int64_t value)
{
    Bytes out;
    if (value == 0) return out;
    const bool negative{value < 0};
    uint64_t abs{negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value)};
    while (abs) {
        out.push_back(static_cast<uint8_t>(abs & 0xff));
        abs >>= 8;
    }
    if (out.back() & 0x80) {
        out.push_back(negative ? 0x80 : 0x00);
    } else if (negative) {
        out.back() |= 0x80;
    }
    return out;
}

//! getint(): the value clamped to the int32 range.
int32_t ClampInt(int64_t v)
{
    if (v > std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
    if (v < std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(v);
}

bool CastToBool(const Bytes& v)
{
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] != 0) return !(i == v.size() - 1 && v[i] == 0x80); // negative zero is false
    }
    return false;
}

const Bytes TRUE_VALUE{1};
const Bytes FALSE_VALUE{};

bool CheckMinimalPush(const Bytes& data, uint8_t opcode)
{
    if (data.empty()) return opcode == OP_0;
    if (data.size() == 1 && data[0] >= 1 && data[0] <= 16) return opcode == OP_1 + (data[0] - 1);
    if (data.size() == 1 && data[0] == 0x81) return opcode == OP_1NEGATE;
    if (data.size() <= 75) return opcode == data.size();
    if (data.size() <= 255) return opcode == OP_PUSHDATA1;
    if (data.size() <= 65535) return opcode == OP_PUSHDATA2;
    return true;
}

bool IsOpSuccess(uint8_t op)
{
    return op == 80 || op == 98 || (op >= 126 && op <= 129) || (op >= 131 && op <= 134) ||
           (op >= 137 && op <= 138) || (op >= 141 && op <= 142) || (op >= 149 && op <= 153) ||
           (op >= 187 && op <= 254);
}

bool IsDisabled(uint8_t op)
{
    switch (op) {
    case OP_CAT: case OP_SUBSTR: case OP_LEFT: case OP_RIGHT: case OP_INVERT: case OP_AND:
    case OP_OR: case OP_XOR: case OP_2MUL: case OP_2DIV: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_LSHIFT: case OP_RSHIFT:
        return true;
    default:
        return false;
    }
}

// --- signature and key encodings (BIP66 strict DER, low S, defined hash types) ---

bool IsStrictDER(const Bytes& sig)
{
    // 0x30 len 0x02 lenR R 0x02 lenS S hashtype
    const size_t size{sig.size()};
    if (size < 9 || size > 73) return false;
    if (sig[0] != 0x30 || sig[1] != size - 3) return false;
    const size_t len_r{sig[3]};
    if (5 + len_r >= size) return false;
    const size_t len_s{sig[5 + len_r]};
    if (len_r + len_s + 7 != size) return false;
    if (sig[2] != 0x02 || len_r == 0 || (sig[4] & 0x80)) return false;
    if (len_r > 1 && sig[4] == 0x00 && !(sig[5] & 0x80)) return false;
    if (sig[len_r + 4] != 0x02 || len_s == 0 || (sig[len_r + 6] & 0x80)) return false;
    if (len_s > 1 && sig[len_r + 6] == 0x00 && !(sig[len_r + 7] & 0x80)) return false;
    return true;
}

bool IsLowS(const Bytes& sig)
{
    // Half the secp256k1 group order, big-endian.
    static const uint8_t HALF_ORDER[32]{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                        0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4,
                                        0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0};
    static const uint8_t ORDER[32]{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48,
                                   0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
    // Core reads R and S leniently: when either is longer than 32 bytes or not below the group
    // order, the signature counts as all zero, and a zero S is not high (found by Bitcoin Core's
    // interpreter as a side: we used to call such an S high).
    const auto read = [](const uint8_t* p, size_t n, uint8_t out[32]) {
        while (n > 0 && *p == 0) { ++p; --n; }
        if (n > 32) return false;
        std::memcpy(out + 32 - n, p, n);
        return std::memcmp(out, ORDER, 32) < 0;
    };
    const size_t len_r{sig[3]};
    const size_t len_s{sig[5 + len_r]};
    uint8_t r[32]{}, s[32]{};
    if (!read(&sig[4], len_r, r) || !read(&sig[6 + len_r], len_s, s)) return true;
    return std::memcmp(s, HALF_ORDER, 32) <= 0;
}

bool IsDefinedHashtype(const Bytes& sig)
{
    if (sig.empty()) return false;
    const uint8_t t{static_cast<uint8_t>(sig.back() & ~0x80)};
    return t >= 1 && t <= 3;
}

bool CheckSignatureEncoding(const Bytes& sig, uint32_t flags, ScriptError& err)
{
    if (sig.empty()) return true;
    if ((flags & (FLAG_DERSIG | FLAG_LOW_S | FLAG_STRICTENC)) && !IsStrictDER(sig)) {
        err = ScriptError::SIG_DER;
        return false;
    }
    if ((flags & FLAG_LOW_S) && !IsLowS(sig)) {
        err = ScriptError::SIG_HIGH_S;
        return false;
    }
    if ((flags & FLAG_STRICTENC) && !IsDefinedHashtype(sig)) {
        err = ScriptError::SIG_HASHTYPE;
        return false;
    }
    return true;
}

bool CheckPubKeyEncoding(const Bytes& key, uint32_t flags, SigVersion sigversion, ScriptError& err)
{
    const bool compressed{key.size() == 33 && (key[0] == 0x02 || key[0] == 0x03)};
    const bool uncompressed{key.size() == 65 && key[0] == 0x04};
    if ((flags & FLAG_STRICTENC) && !compressed && !uncompressed) {
        err = ScriptError::PUBKEYTYPE;
        return false;
    }
    if ((flags & FLAG_WITNESS_PUBKEYTYPE) && sigversion == SigVersion::WITNESS_V0 && !compressed) {
        err = ScriptError::WITNESS_PUBKEYTYPE;
        return false;
    }
    return true;
}

//! Removes every occurrence of `pattern` that starts at an opcode boundary. Returns the count.
size_t FindAndDelete(Bytes& script, const Bytes& pattern)
{
    if (pattern.empty()) return 0;
    size_t found{0};
    Bytes result;
    size_t pc{0}, kept_from{0};
    uint8_t opcode;
    Bytes data;
    while (true) {
        result.insert(result.end(), script.begin() + static_cast<std::ptrdiff_t>(kept_from), script.begin() + static_cast<std::ptrdiff_t>(pc));
        while (script.size() - pc >= pattern.size() && std::equal(pattern.begin(), pattern.end(), script.begin() + static_cast<std::ptrdiff_t>(pc))) {
            pc += pattern.size();
            ++found;
        }
        kept_from = pc;
        if (!GetOp(script, pc, opcode, data)) break;
    }
    if (found > 0) {
        result.insert(result.end(), script.begin() + static_cast<std::ptrdiff_t>(kept_from), script.end());
        script = std::move(result);
    }
    return found;
}

struct ExecData {
    int64_t validation_weight_left{0};
    TaprootContext taproot; //!< what a Schnorr signature hash commits to
};

class Interpreter
{
public:
    Interpreter(const Config& cfg, const Checker& checker, uint32_t flags) : m_cfg{cfg}, m_checker{checker}, m_flags{flags} {}

    uint64_t opcodes_read{0};
    uint64_t max_dup_item{0};
    Stack altstack;

    bool Fail(ScriptError e)
    {
        m_error = e;
        return false;
    }
    ScriptError Error() const { return m_error; }

    //! Taproot key path: the program is the key.
    bool CheckKeyPath(const Bytes& sig, const Bytes& program, const ExecData& exec)
    {
        ScriptError err{ScriptError::SCHNORR_SIG};
        if (!m_checker.CheckSchnorrSignature(sig, program, exec.taproot, err)) return Fail(err);
        return true;
    }

    //! EvalScript: runs `script` on `stack`.
    bool Eval(Stack& stack, const Bytes& script, SigVersion sigversion, ExecData& exec)
    {
        altstack.clear();
        try {
            return EvalInner(stack, script, sigversion, exec);
        } catch (const ScriptNumError&) {
            return Fail(ScriptError::SCRIPTNUM);
        }
    }

    //! ExecuteWitnessScript: the initial-stack checks, EvalScript, then the implicit clean stack.
    bool ExecuteWitnessScript(Stack& stack, const Bytes& script, SigVersion sigversion, ExecData& exec)
    {
        if (sigversion == SigVersion::TAPSCRIPT) {
            // OP_SUCCESSx overrides every other rule, including the limits below.
            size_t pc{0};
            uint8_t opcode;
            Bytes data;
            while (pc < script.size()) {
                if (!GetOp(script, pc, opcode, data)) return Fail(ScriptError::BAD_OPCODE);
                if (IsOpSuccess(opcode)) {
                    if (m_flags & FLAG_DISCOURAGE_OP_SUCCESS) return Fail(ScriptError::DISCOURAGE_OP_SUCCESS);
                    m_error = ScriptError::OK;
                    return true;
                }
            }
            if (stack.size() > MAX_STACK_SIZE) return Fail(ScriptError::STACK_SIZE);
        }
        const size_t limit{sigversion == SigVersion::TAPSCRIPT ? m_cfg.max_witness_item_tapscript : m_cfg.max_witness_item_base};
        for (const Bytes& item : stack) {
            if (item.size() > limit) return Fail(ScriptError::PUSH_SIZE);
        }
        if (!Eval(stack, script, sigversion, exec)) return false;
        if (stack.size() != 1) return Fail(ScriptError::CLEANSTACK);
        if (!CastToBool(stack.back())) return Fail(ScriptError::EVAL_FALSE);
        m_error = ScriptError::OK;
        return true;
    }

private:
    const Config& m_cfg;
    const Checker& m_checker;
    const uint32_t m_flags;
    ScriptError m_error{ScriptError::UNKNOWN_ERROR};

    bool EvalChecksigTapscript(const Bytes& sig, const Bytes& pubkey, ExecData& exec, bool& success)
    {
        success = !sig.empty();
        if (success) {
            exec.validation_weight_left -= VALIDATION_WEIGHT_PER_SIGOP;
            if (exec.validation_weight_left < 0) return Fail(ScriptError::TAPSCRIPT_VALIDATION_WEIGHT);
        }
        if (pubkey.empty()) return Fail(ScriptError::TAPSCRIPT_EMPTY_PUBKEY);
        if (pubkey.size() == 32) {
            ScriptError err{ScriptError::SCHNORR_SIG};
            if (success && !m_checker.CheckSchnorrSignature(sig, pubkey, exec.taproot, err)) return Fail(err);
        } else if (m_flags & FLAG_DISCOURAGE_UPGRADABLE_PUBKEYTYPE) {
            return Fail(ScriptError::DISCOURAGE_UPGRADABLE_PUBKEYTYPE);
        }
        return true;
    }

    bool EvalInner(Stack& stack, const Bytes& script, SigVersion sigversion, ExecData& exec)
    {
        const bool legacy{sigversion == SigVersion::BASE || sigversion == SigVersion::WITNESS_V0};
        const bool minimal{(m_flags & FLAG_MINIMALDATA) != 0};
        if (legacy && script.size() > MAX_SCRIPT_SIZE) return Fail(ScriptError::SCRIPT_SIZE);
        std::vector<bool> conditions;
        size_t false_count{0};
        size_t op_count{0};
        size_t code_start{0};
        size_t pc{0};
        uint8_t opcode;
        Bytes data;
        auto top = [&](size_t depth) -> Bytes& { return stack[stack.size() - depth]; };
        auto pop = [&]() { stack.pop_back(); };
        auto need = [&](size_t n) { return stack.size() >= n; };

        uint32_t opcode_pos{0}; // BIP-342's codesep_pos counts every opcode read, pushes included
        for (; pc < script.size(); ++opcode_pos) {
            const bool executing{false_count == 0};
            if (!GetOp(script, pc, opcode, data)) return Fail(ScriptError::BAD_OPCODE);
            ++opcodes_read;
            if (data.size() > m_cfg.max_push_size) return Fail(ScriptError::PUSH_SIZE);
            if (legacy && opcode > OP_16 && ++op_count > MAX_OPS_PER_SCRIPT) return Fail(ScriptError::OP_COUNT);
            if (IsDisabled(opcode)) return Fail(ScriptError::DISABLED_OPCODE);
            if (opcode == OP_CODESEPARATOR && sigversion == SigVersion::BASE && (m_flags & FLAG_CONST_SCRIPTCODE)) {
                return Fail(ScriptError::OP_CODESEPARATOR);
            }

            if (executing && opcode <= OP_PUSHDATA4) {
                if (minimal && !CheckMinimalPush(data, opcode)) return Fail(ScriptError::MINIMALDATA);
                stack.push_back(data);
            } else if (executing || (opcode >= OP_IF && opcode <= OP_ENDIF)) {
                switch (opcode) {
                case OP_1NEGATE:
                case OP_1: case 0x52: case 0x53: case 0x54: case 0x55: case 0x56: case 0x57: case 0x58:
                case 0x59: case 0x5a: case 0x5b: case 0x5c: case 0x5d: case 0x5e: case 0x5f: case OP_16:
                    stack.push_back(EncodeNum(static_cast<int64_t>(opcode) - (OP_1 - 1)));
                    break;
                case OP_NOP:
                    break;
                case OP_CHECKLOCKTIMEVERIFY:
                case OP_CHECKSEQUENCEVERIFY: {
                    const bool is_cltv{opcode == OP_CHECKLOCKTIMEVERIFY};
                    // Without its flag a plain NOP, which DISCOURAGE_UPGRADABLE_NOPS does not touch (found
                    // by Bitcoin Core's interpreter as a side: we used to discourage it).
                    if (!(m_flags & (is_cltv ? FLAG_CHECKLOCKTIMEVERIFY : FLAG_CHECKSEQUENCEVERIFY))) break;
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    // Five bytes: lock times up to 2^39-1 must be representable.
                    const int64_t value{DecodeNum(top(1), minimal, 5)};
                    if (value < 0) return Fail(ScriptError::NEGATIVE_LOCKTIME);
                    if (is_cltv) {
                        if (!m_checker.CheckLockTime(value)) return Fail(ScriptError::UNSATISFIED_LOCKTIME);
                    } else {
                        if (value & (int64_t{1} << 31)) break; // disable flag: a NOP
                        if (!m_checker.CheckSequence(value)) return Fail(ScriptError::UNSATISFIED_LOCKTIME);
                    }
                    break;
                }
                case OP_NOP1: case OP_NOP4: case 0xb4: case 0xb5: case 0xb6: case 0xb7: case 0xb8: case OP_NOP10:
                    if (m_flags & FLAG_DISCOURAGE_UPGRADABLE_NOPS) return Fail(ScriptError::DISCOURAGE_UPGRADABLE_NOPS);
                    break;
                case OP_IF:
                case OP_NOTIF: {
                    bool value{false};
                    if (executing) {
                        // INVALID_STACK_OPERATION since Bitcoin Core #32143 (UNBALANCED_CONDITIONAL before).
                        if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                        const Bytes& cond{top(1)};
                        const bool strict{cond.size() > 1 || (cond.size() == 1 && cond[0] != 1)};
                        if (sigversion == SigVersion::TAPSCRIPT) {
                            if (strict) return Fail(ScriptError::TAPSCRIPT_MINIMALIF);
                        } else if (sigversion == SigVersion::WITNESS_V0 && (m_flags & FLAG_MINIMALIF)) {
                            if (strict) return Fail(ScriptError::MINIMALIF);
                        }
                        value = CastToBool(cond);
                        if (opcode == OP_NOTIF) value = !value;
                        pop();
                    }
                    conditions.push_back(value);
                    if (!value) ++false_count;
                    break;
                }
                case OP_ELSE:
                    if (conditions.empty()) return Fail(ScriptError::UNBALANCED_CONDITIONAL);
                    if (conditions.back()) ++false_count; else --false_count;
                    conditions.back() = !conditions.back();
                    break;
                case OP_ENDIF:
                    if (conditions.empty()) return Fail(ScriptError::UNBALANCED_CONDITIONAL);
                    if (!conditions.back()) --false_count;
                    conditions.pop_back();
                    break;
                case OP_VERIFY:
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    if (!CastToBool(top(1))) return Fail(ScriptError::VERIFY);
                    pop();
                    break;
                case OP_RETURN:
                    return Fail(ScriptError::OP_RETURN);
                case OP_TOALTSTACK:
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    altstack.push_back(top(1));
                    pop();
                    break;
                case OP_FROMALTSTACK:
                    if (altstack.empty()) return Fail(ScriptError::INVALID_ALTSTACK_OPERATION);
                    stack.push_back(altstack.back());
                    altstack.pop_back();
                    break;
                case OP_2DROP:
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    pop();
                    pop();
                    break;
                case OP_2DUP: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(2)}, b{top(1)};
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }
                case OP_3DUP: {
                    if (!need(3)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(3)}, b{top(2)}, c{top(1)};
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    stack.push_back(std::move(c));
                    break;
                }
                case OP_2OVER: {
                    if (!need(4)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(4)}, b{top(3)};
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }
                case OP_2ROT: {
                    if (!need(6)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(6)}, b{top(5)};
                    stack.erase(stack.end() - 6, stack.end() - 4);
                    stack.push_back(std::move(a));
                    stack.push_back(std::move(b));
                    break;
                }
                case OP_2SWAP:
                    if (!need(4)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(4), top(2));
                    std::swap(top(3), top(1));
                    break;
                case OP_IFDUP:
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    if (CastToBool(top(1))) {
                        Bytes a{top(1)};
                        stack.push_back(std::move(a));
                    }
                    break;
                case OP_DEPTH:
                    stack.push_back(EncodeNum(static_cast<int64_t>(stack.size())));
                    break;
                case OP_DROP:
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    pop();
                    break;
                case OP_DUP: {
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    // BIP-360: duplicating an item over 520 bytes fails (tapscript only).
                    if (m_cfg.dup_rule && sigversion == SigVersion::TAPSCRIPT && top(1).size() > MAX_SCRIPT_ELEMENT_SIZE) {
                        return Fail(ScriptError::DUP_ELEMENT_SIZE);
                    }
                    max_dup_item = std::max<uint64_t>(max_dup_item, top(1).size());
                    Bytes a{top(1)};
                    stack.push_back(std::move(a));
                    break;
                }
                case OP_NIP:
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    stack.erase(stack.end() - 2);
                    break;
                case OP_OVER: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(2)};
                    stack.push_back(std::move(a));
                    break;
                }
                case OP_PICK:
                case OP_ROLL: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const int64_t n{ClampInt(DecodeNum(top(1), minimal))};
                    pop();
                    if (n < 0 || static_cast<uint64_t>(n) >= stack.size()) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes v{top(static_cast<size_t>(n) + 1)};
                    if (opcode == OP_ROLL) stack.erase(stack.end() - n - 1);
                    stack.push_back(std::move(v));
                    break;
                }
                case OP_ROT:
                    if (!need(3)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(3), top(2));
                    std::swap(top(2), top(1));
                    break;
                case OP_SWAP:
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    std::swap(top(2), top(1));
                    break;
                case OP_TUCK: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes a{top(1)};
                    stack.insert(stack.end() - 2, std::move(a));
                    break;
                }
                case OP_SIZE:
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    stack.push_back(EncodeNum(static_cast<int64_t>(top(1).size())));
                    break;
                case OP_EQUAL:
                case OP_EQUALVERIFY: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const bool equal{top(2) == top(1)};
                    pop();
                    pop();
                    stack.push_back(equal ? TRUE_VALUE : FALSE_VALUE);
                    if (opcode == OP_EQUALVERIFY) {
                        if (!equal) return Fail(ScriptError::EQUALVERIFY);
                        pop();
                    }
                    break;
                }
                case OP_1ADD: case OP_1SUB: case OP_NEGATE: case OP_ABS: case OP_NOT: case OP_0NOTEQUAL: {
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    int64_t n{DecodeNum(top(1), minimal)};
                    switch (opcode) {
                    case OP_1ADD: n += 1; break;
                    case OP_1SUB: n -= 1; break;
                    case OP_NEGATE: n = -n; break;
                    case OP_ABS: n = n < 0 ? -n : n; break;
                    case OP_NOT: n = n == 0; break;
                    default: n = n != 0; break;
                    }
                    pop();
                    stack.push_back(EncodeNum(n));
                    break;
                }
                case OP_ADD: case OP_SUB: case OP_BOOLAND: case OP_BOOLOR: case OP_NUMEQUAL:
                case OP_NUMEQUALVERIFY: case OP_NUMNOTEQUAL: case OP_LESSTHAN: case OP_GREATERTHAN:
                case OP_LESSTHANOREQUAL: case OP_GREATERTHANOREQUAL: case OP_MIN: case OP_MAX: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const int64_t a{DecodeNum(top(2), minimal)};
                    const int64_t b{DecodeNum(top(1), minimal)};
                    int64_t r{0};
                    switch (opcode) {
                    case OP_ADD: r = a + b; break;
                    case OP_SUB: r = a - b; break;
                    case OP_BOOLAND: r = a != 0 && b != 0; break;
                    case OP_BOOLOR: r = a != 0 || b != 0; break;
                    case OP_NUMEQUAL: case OP_NUMEQUALVERIFY: r = a == b; break;
                    case OP_NUMNOTEQUAL: r = a != b; break;
                    case OP_LESSTHAN: r = a < b; break;
                    case OP_GREATERTHAN: r = a > b; break;
                    case OP_LESSTHANOREQUAL: r = a <= b; break;
                    case OP_GREATERTHANOREQUAL: r = a >= b; break;
                    case OP_MIN: r = std::min(a, b); break;
                    default: r = std::max(a, b); break;
                    }
                    pop();
                    pop();
                    stack.push_back(EncodeNum(r));
                    if (opcode == OP_NUMEQUALVERIFY) {
                        if (!CastToBool(top(1))) return Fail(ScriptError::NUMEQUALVERIFY);
                        pop();
                    }
                    break;
                }
                case OP_WITHIN: {
                    if (!need(3)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const int64_t x{DecodeNum(top(3), minimal)};
                    const int64_t lo{DecodeNum(top(2), minimal)};
                    const int64_t hi{DecodeNum(top(1), minimal)};
                    pop();
                    pop();
                    pop();
                    stack.push_back(lo <= x && x < hi ? TRUE_VALUE : FALSE_VALUE);
                    break;
                }
                case OP_RIPEMD160: case OP_SHA1: case OP_SHA256: case OP_HASH160: case OP_HASH256: {
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const Bytes& v{top(1)};
                    Bytes h;
                    switch (opcode) {
                    case OP_RIPEMD160: h = Ripemd160(v); break;
                    case OP_SHA1: h = Sha1(v); break;
                    case OP_SHA256: h = Sha256(v); break;
                    case OP_HASH160: h = Hash160(v); break;
                    default: h = Hash256(v); break;
                    }
                    pop();
                    stack.push_back(std::move(h));
                    break;
                }
                case OP_CODESEPARATOR:
                    code_start = pc;
                    exec.taproot.codesep_pos = opcode_pos;
                    break;
                case OP_CHECKSIG:
                case OP_CHECKSIGVERIFY: {
                    if (!need(2)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const Bytes sig{top(2)};
                    const Bytes pubkey{top(1)};
                    bool success{false};
                    if (sigversion == SigVersion::TAPSCRIPT) {
                        if (!EvalChecksigTapscript(sig, pubkey, exec, success)) return false;
                    } else {
                        Bytes code(script.begin() + static_cast<std::ptrdiff_t>(code_start), script.end());
                        if (sigversion == SigVersion::BASE) {
                            Bytes pattern;
                            AppendPush(pattern, sig);
                            if (FindAndDelete(code, pattern) > 0 && (m_flags & FLAG_CONST_SCRIPTCODE)) return Fail(ScriptError::SIG_FINDANDDELETE);
                        }
                        ScriptError err{};
                        if (!CheckSignatureEncoding(sig, m_flags, err) || !CheckPubKeyEncoding(pubkey, m_flags, sigversion, err)) return Fail(err);
                        success = m_checker.CheckECDSASignature(sig, pubkey, code, sigversion);
                        if (!success && (m_flags & FLAG_NULLFAIL) && !sig.empty()) return Fail(ScriptError::NULLFAIL);
                    }
                    pop();
                    pop();
                    stack.push_back(success ? TRUE_VALUE : FALSE_VALUE);
                    if (opcode == OP_CHECKSIGVERIFY) {
                        if (!success) return Fail(ScriptError::CHECKSIGVERIFY);
                        pop();
                    }
                    break;
                }
                case OP_CHECKSIGADD: {
                    if (sigversion != SigVersion::TAPSCRIPT) return Fail(ScriptError::BAD_OPCODE);
                    if (!need(3)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    const Bytes sig{top(3)};
                    const int64_t n{DecodeNum(top(2), minimal)};
                    const Bytes pubkey{top(1)};
                    bool success{false};
                    if (!EvalChecksigTapscript(sig, pubkey, exec, success)) return false;
                    pop();
                    pop();
                    pop();
                    stack.push_back(EncodeNum(n + (success ? 1 : 0)));
                    break;
                }
                case OP_CHECKMULTISIG:
                case OP_CHECKMULTISIGVERIFY: {
                    if (sigversion == SigVersion::TAPSCRIPT) return Fail(ScriptError::TAPSCRIPT_CHECKMULTISIG);
                    size_t i{1};
                    if (!need(i)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    int64_t keys{ClampInt(DecodeNum(top(i), minimal))};
                    if (keys < 0 || keys > MAX_PUBKEYS_PER_MULTISIG) return Fail(ScriptError::PUBKEY_COUNT);
                    op_count += static_cast<size_t>(keys);
                    if (op_count > MAX_OPS_PER_SCRIPT) return Fail(ScriptError::OP_COUNT);
                    size_t ikey{++i};
                    size_t ikey2{static_cast<size_t>(keys) + 2}; // keys to check for NULLFAIL below
                    i += static_cast<size_t>(keys);
                    if (!need(i)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    int64_t sigs{ClampInt(DecodeNum(top(i), minimal))};
                    if (sigs < 0 || sigs > keys) return Fail(ScriptError::SIG_COUNT);
                    size_t isig{++i};
                    i += static_cast<size_t>(sigs);
                    if (!need(i)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    Bytes code(script.begin() + static_cast<std::ptrdiff_t>(code_start), script.end());
                    for (int64_t k = 0; k < sigs; ++k) {
                        if (sigversion != SigVersion::BASE) break;
                        Bytes pattern;
                        AppendPush(pattern, top(isig + static_cast<size_t>(k)));
                        if (FindAndDelete(code, pattern) > 0 && (m_flags & FLAG_CONST_SCRIPTCODE)) return Fail(ScriptError::SIG_FINDANDDELETE);
                    }
                    bool success{true};
                    while (success && sigs > 0) {
                        const Bytes& sig{top(isig)};
                        const Bytes& pubkey{top(ikey)};
                        ScriptError err{};
                        if (!CheckSignatureEncoding(sig, m_flags, err) || !CheckPubKeyEncoding(pubkey, m_flags, sigversion, err)) return Fail(err);
                        if (m_checker.CheckECDSASignature(sig, pubkey, code, sigversion)) {
                            ++isig;
                            --sigs;
                        }
                        ++ikey;
                        --keys;
                        if (sigs > keys) success = false;
                    }
                    while (i-- > 1) {
                        if (!success && (m_flags & FLAG_NULLFAIL) && ikey2 == 0 && !top(1).empty()) return Fail(ScriptError::NULLFAIL);
                        if (ikey2 > 0) --ikey2;
                        pop();
                    }
                    // The extra item CHECKMULTISIG has always consumed.
                    if (!need(1)) return Fail(ScriptError::INVALID_STACK_OPERATION);
                    if ((m_flags & FLAG_NULLDUMMY) && !top(1).empty()) return Fail(ScriptError::SIG_NULLDUMMY);
                    pop();
                    stack.push_back(success ? TRUE_VALUE : FALSE_VALUE);
                    if (opcode == OP_CHECKMULTISIGVERIFY) {
                        if (!success) return Fail(ScriptError::CHECKMULTISIGVERIFY);
                        pop();
                    }
                    break;
                }
                default:
                    return Fail(ScriptError::BAD_OPCODE);
                }
            }
            if (stack.size() + altstack.size() > MAX_STACK_SIZE) return Fail(ScriptError::STACK_SIZE);
        }
        if (!conditions.empty()) return Fail(ScriptError::UNBALANCED_CONDITIONAL);
        m_error = ScriptError::OK;
        return true;
    }
};

// --- VerifyScript ---

bool IsPushOnly(const Bytes& script)
{
    size_t pc{0};
    uint8_t opcode;
    Bytes data;
    while (pc < script.size()) {
        if (!GetOp(script, pc, opcode, data)) return false;
        if (opcode > OP_16) return false;
    }
    return true;
}

bool IsP2SH(const Bytes& s)
{
    return s.size() == 23 && s[0] == OP_HASH160 && s[1] == 0x14 && s[22] == OP_EQUAL;
}

bool IsWitnessProgram(const Bytes& s, int& version, Bytes& program)
{
    if (s.size() < 4 || s.size() > 42) return false;
    if (s[0] != OP_0 && (s[0] < OP_1 || s[0] > OP_16)) return false;
    if (static_cast<size_t>(s[1]) + 2 != s.size()) return false;
    version = s[0] == OP_0 ? 0 : s[0] - (OP_1 - 1);
    program.assign(s.begin() + 2, s.end());
    return true;
}

size_t SerializedSize(const Stack& items)
{
    size_t total{CompactSizeLength(items.size())};
    for (const Bytes& item : items) total += CompactSizeLength(item.size()) + item.size();
    return total;
}

bool VerifyWitnessProgram(Interpreter& in, const Stack& witness, int version, const Bytes& program, uint32_t flags, bool is_p2sh, Stack& final_stack)
{
    ExecData exec;
    if (version == 0) {
        if (program.size() == 32) {
            if (witness.empty()) return in.Fail(ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
            const Bytes& witness_script{witness.back()};
            Stack stack(witness.begin(), witness.end() - 1);
            if (Sha256(witness_script) != program) return in.Fail(ScriptError::WITNESS_PROGRAM_MISMATCH);
            const bool ok{in.ExecuteWitnessScript(stack, witness_script, SigVersion::WITNESS_V0, exec)};
            final_stack = stack;
            return ok;
        }
        if (program.size() == 20) {
            if (witness.size() != 2) return in.Fail(ScriptError::WITNESS_PROGRAM_MISMATCH);
            Bytes script{OP_DUP, OP_HASH160};
            AppendPush(script, program);
            script.push_back(OP_EQUALVERIFY);
            script.push_back(OP_CHECKSIG);
            Stack stack{witness};
            const bool ok{in.ExecuteWitnessScript(stack, script, SigVersion::WITNESS_V0, exec)};
            final_stack = stack;
            return ok;
        }
        return in.Fail(ScriptError::WITNESS_PROGRAM_WRONG_LENGTH);
    }
    if (version == 1 && program.size() == 32 && !is_p2sh) {
        // Taproot (BIP-341): a key path, or a script path checked against the commitment.
        if (!(flags & FLAG_TAPROOT)) return true;
        Stack stack{witness};
        if (stack.empty()) return in.Fail(ScriptError::WITNESS_PROGRAM_WITNESS_EMPTY);
        if (stack.size() >= 2 && !stack.back().empty() && stack.back()[0] == 0x50) { // the annex
            exec.taproot.annex_present = true;
            exec.taproot.annex = stack.back();
            stack.pop_back();
        }
        if (stack.size() == 1) return in.CheckKeyPath(stack.front(), program, exec);
        const Bytes control{stack.back()};
        stack.pop_back();
        const Bytes script{stack.back()};
        stack.pop_back();
        if (control.size() < 33 || control.size() > 33 + 128 * 32 || (control.size() - 33) % 32 != 0) {
            return in.Fail(ScriptError::TAPROOT_WRONG_CONTROL_SIZE);
        }
        if (!VerifyTaprootCommitment(control, program, TapleafHash(control[0] & 0xfe, script))) return in.Fail(ScriptError::WITNESS_PROGRAM_MISMATCH);
        if ((control[0] & 0xfe) == 0xc0) {
            exec.validation_weight_left = static_cast<int64_t>(SerializedSize(witness)) + VALIDATION_WEIGHT_OFFSET;
            exec.taproot.script_path = true;
            exec.taproot.tapleaf_hash = TapleafHash(0xc0, script);
            const bool ok{in.ExecuteWitnessScript(stack, script, SigVersion::TAPSCRIPT, exec)};
            final_stack = stack;
            return ok;
        }
        if (flags & FLAG_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION) return in.Fail(ScriptError::DISCOURAGE_UPGRADABLE_TAPROOT_VERSION);
        return true;
    }
    if (flags & FLAG_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM) return in.Fail(ScriptError::DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM);
    return true;
}

VerifyResult VerifyScript(const Config& cfg, const SpendInput& spend, const Checker& checker)
{
    VerifyResult out;
    Interpreter in{cfg, checker, spend.flags};
    const uint32_t flags{spend.flags};
    const auto finish = [&](bool ok, const Stack& stack) {
        out.ok = ok;
        out.error = ok ? ScriptError::OK : in.Error();
        out.stack = stack;
        out.max_dup_item = in.max_dup_item;
        return out;
    };
    Stack stack;
    if ((flags & FLAG_SIGPUSHONLY) && !IsPushOnly(spend.script_sig)) {
        in.Fail(ScriptError::SIG_PUSHONLY);
        return finish(false, stack);
    }
    ExecData exec;
    if (!in.Eval(stack, spend.script_sig, SigVersion::BASE, exec)) return finish(false, stack);
    const Stack stack_copy{(flags & FLAG_P2SH) ? stack : Stack{}};
    if (!in.Eval(stack, spend.script_pubkey, SigVersion::BASE, exec)) return finish(false, stack);
    if (stack.empty() || !CastToBool(stack.back())) {
        in.Fail(ScriptError::EVAL_FALSE);
        return finish(false, stack);
    }
    bool had_witness{false};
    int version{0};
    Bytes program;
    if ((flags & FLAG_WITNESS) && IsWitnessProgram(spend.script_pubkey, version, program)) {
        had_witness = true;
        if (!spend.script_sig.empty()) {
            in.Fail(ScriptError::WITNESS_MALLEATED);
            return finish(false, stack);
        }
        Stack wstack;
        if (!VerifyWitnessProgram(in, spend.witness, version, program, flags, false, wstack)) return finish(false, wstack);
        stack.resize(1); // the witness program's own clean-stack rule replaces CLEANSTACK
    }
    if ((flags & FLAG_P2SH) && IsP2SH(spend.script_pubkey)) {
        if (!IsPushOnly(spend.script_sig)) {
            in.Fail(ScriptError::SIG_PUSHONLY);
            return finish(false, stack);
        }
        stack = stack_copy;
        // A push-only scriptSig that made the scriptPubKey succeed left at least one item.
        const Bytes redeem{stack.back()};
        stack.pop_back();
        if (!in.Eval(stack, redeem, SigVersion::BASE, exec)) return finish(false, stack);
        if (stack.empty() || !CastToBool(stack.back())) {
            in.Fail(ScriptError::EVAL_FALSE);
            return finish(false, stack);
        }
        if ((flags & FLAG_WITNESS) && IsWitnessProgram(redeem, version, program)) {
            had_witness = true;
            Bytes single_push;
            AppendPush(single_push, redeem);
            if (spend.script_sig != single_push) {
                in.Fail(ScriptError::WITNESS_MALLEATED_P2SH);
                return finish(false, stack);
            }
            Stack wstack;
            if (!VerifyWitnessProgram(in, spend.witness, version, program, flags, true, wstack)) return finish(false, wstack);
            stack.resize(1);
        }
    }
    if ((flags & FLAG_CLEANSTACK) && stack.size() != 1) {
        in.Fail(ScriptError::CLEANSTACK);
        return finish(false, stack);
    }
    if ((flags & FLAG_WITNESS) && !had_witness && !spend.witness.empty()) {
        in.Fail(ScriptError::WITNESS_UNEXPECTED);
        return finish(false, stack);
    }
    return finish(true, stack);
}

EvalResult Eval(const Config& cfg, const EvalInput& input, const Checker& checker)
{
    EvalResult out;
    Interpreter in{cfg, checker, input.flags};
    Stack stack{input.stack};
    ExecData exec;
    // Tapscript's budget: the witness (stack, script, a 33-byte control block) plus the offset,
    // sized without copying it.
    const size_t witness_size{SerializedSize(input.stack) - CompactSizeLength(input.stack.size()) + CompactSizeLength(input.stack.size() + 2) +
                              CompactSizeLength(input.script.size()) + input.script.size() + CompactSizeLength(33) + 33};
    exec.validation_weight_left = static_cast<int64_t>(witness_size) + VALIDATION_WEIGHT_OFFSET;
    out.ok = input.as_witness_script ? in.ExecuteWitnessScript(stack, input.script, input.sigversion, exec)
                                     : in.Eval(stack, input.script, input.sigversion, exec);
    out.error = out.ok ? ScriptError::OK : in.Error();
    out.stack = std::move(stack);
    out.altstack = in.altstack;
    out.opcodes_read = in.opcodes_read;
    out.max_dup_item = in.max_dup_item;
    return out;
}

} // namespace interp
} // namespace
} // namespace equifuzz::script
