// The serialize pair's Bitcoin Core sides: Core's own serialization framework (serialize.h,
// DataStream, SizeComputer, the CTransaction/CBlock serializers), compiled from a Core tree
// (cmake/CoreObjects.cmake builds this file once per tree, its symbols kept apart).
//
// Every kind of the pair's Value maps onto the Core type that is serialized that way on the wire
// or on disk: the integers and bool as themselves, CompactSize through COMPACTSIZE (range-checked)
// or ReadCompactSize(s, false), VARINT, uint256, std::vector<unsigned char>, a vector of those,
// CScript, COutPoint, CTxIn, CTxOut, CMutableTransaction under TX_WITH_WITNESS / TX_NO_WITNESS,
// CBlockHeader and CBlock (TX_WITH_WITNESS). A value goes into Core as Core's type built field by
// field, and what Core reads comes back field by field, so both directions run Core's code.
// No registry tree has #31868: both default trees are the generic serializer, and a reviewer's
// tree with #31868 takes the optimized place (EQUIFUZZ_CORE_OPTIMIZED_SRC).
#include "../side.h"

#include <equifuzz/core_shim.h>

#include <crypto/sha256.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <serialize.h>
#include <streams.h>
#include <uint256.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <type_traits>
#include <vector>

namespace equifuzz::serialize {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

using CoreBytes = std::vector<unsigned char>;

// ---- our model -> Core's types ----
uint256 ToCore(const Hash256& h)
{
    uint256 out;
    std::copy(h.begin(), h.end(), out.begin());
    return out;
}

Hash256 FromCore(const uint256& h)
{
    Hash256 out;
    std::copy(h.begin(), h.end(), out.begin());
    return out;
}

COutPoint ToCore(const OutPoint& p) { return COutPoint{Txid::FromUint256(ToCore(p.hash)), p.n}; }
OutPoint FromCore(const COutPoint& p) { return OutPoint{FromCore(p.hash.ToUint256()), p.n}; }

CTxIn ToCore(const TxIn& in)
{
    CTxIn out;
    out.prevout = ToCore(in.prevout);
    out.scriptSig = CScript(in.script_sig.begin(), in.script_sig.end());
    out.nSequence = in.sequence;
    out.scriptWitness.stack.assign(in.witness.begin(), in.witness.end());
    return out;
}

TxIn FromCore(const CTxIn& in)
{
    TxIn out;
    out.prevout = FromCore(in.prevout);
    out.script_sig.assign(in.scriptSig.begin(), in.scriptSig.end());
    out.sequence = in.nSequence;
    out.witness.assign(in.scriptWitness.stack.begin(), in.scriptWitness.stack.end());
    return out;
}

CTxOut ToCore(const TxOut& o) { return CTxOut{o.value, CScript(o.script_pubkey.begin(), o.script_pubkey.end())}; }
TxOut FromCore(const CTxOut& o) { return TxOut{o.nValue, Bytes(o.scriptPubKey.begin(), o.scriptPubKey.end())}; }

CMutableTransaction ToCore(const Transaction& tx)
{
    CMutableTransaction out;
    out.version = tx.version;
    for (const TxIn& in : tx.vin) out.vin.push_back(ToCore(in));
    for (const TxOut& o : tx.vout) out.vout.push_back(ToCore(o));
    out.nLockTime = tx.lock_time;
    return out;
}

Transaction FromCore(const CMutableTransaction& tx)
{
    Transaction out;
    out.version = tx.version;
    for (const CTxIn& in : tx.vin) out.vin.push_back(FromCore(in));
    for (const CTxOut& o : tx.vout) out.vout.push_back(FromCore(o));
    out.lock_time = tx.nLockTime;
    return out;
}

CBlockHeader ToCore(const BlockHeader& h)
{
    CBlockHeader out;
    out.nVersion = h.version;
    out.hashPrevBlock = ToCore(h.prev_block);
    out.hashMerkleRoot = ToCore(h.merkle_root);
    out.nTime = h.time;
    out.nBits = h.bits;
    out.nNonce = h.nonce;
    return out;
}

BlockHeader FromCore(const CBlockHeader& h)
{
    return BlockHeader{h.nVersion, FromCore(h.hashPrevBlock), FromCore(h.hashMerkleRoot), h.nTime, h.nBits, h.nNonce};
}

CBlock ToCore(const Block& b)
{
    CBlock out{ToCore(b.header)};
    for (const Transaction& tx : b.txs) out.vtx.push_back(MakeTransactionRef(ToCore(tx)));
    return out;
}

Block FromCore(const CBlock& b)
{
    Block out;
    out.header = FromCore(static_cast<const CBlockHeader&>(b));
    for (const CTransactionRef& tx : b.vtx) out.txs.push_back(FromCore(CMutableTransaction{*tx}));
    return out;
}

// ---- one function per kind: hand Core's serializer what it serializes for that kind ----
//! Calls `f` with the Core object (or Core's wrapper of it) that serializes like `v`.
template <typename F>
auto WithCore(const Value& v, F&& f)
{
    return std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_integral_v<T>) {
                return f(x);
            } else if constexpr (std::is_same_v<T, CompactSize>) {
                return f(COMPACTSIZE(x.n));
            } else if constexpr (std::is_same_v<T, CompactSizeUnchecked>) {
                // Writing is the same CompactSize; only reading skips the range check.
                return f(COMPACTSIZE(x.n));
            } else if constexpr (std::is_same_v<T, VarInt<uint32_t>> || std::is_same_v<T, VarInt<uint64_t>>) {
                return f(VARINT(x.n));
            } else if constexpr (std::is_same_v<T, Hash256>) {
                return f(ToCore(x));
            } else if constexpr (std::is_same_v<T, Bytes>) {
                return f(CoreBytes{x.begin(), x.end()});
            } else if constexpr (std::is_same_v<T, std::vector<Bytes>>) {
                return f(std::vector<CoreBytes>{x.begin(), x.end()});
            } else if constexpr (std::is_same_v<T, Script>) {
                return f(CScript(x.bytes.begin(), x.bytes.end()));
            } else if constexpr (std::is_same_v<T, TxWithWitness>) {
                return f(TX_WITH_WITNESS(ToCore(x.tx)));
            } else if constexpr (std::is_same_v<T, TxNoWitness>) {
                return f(TX_NO_WITNESS(ToCore(x.tx)));
            } else if constexpr (std::is_same_v<T, Block>) {
                return f(TX_WITH_WITNESS(ToCore(x)));
            } else {
                return f(ToCore(x)); // OutPoint, TxIn, TxOut, BlockHeader
            }
        },
        v);
}

Bytes SerializeValue(const Value& v)
{
    // Transactions and blocks are written the way Core's network messages write them (a
    // VectorWriter appending to a byte vector), everything else through a DataStream: the same
    // bytes by both, and both writers' code run.
    if (std::holds_alternative<TxWithWitness>(v) || std::holds_alternative<TxNoWitness>(v) || std::holds_alternative<Block>(v)) {
        std::vector<unsigned char> out;
        WithCore(v, [&](const auto& x) { VectorWriter{out, 0, x}; });
        return {out.begin(), out.end()};
    }
    DataStream s;
    WithCore(v, [&](const auto& x) { s << x; });
    const auto* p{reinterpret_cast<const uint8_t*>(s.data())};
    return {p, p + s.size()};
}

uint64_t SizeOfValue(const Value& v)
{
    return WithCore(v, [](const auto& x) { return uint64_t{GetSerializeSize(x)}; });
}

//! Reads one value of `T`'s kind from `s` with Core's deserializer and returns it as ours.
template <typename T>
T ReadAs(DataStream& s)
{
    if constexpr (std::is_integral_v<T>) {
        T x{};
        s >> x;
        return x;
    } else if constexpr (std::is_same_v<T, CompactSize>) {
        uint64_t n;
        s >> COMPACTSIZE(n);
        return {n};
    } else if constexpr (std::is_same_v<T, CompactSizeUnchecked>) {
        return {ReadCompactSize(s, /*range_check=*/false)};
    } else if constexpr (std::is_same_v<T, VarInt<uint32_t>> || std::is_same_v<T, VarInt<uint64_t>>) {
        decltype(T::n) n;
        s >> VARINT(n);
        return {n};
    } else if constexpr (std::is_same_v<T, Hash256>) {
        uint256 h;
        s >> h;
        return FromCore(h);
    } else if constexpr (std::is_same_v<T, Bytes>) {
        CoreBytes b;
        s >> b;
        return {b.begin(), b.end()};
    } else if constexpr (std::is_same_v<T, std::vector<Bytes>>) {
        std::vector<CoreBytes> b;
        s >> b;
        return {b.begin(), b.end()};
    } else if constexpr (std::is_same_v<T, Script>) {
        CScript script;
        s >> script;
        return {Bytes(script.begin(), script.end())};
    } else if constexpr (std::is_same_v<T, OutPoint>) {
        COutPoint p;
        s >> p;
        return FromCore(p);
    } else if constexpr (std::is_same_v<T, TxIn>) {
        CTxIn in;
        s >> in;
        return FromCore(in);
    } else if constexpr (std::is_same_v<T, TxOut>) {
        CTxOut o;
        s >> o;
        return FromCore(o);
    } else if constexpr (std::is_same_v<T, TxWithWitness>) {
        CMutableTransaction tx;
        s >> TX_WITH_WITNESS(tx);
        return {FromCore(tx)};
    } else if constexpr (std::is_same_v<T, TxNoWitness>) {
        CMutableTransaction tx;
        s >> TX_NO_WITNESS(tx);
        return {FromCore(tx)};
    } else if constexpr (std::is_same_v<T, BlockHeader>) {
        CBlockHeader h;
        s >> h;
        return FromCore(h);
    } else {
        static_assert(std::is_same_v<T, Block>);
        CBlock b;
        s >> TX_WITH_WITNESS(b);
        return FromCore(b);
    }
}

Decoded DeserializeValue(size_t kind, std::span<const uint8_t> bytes)
{
    Decoded d;
    DataStream s{bytes};
    try {
        d.value = std::visit([&](const auto& x) { return Value{ReadAs<std::decay_t<decltype(x)>>(s)}; }, DefaultValue(kind));
    } catch (const std::exception& e) {
        d.error = CoreMessage(e);
    }
    // DataStream drops what it has read: what is left is its size.
    d.consumed = bytes.size() - s.size();
    return d;
}

std::function<uint64_t()> PrepareBlock(const Block& block, std::span<const uint8_t> bytes, BenchOp op)
{
    switch (op) {
    case BenchOp::SERIALIZE:
        return [core = std::make_shared<const CBlock>(ToCore(block))] {
            DataStream s;
            s << TX_WITH_WITNESS(*core);
            return uint64_t{s.size()};
        };
    case BenchOp::SIZE:
        return [core = std::make_shared<const CBlock>(ToCore(block))] { return uint64_t{GetSerializeSize(TX_WITH_WITNESS(*core))}; };
    case BenchOp::DESERIALIZE:
        return [bytes] {
            SpanReader s{bytes};
            CBlock core;
            s >> TX_WITH_WITNESS(core);
            return uint64_t{bytes.size() - s.size()};
        };
    }
    return nullptr;
}

const Side CORE{"Bitcoin Core serialize.h (" EQUIFUZZ_CORE_TREE ")", SerializeValue, SizeOfValue, DeserializeValue, PrepareBlock};

} // namespace
} // namespace equifuzz::serialize

EQUIFUZZ_EXPORT_SIDE(equifuzz::serialize, equifuzz::serialize::CORE)
