// Serialization pair: the spec's known encodings (3.9), the transaction read rules (3.5) and the
// round trip of real mainnet blocks (tests/data/bitcoin/), run against every side.
#include <catch2/catch.hpp>
#include "support/hex.h"
#include <serialize/pair.h>

#include <fstream>
#include <iterator>

using namespace equifuzz;
using namespace equifuzz::serialize;

using equifuzz::test::FromHex;

namespace {

const std::vector<const Side*> SIDES{&original_side(), &optimized_side()};

std::string ToHex(const Bytes& b) { return Hex(std::span<const uint8_t>{b}); }

//! Every side writes `hex` for `v`, sizes it right, and reads it back to `v` consuming everything.
void CheckEncoding(const serialize::Value& v, const std::string& hex)
{
    for (const Side* s : SIDES) {
        INFO(s->name << " " << Dump(v));
        CHECK(ToHex(s->serialize(v)) == hex);
        CHECK(s->serialized_size(v) == hex.size() / 2);
        const Decoded d{s->deserialize(v.index(), FromHex(hex))};
        REQUIRE(d.value);
        CHECK(Dump(*d.value) == Dump(v));
        CHECK(d.consumed == hex.size() / 2);
    }
}

//! Every side rejects `hex` read as `kind` with `error`.
void CheckRejects(size_t kind, const std::string& hex, const std::string& error)
{
    for (const Side* s : SIDES) {
        INFO(s->name << " " << KindName(kind) << " " << hex);
        const Decoded d{s->deserialize(kind, FromHex(hex))};
        CHECK_FALSE(d.value);
        CHECK(d.error == error);
    }
}

constexpr size_t KIND_COMPACT{9}, KIND_COMPACT_UNCHECKED{10}, KIND_VARINT32{11}, KIND_VARINT64{12};
constexpr size_t KIND_TX_WITNESS{20}, KIND_TX_NO_WITNESS{21};


std::vector<Bytes> ReadBlockFile(const std::string& name)
{
    std::ifstream f{std::string{EQUIFUZZ_DATA_DIR} + "/bitcoin/" + name, std::ios::binary};
    const Bytes blob{std::istreambuf_iterator<char>{f}, {}};
    std::vector<Bytes> blocks;
    for (size_t i = 0; i + 8 <= blob.size();) {
        const size_t size{blob[i + 4] | size_t{blob[i + 5]} << 8 | size_t{blob[i + 6]} << 16 | size_t{blob[i + 7]} << 24};
        blocks.emplace_back(blob.begin() + i + 8, blob.begin() + i + 8 + size);
        i += 8 + size;
    }
    return blocks;
}

Hash256 MerkleRoot(std::vector<Hash256> level)
{
    while (level.size() > 1) {
        if (level.size() % 2) level.push_back(level.back());
        std::vector<Hash256> next;
        for (size_t i = 0; i < level.size(); i += 2) {
            Bytes both{level[i].begin(), level[i].end()};
            both.insert(both.end(), level[i + 1].begin(), level[i + 1].end());
            next.push_back(DoubleSha256(both));
        }
        level = std::move(next);
    }
    return level.at(0);
}

//! Every block reads, re-serializes byte for byte, and its txids' merkle root is the header's.
std::vector<std::string> RoundTripBlocks(const std::string& file)
{
    std::vector<std::string> hashes;
    for (const Bytes& raw : ReadBlockFile(file)) {
        for (const Side* s : SIDES) {
            INFO(s->name << " " << file);
            const Decoded d{s->deserialize(KIND_BLOCK, raw)};
            REQUIRE(d.value);
            CHECK(d.consumed == raw.size());
            CHECK(s->serialize(*d.value) == raw);
            CHECK(s->serialized_size(*d.value) == raw.size());
            const Block& block{std::get<Block>(*d.value)};
            std::vector<Hash256> txids;
            for (const Transaction& tx : block.txs) {
                const Bytes stripped{s->serialize(serialize::Value{TxNoWitness{tx}})};
                txids.push_back(DoubleSha256(stripped));
                CHECK(txids.back() == Txid(tx)); // the common codec agrees
            }
            CHECK(MerkleRoot(txids) == block.header.merkle_root);
            const Hash256 hash{DoubleSha256(s->serialize(serialize::Value{block.header}))};
            if (s == SIDES[0]) hashes.push_back(DisplayHex(hash));
            CHECK(DisplayHex(hash) == hashes.back());
        }
    }
    return hashes;
}

} // namespace

TEST_CASE("VarInt encodings (spec 3.9)")
{
    const std::pair<uint64_t, const char*> rows[]{
        {0, "00"}, {0x7f, "7f"}, {0x80, "8000"}, {0x1234, "a334"}, {0xffff, "82fe7f"}, {0x123456, "c7e756"},
        {0x80123456, "86ffc7e756"}, {0xffffffff, "8efefefe7f"}, {0x7fffffffffffffff, "fefefefefefefefe7f"},
        {0xffffffffffffffff, "80fefefefefefefefe7f"}, {255, "807f"}, {256, "8100"}, {16383, "fe7f"},
        {16384, "ff00"}, {16511, "ff7f"}, {65535, "82fe7f"}, {0x100000000, "8efefeff00"}, {54321, "82a731"}};
    for (const auto& [n, hex] : rows) {
        CheckEncoding(serialize::Value{VarInt<uint64_t>{n}}, hex);
        if (n <= 0xffffffff) CheckEncoding(serialize::Value{VarInt<uint32_t>{static_cast<uint32_t>(n)}}, hex);
    }
    for (const Side* s : SIDES) {
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{127}}) == 1);
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{128}}) == 2);
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{16511}}) == 2);
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{16512}}) == 3);
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{2113663}}) == 3);
        CHECK(s->serialized_size(serialize::Value{VarInt<uint64_t>{2113664}}) == 4);
    }
}

TEST_CASE("VarInt overflow (spec 3.3, 3.9)")
{
    CheckRejects(KIND_VARINT32, "8efefeff00", "ReadVarInt(): size too large");
    CheckRejects(KIND_VARINT64, "80fefefefefefefeff00", "ReadVarInt(): size too large");
    CheckRejects(KIND_VARINT64, "80", "DataStream::read(): end of data");
    for (const Side* s : SIDES) { // the offending byte has been consumed
        CHECK(s->deserialize(KIND_VARINT32, FromHex("8efefeff00")).consumed == 5);
    }
}

TEST_CASE("CompactSize boundaries and non-canonical forms (spec 3.2, 3.9)")
{
    CheckEncoding(serialize::Value{CompactSize{252}}, "fc");
    CheckEncoding(serialize::Value{CompactSize{253}}, "fdfd00");
    CheckEncoding(serialize::Value{CompactSize{0xffff}}, "fdffff");
    CheckEncoding(serialize::Value{CompactSize{0x10000}}, "fe00000100");
    CheckEncoding(serialize::Value{CompactSize{0x02000000}}, "fe00000002");
    CheckEncoding(serialize::Value{CompactSizeUnchecked{0xffffffff}}, "feffffffff");
    CheckEncoding(serialize::Value{CompactSizeUnchecked{0x100000000}}, "ff0000000001000000");
    for (uint64_t i = 1; i <= 0x02000000; i *= 2) {
        for (const uint64_t n : {i - 1, i}) {
            for (const Side* s : SIDES) {
                const Bytes b{s->serialize(serialize::Value{CompactSize{n}})};
                const Decoded d{s->deserialize(KIND_COMPACT, b)};
                REQUIRE(d.value);
                CHECK(std::get<CompactSize>(*d.value).n == n);
                CHECK(s->serialized_size(serialize::Value{CompactSize{n}}) == b.size());
            }
        }
    }
    for (const char* hex : {"fd0000", "fdfc00", "fe00000000", "feffff0000", "ff0000000000000000", "ffffffff0100000000",
                            "fe00100000"}) {
        CheckRejects(KIND_COMPACT, hex, "non-canonical ReadCompactSize()");
        CheckRejects(KIND_COMPACT_UNCHECKED, hex, "non-canonical ReadCompactSize()");
    }
    CheckRejects(KIND_COMPACT, "fe01000002", "ReadCompactSize(): size too large");
    CheckRejects(KIND_COMPACT, "ff0000000001000000", "ReadCompactSize(): size too large");
    CheckRejects(KIND_COMPACT, "fd01", "DataStream::read(): end of data");
    CheckRejects(14, "03aabb", "DataStream::read(): end of data"); // a byte vector short of its length
}

TEST_CASE("Integer widths and bool (spec 3.1)")
{
    CheckEncoding(serialize::Value{true}, "01");
    CheckEncoding(serialize::Value{false}, "00");
    CheckEncoding(serialize::Value{uint8_t{0xab}}, "ab");
    CheckEncoding(serialize::Value{int8_t{-1}}, "ff");
    CheckEncoding(serialize::Value{uint16_t{0x1234}}, "3412");
    CheckEncoding(serialize::Value{int16_t{-2}}, "feff");
    CheckEncoding(serialize::Value{uint32_t{0x12345678}}, "78563412");
    CheckEncoding(serialize::Value{int32_t{-1}}, "ffffffff");
    CheckEncoding(serialize::Value{uint64_t{0x0102030405060708}}, "0807060504030201");
    CheckEncoding(serialize::Value{int64_t{-2}}, "feffffffffffffff");
    for (const Side* s : SIDES) { // any non-zero byte reads as true
        const Decoded d{s->deserialize(0, FromHex("80"))};
        REQUIRE(d.value);
        CHECK(std::get<bool>(*d.value));
    }
}

TEST_CASE("Transaction read rules (spec 3.5)")
{
    for (const Side* s : SIDES) {
        INFO(s->name);
        const Decoded empty{s->deserialize(KIND_TX_WITNESS, FromHex("01000000" "00" "00" "00000000"))};
        REQUIRE(empty.value);
        const Transaction& tx{std::get<TxWithWitness>(*empty.value).tx};
        CHECK(tx.vin.empty());
        CHECK(tx.vout.empty());
        CHECK(tx.version == 1);
        CHECK(empty.consumed == 10);
    }
    CheckRejects(KIND_TX_WITNESS, "01000000" "00" "02" "00" "00" "00000000", "Unknown transaction optional data");
    CheckRejects(KIND_TX_WITNESS, "01000000" "00" "03" "00" "00" "00000000", "Superfluous witness record");
    const std::string one_input{"01" + std::string(72, '0') + "00" "ffffffff"};
    CheckRejects(KIND_TX_WITNESS, "01000000" "00" "01" + one_input + "00" "00" "00000000", "Superfluous witness record");
    CheckRejects(KIND_TX_WITNESS, "01000000" "00" "01" + one_input + "00", "DataStream::read(): end of data");
    // Without witness, 00 is an empty vin and the next byte the vout count.
    CheckEncoding(serialize::Value{TxNoWitness{Transaction{.version = 1, .vin = {}, .vout = {{5, {0x51}}}, .lock_time = 0}}},
                  "01000000" "00" "01" "0500000000000000" "0151" "00000000");
    // A witness transaction: marker and flag, the stacks after the outputs, and sizes both ways.
    Transaction w;
    w.vin.resize(2);
    w.vin[1].witness = {{0xaa, 0xbb}, {}};
    w.vout.push_back({1, {}});
    const std::string ins{"02" + std::string(64, '0') + "ffffffff" "00" "ffffffff" + std::string(64, '0') + "ffffffff" "00" "ffffffff"};
    CheckEncoding(serialize::Value{TxWithWitness{w}}, "02000000" "0001" + ins + "01" "0100000000000000" "00" "00" "02" "02aabb" "00" "00000000");
    for (const Side* s : SIDES) {
        CHECK(s->serialized_size(serialize::Value{TxNoWitness{w}}) == s->serialize(serialize::Value{TxNoWitness{w}}).size());
        CHECK(ToHex(s->serialize(serialize::Value{TxNoWitness{w}})) == "02000000" + ins + "01" "0100000000000000" "00" "00000000");
    }
}

TEST_CASE("Real blocks round-trip with their hashes (blk_0_to_4.dat, 277647.dat)")
{
    const auto first{RoundTripBlocks("blk_0_to_4.dat")};
    REQUIRE(first.size() == 5);
    CHECK(first[0] == "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f");
    const auto big{RoundTripBlocks("277647.dat")};
    REQUIRE(big.size() == 1);
    CHECK(big[0].rfind("0000000000000000054a714e", 0) == 0);
}

TEST_CASE("InsertSizedBytes: a canonical or wider CompactSize and exactly that many bytes, after the kind byte", "[mutator]")
{
    size_t at_253{0}, wide{0};
    for (uint32_t seed = 0; seed < 400; ++seed) {
        Bytes input{0x07};
        Mutation m{input, 4096, seed};
        if (!InsertSizedBytes(m)) continue; // 0x10000 bytes do not fit in 4096
        REQUIRE(input[0] == 0x07);
        const std::span<const uint8_t> piece{std::span{input}.subspan(1)};
        uint64_t length;
        size_t prefix;
        if (piece[0] < 0xfd) {
            length = piece[0], prefix = 1;
        } else if (piece[0] == 0xfd) {
            length = piece[1] | uint64_t{piece[2]} << 8, prefix = 3;
        } else {
            REQUIRE(piece[0] == 0xfe);
            length = piece[1] | uint64_t{piece[2]} << 8 | uint64_t{piece[3]} << 16 | uint64_t{piece[4]} << 24, prefix = 5;
        }
        CHECK(piece.size() == prefix + length);
        at_253 += length == 253;
        wide += (prefix == 3 && length < 253) || (prefix == 5 && length <= 0xffff);
    }
    CHECK(at_253 > 5);
    CHECK(wide > 5);
}
