// SipHash pair: the interface every side offers (spec section 3).
//
// Two families, both keyed by (k0, k1) and both 64-bit outputs:
//  - SipHash-2-4: 8-byte little-endian blocks, 2 rounds per block, a final block carrying
//    (length mod 256) << 56, v2 ^= 0xff, 4 final rounds.
//  - SipHash-1-3-UJ (#35215): 1 round per block, no length word, 8-byte "normal" blocks and
//    32-byte "jumbo" blocks in any order, v2 ^= 0x6465646461706e75, 3 final rounds.
//
// The original side is written the pre-change way: every hash starts from the key (CSipHasher
// and the free functions SipHashUint256/SipHashUint256Extra, and a SipHasher13UJ that only
// streams). The optimized side caches the keyed initial state (PresaltedSipHasher), hashes the
// outpoint shape with a narrow fixed-width routine (the const Hash overloads of SipHasher13UJ),
// and its salted outpoint hasher holds presalted objects.
#pragma once

#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace equifuzz::siphash {

struct Key {
    uint64_t k0{0};
    uint64_t k1{0};
};

//! A uint256 in internal byte order: word i is LE64 of bytes [8i, 8i+8). (A txid's internal
//! order is the reverse of its displayed hex.)
using Uint256 = std::array<uint8_t, 32>;

//! One step of a SipHash-2-4 stream.
struct Sip24Op {
    enum Kind : uint8_t { BYTES, WORD, FINALIZE };
    Kind kind{BYTES};
    Bytes bytes;      //!< BYTES: Write(span)
    uint64_t word{0}; //!< WORD: Write(uint64) -- only issued at an 8-byte boundary
};

//! One step of a SipHash-1-3-UJ stream.
struct UJOp {
    enum Kind : uint8_t {
        NORMAL,        //!< Write(uint64): one normal block
        JUMBO,         //!< WriteJumbo(uint256): one jumbo block
        FINALIZE,      //!< Finalize(): records the output, state unchanged
        HASH_OUTPOINT, //!< const Hash(h, n): jumbo h then normal uint64(n), from the current state
        HASH_JUMBO,    //!< const Hash(h): jumbo h, from the current state
    };
    Kind kind{NORMAL};
    uint64_t word{0};
    Uint256 jumbo{};
    uint32_t n{0};
};

//! The two hash families a salted outpoint hasher can be switched between.
enum class Family : uint8_t { SIP24, SIP13UJ };

//! What a side must offer. All functions are pure: no state survives a call.
struct Side {
    const char* name;
    //! Generic streaming SipHash-2-4 (CSipHasher): runs the ops, returns each FINALIZE's output.
    std::vector<uint64_t> (*sip24_stream)(const Key& key, std::span<const Sip24Op> ops);
    //! The same hasher over one buffer: CSipHasher(k0, k1).Write(data).Finalize().
    uint64_t (*sip24_bytes)(const Key& key, std::span<const uint8_t> data);
    //! SipHash-2-4 of the 32 bytes of h (SipHashUint256 / PresaltedSipHasher(h)).
    uint64_t (*sip24_uint256)(const Key& key, const Uint256& h);
    //! SipHash-2-4 of h's 32 bytes then LE32(n) (SipHashUint256Extra / PresaltedSipHasher(h, n)).
    uint64_t (*sip24_uint256_extra)(const Key& key, const Uint256& h, uint32_t n);
    //! Generic streaming SipHash-1-3-UJ (SipHasher13UJ): returns each FINALIZE/HASH_* output.
    std::vector<uint64_t> (*uj_stream)(const Key& key, std::span<const UJOp> ops);
    //! SipHash-1-3-UJ of an outpoint from a fresh hasher: jumbo(h), then normal uint64(n).
    uint64_t (*uj_outpoint)(const Key& key, const Uint256& h, uint32_t n);
    //! The salted outpoint hasher of the hash tables, in the given family.
    uint64_t (*outpoint_hasher)(Family family, const Key& salt, const Uint256& h, uint32_t n);
    //! Benchmarks only (bench/siphash_bench.cpp): a hasher of `family` salted once, as a hash
    //! table holds it, then called per outpoint; empty when the side's tree lacks the family. Null
    //! on our sides: the bench calls outpoint_hasher, which salts per call (four XORs).
    std::function<uint64_t(const Uint256&, uint32_t)> (*make_outpoint_hasher)(Family family, const Key& salt){nullptr};
    //! SipHash-1-3-UJ of h's four words as normal blocks from a fresh hasher, then of h and `extra`
    //! as five: plain unpadded SipHash-1-3, no jumbo block (SipHasher13UJ::HashNormal, where a tree
    //! names its fixed-width paths by block structure). Null on a Core tree without SipHasher13UJ.
    std::array<uint64_t, 2> (*uj_normal)(const Key& key, const Uint256& h, uint64_t extra){nullptr};
};

//! Our two sides, then Bitcoin Core's when built. Their salted-hasher entry is null (Core salts its
//! hasher at random); their 1-3-UJ entries are null unless the tree has #35215's SipHasher13UJ.
EQUIFUZZ_DECLARE_SIDES();

//! The UJ finalization constant: "unpadded" read as a little-endian word.
inline constexpr uint64_t UJ_FINAL{0x6465646461706e75};
//! The deterministic coins-cache salt of #35215.
inline constexpr Key COINS_CACHE_DETERMINISTIC_SALT{0x8e819f2607a18de6, 0xf4020d2e3983b0eb};

} // namespace equifuzz::siphash
