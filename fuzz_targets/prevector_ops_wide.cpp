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
    // CScriptBase before and after #32279 when built. Each run's trace fingerprints the contents
    // after every op with a fast word-wise digest; a report runs them all again with the
    // byte-wise FNV-1a digest it shows.
    const auto run_all = [&](TraceDigest digest) {
        ProgramRuns r{RunOracleWide(program, digest), {}};
        r.sides.reserve(Sides().size());
        for (const auto& [label, side, role] : Sides()) r.sides.push_back(side->run_ops_wide(program, digest));
        return r;
    };
    const ProgramRuns runs{run_all(TraceDigest::Fast)};
    CompareWithOracle(desc, runs, run_all);
    CheckStorage(desc, program, runs.oracle, runs.sides, sizeof(Wide));
}
