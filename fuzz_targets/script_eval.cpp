// script_eval: raw script bytes run by the interpreter at 520 bytes, Variant G (8000 everywhere)
// and Variant T (BIP-360 tapscript), as EvalScript or as ExecuteWitnessScript (witness v0 or
// tapscript, with the initial-stack checks), on a small initial stack whose items are often at
// the sizes that matter (520, 521, 8000). The relations between the three are in script/pair.h.
#include <equifuzz/harness.h>
#include <script/core_side.h>
#include <script/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(script_eval)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const script::EvalInput in{script::DecodeEvalRaw(fdp)};
    script::RunAndCheckEval(in, [&] { return script::Describe(in); });
    // Third side: Bitcoin Core 26.0's verifier on the same script, wrapped in a spend (when built).
    script::CheckAgainstCore(script::EvalAsSpend(in), script::ConsumeCoreContext(fdp));
}
