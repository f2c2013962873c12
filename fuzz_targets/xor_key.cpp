// xor_key: reading a serialized obfuscation key (CompactSize length + bytes), and writing it back.
// Both sides must accept the same 8-byte keys, consume the same bytes, reserialize them byte for
// byte and print the same hex, and fail with the same message on malformed input. The one
// difference the spec allows is checked exactly: a key of another length is kept by the original
// and refused by the optimized side with "Obfuscation key size should be exactly 8 bytes long".
#include <equifuzz/harness.h>
#include <xor/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(xor_key)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const xorpair::KeyInput in{xorpair::DecodeKey(fdp)};
    const auto desc{[&] { return xorpair::Describe(in); }};

    const auto original{xorpair::RunKey(xorpair::original_side(), in)};
    const auto optimized{xorpair::RunKey(xorpair::optimized_side(), in)};
    if (original.AcceptedOtherLength()) {
        Require(optimized.parse.error == xorpair::KEY_SIZE_ERROR, "optimized-refuses-non-8-byte-key", desc, optimized.ToOutcome());
        return;
    }
    Compare(desc, {{"original", original.ToOutcome()}, {"optimized", optimized.ToOutcome()}});
    if (original.parse.error.empty()) {
        // The bytes consumed are exactly the key's serialized form.
        Require(original.reserialized == Bytes(in.serialized.begin(), in.serialized.begin() + original.parse.consumed),
                "reserialize-gives-consumed-bytes", desc, original.ToOutcome());
    }
}
