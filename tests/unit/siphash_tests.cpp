// Known answers for the SipHash pair (spec section 3f), run against every side and the sketch.
// The reference SipHash-2-4 vectors (key 00..0f, inputs 00 01 02 ... of 0..63 bytes) are the
// published table; tests/data/siphash/siphash.json holds Bitcoin Core's vectors (see its README).
#include <catch2/catch.hpp>
#include "support/hex.h"
#include <siphash/pair.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::siphash;

using equifuzz::test::FromHex;

namespace {

const Key TEST_KEY{0x0706050403020100, 0x0f0e0d0c0b0a0908};
const std::vector<const Side*> SIDES{&original_side(), &optimized_side()};

//! SipHash-2-4, key 00..0f, input 00 01 .. (len-1) for len = 0..63.
const uint64_t REFERENCE_24[64]{
    0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d, 0xcf2794e0277187b7, 0x18765564cd99a68d,
    0xcbc9466e58fee3ce, 0xab0200f58b01d137, 0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
    0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5, 0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794,
    0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd, 0xbed65cf21aa2ee98, 0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
    0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3, 0x2f2e6163076bcfad, 0xde4daaaca71dc9a5, 0xa6a2506687956571,
    0xad87a3535c49ef28, 0x32d892fad841c342, 0x7127512f72f27cce, 0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
    0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d, 0x9abfd8766a33735c, 0x0e3ea96b5304a7d0, 0xad0c42d6fc585992,
    0x187306c89bc215a9, 0xd4a60abcf3792b95, 0xf935451de4f21df2, 0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
    0xe612a3cb9ecba951, 0xc766e62cfcadaf96, 0xee64435a9752fe72, 0xa192d576b245165a, 0x0a8787bf8ecb74b2, 0x81b3e73d20b49b6f,
    0x7fa8220ba3b2ecea, 0x245731c13ca42499, 0xb78dbfaf3a8d83bd, 0xea1ad565322a1a0b, 0x60e61c23a3795013, 0x6606d7e446282b93,
    0x6ca4ecb15c5f91e1, 0x9f626da15c9625f3, 0xe51b38608ef25f57, 0x958a324ceb064572,
};

Uint256 U256(const Bytes& b)
{
    REQUIRE(b.size() == 32);
    Uint256 h{};
    std::copy(b.begin(), b.end(), h.begin());
    return h;
}

Uint256 Counting(uint8_t first)
{
    Uint256 h{};
    for (size_t i = 0; i < 32; ++i) h[i] = static_cast<uint8_t>(first + i);
    return h;
}

Sip24Op B(Bytes b) { return {Sip24Op::BYTES, std::move(b), 0}; }
Sip24Op W(uint64_t w) { return {Sip24Op::WORD, {}, w}; }
Sip24Op F() { return {Sip24Op::FINALIZE, {}, 0}; }
UJOp N(uint64_t w) { return {UJOp::NORMAL, w, {}, 0}; }
UJOp J(const Uint256& h) { return {UJOp::JUMBO, 0, h, 0}; }
UJOp UF() { return {UJOp::FINALIZE, 0, {}, 0}; }

struct JsonVector {
    Key key;
    std::vector<Bytes> input;
    std::string siphash24, siphash13uj;
};

std::vector<std::string> Quoted(const std::string& line)
{
    std::vector<std::string> out;
    for (size_t p = line.find('"'); p != std::string::npos; p = line.find('"', p)) {
        const size_t e{line.find('"', p + 1)};
        out.push_back(line.substr(p + 1, e - p - 1));
        p = e + 1;
    }
    return out;
}

//! Reads tests/data/siphash/siphash.json (a fixed layout: one line each for key, input, expected).
std::vector<JsonVector> LoadJson()
{
    std::ifstream f{std::string{EQUIFUZZ_DATA_DIR} + "/siphash/siphash.json"};
    REQUIRE(f.good());
    std::vector<JsonVector> out;
    std::string line;
    while (std::getline(f, line)) {
        const auto q{Quoted(line)};
        if (q.empty()) continue;
        if (q[0] == "key") {
            out.emplace_back();
            REQUIRE(q.size() == 3);
            out.back().key = Key{std::stoull(q[1], nullptr, 16), std::stoull(q[2], nullptr, 16)};
        } else if (q[0] == "input") {
            for (size_t i = 1; i < q.size(); ++i) out.back().input.push_back(FromHex(q[i]));
        } else if (q[0] == "expected") {
            for (size_t i = 1; i + 1 < q.size(); i += 2) {
                if (q[i] == "siphash24") out.back().siphash24 = q[i + 1];
                if (q[i] == "siphash13uj") out.back().siphash13uj = q[i + 1];
            }
        }
    }
    return out;
}

std::vector<UJOp> AsBlocks(const JsonVector& v)
{
    std::vector<UJOp> ops;
    for (const Bytes& b : v.input) {
        if (b.size() == 8) ops.push_back(N(LE64(b.data())));
        else if (b.size() == 32) ops.push_back(J(U256(b)));
        else FAIL("a 1-3-UJ block of " << b.size() << " bytes");
    }
    return ops;
}

} // namespace

TEST_CASE("SipHash-2-4 reference vectors, 0..63 bytes, byte by byte and in words")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        std::vector<Sip24Op> bytewise;
        for (unsigned len = 0; len < 64; ++len) {
            bytewise.push_back(F());
            bytewise.push_back(B({static_cast<uint8_t>(len)}));
        }
        const auto got{side->sip24_stream(TEST_KEY, bytewise)};
        REQUIRE(got.size() == 65);
        for (unsigned len = 0; len < 64; ++len) CHECK(Hex64(got[len]) == Hex64(REFERENCE_24[len]));

        std::vector<Sip24Op> words;
        for (unsigned x = 0; x < 64; x += 8) {
            words.push_back(F());
            uint64_t w{0};
            for (unsigned i = 0; i < 8; ++i) w |= uint64_t{x + i} << (8 * i);
            words.push_back(W(w));
        }
        const auto got_words{side->sip24_stream(TEST_KEY, words)};
        for (unsigned i = 0; i < 8; ++i) CHECK(Hex64(got_words[i]) == Hex64(REFERENCE_24[8 * i]));
        // And each length in one write from a fresh hasher.
        for (unsigned len = 0; len < 64; ++len) {
            Bytes data(len);
            for (unsigned i = 0; i < len; ++i) data[i] = static_cast<uint8_t>(i);
            const Sip24Op op{B(data)};
            CHECK(Hex64(side->sip24_stream(TEST_KEY, std::span{&op, 1}).back()) == Hex64(REFERENCE_24[len]));
        }
    }
}

TEST_CASE("CSipHasher incremental writes (hash_tests): mixed byte runs and words, Finalize in between")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        const std::vector<Sip24Op> ops{F(), B({0}), F(), B({1, 2, 3, 4, 5, 6, 7}), F(), W(0x0F0E0D0C0B0A0908), F(),
                                       B({16, 17}), F(), B({18, 19, 20, 21, 22, 23, 24, 25, 26}), F(), B({27, 28, 29, 30, 31}), F(),
                                       W(0x2726252423222120), F(), W(0x2F2E2D2C2B2A2928)};
        const auto got{side->sip24_stream(TEST_KEY, ops)};
        const std::vector<uint64_t> expected{0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x93f5f5799a932462, 0x3f2acc7f57c29bdb,
                                             0x4bc1b3f0968dd39c, 0x2f2e6163076bcfad, 0x7127512f72f27cce, 0x0e3ea96b5304a7d0,
                                             0xe612a3cb9ecba951};
        CHECK(got == expected);
    }
}

TEST_CASE("uint256 forms: key 00..0f and uint256 1f1e..00 give 7127512f72f27cce; (1,2) and the empty v1 tx hash")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        // uint256{"1f1e...00"} is displayed reversed: its internal bytes are 00 01 .. 1f.
        CHECK(Hex64(side->sip24_uint256(TEST_KEY, Counting(0))) == "7127512f72f27cce");
        // SHA256d of the empty version-1 transaction 01000000 00 00 00000000, internal order.
        const Uint256 empty_tx{U256(FromHex("43ec7a579f5561a42a7e9637ad4156672735a658be2752181801f723ba3316d2"))};
        CHECK(Hex64(side->sip24_uint256(Key{1, 2}, empty_tx)) == "79751e980c2a0a35");
        CHECK(Hex64(side->sip24_uint256_extra(TEST_KEY, Counting(0), 0x43424140)) == "65f756d1213070be");
    }
}

TEST_CASE("siphash.json: every SipHash-2-4 vector on both sides, written in its blocks and byte by byte")
{
    const auto vectors{LoadJson()};
    REQUIRE(vectors.size() == 146);
    size_t checked{0};
    for (const JsonVector& v : vectors) {
        REQUIRE(!v.siphash24.empty());
        for (const Side* side : SIDES) {
            INFO(side->name << " key " << Hex64(v.key.k0) << " " << Hex64(v.key.k1) << " blocks " << v.input.size());
            std::vector<Sip24Op> ops;
            std::vector<Sip24Op> bytewise;
            for (const Bytes& b : v.input) {
                ops.push_back(B(b));
                for (const uint8_t x : b) bytewise.push_back(B({x}));
            }
            CHECK(Hex64(side->sip24_stream(v.key, ops).back()) == v.siphash24);
            CHECK(Hex64(side->sip24_stream(v.key, bytewise).back()) == v.siphash24);
            // Outpoint-shaped rows through the specialized / presalted forms.
            if (v.input.size() == 1 && v.input[0].size() == 32) {
                CHECK(Hex64(side->sip24_uint256(v.key, U256(v.input[0]))) == v.siphash24);
            }
            if (v.input.size() == 2 && v.input[0].size() == 32 && v.input[1].size() == 4) {
                Bytes nb{v.input[1]};
                nb.resize(8);
                const uint32_t n{static_cast<uint32_t>(LE64(nb.data()))};
                CHECK(Hex64(side->sip24_uint256_extra(v.key, U256(v.input[0]), n)) == v.siphash24);
                CHECK(Hex64(side->outpoint_hasher(Family::SIP24, v.key, U256(v.input[0]), n)) == v.siphash24);
            }
        }
        ++checked;
    }
    CHECK(checked == 146);
}

TEST_CASE("siphash.json: every SipHash-1-3-UJ vector on both sides and the relabelled sketch")
{
    const auto vectors{LoadJson()};
    size_t checked{0};
    for (const JsonVector& v : vectors) {
        if (v.siphash13uj.empty()) continue;
        const std::vector<UJOp> ops{AsBlocks(v)};
        for (const Side* side : SIDES) {
            INFO(side->name << " key " << Hex64(v.key.k0) << " " << Hex64(v.key.k1) << " blocks " << v.input.size());
            CHECK(Hex64(side->uj_stream(v.key, ops).back()) == v.siphash13uj);
            // Normal blocks as zero-padded jumbo blocks give the same value.
            CHECK(Hex64(side->uj_stream(v.key, NormalsAsJumbo(ops, ~uint64_t{0})).back()) == v.siphash13uj);
            // Outpoint-shaped rows (jumbo, then a normal block that fits 32 bits) via the fixed width.
            if (ops.size() == 2 && ops[0].kind == UJOp::JUMBO && ops[1].kind == UJOp::NORMAL && ops[1].word <= 0xffffffff) {
                const uint32_t n{static_cast<uint32_t>(ops[1].word)};
                CHECK(Hex64(side->uj_outpoint(v.key, ops[0].jumbo, n)) == v.siphash13uj);
                CHECK(Hex64(side->outpoint_hasher(Family::SIP13UJ, v.key, ops[0].jumbo, n)) == v.siphash13uj);
            }
        }
        CHECK(Hex64(SketchStream(SKETCH_AS_MERGED, v.key, ops).back()) == v.siphash13uj);
        ++checked;
    }
    CHECK(checked == 64);
}

TEST_CASE("spec 3f examples: empty input, 00..1f, 00..1f then 40..47")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        CHECK(Hex64(side->uj_stream(Key{}, {}).back()) == "74fdd8982aa99156");
        const std::vector<UJOp> one{J(Counting(0))};
        CHECK(Hex64(side->uj_stream(TEST_KEY, one).back()) == "c67d87b08ca4b5c6");
        const std::vector<UJOp> two{J(Counting(0)), N(0x4746454443424140)};
        CHECK(Hex64(side->uj_stream(TEST_KEY, two).back()) == "6cfc788446f0491d");
        // Jumbo(x) is not four normal blocks of x.
        const std::vector<UJOp> four{N(0x4746454443424140), N(0x4f4e4d4c4b4a4948), N(0x5756555453525150), N(0x5f5e5d5c5b5a5958)};
        const std::vector<UJOp> jumbo{J(Counting(0x40))};
        CHECK(Hex64(side->uj_stream(TEST_KEY, four).back()) == "d630244e335448dd");
        CHECK(Hex64(side->uj_stream(TEST_KEY, jumbo).back()) == "d2c0b9ab84599147");
    }
}

TEST_CASE("fixed-width Hash after earlier writes equals continuing the stream; Finalize is const")
{
    const Uint256 h{Counting(0x22)};
    for (const Side* side : SIDES) {
        INFO(side->name);
        const std::vector<UJOp> with_hash{N(0x1817161514131211), UF(), {UJOp::HASH_OUTPOINT, 0, h, 7}, {UJOp::HASH_JUMBO, 0, h, 0}, UF()};
        const auto a{side->uj_stream(TEST_KEY, with_hash)};
        const std::vector<UJOp> streamed_op{N(0x1817161514131211), J(h), UF(), N(7)};
        const auto b{side->uj_stream(TEST_KEY, streamed_op)};
        REQUIRE(a.size() == 5);
        CHECK(a[0] == a[3]); // Finalize twice, Hash calls in between: same value
        CHECK(a[3] == a[4]);
        CHECK(a[1] == b[1]); // Hash(h, 7) == Write(..).WriteJumbo(h).Write(7)
        CHECK(a[2] == b[0]); // Hash(h) == Write(..).WriteJumbo(h)
        // The jumbo-then-normal shape is the 2e98.. vector's mirror: 22..41 then 11..18.
        const std::vector<UJOp> mirror{J(h), N(0x1817161514131211)};
        CHECK(Hex64(side->uj_stream(TEST_KEY, mirror).back()) == "6f62e14ce40a8928");
    }
}

TEST_CASE("jumboblock sketch: equals the merged hasher only under all three of the spec's conditions")
{
    // 2 labellings x 2 index words x 2 finalizers: only (d1,d2,d3,d0), plain n, UJ_FINAL agrees.
    // The txids' four limbs must not all be equal (a zero txid cannot tell labellings apart).
    const std::vector<std::pair<Key, std::pair<Uint256, uint32_t>>> samples{
        {TEST_KEY, {Counting(0), 0}}, {Key{}, {Uint256FromWords(0, 0, 0, 1), 1}}, {COINS_CACHE_DETERMINISTIC_SALT, {Counting(0x80), 0x80000001}},
        {Key{~uint64_t{0}, 5}, {Uint256FromWords(1, 2, 3, 4), 12345}}};
    for (const bool relabel : {false, true}) {
        for (const bool tag : {false, true}) {
            for (const uint64_t fin : {uint64_t{0xff}, UJ_FINAL}) {
                SketchParams p;
                p.label = relabel ? std::array<uint8_t, 4>{1, 2, 3, 0} : std::array<uint8_t, 4>{0, 1, 2, 3};
                p.tag_index = tag;
                p.finalizer = fin;
                const bool should_match{relabel && !tag && fin == UJ_FINAL};
                for (const auto& [key, outpoint] : samples) {
                    const uint64_t merged{optimized_side().uj_outpoint(key, outpoint.first, outpoint.second)};
                    INFO("relabel " << relabel << " tag " << tag << " finalizer " << Hex64(fin));
                    CHECK((SketchOutpoint(p, key, outpoint.first, outpoint.second) == merged) == should_match);
                }
            }
        }
    }
}

TEST_CASE("jumboblock sketch: 2 rounds per block or 4 final rounds (spec 3d) also disagree")
{
    const Uint256 txid{Counting(0x40)};
    for (const auto& [block_rounds, final_rounds] : std::vector<std::pair<unsigned, unsigned>>{{1, 3}, {2, 3}, {1, 4}, {2, 4}}) {
        SketchParams p;
        p.block_rounds = block_rounds;
        p.final_rounds = final_rounds;
        const bool should_match{block_rounds == 1 && final_rounds == 3};
        INFO("block rounds " << block_rounds << " final rounds " << final_rounds);
        CHECK((SketchOutpoint(p, TEST_KEY, txid, 3) == optimized_side().uj_outpoint(TEST_KEY, txid, 3)) == should_match);
    }
}

TEST_CASE("the salted outpoint hasher: SipHash-2-4 setting is SipHashUint256Extra, UJ setting is the fixed width")
{
    const Uint256 txid{Counting(0x10)};
    for (const Side* side : SIDES) {
        INFO(side->name);
        for (const uint32_t n : {0u, 1u, 0x20212223u, 0xffffffffu}) {
            CHECK(side->outpoint_hasher(Family::SIP24, COINS_CACHE_DETERMINISTIC_SALT, txid, n) ==
                  original_side().sip24_uint256_extra(COINS_CACHE_DETERMINISTIC_SALT, txid, n));
            CHECK(side->outpoint_hasher(Family::SIP13UJ, COINS_CACHE_DETERMINISTIC_SALT, txid, n) ==
                  original_side().uj_outpoint(COINS_CACHE_DETERMINISTIC_SALT, txid, n));
        }
        // The family changes the value (different by design).
        CHECK(side->outpoint_hasher(Family::SIP24, TEST_KEY, txid, 0) != side->outpoint_hasher(Family::SIP13UJ, TEST_KEY, txid, 0));
    }
}
