// script_spend: whole spends through VerifyScript (bare, P2SH, P2WSH, P2SH-P2WSH, P2WPKH,
// P2SH-P2WPKH, raw) with witness stacks, at 520, Variant G and Variant T, then flag
// monotonicity on the 520 side (removing flags keeps a pass, adding flags keeps a failure), and
// (when built) Bitcoin Core's verdict on the same spend, which the 520 side must equal.
#include <equifuzz/harness.h>
#include <script/core_side.h>
#include <script/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(script_spend)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const script::SpendInput in{script::DecodeSpend(fdp)};
    const uint32_t toggle{script::ConsumeFlagToggle(fdp)};
    const auto desc{[&] { return script::Describe(in); }};

    // Our three configurations of one interpreter, with a deterministic fake signature checker.
    const script::FakeChecker checker;
    const script::VerifyResult o{script::original_side().verify(in, checker)};   // 520 everywhere
    const script::VerifyResult g{script::optimized_side().verify(in, checker)};  // Variant G: 8000
    const script::VerifyResult t{script::variant_t_side().verify(in, checker)};  // Variant T: BIP-360
    // Bitcoin Core's VerifyScript at 520 and at 8000 (when built): result and error code.
    script::CompareSpendWithCore(in, desc, o, g, checker);
    script::CheckSpendRelations(in, desc, o, g, t);
    script::CheckFlagMonotonicity(in, toggle, desc, o, checker);
    // Bitcoin Core 26.0's verifier in a real transaction (when built).
    script::CheckAgainstCore(in, script::ConsumeCoreContext(fdp));
}

// One mutation in four writes a P2SH-wrapped witness spend, its scriptSig sometimes malleated
// (script::MutateSpend); the others are libFuzzer's.
EQUIFUZZ_MUTATOR(script_spend, 4)
{
    return script::MutateSpend(m);
}
