// prevector_ops_wide: prevector_ops with a 16-byte trivially copyable element (Wide): the same
// operation program (push/pop, the insert and erase forms, resize,
// resize_uninitialized, reserve, shrink_to_fit, assign, clear, swap, copies, moves, element
// writes, ==/!=/<, reserialization) run on prevector<28, Wide>, prevector<36, Wide> and
// std::vector<Wide>. Contents, sizes and returned positions after every op must be identical.
// What the spec lets differ is checked exactly instead: each side's capacity, inline/heap mode and
// allocated_memory after every op against the capacity rules for its own N, sizeof, and operator<
// against the size-first rule computed from the oracle's data (prevector/pair.h: CompareWithOracle, CheckStorage).
#include <equifuzz/harness.h>
#include <prevector/pair.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::prevec;

EQUIFUZZ_TARGET(prevector_ops_wide)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const OpProgram program{DecodeProgram(fdp)};
    const auto desc{[&] { return Describe(program); }};

    // std::vector<Wide> as the oracle; then every prevector side: ours at 28 and 36, and Core's
    // CScriptBase before and after #32279 when built.
    const OpsResult oracle{RunOracleWide(program)};
    std::vector<OpsResult> runs;
    runs.reserve(Sides().size());
    for (const auto& [label, side] : Sides()) runs.push_back(side->run_ops_wide(program));
    CompareWithOracle(desc, oracle, runs);
    CheckStorage(desc, program, oracle, runs, sizeof(Wide));
}
