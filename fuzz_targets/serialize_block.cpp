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

void CheckBlock(const Block& block, const DescribeFn& describe)
{
    const serialize::Value value{block};
    std::vector<SideResult> written, hashes;
    for (const auto& [label, side] : Sides()) {
        written.push_back({label, SerializeOutcome(*side, value)});
        hashes.push_back({label, BlockHashes(*side, block)});
    }
    Compare(describe, written);
    Compare(describe, hashes);
    const Bytes bytes{original_side().serialize(value)};
    for (const auto& [label, side] : Sides()) {
        const uint64_t size{side->serialized_size(value)};
        Require(size == bytes.size(), "GetSerializeSize == bytes written", describe,
                Outcome{}.Add("side", label).Add("size", size).Add("written", uint64_t{bytes.size()}));
    }
}

//! Every side reads `bytes` as a block; returns what the first (our original) read.
Decoded ReadBlockEverywhere(std::span<const uint8_t> bytes, const DescribeFn& describe)
{
    std::vector<Decoded> decoded;
    std::vector<SideResult> read;
    for (const auto& [label, side] : Sides()) {
        decoded.push_back(side->deserialize(KIND_BLOCK, bytes));
        read.push_back({label, DecodeOutcome(decoded.back())});
    }
    Compare(describe, read);
    return decoded.front();
}

} // namespace

EQUIFUZZ_TARGET(serialize_block)
{
    if (input.empty()) return;
    if ((input[0] & 1) == 0) {
        const std::span<const uint8_t> raw{input.subspan(1)};
        const DescribeFn describe{[&] { return DescribeDecode(KIND_BLOCK, raw); }};
        const Decoded original{ReadBlockEverywhere(raw, describe)};
        if (!original.value) return;
        const Bytes again{optimized_side().serialize(*original.value)};
        Require(ReserializesTo(*original.value, raw.first(original.consumed), again), "re-serializing gives the bytes read",
                describe, Outcome{}.Add("reserialized", again));
        CheckBlock(std::get<Block>(*original.value), describe);
        return;
    }
    FuzzedDataProvider fdp{input.data() + 1, input.size() - 1};
    const serialize::Value value{BuildValueOfKind(fdp, KIND_BLOCK)};
    const DescribeFn describe{[&] { return Describe(value); }};
    CheckBlock(std::get<Block>(value), describe);
    const Bytes bytes{original_side().serialize(value)};
    const Decoded original{ReadBlockEverywhere(bytes, [&] { return DescribeDecode(KIND_BLOCK, bytes); })};
    if (RoundTrips(value)) {
        const bool same{original.value && original.consumed == bytes.size() && Dump(*original.value) == Dump(value)};
        Require(same, "reading the serialization back gives the block", describe, DecodeOutcome(original));
    }
}
