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

    // Every side reads the bytes: the same value and bytes consumed, or the same error.
    const std::vector<Decoded> decoded{DecodeEverywhere(kind, bytes, describe)};

    // What a side accepted, it writes back as the bytes it consumed, and sizes exactly.
    for (size_t i = 0; i < decoded.size(); ++i) {
        if (!decoded[i].value) continue;
        const auto& [label, side, role] {Sides()[i]};
        const Written again{Write(*side, *decoded[i].value)};
        RequireOf(LabelOf(label, role), ReserializesTo(*decoded[i].value, bytes.first(decoded[i].consumed), again.bytes),
                  "re-serializing gives the consumed bytes", describe, [&] { return Outcome{}.Add("reserialized", again.bytes); });
        RequireOf(LabelOf(label, role), again.size == again.bytes.size(), "GetSerializeSize == bytes written", describe, again);
    }
}

// One mutation in eight inserts a CompactSize-prefixed byte string (serialize::InsertSizedBytes).
EQUIFUZZ_MUTATOR(serialize_decode, 8)
{
    return serialize::InsertSizedBytes(m);
}
