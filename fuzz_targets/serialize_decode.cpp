// serialize_decode: the first byte picks a kind, the rest is a byte string every deserializer
// (ours, and Bitcoin Core's from two trees when built) reads from a DataStream. All must accept
// with the same value and the same bytes consumed, or all reject with the same message
// (non-canonical / too large CompactSize, VarInt overflow, end of data, superfluous witness,
// unknown optional data) at the same position. What was accepted must re-serialize, on each
// side, to exactly the bytes consumed (a bool to 01 from any non-zero).
#include <equifuzz/harness.h>
#include <serialize/pair.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::serialize;

EQUIFUZZ_TARGET(serialize_decode)
{
    if (input.empty()) return;
    const size_t kind{input[0] % KIND_COUNT};
    const std::span<const uint8_t> bytes{input.subspan(1)};
    const auto describe{[&] { return DescribeDecode(kind, bytes); }};

    std::vector<Decoded> decoded;
    std::vector<SideResult> read;
    for (const auto& [label, side] : Sides()) {
        decoded.push_back(side->deserialize(kind, bytes));
        read.push_back({label, DecodeOutcome(decoded.back())});
    }
    Compare(describe, read);

    for (size_t i = 0; i < decoded.size(); ++i) {
        if (!decoded[i].value) continue;
        const auto& [label, side] {Sides()[i]};
        const Bytes again{side->serialize(*decoded[i].value)};
        const uint64_t size{side->serialized_size(*decoded[i].value)};
        const auto consumed{bytes.first(decoded[i].consumed)};
        Require(ReserializesTo(*decoded[i].value, consumed, again), "re-serializing gives the consumed bytes", describe,
                Outcome{}.Add("side", label).Add("reserialized", again));
        Require(size == again.size(), "GetSerializeSize == bytes written", describe,
                Outcome{}.Add("side", label).Add("size", size).Add("written", uint64_t{again.size()}));
    }
}
