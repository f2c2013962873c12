#include <common/transaction.h>

#include <algorithm>
#include <stdexcept>

namespace equifuzz {
namespace {

void PutTransaction(Bytes& out, const Transaction& tx, bool with_witness)
{
    AppendLE(out, static_cast<uint32_t>(tx.version), 4);
    const bool extended{with_witness && tx.HasWitness()};
    if (extended) {
        out.push_back(0x00); // marker: an empty vin
        out.push_back(0x01); // flag: witness follows
    }
    AppendCompactSize(out, tx.vin.size());
    for (const TxIn& in : tx.vin) {
        out.insert(out.end(), in.prevout.hash.begin(), in.prevout.hash.end());
        AppendLE(out, in.prevout.n, 4);
        AppendByteVector(out, in.script_sig);
        AppendLE(out, in.sequence, 4);
    }
    AppendCompactSize(out, tx.vout.size());
    for (const TxOut& o : tx.vout) {
        AppendLE(out, static_cast<uint64_t>(o.value), 8);
        AppendByteVector(out, o.script_pubkey);
    }
    if (extended) {
        for (const TxIn& in : tx.vin) {
            AppendCompactSize(out, in.witness.size());
            for (const Bytes& item : in.witness) AppendByteVector(out, item);
        }
    }
    AppendLE(out, tx.lock_time, 4);
}

Bytes ReadByteVector(ByteReader& r)
{
    const uint64_t n{ReadCompactSizeFrom(r)};
    const auto b{r.Take(static_cast<size_t>(n))};
    return {b.begin(), b.end()};
}

//! Reads a CompactSize count, then elements one at a time (no allocation from the count).
template <typename T, typename F>
std::vector<T> ReadVector(ByteReader& r, F read_one)
{
    const uint64_t n{ReadCompactSizeFrom(r)};
    std::vector<T> out;
    for (uint64_t i = 0; i < n; ++i) out.push_back(read_one(r));
    return out;
}

TxIn ReadTxIn(ByteReader& r)
{
    TxIn in;
    const auto h{r.Take(32)};
    std::copy(h.begin(), h.end(), in.prevout.hash.begin());
    in.prevout.n = static_cast<uint32_t>(r.LittleEndian(4));
    in.script_sig = ReadByteVector(r);
    in.sequence = static_cast<uint32_t>(r.LittleEndian(4));
    return in;
}

TxOut ReadTxOut(ByteReader& r)
{
    TxOut o;
    o.value = static_cast<int64_t>(r.LittleEndian(8));
    o.script_pubkey = ReadByteVector(r);
    return o;
}

Hash256 ReadHash(ByteReader& r)
{
    Hash256 h;
    const auto b{r.Take(32)};
    std::copy(b.begin(), b.end(), h.begin());
    return h;
}

} // namespace

bool OutPoint::IsNull() const
{
    return n == NULL_INDEX && std::all_of(hash.begin(), hash.end(), [](uint8_t b) { return b == 0; });
}

bool Transaction::HasWitness() const
{
    return std::any_of(vin.begin(), vin.end(), [](const TxIn& in) { return !in.witness.empty(); });
}

bool Transaction::IsCoinBase() const
{
    return vin.size() == 1 && vin[0].prevout.IsNull();
}

Bytes SerializeTransaction(const Transaction& tx, bool with_witness)
{
    Bytes out;
    out.reserve(SerializedSize(tx, with_witness));
    PutTransaction(out, tx, with_witness);
    return out;
}

size_t SerializedSize(const Transaction& tx, bool with_witness)
{
    const auto bytes = [](const Bytes& b) { return CompactSizeLength(b.size()) + b.size(); };
    const bool extended{with_witness && tx.HasWitness()};
    size_t size{4 + (extended ? 2u : 0u) + CompactSizeLength(tx.vin.size()) + CompactSizeLength(tx.vout.size()) + 4};
    for (const TxIn& in : tx.vin) {
        size += 36 + bytes(in.script_sig) + 4;
        if (extended) {
            size += CompactSizeLength(in.witness.size());
            for (const Bytes& item : in.witness) size += bytes(item);
        }
    }
    for (const TxOut& out : tx.vout) size += 8 + bytes(out.script_pubkey);
    return size;
}

Bytes SerializeBlock(const Block& block)
{
    Bytes out;
    size_t size{80 + 9};
    for (const Transaction& tx : block.txs) size += SerializedSize(tx, true);
    out.reserve(size);
    const BlockHeader& h{block.header};
    AppendLE(out, static_cast<uint32_t>(h.version), 4);
    out.insert(out.end(), h.prev_block.begin(), h.prev_block.end());
    out.insert(out.end(), h.merkle_root.begin(), h.merkle_root.end());
    AppendLE(out, h.time, 4);
    AppendLE(out, h.bits, 4);
    AppendLE(out, h.nonce, 4);
    AppendCompactSize(out, block.txs.size());
    for (const Transaction& tx : block.txs) PutTransaction(out, tx, true);
    return out;
}

Transaction ReadTransaction(ByteReader& r, bool allow_witness)
{
    Transaction tx;
    tx.version = static_cast<int32_t>(r.LittleEndian(4));
    uint8_t flags{0};
    tx.vin = ReadVector<TxIn>(r, ReadTxIn);
    if (tx.vin.empty() && allow_witness) {
        // An empty vin is the extended-format marker; the flag byte follows.
        flags = r.Byte();
        if (flags != 0) {
            tx.vin = ReadVector<TxIn>(r, ReadTxIn);
            tx.vout = ReadVector<TxOut>(r, ReadTxOut);
        }
    } else {
        tx.vout = ReadVector<TxOut>(r, ReadTxOut);
    }
    if ((flags & 1) && allow_witness) {
        flags ^= 1;
        for (TxIn& in : tx.vin) in.witness = ReadVector<Bytes>(r, ReadByteVector);
        if (!tx.HasWitness()) throw StreamError{"Superfluous witness record"};
    }
    if (flags) throw StreamError{"Unknown transaction optional data"};
    tx.lock_time = static_cast<uint32_t>(r.LittleEndian(4));
    return tx;
}

BlockHeader ReadBlockHeader(ByteReader& r)
{
    BlockHeader h;
    h.version = static_cast<int32_t>(r.LittleEndian(4));
    h.prev_block = ReadHash(r);
    h.merkle_root = ReadHash(r);
    h.time = static_cast<uint32_t>(r.LittleEndian(4));
    h.bits = static_cast<uint32_t>(r.LittleEndian(4));
    h.nonce = static_cast<uint32_t>(r.LittleEndian(4));
    return h;
}

Block ReadBlock(ByteReader& r)
{
    Block b;
    b.header = ReadBlockHeader(r);
    b.txs = ReadVector<Transaction>(r, [](ByteReader& rr) { return ReadTransaction(rr, true); });
    return b;
}

Hash256 Txid(const Transaction& tx)
{
    return DoubleSha256(SerializeTransaction(tx, false));
}

std::string DisplayHex(const Hash256& hash)
{
    Hash256 reversed;
    std::reverse_copy(hash.begin(), hash.end(), reversed.begin());
    return Hex(std::span<const uint8_t>{reversed});
}

} // namespace equifuzz
