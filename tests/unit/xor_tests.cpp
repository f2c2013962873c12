// Known answers for the obfuscation XOR pair (spec section 2.8), run against every side.
#include <catch2/catch.hpp>
#include "support/hex.h"
#include <xor/pair.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::xorpair;

using equifuzz::test::FromHex;

namespace {

Key KeyFromHex(const std::string& hex)
{
    const Bytes b{FromHex(hex)};
    REQUIRE(b.size() == KEY_SIZE);
    Key k;
    for (size_t i = 0; i < KEY_SIZE; ++i) k[i] = std::byte{b[i]};
    return k;
}

std::span<std::byte> AsBytes(Bytes& b) { return {reinterpret_cast<std::byte*>(b.data()), b.size()}; }

const std::vector<const Side*> SIDES{&original_side(), &optimized_side()};

} // namespace

TEST_CASE("streams_tests: writes {1,2,3} then {4,5} with key ff00ff00ff00ff00 give fc01fd03fd04fa")
{
    // The file receives the serialized vectors: 03 010203, then 02 0405.
    for (const Side* side : SIDES) {
        INFO(side->name);
        Bytes data{3, 1, 2, 3, 2, 4, 5};
        const std::vector<size_t> chunks{4, 3};
        side->apply_chunked(KeyFromHex("ff00ff00ff00ff00"), AsBytes(data), 0, chunks);
        CHECK(Hex(data) == "fc01fd03fd04fa");
        side->apply(KeyFromHex("ff00ff00ff00ff00"), AsBytes(data), 0);
        CHECK(Hex(data) == "03010203020405");
    }
}

TEST_CASE("DataStream vectors: 0ff0 ^ ffff.. = f00f, f00f ^ ff0fff0f.. = 0f00, empty stays empty")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        Bytes a{FromHex("0ff0")};
        side->apply(KeyFromHex("ffffffffffffffff"), AsBytes(a), 0);
        CHECK(Hex(a) == "f00f");
        Bytes b{FromHex("f00f")};
        side->apply(KeyFromHex("ff0fff0fff0fff0f"), AsBytes(b), 0);
        CHECK(Hex(b) == "0f00");
        Bytes empty;
        side->apply(KeyFromHex("ffffffffffffffff"), AsBytes(empty), 5);
        CHECK(empty.empty());
    }
}

TEST_CASE("key 0102030405060708 over 16 zero bytes at offset 3")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        Bytes data(16, 0);
        side->apply(KeyFromHex("0102030405060708"), AsBytes(data), 3);
        CHECK(Hex(data) == "04050607080102030405060708010203");
    }
}

TEST_CASE("every length 0..200, address residue and offset residue matches the definition")
{
    const Key key{KeyFromHex("a1b2c3d4e5f60718")};
    for (const Side* side : SIDES) {
        INFO(side->name);
        for (size_t align = 0; align < 8; ++align) {
            for (size_t len = 0; len <= 200; ++len) {
                for (uint64_t offset : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull, 0xfffffffffffffff9ull}) {
                    std::vector<std::byte> storage(align + len);
                    for (size_t i = 0; i < len; ++i) storage[align + i] = std::byte(i * 37 + 11);
                    side->apply(key, std::span{storage}.subspan(align), offset);
                    bool ok{true};
                    for (size_t i = 0; i < len; ++i) {
                        ok &= storage[align + i] == (std::byte(i * 37 + 11) ^ key[(offset + i) % 8]);
                    }
                    if (!ok) FAIL("align " << align << " length " << len << " offset " << offset);
                }
            }
        }
    }
}

TEST_CASE("a zero key leaves data unchanged")
{
    for (const Side* side : SIDES) {
        Bytes data{FromHex("00112233445566778899aabbccddeeff00")};
        side->apply(Key{}, AsBytes(data), 5);
        CHECK(Hex(data) == "00112233445566778899aabbccddeeff00");
    }
}

TEST_CASE("key serialization: 9 bytes (08 + key), hex in stored order, round trip")
{
    const Key key{KeyFromHex("0001020304fafbfc")};
    for (const Side* side : SIDES) {
        INFO(side->name);
        const Bytes ser{side->serialize_key(key)};
        CHECK(Hex(ser) == "080001020304fafbfc");
        CHECK(side->hex_key(key) == "0001020304fafbfc");
        const KeyParse back{side->parse_key(ser)};
        CHECK(back.error.empty());
        CHECK(back.consumed == 9);
        CHECK(Hex(back.key) == "0001020304fafbfc");
    }
}

TEST_CASE("key reading errors")
{
    for (const Side* side : SIDES) {
        INFO(side->name);
        CHECK(side->parse_key(FromHex("")).error == "DataStream::read(): end of data");
        CHECK(side->parse_key(FromHex("0801020304")).error == "DataStream::read(): end of data");
        CHECK(side->parse_key(FromHex("fd0800" "0102030405060708")).error == "non-canonical ReadCompactSize()");
        CHECK(side->parse_key(FromHex("fe01000002")).error == "ReadCompactSize(): size too large");
    }
    // The one allowed difference: the original keeps a vector of any length.
    CHECK(original_side().parse_key(FromHex("03aabbcc")).error.empty());
    CHECK(optimized_side().parse_key(FromHex("03aabbcc")).error == "Obfuscation key size should be exactly 8 bytes long");
    CHECK(optimized_side().parse_key(FromHex("09000102030405060708")).error == KEY_SIZE_ERROR);
}

namespace {

// Sides with planted bugs, for the hot path's test below. They call our original.
void ApplyDroppingLastByte(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    original_side().apply(key, data.empty() ? data : data.first(data.size() - 1), key_offset);
}

void ChunkedAtFixedOffset(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    for (const size_t len : chunks) { // every chunk at key_offset: the running position ignored
        original_side().apply(key, data.first(len), key_offset);
        data = data.subspan(len);
    }
}

//! Every second call leaves the data as it is: right once, not an involution.
unsigned g_calls{0};
void ApplyEverySecondCallSkipped(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    if (g_calls++ % 2 == 0) original_side().apply(key, data, key_offset);
}

//! Chunks left as they are. With ApplyEverySecondCallSkipped, the hot path's chunked step starts
//! from the one-shot result the skipped second call left, and leaves it: there only the involution
//! check tells this side apart (the full check also sees chunked != one-shot, from the input).
void ChunkedLeftAsIs(const Key&, std::span<std::byte>, uint64_t, std::span<const size_t>) {}

std::string HexKeyUppercase(const Key& key)
{
    std::string hex{original_side().hex_key(key)};
    for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return hex;
}

KeyParse ParseKeyConsumingOneMore(std::span<const uint8_t> serialized)
{
    KeyParse out{original_side().parse_key(serialized)};
    if (out.error.empty()) ++out.consumed;
    return out;
}

template <typename Member, typename Fn>
Side WithBug(const char* name, Member member, Fn fn)
{
    Side side{original_side()};
    side.name = name;
    side.*member = fn;
    return side;
}

} // namespace

TEST_CASE("xor_apply's hot path passes a side exactly when RunApply's outcome passes the full check")
{
    const std::vector<Side> broken{
        WithBug("last byte dropped", &Side::apply, &ApplyDroppingLastByte),
        WithBug("chunks at a fixed offset", &Side::apply_chunked, &ChunkedAtFixedOffset),
        WithBug("every second call skipped", &Side::apply, &ApplyEverySecondCallSkipped),
        [] {
            Side side{WithBug("every second call skipped, chunks left as they are", &Side::apply, &ApplyEverySecondCallSkipped)};
            side.apply_chunked = &ChunkedLeftAsIs;
            return side;
        }(),
        WithBug("key hex in uppercase", &Side::hex_key, &HexKeyUppercase),
        WithBug("key reader consumes one byte more", &Side::parse_key, &ParseKeyConsumingOneMore)};
    std::vector<const Side*> sides{SIDES};
    for (const Side& side : broken) sides.push_back(&side);
    const std::vector<std::vector<size_t>> schedules{{}, {1}, {3, 0, 5}, {8, 8, 8, 8, 8, 8, 8, 8, 8, 8}};
    for (const Side* side : sides) {
        INFO(side->name);
        size_t failed{0};
        for (const Key& key : {Key{}, KeyFromHex("a1b2c3d4e5f60718"), KeyFromHex("0000000000000001")}) {
            // What the target compares every side's key round trip with: the original side's.
            const KeyRoundTrip original_key{RunKeyRoundTrip(original_side(), key)};
            REQUIRE(original_key.GivesBack(key));
            for (size_t len : {0, 1, 7, 8, 9, 16, 63, 64, 65, 130}) {
                for (uint64_t offset : {0ull, 3ull, 7ull, 0xfffffffffffffff9ull}) {
                    for (size_t align = 0; align < 8; align += 3) {
                        ApplyInput in;
                        in.key = key;
                        in.key_offset = offset;
                        in.align = align;
                        for (size_t i = 0; i < len; ++i) in.data.push_back(static_cast<uint8_t>(i * 37 + 11));
                        for (const auto& schedule : schedules) {
                            // A schedule is cut to the data and the rest given to a last chunk.
                            in.chunks.clear();
                            size_t left{len};
                            for (const size_t c : schedule) {
                                in.chunks.push_back(std::min(c, left));
                                left -= in.chunks.back();
                            }
                            in.chunks.push_back(left);
                            const Bytes expected{Definition(in)};
                            g_calls = 0;
                            const bool fast{AppliesAsDefined(*side, in, expected, original_key)};
                            g_calls = 0;
                            // The full check, for this side beside the original: equal outcomes
                            // (the original's meets the definition), and the side's properties.
                            const ApplyOutcome out{RunApply(*side, in)};
                            const bool full{out.oneshot == expected && out.twice == in.data && out.chunked == out.oneshot &&
                                            out.key == original_key && out.key.GivesBack(key)};
                            if (fast != full) FAIL("length " << len << " offset " << offset << " align " << align << ": hot path " << fast << ", full check " << full);
                            failed += full ? 0 : 1;
                        }
                    }
                }
            }
        }
        // Our sides pass everywhere; each planted bug fails somewhere, so both verdicts were seen.
        CHECK((failed == 0) == (side == &original_side() || side == &optimized_side()));
    }
}
