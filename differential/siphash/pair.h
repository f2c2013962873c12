// SipHash pair: decoders (fuzz bytes -> typed input), the outcomes, and the jumboblock sketch.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

#include <array>
#include <string>
#include <vector>

namespace equifuzz::siphash {

// ---- SipHash-2-4 -------------------------------------------------------------------------------

//! An outpoint-shaped input (h, n) fed three ways, plus an arbitrary write stream.
struct Sip24Input {
    Key key;
    Uint256 h{};
    uint32_t n{0};
    std::vector<size_t> chunks; //!< how the 36 bytes h || LE32(n) are handed to the streaming hasher
    bool words{false};          //!< aligned 8-byte chunks go in as Write(uint64)
    std::vector<Sip24Op> ops;   //!< an arbitrary stream (bytes, words at block boundaries, finalizes)
};

Sip24Input DecodeSip24(FuzzedDataProvider& fdp);
Description Describe(const Sip24Input& in);

//! The 36 bytes h || LE32(n) as stream ops following the chunk schedule, with a FINALIZE after
//! byte 32: the streaming hasher's outputs are then {hash(h), hash(h, n)}.
std::vector<Sip24Op> OutpointStream(const Sip24Input& in);
//! All bytes an op list writes, in order (words as LE64).
Bytes StreamBytes(std::span<const Sip24Op> ops);

//! What one implementation says about the outpoint shape.
struct ShapeOutcome {
    uint64_t hash_uint256{0};
    uint64_t hash_uint256_extra{0};
    Outcome ToOutcome() const;
    bool operator==(const ShapeOutcome&) const = default;
};

struct StreamOutcome {
    std::vector<uint64_t> finalizes; //!< every Finalize() in order; the last is after all ops
    Outcome ToOutcome() const;
    bool operator==(const StreamOutcome&) const = default;
};

// ---- SipHash-1-3-UJ ----------------------------------------------------------------------------

struct UJInput {
    Key key;
    Uint256 h{};
    uint32_t n{0};
    std::vector<UJOp> ops;          //!< an arbitrary stream of normal/jumbo blocks, finalizes, Hash calls
    uint64_t normal_as_jumbo{0};    //!< bit i set: the i-th NORMAL op is also tried as jumbo (d,0,0,0)
};

UJInput DecodeUJ(FuzzedDataProvider& fdp);
Description Describe(const UJInput& in);

//! The same stream with the NORMAL ops picked by `mask` written as zero-padded jumbo blocks.
std::vector<UJOp> NormalsAsJumbo(std::span<const UJOp> ops, uint64_t mask);

// ---- The jumboblock sketch ---------------------------------------------------------------------
//
// The proposal's pseudocode for a jumbo block: "xor m0..m3 into v0..v3; round; xor m3, m0, m1,
// m2 into v0..v3". It leaves open how the 32 bytes are labelled m0..m3, whether the outpoint's
// index word carries a length tag, and the finalizer. The spec (3b) says it equals the merged
// SipHash-1-3-UJ only under m = (d1, d2, d3, d0), a plain index word and the UJ finalizer;
// that is checked by the siphash_uj target and the unit tests, not assumed.
struct SketchParams {
    std::array<uint8_t, 4> label{1, 2, 3, 0}; //!< m[i] = d[label[i]]
    bool tag_index{false};                      //!< outpoint index word n | (36 << 56)
    uint64_t finalizer{UJ_FINAL};               //!< xored into v2 before the final rounds
    unsigned block_rounds{1};
    unsigned final_rounds{3};
};

//! The parameters under which the sketch is the merged hasher.
inline constexpr SketchParams SKETCH_AS_MERGED{};

//! Runs a UJ op stream through the sketch (HASH_OUTPOINT tags its index word per params).
std::vector<uint64_t> SketchStream(const SketchParams& p, const Key& key, std::span<const UJOp> ops);
uint64_t SketchOutpoint(const SketchParams& p, const Key& key, const Uint256& h, uint32_t n);

//! The outpoint shape in the UJ family.
struct UJShapeOutcome {
    uint64_t outpoint{0};    //!< jumbo(h), normal(n)
    uint64_t jumbo_only{0};  //!< jumbo(h)
    Outcome ToOutcome() const;
    bool operator==(const UJShapeOutcome&) const = default;
};

//! The normal shape of SipHash-1-3-UJ: h's four words as normal blocks, then `extra` as a fifth.
struct UJNormalOutcome {
    uint64_t normal{0};        //!< normal(d0..d3)
    uint64_t normal_extra{0};  //!< normal(d0..d3), normal(extra)
    Outcome ToOutcome() const;
    bool operator==(const UJNormalOutcome&) const = default;
};

// ---- Shared helpers ----------------------------------------------------------------------------

uint64_t LE64(const uint8_t* p);
Uint256 Uint256FromWords(uint64_t d0, uint64_t d1, uint64_t d2, uint64_t d3);
Bytes ToBytes(const Uint256& h);
//! 16 lowercase hex digits, the most significant first.
std::string Hex64(uint64_t x);

} // namespace equifuzz::siphash
