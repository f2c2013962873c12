// The flush model (model.h). Facts from differential/utxo_flush/BEHAVIOUR.md, sections 1(a) and 1(b).
#include "model.h"

#include <secp256k1.h>

#include <algorithm>

namespace equifuzz::utxo_flush {

void AppendVarInt(Bytes& out, uint64_t n)
{
    uint8_t groups[10];
    size_t last{0};
    while (true) {
        groups[last] = static_cast<uint8_t>((n & 0x7f) | (last ? 0x80 : 0x00));
        if (n <= 0x7f) break;
        n = (n >> 7) - 1;
        ++last;
    }
    for (size_t i{last + 1}; i-- > 0;) out.push_back(groups[i]);
}

uint64_t CompressAmount(uint64_t amount)
{
    if (amount == 0) return 0;
    uint64_t exponent{0};
    while (amount % 10 == 0 && exponent < 9) {
        amount /= 10;
        ++exponent;
    }
    if (exponent < 9) {
        const uint64_t last_digit{amount % 10};
        amount /= 10;
        return 1 + (amount * 9 + last_digit - 1) * 10 + exponent;
    }
    return 1 + (amount - 1) * 10 + 9;
}

namespace {

constexpr uint8_t OP_DUP{0x76}, OP_HASH160{0xa9}, OP_EQUALVERIFY{0x88}, OP_CHECKSIG{0xac}, OP_EQUAL{0x87};
constexpr uint64_t SPECIAL_SCRIPTS{6};

bool OnCurve(const uint8_t* pubkey, size_t size)
{
    static secp256k1_context* const ctx{secp256k1_context_create(SECP256K1_CONTEXT_NONE)};
    secp256k1_pubkey parsed;
    return secp256k1_ec_pubkey_parse(ctx, &parsed, pubkey, size) == 1;
}

} // namespace

Bytes CompressScript(const Bytes& s)
{
    Bytes out;
    if (s.size() == 25 && s[0] == OP_DUP && s[1] == OP_HASH160 && s[2] == 20 && s[23] == OP_EQUALVERIFY && s[24] == OP_CHECKSIG) {
        out.push_back(0x00);
        out.insert(out.end(), s.begin() + 3, s.begin() + 23);
        return out;
    }
    if (s.size() == 23 && s[0] == OP_HASH160 && s[1] == 20 && s[22] == OP_EQUAL) {
        out.push_back(0x01);
        out.insert(out.end(), s.begin() + 2, s.begin() + 22);
        return out;
    }
    if (s.size() == 35 && s[0] == 33 && s[34] == OP_CHECKSIG && (s[1] == 0x02 || s[1] == 0x03)) {
        out.assign(s.begin() + 1, s.begin() + 34);
        return out;
    }
    if (s.size() == 67 && s[0] == 65 && s[66] == OP_CHECKSIG && s[1] == 0x04 && OnCurve(s.data() + 1, 65)) {
        out.push_back(static_cast<uint8_t>(0x04 | (s[65] & 0x01)));
        out.insert(out.end(), s.begin() + 2, s.begin() + 34);
        return out;
    }
    AppendVarInt(out, s.size() + SPECIAL_SCRIPTS);
    out.insert(out.end(), s.begin(), s.end());
    return out;
}

Bytes CoinKey(const Hash& txid, uint32_t n)
{
    Bytes key{DB_COIN};
    key.insert(key.end(), txid.begin(), txid.end());
    AppendVarInt(key, n);
    return key;
}

Bytes CoinValue(const Coin& coin)
{
    Bytes value;
    AppendVarInt(value, uint64_t{coin.height} * 2 + (coin.coinbase ? 1 : 0));
    AppendVarInt(value, CompressAmount(static_cast<uint64_t>(coin.amount)));
    const Bytes script{CompressScript(coin.script)};
    value.insert(value.end(), script.begin(), script.end());
    return value;
}

size_t VarInt32Size(uint64_t n)
{
    size_t size{1};
    while (n >= 128) {
        n >>= 7;
        ++size;
    }
    return size;
}

uint64_t PutBytes(size_t key_size, size_t value_size)
{
    return 1 + VarInt32Size(key_size) + key_size + VarInt32Size(value_size) + value_size;
}

uint64_t DeleteBytes(size_t key_size) { return 1 + VarInt32Size(key_size) + key_size; }

namespace {

const Bytes KEY_BEST{DB_BEST_BLOCK};
const Bytes KEY_HEADS{DB_HEAD_BLOCKS};

//! A batch: its operations in order (nullopt = delete) and its size as LevelDB counts it.
struct Batch {
    std::vector<std::pair<Bytes, std::optional<Bytes>>> ops;
    uint64_t size{BATCH_HEADER_BYTES};
    void Put(Bytes key, Bytes value)
    {
        size += PutBytes(key.size(), value.size());
        ops.emplace_back(std::move(key), std::move(value));
    }
    void Erase(Bytes key)
    {
        size += DeleteBytes(key.size());
        ops.emplace_back(std::move(key), std::nullopt);
    }
};

void Apply(Content& db, const Batch& batch, FlushResult& result)
{
    for (const auto& [key, value] : batch.ops) {
        if (value) db[key] = *value;
        else db.erase(key);
    }
    result.batch_sizes.push_back(batch.size);
}

Bytes HeadsValue(const Hash& new_tip, const Hash& old_tip)
{
    Bytes value{2}; // CompactSize of a two-element vector
    value.insert(value.end(), new_tip.begin(), new_tip.end());
    value.insert(value.end(), old_tip.begin(), old_tip.end());
    return value;
}

} // namespace

std::optional<Hash> BestBlock(const Content& db)
{
    const auto it{db.find(KEY_BEST)};
    if (it == db.end() || it->second.size() != 32) return std::nullopt;
    Hash h;
    std::copy(it->second.begin(), it->second.end(), h.begin());
    return h;
}

std::optional<std::pair<Hash, Hash>> HeadBlocks(const Content& db)
{
    const auto it{db.find(KEY_HEADS)};
    if (it == db.end() || it->second.size() != 65 || it->second[0] != 2) return std::nullopt;
    std::pair<Hash, Hash> heads;
    std::copy(it->second.begin() + 1, it->second.begin() + 33, heads.first.begin());
    std::copy(it->second.begin() + 33, it->second.end(), heads.second.begin());
    return heads;
}

FlushResult Flush(Content db, const std::vector<CursorEntry>& cursor, const Hash& tip, uint64_t batch_bytes,
                  std::optional<size_t> crash_before_partial, std::optional<size_t> written_batches)
{
    FlushResult result;
    Hash old_tip{};
    if (const auto best{BestBlock(db)}) {
        old_tip = *best;
    } else if (const auto heads{HeadBlocks(db)}) {
        // An interrupted flush: it must be resumed with the same tip; the original old tip stays.
        if (heads->first != tip) {
            result.stopped = "inconsistent database: an interrupted flush to another block (reindex)";
            result.content = std::move(db);
            return result;
        }
        old_tip = heads->second;
    }
    Batch batch;
    batch.Erase(KEY_BEST);
    batch.Put(KEY_HEADS, HeadsValue(tip, old_tip));
    for (const CursorEntry& e : cursor) {
        if (e.dirty) {
            if (e.spent) batch.Erase(CoinKey(e.txid, e.n));
            else batch.Put(CoinKey(e.txid, e.n), CoinValue(e.coin));
        }
        if (batch.size > batch_bytes) {
            if (crash_before_partial && *crash_before_partial == result.partial_batches + 1) {
                result.stopped = "crash before partial batch " + std::to_string(*crash_before_partial);
                result.content = std::move(db);
                return result;
            }
            if (written_batches && *written_batches == result.partial_batches) break;
            Apply(db, batch, result);
            ++result.partial_batches;
            batch = Batch{};
        }
    }
    if (written_batches && *written_batches == result.partial_batches) {
        result.stopped = "stopped after " + std::to_string(*written_batches) + " batches";
        result.content = std::move(db);
        return result;
    }
    batch.Erase(KEY_HEADS);
    batch.Put(KEY_BEST, Bytes(tip.begin(), tip.end()));
    Apply(db, batch, result);
    result.content = std::move(db);
    return result;
}

} // namespace equifuzz::utxo_flush
