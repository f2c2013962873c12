// The prevector pair's results as report fields and its properties: every side agrees with the
// oracle, each side's storage follows the capacity model of its inline size, operator< orders by
// size first, and the containers' sizes are those of the two inline capacities.
#include "pair.h"

#include <algorithm>
#include <string>

namespace equifuzz::prevec {

Outcome OpsResult::ToOutcome() const
{
    Outcome o;
    o.Add("trace", trace).Add("final_a", final_a).Add("final_b", final_b).Add("serialized_a", serialized_a);
    o.Add("self_check", inconsistency);
    return o;
}

Outcome StorageMismatch(const std::vector<StorageState>& seen, const std::vector<StorageState>& model, const OpProgram& program)
{
    Outcome o;
    size_t i{0};
    while (i < seen.size() && i < model.size() && seen[i] == model[i]) ++i;
    o.Add("first_differing_op", i);
    if (i < program.size()) o.Add("op", OpText(program[i]));
    const auto add = [&](const char* who, const std::vector<StorageState>& v) {
        if (i >= v.size()) return;
        const StorageState& s{v[i]};
        const std::string p{who};
        o.Add(p + "_capacity_a", s.capacity_a).Add(p + "_direct_a", s.direct_a).Add(p + "_memory_a", s.memory_a);
        o.Add(p + "_capacity_b", s.capacity_b).Add(p + "_direct_b", s.direct_b).Add(p + "_memory_b", s.memory_b);
    };
    add("seen", seen);
    add("model", model);
    return o;
}

Outcome ScriptFacts::ToOutcome() const
{
    Outcome o;
    o.Add("bytes", bytes).Add("serialized", serialized).Add("size", bytes.size());
    o.Add("is_p2sh", is_p2sh).Add("is_p2wsh", is_p2wsh).Add("is_unspendable", is_unspendable).Add("is_push_only", is_push_only);
    o.Add("witness_version", witness_version).Add("witness_program", witness_program).Add("unserialized_equal", read_equal);
    return o;
}

namespace {

bool AllAgree(const ProgramRuns& runs)
{
    return std::all_of(runs.sides.begin(), runs.sides.end(), [&](const OpsResult& r) { return r.Agreed() == runs.oracle.Agreed(); });
}

void CompareRuns(const DescribeFn& desc, const ProgramRuns& runs)
{
    std::vector<Labeled<AgreedPart<OpsResult>>> results{{Model("std::vector"), {&runs.oracle}}};
    for (size_t i = 0; i < runs.sides.size(); ++i) results.push_back({LabelOf(Sides()[i]), {&runs.sides[i]}});
    Compare(desc, results);
}

} // namespace

void CompareWithOracle(const DescribeFn& desc, const ProgramRuns& runs, const std::function<ProgramRuns(TraceDigest)>& run_all)
{
    if (AllAgree(runs)) [[likely]] return;
    CompareRuns(desc, run_all(TraceDigest::Fnv1a));
    // Run again, every side agreed: what differed the first time is what the report shows.
    CompareRuns(desc, runs);
}

void CheckStorage(const DescribeFn& desc, const OpProgram& program, const OpsResult& oracle, std::span<const OpsResult> runs,
                  size_t element_size)
{
    for (size_t i = 0; i < runs.size(); ++i) {
        // Named variables, not a structured binding: lambdas below capture them, which clang
        // accepts only from 16 on (AFL++'s clang is 14).
        const Label label{LabelOf(Sides()[i])};
        const Side* const side{Sides()[i].side};
        const OpsResult& run{runs[i]};
        const auto model{ModelStorage(program, side->inline_size, element_size)};
        RequireOf(label, run.storage == model, "storage-matches-capacity-model", desc,
                  [&] { return StorageMismatch(run.storage, model, program).Add("side", side->name); });
        // Size first, then lexicographic: not std::vector's order, by design.
        RequireOf(label, run.less == oracle.size_first_less, "operator<-is-size-first", desc, [&] {
            return Outcome{}.Add("less", Bytes(run.less.begin(), run.less.end()))
                .Add("size_first", Bytes(oracle.size_first_less.begin(), oracle.size_first_less.end()));
        });
#if defined(__x86_64__)
        // sizeof(CScriptBase) on x86-64: 32 for N=28, 40 for N=36 (alignment makes 33..36 all 40).
        const size_t expected_sizeof{side->inline_size == 28 ? 32u : side->inline_size == 36 ? 40u : side->sizeof_bytes_container};
        RequireOf(label, side->sizeof_bytes_container == expected_sizeof, "sizeof-32-and-40", desc,
                  [&] { return Outcome{}.Add("inline_size", side->inline_size).Add("sizeof", side->sizeof_bytes_container); });
#endif
    }
#if defined(__x86_64__)
    Require(original_side().inline_size == 28 && optimized_side().inline_size == 36, "original-28-optimized-36", desc,
            [] { return Outcome{}.Add("original", original_side().inline_size).Add("optimized", optimized_side().inline_size); });
#endif
}

} // namespace equifuzz::prevec
