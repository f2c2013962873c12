// serialize_decode: the first byte picks a kind, the rest is a byte string both deserializers
// read from a DataStream. Both must accept with the same value and the same bytes consumed, or
// both reject with the same message (non-canonical / too large CompactSize, VarInt overflow, end
// of data, superfluous witness, unknown optional data) at the same position. What was accepted
// must re-serialize, on each side, to exactly the bytes consumed (a bool to 01 from any non-zero).
#include <equifuzz/harness.h>
#include <serialize/pair.h>

using namespace equifuzz;
using namespace equifuzz::serialize;

EQUIFUZZ_TARGET(serialize_decode)
{
    if (input.empty()) return;
    const size_t kind{input[0] % KIND_COUNT};
    const std::span<const uint8_t> bytes{input.subspan(1)};
    const Description description{DescribeDecode(kind, bytes)};
    const Decoded original{original_side().deserialize(kind, bytes)};
    const Decoded optimized{optimized_side().deserialize(kind, bytes)};
    Compare(description, {{"original", DecodeOutcome(original)}, {"optimized", DecodeOutcome(optimized)}});

    for (const auto& [side, decoded] : {std::pair{&original_side(), &original}, std::pair{&optimized_side(), &optimized}}) {
        if (!decoded->value) continue;
        const Bytes again{side->serialize(*decoded->value)};
        const uint64_t size{side->serialized_size(*decoded->value)};
        const auto consumed{bytes.first(decoded->consumed)};
        Require(ReserializesTo(*decoded->value, consumed, again), "re-serializing gives the consumed bytes", description,
                Outcome{}.Add("side", side->name).Add("reserialized", again));
        Require(size == again.size(), "GetSerializeSize == bytes written", description,
                Outcome{}.Add("side", side->name).Add("size", size).Add("written", uint64_t{again.size()}));
    }
}
