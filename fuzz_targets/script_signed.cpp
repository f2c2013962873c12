// script_signed: standard spends carrying valid signatures over the signature hash our model
// computes: ECDSA (P2PK, P2PKH, multisig, P2WPKH; bare, P2SH, P2WSH, P2SH-P2WSH) and Schnorr
// (taproot key path and script path, CHECKSIG and CHECKSIGADD leaves), sometimes spoiled,
// verified with the real checker by the 520 side, Variant G and Variant T (all elements are small,
// so the three must agree exactly) and, when the Core oracle is built, by Bitcoin Core 26.0, whose
// verdict the 520 side must equal. See script/signed.h.
#include <equifuzz/harness.h>
#include <script/pair.h>
#include <script/signed.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(script_signed)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const script::SignedSpend in{script::DecodeSignedSpend(fdp)};
    const auto desc{[&] { return script::Describe(in); }};

    // Our three configurations with the real checker over the spend's transaction: every element
    // is small, so they must agree exactly.
    const Transaction tx{script::CoreSpendingTransaction(in.spend, in.ctx)};
    const script::TransactionChecker checker{tx, 0, in.ctx.amount, {TxOut{in.ctx.amount, in.spend.script_pubkey}}};
    const script::VerifyResult o{script::original_side().verify(in.spend, checker)};   // 520 everywhere
    const script::VerifyResult g{script::optimized_side().verify(in.spend, checker)};  // Variant G: 8000
    const script::VerifyResult t{script::variant_t_side().verify(in.spend, checker)};  // Variant T: BIP-360
    Compare(desc, {{Model("520"), o}, {Model("G"), g}, {Model("T"), t}});
    // Bitcoin Core 26.0's verifier (when built): the 520 side's verdict must be Core's.
    script::CheckAgainstCore(in.spend, in.ctx);
}
