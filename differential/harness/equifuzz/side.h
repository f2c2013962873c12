// Pluggable sides. Each pair declares, in its side.h, a `Side` struct (a table of function
// pointers: the narrow interface a side must offer) and one accessor per role:
//
//     const Side& original_side();
//     const Side& optimized_side();
//     const Side& core_original_side();   // Bitcoin Core's own code, when this build has it
//     const Side& core_optimized_side();
//
// A side's source file fills a `Side` and exports it with EQUIFUZZ_EXPORT_SIDE. The build
// compiles that file with -DEQUIFUZZ_SIDE_ROLE=original (or optimized, core_original,
// core_optimized), so the same adapter source can stand in for either role. To fuzz your own
// implementation of a side, write an adapter file and point the pair's CMake option at it, e.g.
//
//     cmake --preset libfuzzer -DEQUIFUZZ_XOR_OPTIMIZED=/path/to/my_adapter.cpp
//
// The Core sides are built from Bitcoin Core trees (differential/core/README.md); the build
// defines EQUIFUZZ_CORE_ORIGINAL / EQUIFUZZ_CORE_OPTIMIZED for a pair that has them, and
// EQUIFUZZ_DEFINE_SIDES lists every side the build has, in a fixed order, for the targets.
#pragma once

#include <span>

#define EQUIFUZZ_PP_CAT2(a, b) a##b
#define EQUIFUZZ_PP_CAT(a, b) EQUIFUZZ_PP_CAT2(a, b)

namespace equifuzz {
//! Which of the four a side is: targets pick sides by role, never by label or position.
enum class Role : unsigned char { ORIGINAL, OPTIMIZED, CORE_ORIGINAL, CORE_OPTIMIZED };
constexpr bool IsCore(Role r) { return r == Role::CORE_ORIGINAL || r == Role::CORE_OPTIMIZED; }

//! A side, the name reports give it ("original", "core-optimized", ...) and its role.
template <typename SideT>
struct LabeledSide {
    const char* label;
    const SideT* side;
    Role role;
};
} // namespace equifuzz

#ifndef EQUIFUZZ_SIDE_ROLE
#define EQUIFUZZ_EXPORT_SIDE(pair_namespace, object) \
    static_assert(false, "compile side sources through equifuzz_add_pair(), which sets EQUIFUZZ_SIDE_ROLE")
#else
//! Defines pair_namespace::<role>_side() returning `object`. It has default visibility: in a
//! Core side's object it is the one symbol left global (cmake/CoreObjects.cmake).
#define EQUIFUZZ_EXPORT_SIDE(pair_namespace, object)                                          \
    __attribute__((visibility("default"))) const pair_namespace::Side&                        \
    pair_namespace::EQUIFUZZ_PP_CAT(EQUIFUZZ_SIDE_ROLE, _side)()                              \
    {                                                                                         \
        return object;                                                                        \
    }
#endif

#ifdef EQUIFUZZ_CORE_ORIGINAL
#define EQUIFUZZ_IF_CORE_ORIGINAL(...) __VA_ARGS__,
#else
#define EQUIFUZZ_IF_CORE_ORIGINAL(...)
#endif
#ifdef EQUIFUZZ_CORE_OPTIMIZED
#define EQUIFUZZ_IF_CORE_OPTIMIZED(...) __VA_ARGS__,
#else
#define EQUIFUZZ_IF_CORE_OPTIMIZED(...)
#endif

//! Declares the four role accessors and Sides() inside a pair's namespace (in its side.h).
#define EQUIFUZZ_DECLARE_SIDES()                                 \
    const Side& original_side();                                 \
    const Side& optimized_side();                                \
    const Side& core_original_side();                            \
    const Side& core_optimized_side();                           \
    /** Every side this build has: ours, then Core's. */         \
    std::span<const ::equifuzz::LabeledSide<Side>> Sides()

//! Defines pair_namespace::Sides() (once, in one of the pair's shared sources).
#define EQUIFUZZ_DEFINE_SIDES(pair_namespace)                                                       \
    std::span<const ::equifuzz::LabeledSide<pair_namespace::Side>> pair_namespace::Sides()         \
    {                                                                                               \
        static const ::equifuzz::LabeledSide<Side> sides[]{                                         \
            {"original", &original_side(), ::equifuzz::Role::ORIGINAL},                             \
            {"optimized", &optimized_side(), ::equifuzz::Role::OPTIMIZED},                          \
            EQUIFUZZ_IF_CORE_ORIGINAL({"core-original", &core_original_side(), ::equifuzz::Role::CORE_ORIGINAL}) \
            EQUIFUZZ_IF_CORE_OPTIMIZED({"core-optimized", &core_optimized_side(), ::equifuzz::Role::CORE_OPTIMIZED}) \
        };                                                                                          \
        return sides;                                                                               \
    }
