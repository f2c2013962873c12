// The transaction and block model (spec 1.1, 3.5, 3.6) and a straightforward codec for it.
// Pairs that *consume* transactions (tx_check, block files) decode with this codec; the
// serialization pair fuzzes its own generic and specialized codecs against each other.
#pragma once

#include <common/compact_size.h>
#include <common/digest.h> // DoubleSha256
#include <equifuzz/harness.h>

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace equifuzz {

using Hash256 = std::array<uint8_t, 32>; //!< in internal (serialized) byte order

inline constexpr uint32_t NULL_INDEX{0xffffffff};
inline constexpr int64_t COIN{100'000'000};
inline constexpr int64_t MAX_MONEY{21'000'000 * COIN};
inline constexpr size_t WITNESS_SCALE_FACTOR{4};
inline constexpr size_t MAX_BLOCK_WEIGHT{4'000'000};

struct OutPoint {
    Hash256 hash{};
    uint32_t n{NULL_INDEX};
    //! Null iff the hash is all zero *and* n is 0xffffffff.
    bool IsNull() const;
    //! Lexicographic on (hash as unsigned bytes from index 0, then n): memcmp order.
    auto operator<=>(const OutPoint&) const = default;
};

struct TxIn {
    OutPoint prevout;
    Bytes script_sig;
    uint32_t sequence{0xffffffff};
    std::vector<Bytes> witness;
    bool operator==(const TxIn&) const = default;
};

struct TxOut {
    int64_t value{0};
    Bytes script_pubkey;
    bool operator==(const TxOut&) const = default;
};

struct Transaction {
    int32_t version{2};
    std::vector<TxIn> vin;
    std::vector<TxOut> vout;
    uint32_t lock_time{0};

    bool HasWitness() const;
    //! vin.size() == 1 and vin[0] spends the null outpoint.
    bool IsCoinBase() const;
    bool operator==(const Transaction&) const = default;
};

struct BlockHeader {
    int32_t version{1};
    Hash256 prev_block{};
    Hash256 merkle_root{};
    uint32_t time{0};
    uint32_t bits{0};
    uint32_t nonce{0};
    bool operator==(const BlockHeader&) const = default;
};

struct Block {
    BlockHeader header;
    std::vector<Transaction> txs;
    bool operator==(const Block&) const = default;
};

//! Serialization (TX_WITH_WITNESS when `with_witness`, else TX_NO_WITNESS).
Bytes SerializeTransaction(const Transaction& tx, bool with_witness);
size_t SerializedSize(const Transaction& tx, bool with_witness);
Bytes SerializeBlock(const Block& block);

//! Deserialization: throws StreamError with the exact message a Bitcoin Core stream gives.
Transaction ReadTransaction(ByteReader& r, bool allow_witness);
BlockHeader ReadBlockHeader(ByteReader& r);
Block ReadBlock(ByteReader& r);

Hash256 Txid(const Transaction& tx);
//! A hash as Bitcoin displays it: reversed byte order, lowercase hex.
std::string DisplayHex(const Hash256& hash);

} // namespace equifuzz
