// Original side: CScriptBase before #32279, prevector<28, unsigned char> (spec 1a). Scripts of up to
// 28 bytes are inline: P2PKH, P2SH, P2WPKH and P2A; P2WSH, P2TR and P2PK go to the heap.
#include <prevector/prevector.h>
#include <prevector/program.h>
#include <prevector/script.h>
#include <prevector/side.h>

#include <vector>

namespace equifuzz::prevec {
namespace {

constexpr unsigned INLINE_SIZE{28};
using ScriptBase = prevector<INLINE_SIZE, uint8_t>;

#if defined(__x86_64__)
static_assert(sizeof(ScriptBase) == 32, "sizeof(CScriptBase) on x86-64 (spec 1b)");
#endif

OpsResult RunOps(const OpProgram& program, TraceDigest digest) { return RunProgram<ScriptBase, true>(program, digest); }
OpsResult RunOpsWide(const OpProgram& program, TraceDigest digest)
{
    return RunProgram<prevector<INLINE_SIZE, Wide>, true>(program, digest);
}
ScriptFacts BuildScript(const ScriptInput& in) { return BuildScriptFacts<prevector<INLINE_SIZE, uint8_t>>(in); }

const Side ORIGINAL{"prevector<28> (CScriptBase before #32279)", INLINE_SIZE, sizeof(ScriptBase), RunOps, RunOpsWide, BuildScript};

} // namespace
} // namespace equifuzz::prevec

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevec, equifuzz::prevec::ORIGINAL)
