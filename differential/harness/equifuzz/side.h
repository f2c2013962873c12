// Pluggable sides. Each pair declares, in its side.h, a `Side` struct (a table of function
// pointers: the narrow interface a side must offer) and one accessor per role:
//
//     const Side& original_side();
//     const Side& optimized_side();
//
// A side's source file fills a `Side` and exports it with EQUIFUZZ_EXPORT_SIDE. The build
// compiles that file with -DEQUIFUZZ_SIDE_ROLE=original (or optimized), so the same adapter
// source can stand in for either role. To fuzz your own implementation of a side, write an
// adapter file and point the pair's CMake option at it, e.g.
//
//     cmake --preset libfuzzer -DEQUIFUZZ_XOR_OPTIMIZED=/path/to/my_adapter.cpp
#pragma once

#define EQUIFUZZ_PP_CAT2(a, b) a##b
#define EQUIFUZZ_PP_CAT(a, b) EQUIFUZZ_PP_CAT2(a, b)

#ifndef EQUIFUZZ_SIDE_ROLE
#define EQUIFUZZ_EXPORT_SIDE(pair_namespace, object) \
    static_assert(false, "compile side sources through equifuzz_add_pair(), which sets EQUIFUZZ_SIDE_ROLE")
#else
//! Defines pair_namespace::<role>_side() returning `object`.
#define EQUIFUZZ_EXPORT_SIDE(pair_namespace, object)                                          \
    const pair_namespace::Side& pair_namespace::EQUIFUZZ_PP_CAT(EQUIFUZZ_SIDE_ROLE, _side)() \
    {                                                                                         \
        return object;                                                                        \
    }
#endif
