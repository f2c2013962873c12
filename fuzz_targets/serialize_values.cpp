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

    std::vector<SideResult> written;
    for (const auto& [label, side] : Sides()) written.push_back({label, SerializeOutcome(*side, value)});
    Compare(describe, written);

    const Bytes bytes{original_side().serialize(value)};
    for (const auto& [label, side] : Sides()) {
        const uint64_t size{side->serialized_size(value)};
        Require(size == bytes.size(), "GetSerializeSize == bytes written", describe,
                Outcome{}.Add("side", label).Add("size", size).Add("written", uint64_t{bytes.size()}));
    }

    std::vector<Decoded> decoded;
    std::vector<SideResult> read;
    for (const auto& [label, side] : Sides()) {
        decoded.push_back(side->deserialize(value.index(), bytes));
        read.push_back({label, DecodeOutcome(decoded.back())});
    }
    Compare([&] { return DescribeDecode(value.index(), bytes); }, read);
    if (RoundTrips(value)) {
        const Decoded& original{decoded.front()};
        const bool same{original.value && original.consumed == bytes.size() && Dump(*original.value) == Dump(value)};
        Require(same, "reading the serialization back gives the value", describe, DecodeOutcome(original));
    }
}
