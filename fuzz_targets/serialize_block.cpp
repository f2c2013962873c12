// serialize_block: a whole block, either raw bytes (first input byte even; the rest is the block,
// as in a block file) or composed from fuzz choices (odd). Both sides must read it the same way;
// an accepted block must re-serialize to exactly the bytes read, sizes must match, and block
// hash, txids and wtxids computed from each side's bytes must agree.
#include <equifuzz/harness.h>
#include <serialize/pair.h>

using namespace equifuzz;
using namespace equifuzz::serialize;

namespace {

void CheckBlock(const Block& block, const Description& description)
{
    const serialize::Value value{block};
    Compare(description, {{"original", SerializeOutcome(original_side(), value)},
                          {"optimized", SerializeOutcome(optimized_side(), value)}});
    Compare(description, {{"original", BlockHashes(original_side(), block)}, {"optimized", BlockHashes(optimized_side(), block)}});
    const Bytes bytes{original_side().serialize(value)};
    for (const Side* side : {&original_side(), &optimized_side()}) {
        const uint64_t size{side->serialized_size(value)};
        Require(size == bytes.size(), "GetSerializeSize == bytes written", description,
                Outcome{}.Add("side", side->name).Add("size", size).Add("written", uint64_t{bytes.size()}));
    }
}

} // namespace

EQUIFUZZ_TARGET(serialize_block)
{
    if (input.empty()) return;
    if ((input[0] & 1) == 0) {
        const std::span<const uint8_t> raw{input.subspan(1)};
        const Description description{DescribeDecode(KIND_BLOCK, raw)};
        const Decoded original{original_side().deserialize(KIND_BLOCK, raw)};
        const Decoded optimized{optimized_side().deserialize(KIND_BLOCK, raw)};
        Compare(description, {{"original", DecodeOutcome(original)}, {"optimized", DecodeOutcome(optimized)}});
        if (!original.value) return;
        const Block& block{std::get<Block>(*original.value)};
        const Bytes again{optimized_side().serialize(*original.value)};
        Require(ReserializesTo(*original.value, raw.first(original.consumed), again), "re-serializing gives the bytes read",
                description, Outcome{}.Add("reserialized", again));
        CheckBlock(block, description);
        return;
    }
    FuzzedDataProvider fdp{input.data() + 1, input.size() - 1};
    const serialize::Value value{BuildValueOfKind(fdp, KIND_BLOCK)};
    const Description description{Describe(value)};
    CheckBlock(std::get<Block>(value), description);
    const Bytes bytes{original_side().serialize(value)};
    const Decoded original{original_side().deserialize(KIND_BLOCK, bytes)};
    const Decoded optimized{optimized_side().deserialize(KIND_BLOCK, bytes)};
    Compare(DescribeDecode(KIND_BLOCK, bytes), {{"original", DecodeOutcome(original)}, {"optimized", DecodeOutcome(optimized)}});
    if (RoundTrips(value)) {
        const bool same{original.value && original.consumed == bytes.size() && Dump(*original.value) == Dump(value)};
        Require(same, "reading the serialization back gives the block", description, DecodeOutcome(original));
    }
}
