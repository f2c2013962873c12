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
    script::RunAndCheckSpend(in, fdp, [&] { return script::Describe(in); });
    // Third side: Bitcoin Core 26.0's verifier in a real transaction (when built).
    script::CheckAgainstCore(in, script::ConsumeCoreContext(fdp));
}
