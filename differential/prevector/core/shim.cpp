// The prevector pair's Bitcoin Core sides: Core's own prevector, at each tree's CScriptBase
// (prevector<28> before #32279, kernel 0.0.20; prevector<36> after it, kernel 0.1.1), compiled
// from the tree (cmake/CoreObjects.cmake builds this file once per tree, its symbols kept apart).
// The same operation programs and script builder as our sides run on it, through Core's public
// API only: inline or heap is read from allocated_memory(), backwards iteration decrements.
#include "../program.h"
#include "../script.h"
#include "../side.h"

#include <prevector.h>
#include <script/script.h>

#include <cstdlib>

namespace equifuzz::prevec {
namespace {

//! N of a Core prevector type.
template <unsigned N, typename T>
constexpr unsigned InlineSizeOf(const ::prevector<N, T>*) { return N; }
constexpr unsigned CORE_N{InlineSizeOf(static_cast<const CScriptBase*>(nullptr))};

// Core's prevector takes no argument that refers into itself: insert(pos, a[i]) reads the
// reference after reallocating (a heap-use-after-free) or after moving the tail (a wrong value),
// and a range of its own is read after the tail moved. So the programs copy such arguments
// first, as a caller of Core's must. EQUIFUZZ_CORE_PREVECTOR_ALIASING=1 passes them raw, which
// reproduces the finding: corpora/regressions/prevector_ops/core-insert-own-element-*.
const bool COPY_ALIASED{std::getenv("EQUIFUZZ_CORE_PREVECTOR_ALIASING") == nullptr};

OpsResult RunOps(const OpProgram& program, TraceDigest digest) { return RunProgram<CScriptBase, true>(program, digest, COPY_ALIASED); }
OpsResult RunOpsWide(const OpProgram& program, TraceDigest digest)
{
    return RunProgram<::prevector<CORE_N, Wide>, true>(program, digest, COPY_ALIASED);
}
ScriptFacts BuildScript(const ScriptInput& in) { return BuildScriptFacts<CScriptBase>(in); }

const Side CORE{"Bitcoin Core's prevector as CScriptBase (" EQUIFUZZ_CORE_TREE ")", CORE_N, sizeof(CScriptBase), RunOps, RunOpsWide, BuildScript};

} // namespace
} // namespace equifuzz::prevec

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevec, equifuzz::prevec::CORE)
