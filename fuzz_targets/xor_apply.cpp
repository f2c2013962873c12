// xor_apply: byte-wise util::Xor versus the 64-bit Obfuscation on one buffer.
// The decoder varies what reaches the optimized side's fast paths: the key (zero key included),
// the key offset (every residue mod 8), where the data starts (every address residue mod 8),
// the length (biased to multiples of 8 plus or minus a few, up to 600 bytes: the 64-byte blocks,
// the words and the tail) and a chunk schedule with running offsets.
#include <equifuzz/harness.h>
#include <xor/pair.h>

#include <algorithm>
#include <vector>

using namespace equifuzz;

EQUIFUZZ_TARGET(xor_apply)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const xorpair::ApplyInput in{xorpair::DecodeApply(fdp)};
    const auto desc{[&] { return xorpair::Describe(in); }};

    // What every side must give: the definition, data[i] ^ key[(offset + i) mod 8], and the
    // original side's key round trip, which must give the key back.
    const Bytes expected{xorpair::Definition(in)};
    const xorpair::KeyRoundTrip key{xorpair::RunKeyRoundTrip(xorpair::original_side(), in.key)};

    // The hot path: every side of this build (ours, and Bitcoin Core's util::Xor and Obfuscation
    // when built) checked against them where its results lie. It passes exactly when the full
    // check below would, and keeps no copy of the data; anything else goes to the full check,
    // which reports.
    // (A run that lists the field names takes the full check, which names them.)
    const auto as_defined{[&](const auto& s) { return xorpair::AppliesAsDefined(*s.side, in, expected, key); }};
    const bool hot_path_passes{key.GivesBack(in.key) && std::ranges::all_of(xorpair::Sides(), as_defined)};
    if (hot_path_passes && !ListingFieldNames()) return;

    // The full check: every side's outcome kept, compared across sides, then each side's
    // properties (they catch a bug all sides share), then the definition.
    const auto outs{EachSide(xorpair::Sides(), [&](const xorpair::Side& side) { return xorpair::RunApply(side, in); })};
    Compare(desc, outs);
    for (const auto& [label, out] : outs) {
        RequireOf(label, out.chunked == out.oneshot, "chunked-equals-oneshot", desc, out);
        RequireOf(label, out.twice == in.data, "involution", desc, out);
        RequireOf(label, out.key.GivesBack(in.key), "key-round-trip", desc, out);
    }
    Require(outs.front().result.oneshot == expected, "matches-definition", desc, outs.front().result);
    // If the full check passed where the hot path did not: a side that answered differently when
    // run again, or the two checks no longer the same. Either is a finding.
    Require(InputHasFindings() != hot_path_passes, "hot-path-verdict-reproduced", desc);
}
