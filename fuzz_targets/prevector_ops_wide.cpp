// prevector_ops_wide: prevector_ops with a 16-byte trivially copyable element (Wide): the same
// operation program (push/pop, the insert and erase forms, resize,
// resize_uninitialized, reserve, shrink_to_fit, assign, clear, swap, copies, moves, element
// writes, ==/!=/<, reserialization) run on prevector<28, Wide>, prevector<36, Wide> and
// std::vector<Wide>. Contents, sizes and returned positions after every op must be identical.
// What the spec lets differ is checked exactly instead: each side's capacity, inline/heap mode and
// allocated_memory after every op against the capacity rules for its own N, sizeof, and operator<
// against the size-first rule computed from the oracle's data (all in prevec::RunAndCheckOps).
#include <equifuzz/harness.h>
#include <prevector/pair.h>

using namespace equifuzz;
using namespace equifuzz::prevec;

EQUIFUZZ_TARGET(prevector_ops_wide)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    RunAndCheckOps(DecodeProgram(fdp), /*wide=*/true);
}
