// The serialization targets' seeds (common/seeds.h): real blocks and transactions from
// tests/data/bitcoin, the spec's CompactSize and VarInt vectors, and the transaction read-rule
// cases. serialize_decode's first byte is the kind (the index of a type in serialize::Value);
// serialize_block's first byte picks a real block (0) or one built from the rest (1).
#include "side.h"

#include <common/seeds.h>
#include <common/transaction.h>

#include <string>
#include <type_traits>
#include <variant>

namespace equifuzz::serialize {
namespace {

//! The kind byte of T: its index in Value.
template <typename T, size_t I = 0>
constexpr uint8_t KindOf()
{
    if constexpr (std::is_same_v<std::variant_alternative_t<I, Value>, T>) {
        return I;
    } else {
        return KindOf<T, I + 1>();
    }
}

Bytes Kind(uint8_t kind, std::span<const uint8_t> payload)
{
    Bytes out{kind};
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

} // namespace
} // namespace equifuzz::serialize

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace serialize;
    constexpr uint8_t COMPACT{KindOf<CompactSize>()}, COMPACT_UNCHECKED{KindOf<CompactSizeUnchecked>()}, BYTES{KindOf<Bytes>()};
    constexpr uint8_t VARINT32{KindOf<VarInt<uint32_t>>()}, VARINT64{KindOf<VarInt<uint64_t>>()};
    constexpr uint8_t TX_WITNESS{KindOf<TxWithWitness>()}, TX_NO_WITNESS{KindOf<TxNoWitness>()};
    constexpr uint8_t HEADER{KindOf<BlockHeader>()}, BLOCK{KindOf<Block>()}, TXIN{KindOf<TxIn>()}, VEC_BYTES{KindOf<std::vector<Bytes>>()};
    constexpr std::string_view T{"serialize_decode"};
    for (const char* h : {"00", "fc", "fdfd00", "fdffff", "fe00000100", "feffffffff", "ff0000000001000000", "fe00000002", "fe01000002",
                          "fd0000", "fdfc00", "fe00000000", "feffff0000", "ff0000000000000000", "ffffffff0100000000", "fe00100000",
                          "ffffffffffffffffff", "fd", "fe01"}) {
        for (const uint8_t k : {COMPACT, COMPACT_UNCHECKED, BYTES}) w.Add(T, Kind(k, seeds::FromHex(h)));
    }
    for (const char* h : {"00", "7f", "8000", "a334", "82fe7f", "c7e756", "86ffc7e756", "8efefefe7f", "fefefefefefefefe7f",
                          "80fefefefefefefefe7f", "807f", "8100", "fe7f", "ff00", "ff7f", "8efefeff00", "80fefefefefefefeff00", "82a731",
                          "ff", "8080808080808080808080"}) {
        for (const uint8_t k : {VARINT32, VARINT64}) w.Add(T, Kind(k, seeds::FromHex(h)));
    }
    const std::string outpoint(72, '0');
    for (const std::string& h : {std::string{"01000000" "00" "00" "00000000"},             // empty tx under allow_witness
                                 std::string{"01000000" "00" "02" "00" "00" "00000000"},   // flag 0x02: unknown optional data
                                 std::string{"01000000" "00" "03" "00" "00" "00000000"},   // flag 0x03, no inputs: superfluous witness
                                 "01000000" "00" "01" "01" + outpoint + "00" "ffffffff" "00" "00" "00000000",  // one empty stack
                                 "01000000" "00" "01" "01" + outpoint + "00" "ffffffff" "00" "01" "01" "51" "00000000"}) {
        for (const uint8_t k : {TX_WITNESS, TX_NO_WITNESS}) w.Add(T, Kind(k, seeds::FromHex(h)));
    }
    Stream r{T};
    for (uint8_t k = 0; k < KIND_COUNT; ++k) { // every kind with a few short random payloads
        for (const size_t n : {0, 1, 2, 5, 9, 40}) w.Add(T, Kind(k, r.Take(n)));
    }
    const std::vector<Bytes> vectors{w.TestVectorTransactions()};
    for (size_t n = 0; n < vectors.size(); n += 4) w.Add(T, Kind(n % 8 == 0 ? TX_WITNESS : TX_NO_WITNESS, vectors[n]));
    const std::vector<Bytes> blocks{w.RealBlocks()};
    for (const Bytes& raw : blocks) {
        w.Add(T, Kind(HEADER, std::span{raw}.first(80)));
        w.Add(T, Kind(BLOCK, raw));
        ByteReader reader{raw};
        const Block block{ReadBlock(reader)};
        for (size_t n = 0; n < block.txs.size() && n < 12; ++n) {
            const Bytes tx{SerializeTransaction(block.txs[n], /*with_witness=*/true)};
            w.Add(T, Kind(TX_WITNESS, tx));
            // The first input as it is serialized: the outpoint, the scriptSig with its length, the sequence.
            w.Add(T, Kind(TXIN, tx.size() > 41 ? std::span{tx}.subspan(5, std::min<size_t>(36 + 1 + tx[41] + 4, tx.size() - 5)) : std::span{tx}));
        }
    }
    Bytes vec{seeds::FromHex("03" "00" "01aa" "fdfd00")};
    vec.resize(vec.size() + 253);
    w.Add(T, Kind(VEC_BYTES, vec));

    w.AddRandom("serialize_values", {0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096,
                                     0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096,
                                     0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096});

    for (const Bytes& raw : blocks) w.Add("serialize_block", Kind(0, raw));
    Stream b{"serialize_block"};
    for (const size_t n : {0, 16, 64, 128, 256, 512, 1024, 2048, 4096}) w.Add("serialize_block", Kind(1, b.Take(n)));
}

} // namespace equifuzz::seeds
