// xor_apply: byte-wise util::Xor versus the 64-bit Obfuscation on one buffer.
// The decoder varies what reaches the optimized side's fast paths: the key (zero key included),
// the key offset (every residue mod 8), where the data starts (every address residue mod 8),
// the length (biased to multiples of 8 plus or minus a few, up to 600 bytes: the 64-byte blocks,
// the words and the tail) and a chunk schedule with running offsets.
#include <equifuzz/harness.h>
#include <xor/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(xor_apply)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const xorpair::ApplyInput in{xorpair::DecodeApply(fdp)};
    const auto desc{[&] { return xorpair::Describe(in); }};

    const auto original{xorpair::RunApply(xorpair::original_side(), in)};
    const auto optimized{xorpair::RunApply(xorpair::optimized_side(), in)};
    Compare(desc, {{"original", original.ToOutcome()}, {"optimized", optimized.ToOutcome()}});

    // Properties each side must have on its own (they catch a bug both sides share).
    for (const auto* side : {&original, &optimized}) {
        Require(side->chunked == side->oneshot, "chunked-equals-oneshot", desc, side->ToOutcome());
        Require(side->twice == in.data, "involution", desc, side->ToOutcome());
        Require(side->key_reparsed.error.empty() && side->key_reparsed.key == Bytes(reinterpret_cast<const uint8_t*>(in.key.data()),
                                                                                    reinterpret_cast<const uint8_t*>(in.key.data()) + in.key.size()),
                "key-round-trip", desc, side->ToOutcome());
    }
    // And the definition itself: data[i] ^ key[(offset + i) mod 8].
    Bytes expected{in.data};
    for (size_t i = 0; i < expected.size(); ++i) {
        expected[i] ^= static_cast<uint8_t>(in.key[(in.key_offset + i) % xorpair::KEY_SIZE]);
    }
    Require(original.oneshot == expected, "matches-definition", desc, original.ToOutcome());
}
