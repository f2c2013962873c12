// prevector_ops_wide: prevector_ops with a 16-byte trivially copyable element (Wide): the same
// operation program (push/pop, the insert and erase forms, resize,
// resize_uninitialized, reserve, shrink_to_fit, assign, clear, swap, copies, moves, element
// writes, ==/!=/<, reserialization) run on prevector<28, Wide>, prevector<36, Wide> and
// std::vector<Wide>. Contents, sizes and returned positions after every op must be identical.
// What the spec lets differ is checked exactly instead: each side's capacity, inline/heap mode and
// allocated_memory after every op against the capacity rules for its own N, sizeof, and operator<
// against the size-first rule computed from the oracle's data.
#include <equifuzz/harness.h>
#include <prevector/pair.h>

using namespace equifuzz;
using namespace equifuzz::prevec;

EQUIFUZZ_TARGET(prevector_ops_wide)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const OpProgram program{DecodeProgram(fdp)};
    const Description desc{Describe(program)};

    const OpsResult oracle{RunOracleWide(program)};
    const OpsResult original{original_side().run_ops_wide(program)};
    const OpsResult optimized{optimized_side().run_ops_wide(program)};
    Compare(desc, {{"std::vector", oracle.ToOutcome()}, {"original", original.ToOutcome()}, {"optimized", optimized.ToOutcome()}});

    for (const Side* side : {&original_side(), &optimized_side()}) {
        const OpsResult& run{side == &original_side() ? original : optimized};
        const auto model{ModelStorage(program, side->inline_size, sizeof(Wide))};
        Require(run.storage == model, "storage-matches-capacity-model", desc,
                StorageMismatch(run.storage, model, program).Add("side", side->name));
        // Size first, then lexicographic: not std::vector's order, by design.
        Require(run.less == oracle.size_first_less, "operator<-is-size-first", desc,
                Outcome{}.Add("side", side->name).Add("less", Bytes(run.less.begin(), run.less.end()))
                    .Add("size_first", Bytes(oracle.size_first_less.begin(), oracle.size_first_less.end())));
    }
#if defined(__x86_64__)
    // sizeof(CScriptBase) on x86-64: 32 for N=28, 40 for N=36 (alignment makes 33..36 all 40).
    Require(original_side().sizeof_bytes_container == 32 && optimized_side().sizeof_bytes_container == 40, "sizeof-32-and-40", desc,
            Outcome{}.Add("original", original_side().sizeof_bytes_container).Add("optimized", optimized_side().sizeof_bytes_container));
#endif
}
