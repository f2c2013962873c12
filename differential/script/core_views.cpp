// The script pair's Bitcoin Core sides, when built: what Core's EvalScript and VerifyScript make
// observable, compared with the model each must equal (Core as it is with our 520 side, Core at
// 8000-byte elements with Variant G).
#include "pair.h"
#include "pair_parts.h"

#include "crypto.h"

namespace equifuzz::script {
namespace {

//! What Bitcoin Core's EvalScript makes observable: the result, the error code and the stack it
//! leaves (not after ExecuteWitnessScript, which runs on a copy). Our sides are compared on the
//! same fields.
struct EvalCoreView {
    const EvalResult* r;
    bool with_stack;
    bool operator==(const EvalCoreView& o) const
    {
        return r->ok == o.r->ok && r->error == o.r->error && (!with_stack || r->stack == o.r->stack);
    }
    Outcome ToOutcome() const
    {
        Outcome o;
        o.Add("ok", r->ok).Add("error", ErrorName(r->error));
        if (with_stack) AddStack(o, "stack", r->stack);
        return o;
    }
};

struct VerifyCoreView {
    const VerifyResult* r;
    bool operator==(const VerifyCoreView& o) const { return r->ok == o.r->ok && r->error == o.r->error; }
    Outcome ToOutcome() const { return Outcome{}.Add("ok", r->ok).Add("error", ErrorName(r->error)); }
};

//! The Core sides this build has, each beside the model that must equal it: Core as it is beside
//! our 520 side, Core at 8000-byte elements beside Variant G. A tree older than one of the changes
//! of error codes (Side::error_codes) is compared with the model run again in that tree's codes,
//! and the report's label says so.
template <typename Result, typename Run>
void CompareWithCore(const DescribeFn& desc, const Result& ours_520, const Result& ours_g, Run run, auto view)
{
    for (const auto& [label, side, role] : Sides()) {
        if (!IsCore(role)) continue;
        const bool core_original{role == Role::CORE_ORIGINAL};
        const Result core{run(*side)};
        const ErrorCodes* codes{side->error_codes ? side->error_codes() : nullptr};
        if (codes && *codes != ErrorCodes{}) {
            const ScopedErrorCodes in_tree_codes{*codes};
            const Result model{run(core_original ? original_side() : optimized_side())};
            Compare(desc, {{Model(core_original ? "520 in tree codes" : "G in tree codes"), view(model)}, {LabelOf(label, role), view(core)}});
        } else {
            Compare(desc, {{Model(core_original ? "520" : "G"), view(core_original ? ours_520 : ours_g)}, {LabelOf(label, role), view(core)}});
        }
    }
}

} // namespace

void CompareEvalWithCore(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const Checker& checker)
{
    CompareWithCore(desc, o, g, [&](const Side& side) { return side.eval(in, checker); },
                    [&](const EvalResult& r) { return EvalCoreView{&r, !in.as_witness_script}; });
}

void CompareSpendWithCore(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const Checker& checker)
{
    CompareWithCore(desc, o, g, [&](const Side& side) { return side.verify(in, checker); },
                    [](const VerifyResult& r) { return VerifyCoreView{&r}; });
}

} // namespace equifuzz::script
