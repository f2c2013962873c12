// The siphash pair's Bitcoin Core sides: Core's own SipHash-2-4, compiled from a Core tree
// (cmake/CoreTrees.cmake builds this file once per tree, its symbols kept apart).
//
// Streams go through Core's CSipHasher. The uint256 shapes go through PresaltedSipHasher where
// the tree has it (#30442, kernel 0.4.1), else through SipHashUint256 / SipHashUint256Extra.
// No registry tree has the SipHash-1-3-UJ hasher (#35215): the 1-3-UJ entries and the salted
// outpoint hasher (whose salt Core draws at random, out of a caller's reach) stay empty, and
// the targets compare Core on what it offers.
#include "../side.h"

#include <crypto/siphash.h>
#include <uint256.h>

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

const Side CORE{"Bitcoin Core " EQUIFUZZ_CORE_API " (" EQUIFUZZ_CORE_TREE ")", Sip24Stream, Sip24Bytes, Sip24Uint256, Sip24Uint256Extra,
                /*uj_stream=*/nullptr, /*uj_outpoint=*/nullptr, /*outpoint_hasher=*/nullptr};

} // namespace
} // namespace equifuzz::siphash

EQUIFUZZ_EXPORT_SIDE(equifuzz::siphash, equifuzz::siphash::CORE)
