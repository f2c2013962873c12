// How our two models run a stream of the Side interface through their hashers, written once: the
// streaming hashers (CSipHasher, SipHasher13UJ's Write/WriteJumbo/Finalize) are the same calls on
// each side. What #35215 changes, how the current state hashes an outpoint or a lone jumbo block,
// each side passes in: the original streams a copy, the optimized side calls its const Hash.
#ifndef EQUIFUZZ_SIPHASH_DRIVE_H
#define EQUIFUZZ_SIPHASH_DRIVE_H

#include "side.h"

#include <cstdint>
#include <span>
#include <vector>

namespace equifuzz::siphash {

//! Every FINALIZE's output in order, then the final one.
template <typename Hasher>
std::vector<uint64_t> Sip24StreamOf(const Key& key, std::span<const Sip24Op> ops)
{
    std::vector<uint64_t> out;
    out.reserve(ops.size() + 1); // at most one output per op, and the last: one allocation
    Hasher hasher{key.k0, key.k1};
    for (const Sip24Op& op : ops) {
        switch (op.kind) {
        case Sip24Op::BYTES: hasher.Write(op.bytes); break;
        case Sip24Op::WORD: hasher.Write(op.word); break;
        case Sip24Op::FINALIZE: out.push_back(hasher.Finalize()); break;
        }
    }
    out.push_back(hasher.Finalize());
    return out;
}

template <typename Hasher>
uint64_t Sip24BytesOf(const Key& key, std::span<const uint8_t> data)
{
    Hasher hasher{key.k0, key.k1};
    hasher.Write(data);
    return hasher.Finalize();
}

//! Every output in order (FINALIZE and the two Hash calls), then the final one. `hash_outpoint`
//! (state, h, n) and `hash_jumbo` (state, h) hash from the current state without changing it.
template <typename Hasher, typename HashOutpoint, typename HashJumbo>
std::vector<uint64_t> UJStreamOf(const Key& key, std::span<const UJOp> ops, const HashOutpoint& hash_outpoint, const HashJumbo& hash_jumbo)
{
    std::vector<uint64_t> out;
    out.reserve(ops.size() + 1); // at most one output per op, and the last: one allocation
    Hasher hasher{key.k0, key.k1};
    for (const UJOp& op : ops) {
        switch (op.kind) {
        case UJOp::NORMAL: hasher.Write(op.word); break;
        case UJOp::JUMBO: hasher.WriteJumbo(op.jumbo); break;
        case UJOp::FINALIZE: out.push_back(hasher.Finalize()); break;
        case UJOp::HASH_OUTPOINT: out.push_back(hash_outpoint(hasher, op.jumbo, op.n)); break;
        case UJOp::HASH_JUMBO: out.push_back(hash_jumbo(hasher, op.jumbo)); break;
        }
    }
    out.push_back(hasher.Finalize());
    return out;
}

} // namespace equifuzz::siphash

#endif // EQUIFUZZ_SIPHASH_DRIVE_H
