// The siphash pair's Bitcoin Core sides: Core's own SipHash-2-4, compiled from a Core tree
// (cmake/CoreObjects.cmake builds this file once per tree, its symbols kept apart).
//
// Streams go through Core's CSipHasher. The uint256 shapes go through PresaltedSipHasher where
// the tree has it (#30442, kernel 0.4.1), else through SipHashUint256 / SipHashUint256Extra.
// A tree with #35215's SipHasher13UJ (a reviewer's checkout; no registry tree has it) also
// answers the 1-3-UJ entries: streams through Write/WriteJumbo/Finalize and the const Hash
// overloads (HashJumbo where the tree names them by block structure), the outpoint shape through
// a fresh hasher's Hash(h, n), the normal shape through HashNormal or, where the tree has none,
// its stream of the same blocks (UJNormal). Without SipHasher13UJ those entries stay empty. The
// salted outpoint hasher stays empty in every tree: Core draws its salt at random, out of a
// caller's reach. The targets compare Core on what it offers.
#include "../side.h"

#include <crypto/siphash.h>
#include <uint256.h>

#include <array>
#include <functional>
#include <vector>

namespace equifuzz::siphash {
namespace {

uint256 ToUint256(const Uint256& h)
{
    return uint256{std::span<const unsigned char, 32>{h}};
}

std::vector<uint64_t> Sip24Stream(const Key& key, std::span<const Sip24Op> ops)
{
    CSipHasher hasher{key.k0, key.k1};
    std::vector<uint64_t> out;
    out.reserve(ops.size() + 1); // at most one output per op, and the last: one allocation
    for (const Sip24Op& op : ops) {
        switch (op.kind) {
        case Sip24Op::BYTES: hasher.Write(std::span<const unsigned char>{op.bytes}); break;
        case Sip24Op::WORD: hasher.Write(op.word); break;
        case Sip24Op::FINALIZE: out.push_back(hasher.Finalize()); break;
        }
    }
    out.push_back(hasher.Finalize());
    return out;
}

uint64_t Sip24Bytes(const Key& key, std::span<const uint8_t> data)
{
    return CSipHasher{key.k0, key.k1}.Write(std::span<const unsigned char>{data}).Finalize();
}

#ifdef EQUIFUZZ_CORE_HAS_PRESALTED
uint64_t Sip24Uint256(const Key& key, const Uint256& h) { return PresaltedSipHasher{key.k0, key.k1}(ToUint256(h)); }
uint64_t Sip24Uint256Extra(const Key& key, const Uint256& h, uint32_t n) { return PresaltedSipHasher{key.k0, key.k1}(ToUint256(h), n); }
#define EQUIFUZZ_CORE_API "CSipHasher + PresaltedSipHasher"
#else
uint64_t Sip24Uint256(const Key& key, const Uint256& h) { return SipHashUint256(key.k0, key.k1, ToUint256(h)); }
uint64_t Sip24Uint256Extra(const Key& key, const Uint256& h, uint32_t n) { return SipHashUint256Extra(key.k0, key.k1, ToUint256(h), n); }
#define EQUIFUZZ_CORE_API "CSipHasher + SipHashUint256[Extra]"
#endif

#ifdef EQUIFUZZ_CORE_HAS_SIPHASHER13UJ
//! The fixed-width jumbo paths: Hash until their overloads were named by block structure
//! (HashJumbo, beside HashNormal: four or five normal blocks, UJNormal below).
uint64_t JumboHash(const SipHasher13UJ& hasher, const uint256& jumbo)
{
#ifdef EQUIFUZZ_CORE_HAS_UJ_HASH_JUMBO
    return hasher.HashJumbo(jumbo);
#else
    return hasher.Hash(jumbo);
#endif
}
uint64_t JumboHash(const SipHasher13UJ& hasher, const uint256& jumbo, uint64_t extra)
{
#ifdef EQUIFUZZ_CORE_HAS_UJ_HASH_JUMBO
    return hasher.HashJumbo(jumbo, extra);
#else
    return hasher.Hash(jumbo, extra);
#endif
}

std::vector<uint64_t> UJStream(const Key& key, std::span<const UJOp> ops)
{
    SipHasher13UJ hasher{key.k0, key.k1};
    std::vector<uint64_t> out;
    out.reserve(ops.size() + 1); // at most one output per op, and the last: one allocation
    for (const UJOp& op : ops) {
        switch (op.kind) {
        case UJOp::NORMAL: hasher.Write(op.word); break;
        case UJOp::JUMBO: hasher.WriteJumbo(ToUint256(op.jumbo)); break;
        case UJOp::FINALIZE: out.push_back(hasher.Finalize()); break;
        case UJOp::HASH_OUTPOINT: out.push_back(JumboHash(hasher, ToUint256(op.jumbo), uint64_t{op.n})); break;
        case UJOp::HASH_JUMBO: out.push_back(JumboHash(hasher, ToUint256(op.jumbo))); break;
        }
    }
    out.push_back(hasher.Finalize());
    return out;
}

uint64_t UJOutpoint(const Key& key, const Uint256& h, uint32_t n) { return JumboHash(SipHasher13UJ{key.k0, key.k1}, ToUint256(h), uint64_t{n}); }

//! The normal shape: the tree's fixed-width HashNormal where it has one; else Core's own stream
//! of h's four words as normal blocks (Write), the same hash by definition, so that a change that
//! adds HashNormal is checked against the tree before it.
std::array<uint64_t, 2> UJNormal(const Key& key, const Uint256& h, uint64_t extra)
{
    const SipHasher13UJ hasher{key.k0, key.k1};
#ifdef EQUIFUZZ_CORE_HAS_UJ_HASH_NORMAL
    return {hasher.HashNormal(ToUint256(h)), hasher.HashNormal(ToUint256(h), extra)};
#else
    SipHasher13UJ stream{hasher};
    const uint256 value{ToUint256(h)};
    for (int i = 0; i < 4; ++i) stream.Write(value.GetUint64(i));
    return {stream.Finalize(), SipHasher13UJ{stream}.Write(extra).Finalize()};
#endif
}
#define EQUIFUZZ_CORE_UJ " + SipHasher13UJ"
#else
constexpr auto UJStream{nullptr};
constexpr auto UJOutpoint{nullptr};
constexpr auto UJNormal{nullptr};
#define EQUIFUZZ_CORE_UJ ""
#endif

//! The hasher as SaltedOutpointHasher holds it: salted once, then called per outpoint.
std::function<uint64_t(const Uint256&, uint32_t)> MakeOutpointHasher(Family family, const Key& salt)
{
    if (family == Family::SIP24) {
#ifdef EQUIFUZZ_CORE_HAS_PRESALTED
        return [hasher = PresaltedSipHasher{salt.k0, salt.k1}](const Uint256& h, uint32_t n) { return hasher(ToUint256(h), n); };
#else
        return [salt](const Uint256& h, uint32_t n) { return SipHashUint256Extra(salt.k0, salt.k1, ToUint256(h), n); };
#endif
    }
#ifdef EQUIFUZZ_CORE_HAS_SIPHASHER13UJ
    return [hasher = SipHasher13UJ{salt.k0, salt.k1}](const Uint256& h, uint32_t n) { return JumboHash(hasher, ToUint256(h), uint64_t{n}); };
#else
    return {};
#endif
}

const Side CORE{"Bitcoin Core " EQUIFUZZ_CORE_API EQUIFUZZ_CORE_UJ " (" EQUIFUZZ_CORE_TREE ")", Sip24Stream, Sip24Bytes, Sip24Uint256,
                Sip24Uint256Extra, UJStream, UJOutpoint, /*outpoint_hasher=*/nullptr, MakeOutpointHasher, UJNormal};

} // namespace
} // namespace equifuzz::siphash

EQUIFUZZ_EXPORT_SIDE(equifuzz::siphash, equifuzz::siphash::CORE)
