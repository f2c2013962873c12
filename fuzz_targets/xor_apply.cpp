// xor_apply: byte-wise util::Xor versus the 64-bit Obfuscation on one buffer.
// The decoder varies what reaches the optimized side's fast paths: the key (zero key included),
// the key offset (every residue mod 8), where the data starts (every address residue mod 8),
// the length (biased to multiples of 8 plus or minus a few, up to 600 bytes: the 64-byte blocks,
// the words and the tail) and a chunk schedule with running offsets.
#include <equifuzz/harness.h>
#include <xor/pair.h>

#include <algorithm>
#include <span>
#include <vector>

using namespace equifuzz;

EQUIFUZZ_TARGET(xor_apply)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const xorpair::ApplyInput in{xorpair::DecodeApply(fdp)};
    const auto desc{[&] { return xorpair::Describe(in); }};

    // Every side of this build: ours, and Bitcoin Core's util::Xor and Obfuscation when built.
    const auto outs{EachSide(xorpair::Sides(), [&](const xorpair::Side& side) { return xorpair::RunApply(side, in); })};
    Compare(desc, outs);

    // Properties each side must have on its own (they catch a bug all sides share).
    const std::span key_bytes{reinterpret_cast<const uint8_t*>(in.key.data()), in.key.size()};
    for (const auto& [label, out] : outs) {
        RequireOf(label, out.chunked == out.oneshot, "chunked-equals-oneshot", desc, out);
        RequireOf(label, out.twice == in.data, "involution", desc, out);
        RequireOf(label, out.key_reparsed.error.empty() && std::ranges::equal(out.key_reparsed.key, key_bytes), "key-round-trip", desc, out);
    }
    // And the definition itself: data[i] ^ key[(offset + i) mod 8].
    Bytes expected{in.data};
    for (size_t i = 0; i < expected.size(); ++i) {
        expected[i] ^= static_cast<uint8_t>(in.key[(in.key_offset + i) % xorpair::KEY_SIZE]);
    }
    Require(outs.front().result.oneshot == expected, "matches-definition", desc, outs.front().result);
}
