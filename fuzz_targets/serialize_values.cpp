// serialize_values: a value of a fuzz-chosen kind (every integer width, bool, CompactSize, VarInt,
// uint256, byte vectors, vectors of vectors, scripts, outpoints, inputs, outputs, transactions
// with and without witness, headers, blocks). Every side (our generic and specialized
// serializers, and Bitcoin Core's from two trees when built) must write the same bytes, each size
// computer must count exactly the bytes its side writes, and every deserializer must read those
// bytes the same way (back to the value itself where the format round-trips).
#include <equifuzz/harness.h>
#include <serialize/pair.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::serialize;

EQUIFUZZ_TARGET(serialize_values)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const serialize::Value value{BuildValue(fdp)};
    const auto describe{[&] { return Describe(value); }};

    // Every side writes the value: the same bytes, and a size computer that counts them.
    const auto written{EachSide(Sides(), [&](const Side& side) { return Write(side, value); })};
    Compare(describe, written);
    const Bytes& bytes{written.front().result.bytes};
    for (const Labeled<Written>& w : written) { // not a structured binding: the lambda captures it (clang 16+)
        RequireOf(w.label, w.result.size == bytes.size(), "GetSerializeSize == bytes written", describe,
                  [&] { return Outcome{}.Add("size", w.result.size).Add("written", uint64_t{bytes.size()}); });
    }

    // Every side reads those bytes back the same way; to the value itself where the format round-trips.
    const std::vector<Decoded> decoded{DecodeEverywhere(value.index(), bytes, [&] { return DescribeDecode(value.index(), bytes); })};
    if (RoundTrips(value)) {
        const Decoded& original{decoded.front()};
        const bool same{original.value && original.consumed == bytes.size() && ReadsBackAs(*original.value, value)};
        Require(same, "reading the serialization back gives the value", describe, original);
    }
}
