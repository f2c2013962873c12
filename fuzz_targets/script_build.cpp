// script_build: structure-aware scripts (sized pushes in every push form, minimal and non-minimal
// numbers, conditionals, the duplicating opcodes, hashes, signature and lock-time opcodes,
// truncated pushes) run by the 520 side, Variant G and Variant T; relations in script/pair.h.
#include <equifuzz/harness.h>
#include <script/core_side.h>
#include <script/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(script_build)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const script::EvalInput in{script::DecodeEvalBuilt(fdp)};
    script::RunAndCheckEval(in, [&] { return script::Describe(in); });
    // Third side: Bitcoin Core 26.0's verifier on the same script, wrapped in a spend (when built).
    script::CheckAgainstCore(script::EvalAsSpend(in), script::ConsumeCoreContext(fdp));
}
