// xor_key: reading a serialized obfuscation key (CompactSize length + bytes), and writing it back.
// Both sides must accept the same 8-byte keys, consume the same bytes, reserialize them byte for
// byte and print the same hex, and fail with the same message on malformed input. The one
// difference the spec allows is checked exactly: a key of another length is kept by the original
// and refused by the optimized side with "Obfuscation key size should be exactly 8 bytes long".
// Bitcoin Core's own code joins each group: util::Xor's vector key (kernel 0.0.20) keeps it,
// Obfuscation (kernel 0.1.1) refuses it.
#include <equifuzz/harness.h>
#include <xor/pair.h>

#include <algorithm>
#include <span>
#include <vector>

using namespace equifuzz;

EQUIFUZZ_TARGET(xor_key)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const xorpair::KeyInput in{xorpair::DecodeKey(fdp)};
    const auto desc{[&] { return xorpair::Describe(in); }};

    // A key of another length is kept by the pre-#31144 sides (ours and Core's util::Xor era)
    // and refused, with the exact message, by the others; the sides of each group must agree.
    const auto original{xorpair::RunKey(xorpair::original_side(), in)};
    const bool other_length{original.AcceptedOtherLength()};
    std::vector<Labeled<xorpair::KeyOutcome>> results;
    results.reserve(xorpair::Sides().size());
    for (const auto& [label, side, role] : xorpair::Sides()) {
        auto out{xorpair::RunKey(*side, in)};
        if (other_length && !side->keeps_any_key_length) {
            RequireOf(LabelOf(label, role), out.parse.error == xorpair::KEY_SIZE_ERROR, "refuses-non-8-byte-key", desc, out);
        } else {
            results.push_back({LabelOf(label, role), std::move(out)});
        }
    }
    Compare(desc, results);
    if (original.parse.error.empty() && !other_length) {
        // The bytes consumed are exactly the key's serialized form.
        Require(original.parse.consumed <= in.serialized.size() &&
                    std::ranges::equal(original.reserialized, std::span{in.serialized}.first(original.parse.consumed)),
                "reserialize-gives-consumed-bytes", desc, original);
    }
}
