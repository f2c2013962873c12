// Serialization pair: decoders (fuzz bytes -> a value or a kind and raw bytes), descriptions and
// outcomes.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>

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

//! Whether `reserialized` is what re-serializing a value read from `consumed` must give: the same
//! bytes, except that a bool read from any non-zero byte is written back as 01.
bool ReserializesTo(const Value& v, std::span<const uint8_t> consumed, std::span<const uint8_t> reserialized);

Description Describe(const Value& v);
Description DescribeDecode(size_t kind, std::span<const uint8_t> bytes);

//! serialize: the bytes and the size computer's answer.
Outcome SerializeOutcome(const Side& side, const Value& v);
//! deserialize: accepted, error, consumed, and the value read (rendered and digested).
Outcome DecodeOutcome(const Decoded& d);

//! Block-level: the block hash, every txid and wtxid, as one side computes them from its own
//! serialization.
Outcome BlockHashes(const Side& side, const Block& block);

} // namespace equifuzz::serialize
