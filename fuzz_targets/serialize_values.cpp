// serialize_values: a value of a fuzz-chosen kind (every integer width, bool, CompactSize, VarInt,
// uint256, byte vectors, vectors of vectors, scripts, outpoints, inputs, outputs, transactions
// with and without witness, headers, blocks). Both serializers must write the same bytes, each
// size computer must count exactly the bytes its side writes, and both deserializers must read
// those bytes the same way (back to the value itself where the format round-trips).
#include <equifuzz/harness.h>
#include <serialize/pair.h>

using namespace equifuzz;
using namespace equifuzz::serialize;

EQUIFUZZ_TARGET(serialize_values)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const serialize::Value value{BuildValue(fdp)};
    const Description description{Describe(value)};
    Compare(description, {{"original", SerializeOutcome(original_side(), value)},
                          {"optimized", SerializeOutcome(optimized_side(), value)}});

    const Bytes bytes{original_side().serialize(value)};
    for (const Side* side : {&original_side(), &optimized_side()}) {
        const uint64_t size{side->serialized_size(value)};
        Require(size == bytes.size(), "GetSerializeSize == bytes written", description,
                Outcome{}.Add("side", side->name).Add("size", size).Add("written", uint64_t{bytes.size()}));
    }

    const Decoded original{original_side().deserialize(value.index(), bytes)};
    const Decoded optimized{optimized_side().deserialize(value.index(), bytes)};
    Compare(DescribeDecode(value.index(), bytes), {{"original", DecodeOutcome(original)}, {"optimized", DecodeOutcome(optimized)}});
    if (RoundTrips(value)) {
        const bool same{original.value && original.consumed == bytes.size() && Dump(*original.value) == Dump(value)};
        Require(same, "reading the serialization back gives the value", description, DecodeOutcome(original));
    }
}
