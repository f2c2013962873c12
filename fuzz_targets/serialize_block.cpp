// serialize_block: a whole block, either raw bytes (first input byte even; the rest is the block,
// as in a block file) or composed from fuzz choices (odd). Every side (ours, and Bitcoin Core's
// from two trees when built) must read it the same way; an accepted block must re-serialize to
// exactly the bytes read, sizes must match, and block hash, txids and wtxids computed from each
// side's bytes must agree.
#include <equifuzz/harness.h>
#include <serialize/pair.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::serialize;

namespace {

//! Every side writes the block: the same bytes, a size computer that counts them, and the same
//! block hash, txids and wtxids from its own serialization.
void CheckWrites(const Block& block, const DescribeFn& describe)
{
    const serialize::Value value{block};
    std::vector<Labeled<Written>> written;
    std::vector<Labeled<BlockIds>> ids;
    written.reserve(Sides().size());
    ids.reserve(Sides().size());
    for (const auto& [label, side, role] : Sides()) {
        written.push_back({LabelOf(label, role), Write(*side, value)});
        ids.push_back({LabelOf(label, role), BlockIdsOf(*side, block)});
    }
    Compare(describe, written);
    Compare(describe, ids);
    const Bytes& bytes{written.front().result.bytes};
    for (const auto& w : written) { // not a structured binding: the lambda captures it (clang 16+)
        RequireOf(w.label, w.result.size == bytes.size(), "GetSerializeSize == bytes written", describe,
                  [&] { return Outcome{}.Add("size", w.result.size).Add("written", uint64_t{bytes.size()}); });
    }
}

} // namespace

EQUIFUZZ_TARGET(serialize_block)
{
    if (input.empty()) return;
    if ((input[0] & 1) == 0) {
        // Raw bytes: every side reads them alike; an accepted block re-serializes to the bytes read.
        const std::span<const uint8_t> raw{input.subspan(1)};
        const DescribeFn describe{[&] { return DescribeDecode(KIND_BLOCK, raw); }};
        const std::vector<Decoded> decoded{DecodeEverywhere(KIND_BLOCK, raw, describe)};
        const Decoded& original{decoded.front()};
        if (!original.value) return;
        const Bytes again{optimized_side().serialize(*original.value)};
        Require(ReserializesTo(*original.value, raw.first(original.consumed), again), "re-serializing gives the bytes read",
                describe, [&] { return Outcome{}.Add("reserialized", again); });
        CheckWrites(std::get<Block>(*original.value), describe);
        return;
    }
    // A composed block: written alike everywhere, read back alike, to itself where it round-trips.
    FuzzedDataProvider fdp{input.data() + 1, input.size() - 1};
    const serialize::Value value{BuildValueOfKind(fdp, KIND_BLOCK)};
    const DescribeFn describe{[&] { return Describe(value); }};
    CheckWrites(std::get<Block>(value), describe);
    const Bytes bytes{original_side().serialize(value)};
    const std::vector<Decoded> decoded{DecodeEverywhere(KIND_BLOCK, bytes, [&] { return DescribeDecode(KIND_BLOCK, bytes); })};
    if (RoundTrips(value)) {
        const Decoded& original{decoded.front()};
        const bool same{original.value && original.consumed == bytes.size() && ReadsBackAs(*original.value, value)};
        Require(same, "reading the serialization back gives the block", describe, original);
    }
}
