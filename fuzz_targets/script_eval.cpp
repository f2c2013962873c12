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
    const auto desc{[&] { return script::Describe(in); }};

    // Our three configurations of one interpreter, with a deterministic fake signature checker.
    const script::FakeChecker checker;
    const script::EvalResult o{script::original_side().eval(in, checker)};   // 520 everywhere
    const script::EvalResult g{script::optimized_side().eval(in, checker)};  // Variant G: 8000
    const script::EvalResult t{script::variant_t_side().eval(in, checker)};  // Variant T: BIP-360
    script::CheckEvalRelations(in, desc, o, g, t);
    // Bitcoin Core's interpreter at 520 and at 8000 (when built): result, error code, final stack.
    script::CompareEvalWithCore(in, desc, o, g, checker);
    // Bitcoin Core 26.0's verifier on the same script, wrapped in a spend (when built).
    script::CheckAgainstCore(script::EvalAsSpend(in), script::ConsumeCoreContext(fdp));
}

// One mutation in two changes the decoded input: a push of a length that matters, an opcode or a
// number between whole operations, the script version, a flag, an initial stack item (script::MutateEval).
EQUIFUZZ_MUTATOR(script_eval, 2)
{
    return script::MutateEval(m);
}
