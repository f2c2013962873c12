// Serialization pair (spec section 3): what a serializer offers. A value is one of the kinds
// Bitcoin Core serializes on the wire or to disk; the variant's index is the kind, so a kind byte
// in a fuzz input picks the type a deserializer is asked to read.
#pragma once

#include <common/transaction.h>
#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace equifuzz::serialize {

//! A CompactSize on its own (COMPACTSIZE formatter): reads are range-checked against MAX_SIZE.
struct CompactSize {
    uint64_t n{0};
    bool operator==(const CompactSize&) const = default;
};
//! ReadCompactSize(s, /*range_check=*/false): the whole 64-bit range reads back.
struct CompactSizeUnchecked {
    uint64_t n{0};
    bool operator==(const CompactSizeUnchecked&) const = default;
};
//! VARINT (DEFAULT mode) read into an unsigned type of this width.
template <typename I>
struct VarInt {
    I n{0};
    bool operator==(const VarInt&) const = default;
};
//! A script: serialized like a byte vector (CompactSize length, raw bytes).
struct Script {
    Bytes bytes;
    bool operator==(const Script&) const = default;
};
//! A transaction under TX_WITH_WITNESS / TX_NO_WITNESS.
struct TxWithWitness {
    Transaction tx;
    bool operator==(const TxWithWitness&) const = default;
};
struct TxNoWitness {
    Transaction tx;
    bool operator==(const TxNoWitness&) const = default;
};

using Value = std::variant<bool, uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t,
                           CompactSize, CompactSizeUnchecked, VarInt<uint32_t>, VarInt<uint64_t>, Hash256,
                           Bytes, std::vector<Bytes>, Script, OutPoint, TxIn, TxOut, TxWithWitness, TxNoWitness,
                           BlockHeader, Block>;

inline constexpr size_t KIND_COUNT{std::variant_size_v<Value>};
inline constexpr size_t KIND_BLOCK{KIND_COUNT - 1};

//! Name of a kind, for reports ("uint16", "CompactSize", "tx(with witness)", ...).
const char* KindName(size_t kind);
//! A default-constructed value of the kind (kind < KIND_COUNT): what a deserializer fills in.
Value DefaultValue(size_t kind);

//! What reading one value of a kind from a byte string makes observable.
struct Decoded {
    std::optional<Value> value; //!< set when the read succeeded
    std::string error;          //!< the exception's message when it did not
    size_t consumed{0};         //!< stream position after the read, or when it threw
    //! Compared as typed values; the report (ToOutcome in pair.h) renders the value read.
    bool operator==(const Decoded&) const = default;
};

//! What a benchmark's call does (Side::prepare_block).
enum class BenchOp : uint8_t { SERIALIZE, SIZE, DESERIALIZE };

struct Side {
    const char* name;
    //! Bytes written to a vector stream.
    Bytes (*serialize)(const Value& v);
    //! GetSerializeSize: what the side's size computer arrives at.
    uint64_t (*serialized_size)(const Value& v);
    //! Reads one value of `kind` from the start of `bytes` (a DataStream over them).
    Decoded (*deserialize)(size_t kind, std::span<const uint8_t> bytes);
    //! Benchmarks only (bench/serialize_bench.cpp): `block` converted once into the side's own
    //! types, then a call that serializes it (returns the byte count), computes its size, or
    //! reads `bytes` as a block (returns the bytes consumed), with no conversion inside the call.
    //! Null on our sides, whose own type is the model: the bench calls the functions above.
    std::function<uint64_t()> (*prepare_block)(const Block& block, std::span<const uint8_t> bytes, BenchOp op){nullptr};
};

EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::serialize
