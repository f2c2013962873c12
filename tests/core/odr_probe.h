// What a Core tree says about its own types, from a probe compiled into one binary from two
// trees (tests/core/odr_probe.cpp, built by cmake/CoreTrees.cmake like any Core side).
#pragma once

#include <cstddef>

namespace equifuzz::core_probe {

struct Side {
    const char* tree;
    size_t script_base_size;     //!< sizeof(CScriptBase): 32 for prevector<28>, 40 for prevector<36>
    size_t script_inline_bytes;  //!< the largest script CScript keeps without a heap allocation
    size_t (*p2wsh_allocated)(); //!< allocated_memory() of a 34-byte P2WSH scriptPubKey
};

const Side& core_original_side();
const Side& core_optimized_side();

} // namespace equifuzz::core_probe
