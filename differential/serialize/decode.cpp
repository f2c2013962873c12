// The serialize pair's list of sides, its decoders (fuzz bytes to a value of a kind) and their
// descriptions (Dump: a value's kind and fields, written independently of either side); every
// choice among named values is read through choices.json (ConsumeChoice).
#include "pair.h"

#include <equifuzz/choices/serialize.h>

#include <array>
#include <limits>
#include <utility>

EQUIFUZZ_DEFINE_SIDES(equifuzz::serialize)

namespace equifuzz::serialize {
namespace {

constexpr std::array<const char*, KIND_COUNT> KIND_NAMES{
    "bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
    "CompactSize", "CompactSize(no range check)", "VarInt<uint32>", "VarInt<uint64>", "uint256",
    "bytes", "vector<bytes>", "script", "outpoint", "txin", "txout", "tx(with witness)",
    "tx(no witness)", "header", "block"};

template <size_t... I>
Value DefaultOf(size_t kind, std::index_sequence<I...>)
{
    static const std::array<Value, sizeof...(I)> defaults{Value{std::in_place_index<I>}...};
    return defaults[kind];
}

template <typename I>
I ConsumeBoundaryInt(FuzzedDataProvider& fdp, std::initializer_list<uint64_t> boundaries)
{
    switch (ConsumeChoice<IntegerForm>(fdp)) {
    case IntegerForm::ANY: return fdp.ConsumeIntegral<I>();
    case IntegerForm::NEAR_MAX: return static_cast<I>(std::numeric_limits<I>::max() - fdp.ConsumeIntegralInRange<I>(0, 2));
    case IntegerForm::NEAR_BOUNDARY: {
        const uint64_t b{*(boundaries.begin() + fdp.ConsumeIntegralInRange<size_t>(0, boundaries.size() - 1))};
        return static_cast<I>(b + fdp.ConsumeIntegralInRange<uint64_t>(0, 2) - 1); // b-1, b, b+1
    }
    }
    return 0;
}

const std::initializer_list<uint64_t> COMPACT_BOUNDARIES{0, 1, 252, 253, 254, 0xffff, 0x10000, 0xffffffff,
                                                         0x100000000, 0x02000000, 0xffffffffffffffff};
const std::initializer_list<uint64_t> VARINT_BOUNDARIES{0, 127, 128, 255, 256, 16383, 16384, 16511, 16512,
                                                        2113663, 2113664, 0xffffffff, 0x100000000,
                                                        0x7fffffffffffffff};

size_t ConsumeLength(FuzzedDataProvider& fdp, size_t max)
{
    constexpr size_t lengths[]{0, 1, 2, 252, 253, 254};
    if (fdp.ConsumeIntegralInRange<int>(0, 3) == 0) return fdp.PickValueInArray(lengths);
    return fdp.ConsumeIntegralInRange<size_t>(0, max);
}

Bytes ConsumeBytesOfLength(FuzzedDataProvider& fdp, size_t max) { return ConsumeBytesPadded(fdp, ConsumeLength(fdp, max)); }

Hash256 ConsumeHash(FuzzedDataProvider& fdp)
{
    Hash256 h{};
    if (fdp.ConsumeBool()) return h;
    const Bytes b{ConsumeBytesPadded(fdp, 32)};
    std::copy(b.begin(), b.end(), h.begin());
    return h;
}

std::vector<Bytes> ConsumeStack(FuzzedDataProvider& fdp)
{
    std::vector<Bytes> st(fdp.ConsumeIntegralInRange<size_t>(0, 4));
    for (Bytes& item : st) item = ConsumeBytesOfLength(fdp, 80);
    return st;
}

TxIn ConsumeTxIn(FuzzedDataProvider& fdp)
{
    TxIn in;
    in.prevout.hash = ConsumeHash(fdp);
    in.prevout.n = fdp.ConsumeBool() ? NULL_INDEX : fdp.ConsumeIntegral<uint32_t>();
    in.script_sig = ConsumeBytesOfLength(fdp, 110);
    in.sequence = fdp.ConsumeIntegral<uint32_t>();
    return in;
}

TxOut ConsumeTxOut(FuzzedDataProvider& fdp)
{
    return {fdp.ConsumeIntegral<int64_t>(), ConsumeBytesOfLength(fdp, 40)};
}

Transaction ConsumeTransaction(FuzzedDataProvider& fdp)
{
    Transaction tx;
    tx.version = fdp.ConsumeIntegral<int32_t>();
    tx.vin.resize(fdp.ConsumeIntegralInRange<size_t>(0, 4));
    const bool witnesses{fdp.ConsumeBool()};
    for (TxIn& in : tx.vin) {
        in = ConsumeTxIn(fdp);
        if (witnesses) in.witness = ConsumeStack(fdp); // may be empty for some or all inputs
    }
    tx.vout.resize(fdp.ConsumeIntegralInRange<size_t>(0, 4));
    for (TxOut& o : tx.vout) o = ConsumeTxOut(fdp);
    tx.lock_time = fdp.ConsumeIntegral<uint32_t>();
    return tx;
}

BlockHeader ConsumeHeader(FuzzedDataProvider& fdp)
{
    BlockHeader h;
    h.version = fdp.ConsumeIntegral<int32_t>();
    h.prev_block = ConsumeHash(fdp);
    h.merkle_root = ConsumeHash(fdp);
    h.time = fdp.ConsumeIntegral<uint32_t>();
    h.bits = fdp.ConsumeIntegral<uint32_t>();
    h.nonce = fdp.ConsumeIntegral<uint32_t>();
    return h;
}

struct Builder {
    FuzzedDataProvider& fdp;
    void operator()(bool& v) { v = fdp.ConsumeBool(); }
    template <typename I>
        requires std::is_integral_v<I>
    void operator()(I& v) { v = ConsumeBoundaryInt<I>(fdp, {0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000}); }
    void operator()(CompactSize& v) { v.n = ConsumeBoundaryInt<uint64_t>(fdp, COMPACT_BOUNDARIES); }
    void operator()(CompactSizeUnchecked& v) { v.n = ConsumeBoundaryInt<uint64_t>(fdp, COMPACT_BOUNDARIES); }
    void operator()(VarInt<uint32_t>& v) { v.n = ConsumeBoundaryInt<uint32_t>(fdp, VARINT_BOUNDARIES); }
    void operator()(VarInt<uint64_t>& v) { v.n = ConsumeBoundaryInt<uint64_t>(fdp, VARINT_BOUNDARIES); }
    void operator()(Hash256& v) { v = ConsumeHash(fdp); }
    void operator()(Bytes& v) { v = ConsumeBytesOfLength(fdp, 600); }
    void operator()(std::vector<Bytes>& v)
    {
        v.resize(ConsumeLength(fdp, 8) % 260);
        for (Bytes& b : v) b = ConsumeBytesOfLength(fdp, 8);
    }
    void operator()(Script& v) { v.bytes = ConsumeBytesOfLength(fdp, 600); }
    void operator()(OutPoint& v) { v = ConsumeTxIn(fdp).prevout; }
    void operator()(TxIn& v)
    {
        v = ConsumeTxIn(fdp);
        v.witness = ConsumeStack(fdp); // not serialized with the input; must not matter
    }
    void operator()(TxOut& v) { v = ConsumeTxOut(fdp); }
    void operator()(TxWithWitness& v) { v.tx = ConsumeTransaction(fdp); }
    void operator()(TxNoWitness& v) { v.tx = ConsumeTransaction(fdp); }
    void operator()(BlockHeader& v) { v = ConsumeHeader(fdp); }
    void operator()(Block& v)
    {
        v.header = ConsumeHeader(fdp);
        v.txs.resize(fdp.ConsumeIntegralInRange<size_t>(0, 4));
        for (Transaction& tx : v.txs) tx = ConsumeTransaction(fdp);
    }
};

// ---- Dump: kind and fields, independent of either side ----
std::string HexOf(std::span<const uint8_t> b) { return Hex(b); }

void DumpTo(std::string& out, const Transaction& tx)
{
    out += "v=" + std::to_string(tx.version) + " vin=[";
    for (const TxIn& in : tx.vin) {
        out += HexOf(in.prevout.hash) + ":" + std::to_string(in.prevout.n) + " ss=" + HexOf(in.script_sig) +
               " seq=" + std::to_string(in.sequence) + " wit=(";
        for (const Bytes& w : in.witness) out += HexOf(w) + ",";
        out += ");";
    }
    out += "] vout=[";
    for (const TxOut& o : tx.vout) out += std::to_string(o.value) + ":" + HexOf(o.script_pubkey) + ";";
    out += "] lock=" + std::to_string(tx.lock_time);
}

void DumpTo(std::string& out, const BlockHeader& h)
{
    out += "v=" + std::to_string(h.version) + " prev=" + HexOf(h.prev_block) + " merkle=" + HexOf(h.merkle_root) +
           " time=" + std::to_string(h.time) + " bits=" + std::to_string(h.bits) + " nonce=" + std::to_string(h.nonce);
}

struct Dumper {
    std::string& out;
    void operator()(bool v) { out += v ? "true" : "false"; }
    template <typename I>
        requires std::is_integral_v<I>
    void operator()(I v) { out += std::to_string(v); }
    void operator()(const CompactSize& v) { out += std::to_string(v.n); }
    void operator()(const CompactSizeUnchecked& v) { out += std::to_string(v.n); }
    void operator()(const VarInt<uint32_t>& v) { out += std::to_string(v.n); }
    void operator()(const VarInt<uint64_t>& v) { out += std::to_string(v.n); }
    void operator()(const Hash256& v) { out += HexOf(v); }
    void operator()(const Bytes& v) { out += HexOf(v); }
    void operator()(const std::vector<Bytes>& v)
    {
        out += "[";
        for (const Bytes& b : v) out += HexOf(b) + ",";
        out += "]";
    }
    void operator()(const Script& v) { out += HexOf(v.bytes); }
    void operator()(const OutPoint& v) { out += HexOf(v.hash) + ":" + std::to_string(v.n); }
    void operator()(const TxIn& v)
    {
        out += HexOf(v.prevout.hash) + ":" + std::to_string(v.prevout.n) + " ss=" + HexOf(v.script_sig) +
               " seq=" + std::to_string(v.sequence);
    }
    void operator()(const TxOut& v) { out += std::to_string(v.value) + ":" + HexOf(v.script_pubkey); }
    void operator()(const TxWithWitness& v) { DumpTo(out, v.tx); }
    void operator()(const TxNoWitness& v) { DumpTo(out, v.tx); }
    void operator()(const BlockHeader& v) { DumpTo(out, v); }
    void operator()(const Block& v)
    {
        DumpTo(out, v.header);
        out += " txs=" + std::to_string(v.txs.size()) + " {";
        for (const Transaction& tx : v.txs) {
            DumpTo(out, tx);
            out += "} {";
        }
        out += "}";
    }
};

} // namespace

const char* KindName(size_t kind) { return kind < KIND_COUNT ? KIND_NAMES[kind] : "?"; }

Value DefaultValue(size_t kind) { return DefaultOf(kind, std::make_index_sequence<KIND_COUNT>{}); }

Value BuildValueOfKind(FuzzedDataProvider& fdp, size_t kind)
{
    Value v{DefaultValue(kind)};
    std::visit(Builder{fdp}, v);
    return v;
}

Value BuildValue(FuzzedDataProvider& fdp)
{
    return BuildValueOfKind(fdp, fdp.ConsumeIntegralInRange<size_t>(0, KIND_COUNT - 1));
}

std::string Dump(const Value& v)
{
    std::string out{KindName(v.index())};
    out += " ";
    std::visit(Dumper{out}, v);
    return out;
}

Description Describe(const Value& v)
{
    const std::string dump{Dump(v)};
    Description d;
    d.Add("kind", KindName(v.index()));
    d.Add("value", dump.size() > 400 ? dump.substr(0, 400) + "…" : dump);
    return d;
}

Description DescribeDecode(size_t kind, std::span<const uint8_t> bytes)
{
    Description d;
    d.Add("kind", KindName(kind));
    d.Add("bytes", Bytes{bytes.begin(), bytes.end()});
    return d;
}

} // namespace equifuzz::serialize
