// Two Bitcoin Core trees in one binary: each reports its own CScriptBase. Run by ctest with
// ASAN_OPTIONS=detect_odr_violation=2; the test passes only if the two trees' answers are their
// own (32 and 40 bytes) and AddressSanitizer reports no one-definition-rule violation.
#include "odr_probe.h"

#include <cstdio>
#include <initializer_list>

int main()
{
    using namespace equifuzz::core_probe;
    int status{0};
    for (const Side* side : {&core_original_side(), &core_optimized_side()}) {
        std::printf("%s: sizeof(CScriptBase) %zu, inline up to %zu bytes, P2WSH allocates %zu bytes\n",
                    side->tree, side->script_base_size, side->script_inline_bytes, side->p2wsh_allocated());
    }
    const Side& before{core_original_side()};
    const Side& after{core_optimized_side()};
    if (before.script_base_size != 32 || before.script_inline_bytes != 28 || before.p2wsh_allocated() == 0) status = 1;
    if (after.script_base_size != 40 || after.script_inline_bytes != 36 || after.p2wsh_allocated() != 0) status = 1;
    std::printf("%s\n", status == 0 ? "each tree kept its own CScriptBase" : "a tree answered with the other tree's layout");
    return status;
}
