// Serialization pair: decoders (fuzz bytes -> a value or a kind and raw bytes), descriptions and
// outcomes.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/mutator.h>

namespace equifuzz::serialize {

//! A value of a fuzz-chosen kind. Integers, CompactSizes and VarInts lean on their encoding
//! boundaries (252/253, 0xffff/0x10000, 2^32-1/2^32, MAX_SIZE, 127/128, 16511/16512, ...);
//! lengths lean on 252/253 so a length prefix changes width; transactions mix witness and
//! non-witness inputs, empty stacks and empty vin.
Value BuildValue(FuzzedDataProvider& fdp);
Value BuildValueOfKind(FuzzedDataProvider& fdp, size_t kind);

//! A neutral, implementation-independent rendering of a value (kind and every field), used to
//! compare what two deserializers produced.
std::string Dump(const Value& v);

//! Whether reading back the serialization of `v` as the same kind must give `v` again. Not for:
//! a range-checked CompactSize above MAX_SIZE; a transaction with witnesses under TX_NO_WITNESS
//! (they are dropped); a TX_WITH_WITNESS transaction with an empty vin (its vout count is read as
//! the flag byte); a block holding such a transaction; a byte length above MAX_SIZE.
bool RoundTrips(const Value& v);
//! Whether `read` is what reading back the serialization of `v` must give when it round-trips:
//! `v` itself, but for a lone input's witness, which an input's serialization does not carry.
bool ReadsBackAs(const Value& read, const Value& v);

//! Whether `reserialized` is what re-serializing a value read from `consumed` must give: the same
//! bytes, except that a bool read from any non-zero byte is written back as 01.
bool ReserializesTo(const Value& v, std::span<const uint8_t> consumed, std::span<const uint8_t> reserialized);

//! serialize_decode's structured mutation: inserts, after the kind byte, a CompactSize length and
//! exactly that many bytes, the length often where the prefix changes width (252/253, 0xffff/0x10000),
//! the prefix now and then wider than needed.
bool InsertSizedBytes(Mutation& m);

Description Describe(const Value& v);
Description DescribeDecode(size_t kind, std::span<const uint8_t> bytes);

//! serialize: the bytes and the size computer's answer.
struct Written {
    Bytes bytes;
    uint64_t size{0};
    bool operator==(const Written&) const = default;
    Outcome ToOutcome() const;
};
Written Write(const Side& side, const Value& v);

//! deserialize, for a report: accepted, error, consumed, and the value read (rendered and digested).
Outcome ToOutcome(const Decoded& d);

//! Block-level: what the block hash, every txid and every wtxid are computed from, as one side
//! serializes them: the header, each transaction without and with its witness. Compared as
//! bytes; the report shows their double-SHA256.
struct BlockIds {
    Bytes header;
    std::vector<Bytes> no_witness, with_witness;
    bool operator==(const BlockIds&) const = default;
    Outcome ToOutcome() const;
};
BlockIds BlockIdsOf(const Side& side, const Block& block);

//! Every side reads `bytes` as `kind`; their results must agree. Returns each side's result, in
//! Sides() order.
std::vector<Decoded> DecodeEverywhere(size_t kind, std::span<const uint8_t> bytes, const DescribeFn& describe);

} // namespace equifuzz::serialize
