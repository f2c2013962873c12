// script_signed: standard spends (P2PK, P2PKH, multisig, P2WPKH; bare, P2SH, P2WSH, P2SH-P2WSH)
// carrying valid ECDSA signatures over the signature hash our model computes, sometimes spoiled,
// verified with the real checker by the 520 side, Variant G and Variant T (all elements are small,
// so the three must agree exactly) and, when the Core oracle is built, by Bitcoin Core 26.0, whose
// verdict the 520 side must equal. See script/signed.h.
#include <equifuzz/harness.h>
#include <script/signed.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(script_signed)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    script::RunAndCheckSigned(script::DecodeSignedSpend(fdp));
}
