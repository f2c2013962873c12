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
