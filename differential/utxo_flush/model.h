// The UTXO flush in batches (#31645; differential/utxo_flush/BEHAVIOUR.md): a model of
// CCoinsViewDB::BatchWrite over a model database whose writes are atomic batches.
//
// The database is kept as its logical content (key bytes -> value bytes, values without
// obfuscation: the obfuscation key is random per database, so only logical content is compared).
// A batch's size is counted as LevelDB counts its representation (a 12-byte header; per put a tag
// byte, the key's and the value's varint32 lengths and bytes; per delete a tag byte and the key),
// which is what BatchWrite compares with its batch size. The sides of this pair differ only in
// that size: 16 MiB before #31645, 32 MiB after.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace equifuzz::utxo_flush {

using Bytes = std::vector<uint8_t>;
using Hash = std::array<uint8_t, 32>;

// --- Core's encodings (spec 1(b), "Encoding") -------------------------------------------------
//! Core's VARINT: base 128, most significant group first, each group but the last offset by one.
void AppendVarInt(Bytes& out, uint64_t n);
//! Core's CompressAmount: trailing decimal zeros folded into an exponent.
uint64_t CompressAmount(uint64_t amount);
//! The script as the coin compressor stores it: one of the six special forms (P2PKH, P2SH,
//! P2PK compressed, P2PK uncompressed with a point on the curve), else VARINT(size + 6) and the bytes.
Bytes CompressScript(const Bytes& script);

struct Coin {
    uint32_t height{0};
    bool coinbase{false};
    int64_t amount{0};
    Bytes script;
    bool operator==(const Coin&) const = default;
};

//! 'C', the 32-byte txid, VARINT(n).
Bytes CoinKey(const Hash& txid, uint32_t n);
//! VARINT(height * 2 + coinbase), VARINT(CompressAmount(amount)), the compressed script.
Bytes CoinValue(const Coin& coin);

inline constexpr uint8_t DB_COIN{'C'};
inline constexpr uint8_t DB_BEST_BLOCK{'B'};
inline constexpr uint8_t DB_HEAD_BLOCKS{'H'};

// --- LevelDB's batch size ---------------------------------------------------------------------
inline constexpr uint64_t BATCH_HEADER_BYTES{12};
size_t VarInt32Size(uint64_t n);
uint64_t PutBytes(size_t key_size, size_t value_size);
uint64_t DeleteBytes(size_t key_size);

// --- The flush ----------------------------------------------------------------------------------
//! One entry as the cache's cursor lists it (in the order the entries were first flagged).
struct CursorEntry {
    Hash txid{};
    uint32_t n{0};
    Coin coin;          //!< the value written when the entry is dirty and unspent
    bool dirty{false};  //!< not dirty: skipped (but the size test still runs after it)
    bool spent{false};  //!< dirty and spent: the key is erased
};

using Content = std::map<Bytes, Bytes>;

struct FlushResult {
    //! Empty on success; else what stopped the flush ("crash before partial batch k", or the
    //! inconsistent-state assertion when an interrupted flush is resumed with another tip).
    std::string stopped;
    Content content;                    //!< the database after the flush (or the crash)
    std::vector<uint64_t> batch_sizes;  //!< each batch written, in bytes as LevelDB counts them
    size_t partial_batches{0};          //!< written before the last one
    bool operator==(const FlushResult&) const = default;
};

//! BatchWrite of `cursor` with block hash `tip` into `db`, cutting a partial batch whenever the
//! batch's size exceeds `batch_bytes`. With `crash_before_partial` = k (1-based), the flush stops
//! just before partial batch k is written, as a process that dies there. With `written_batches` =
//! n, only the first n batches are written, the final one counted (what a write fault in batch n
//! or n + 1 may leave).
FlushResult Flush(Content db, const std::vector<CursorEntry>& cursor, const Hash& tip, uint64_t batch_bytes,
                  std::optional<size_t> crash_before_partial = std::nullopt,
                  std::optional<size_t> written_batches = std::nullopt);

//! The markers: `B` (the tip, 32 bytes) and `H` (the two tips of an interrupted flush).
std::optional<Hash> BestBlock(const Content& db);
std::optional<std::pair<Hash, Hash>> HeadBlocks(const Content& db);

} // namespace equifuzz::utxo_flush
