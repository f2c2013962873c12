// Optimized side: CScriptBase after #32279, prevector<36, uint8_t> (spec 1b). The container is
// unchanged; 36 inline bytes keep P2WSH, P2TR (34) and compressed P2PK (35) off the heap, at the
// cost of 8 more bytes per script (sizeof 32 -> 40 on 64-bit).
#include <prevector/prevector.h>
#include <prevector/program.h>
#include <prevector/script.h>
#include <prevector/side.h>

#include <vector>

namespace equifuzz::prevec {
namespace {

constexpr unsigned INLINE_SIZE{36};
using ScriptBase = prevector<INLINE_SIZE, uint8_t>;

#if defined(__x86_64__)
static_assert(sizeof(ScriptBase) == 40, "sizeof(CScriptBase) on x86-64 (spec 1b)");
#endif

OpsResult RunOps(const OpProgram& program, TraceDigest digest) { return RunProgram<ScriptBase, true>(program, digest); }
OpsResult RunOpsWide(const OpProgram& program, TraceDigest digest)
{
    return RunProgram<prevector<INLINE_SIZE, Wide>, true>(program, digest);
}
ScriptFacts BuildScript(const ScriptInput& in) { return BuildScriptFacts<prevector<INLINE_SIZE, uint8_t>>(in); }

const Side OPTIMIZED{"prevector<36> (CScriptBase after #32279)", INLINE_SIZE, sizeof(ScriptBase), RunOps, RunOpsWide, BuildScript};

} // namespace
} // namespace equifuzz::prevec

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevec, equifuzz::prevec::OPTIMIZED)
