// A minimal CScript-like type over prevector<N, uint8_t>, and the standard output scripts as a
// list of items (opcodes and data pushes), so every side and the oracle build the same script.
// Only what the pair checks is here: appending opcodes and pushes the way CScript's operator<<
// does (one insert at end() per prefix byte, then one range insert for the data), and a few
// byte-level queries (P2SH, P2WSH, witness program, unspendable, push-only).
#pragma once

#include <prevector/prevector.h>
#include <prevector/program.h>
#include <prevector/side.h>

#include <cstdint>
#include <span>
#include <vector>

namespace equifuzz::prevec {

inline constexpr uint8_t OP_0{0x00}, OP_PUSHDATA1{0x4c}, OP_PUSHDATA2{0x4d}, OP_PUSHDATA4{0x4e}, OP_1{0x51}, OP_16{0x60};
inline constexpr uint8_t OP_RETURN{0x6a}, OP_DUP{0x76}, OP_EQUAL{0x87}, OP_EQUALVERIFY{0x88}, OP_HASH160{0xa9};
inline constexpr uint8_t OP_CHECKSIG{0xac}, OP_CHECKMULTISIG{0xae};

//! One element of a script: an opcode, or a push of `data`.
struct ScriptItem {
    bool is_push{false};
    uint8_t opcode{0};
    Bytes data;
};

//! `len` bytes of key/hash material starting at `offset`, cycling through `data` (or a filler).
//! Harness code: the same bytes for every side, its loop uninstrumented.
EQUIFUZZ_NO_COVERAGE inline Bytes Material(const Bytes& data, size_t offset, size_t len)
{
    Bytes out(len);
    for (size_t i = 0; i < len; ++i) {
        out[i] = data.empty() ? static_cast<uint8_t>((offset + i) * 151u + 7u) : data[(offset + i) % data.size()];
    }
    return out;
}

inline uint32_t OpReturnLength(const ScriptInput& in) { return in.length % 521; }
inline uint32_t RawLength(const ScriptInput& in) { return in.length % 521; }

//! The script of `in` as items (Raw has none: it is range-constructed from Material).
inline std::vector<ScriptItem> ScriptItems(const ScriptInput& in)
{
    std::vector<ScriptItem> items;
    size_t offset{0};
    const auto op = [&](uint8_t o) { items.push_back({false, o, {}}); };
    const auto push = [&](size_t len) {
        items.push_back({true, 0, Material(in.data, offset, len)});
        offset += len;
    };
    const auto push_key = [&](bool compressed) {
        Bytes key{Material(in.data, offset, compressed ? 33 : 65)};
        offset += key.size();
        key[0] = compressed ? static_cast<uint8_t>(0x02 | (key[1] & 1)) : 0x04;
        items.push_back({true, 0, key});
    };
    const auto multisig = [&](unsigned m, unsigned n) {
        op(static_cast<uint8_t>(OP_1 + m - 1));
        for (unsigned i = 0; i < n; ++i) push_key(true);
        op(static_cast<uint8_t>(OP_1 + n - 1));
        op(OP_CHECKMULTISIG);
    };
    switch (in.kind) {
    case ScriptKind::P2A: op(OP_1); items.push_back({true, 0, {0x4e, 0x73}}); break;
    case ScriptKind::P2WPKH: op(OP_0); push(20); break;
    case ScriptKind::P2SH: op(OP_HASH160); push(20); op(OP_EQUAL); break;
    case ScriptKind::P2PKH: op(OP_DUP); op(OP_HASH160); push(20); op(OP_EQUALVERIFY); op(OP_CHECKSIG); break;
    case ScriptKind::P2WSH: op(OP_0); push(32); break;
    case ScriptKind::P2TR: op(OP_1); push(32); break;
    case ScriptKind::P2PKCompressed: push_key(true); op(OP_CHECKSIG); break;
    case ScriptKind::P2PKUncompressed: push_key(false); op(OP_CHECKSIG); break;
    case ScriptKind::OpReturn: op(OP_RETURN); push(OpReturnLength(in)); break;
    case ScriptKind::WitnessCommitment: {
        op(OP_RETURN);
        Bytes commitment{0xaa, 0x21, 0xa9, 0xed};
        const Bytes hash{Material(in.data, 0, 32)};
        commitment.insert(commitment.end(), hash.begin(), hash.end());
        items.push_back({true, 0, commitment});
        break;
    }
    case ScriptKind::Multisig1of1: multisig(1, 1); break;
    case ScriptKind::Multisig1of2: multisig(1, 2); break;
    case ScriptKind::Multisig2of3: multisig(2, 3); break;
    case ScriptKind::Raw: break;
    case ScriptKind::Pushes:
        for (const uint32_t len : in.pushes) push(len % 300);
        break;
    }
    return items;
}

//! CScript over a prevector of bytes (ours, or Core's): appends like CScript's operator<<.
template <typename Base>
class BasicScript : public Base
{
public:
    using Base::Base;
    BasicScript& operator<<(uint8_t opcode)
    {
        this->insert(this->end(), opcode);
        return *this;
    }
    BasicScript& operator<<(std::span<const uint8_t> data)
    {
        const size_t n{data.size()};
        if (n < OP_PUSHDATA1) {
            this->insert(this->end(), static_cast<uint8_t>(n));
        } else if (n <= 0xff) {
            this->insert(this->end(), OP_PUSHDATA1);
            this->insert(this->end(), static_cast<uint8_t>(n));
        } else if (n <= 0xffff) {
            this->insert(this->end(), OP_PUSHDATA2);
            const uint8_t le[2]{static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8)};
            this->insert(this->end(), le, le + 2);
        } else {
            this->insert(this->end(), OP_PUSHDATA4);
            const uint8_t le[4]{static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 24)};
            this->insert(this->end(), le, le + 4);
        }
        this->insert(this->end(), data.begin(), data.end());
        return *this;
    }
};

// --- byte-level queries (the same for every container) ----------------------------------

inline bool IsPayToScriptHash(std::span<const uint8_t> s)
{
    return s.size() == 23 && s[0] == OP_HASH160 && s[1] == 0x14 && s[22] == OP_EQUAL;
}
inline bool IsPayToWitnessScriptHash(std::span<const uint8_t> s) { return s.size() == 34 && s[0] == OP_0 && s[1] == 0x20; }
//! Witness version (0..16) and program, or -1.
inline int WitnessProgram(std::span<const uint8_t> s, Bytes& program)
{
    if (s.size() < 4 || s.size() > 42) return -1;
    if (s[0] != OP_0 && (s[0] < OP_1 || s[0] > OP_16)) return -1;
    if (size_t{s[1]} + 2 != s.size()) return -1;
    program.assign(s.begin() + 2, s.end());
    return s[0] == OP_0 ? 0 : s[0] - (OP_1 - 1);
}
inline bool IsUnspendable(std::span<const uint8_t> s) { return (!s.empty() && s[0] == OP_RETURN) || s.size() > 10000; }
inline bool IsPushOnly(std::span<const uint8_t> s)
{
    size_t i{0};
    while (i < s.size()) {
        const uint8_t op{s[i++]};
        if (op > OP_16) return false;
        size_t n{0};
        if (op < OP_PUSHDATA1) {
            n = op;
        } else if (op <= OP_PUSHDATA4) {
            const size_t width{op == OP_PUSHDATA1 ? 1u : op == OP_PUSHDATA2 ? 2u : 4u};
            if (s.size() - i < width) return false;
            for (size_t k = 0; k < width; ++k) n |= size_t{s[i + k]} << (8 * k);
            i += width;
        }
        if (s.size() - i < n) return false;
        i += n;
    }
    return true;
}

//! DynamicUsage's malloc model on 64-bit (spec 1a): 0 for 0, else (a + 31) / 16 * 16.
inline uint64_t MallocUsage(uint64_t alloc) { return alloc == 0 ? 0 : ((alloc + 31) >> 4) << 4; }

//! Fills the container-independent facts of `bytes`.
inline void ScriptQueries(std::span<const uint8_t> bytes, ScriptFacts& f)
{
    f.bytes.assign(bytes.begin(), bytes.end());
    f.serialized.clear();
    AppendCompactSize(f.serialized, bytes.size());
    f.serialized.insert(f.serialized.end(), bytes.begin(), bytes.end());
    f.is_p2sh = IsPayToScriptHash(bytes);
    f.is_p2wsh = IsPayToWitnessScriptHash(bytes);
    f.is_unspendable = IsUnspendable(bytes);
    f.is_push_only = IsPushOnly(bytes);
    f.witness_version = WitnessProgram(bytes, f.witness_program);
}

//! A side's whole script run: build, then look at the storage of copies made four ways.
//! `Base` is the side's prevector of bytes, used through public API only.
template <typename Base>
ScriptFacts BuildScriptFacts(const ScriptInput& in)
{
    BasicScript<Base> script;
    if (in.kind == ScriptKind::Raw) {
        const Bytes raw{Material(in.data, 0, RawLength(in))};
        script = BasicScript<Base>(raw.begin(), raw.end());
    } else {
        for (const ScriptItem& item : ScriptItems(in)) {
            if (item.is_push) {
                script << std::span<const uint8_t>{item.data};
            } else {
                script << item.opcode;
            }
        }
    }
    ScriptFacts f;
    ScriptQueries(std::span<const uint8_t>{script.data(), script.size()}, f);
    f.built_capacity = script.capacity();
    f.built_direct = IsInline(script);
    f.built_memory = script.allocated_memory();
    f.dynamic_usage = MallocUsage(script.allocated_memory());
    const Base range(script.begin(), script.end());
    f.range_capacity = range.capacity();
    f.range_direct = IsInline(range);
    const Base& as_base{script};
    const Base copy(as_base);
    f.copy_capacity = copy.capacity();
    f.copy_direct = IsInline(copy);
    Base read;
    UnserializeElements<Base, true>(read, f.serialized);
    f.read_capacity = read.capacity();
    f.read_direct = IsInline(read);
    f.read_equal = read == as_base;
    return f;
}

} // namespace equifuzz::prevec
