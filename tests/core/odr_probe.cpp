// Built once per tree: Core's CScript (prevector<28> before #32279, prevector<36> after) seen
// through Core's own public API. Both copies live in one binary; only the accessor is global.
#include "odr_probe.h"

#include <equifuzz/side.h>
#include <script/script.h>

#include <vector>

namespace equifuzz::core_probe {
namespace {

size_t InlineBytes()
{
    CScript script;
    size_t n{0};
    // Grow one byte at a time until the script leaves its inline buffer.
    while (script.size() < 1000) {
        script.push_back(OP_1);
        if (script.allocated_memory() > 0) break;
        n = script.size();
    }
    return n;
}

size_t P2WSHAllocated()
{
    CScript script;
    script << OP_0 << std::vector<unsigned char>(32, 0xab);
    return script.allocated_memory();
}

const Side PROBE{EQUIFUZZ_CORE_TREE, sizeof(CScriptBase), InlineBytes(), P2WSHAllocated};

} // namespace
} // namespace equifuzz::core_probe

EQUIFUZZ_EXPORT_SIDE(equifuzz::core_probe, equifuzz::core_probe::PROBE)
