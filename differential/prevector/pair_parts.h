// The prevector pair's own pieces shared by its source files (not the pair's interface, pair.h):
// what the decoders (decode.cpp) and their mirror, the encoder (encode.cpp), both read: every range
// of the inputs declared once, and which operations take which parameters.
#pragma once

#include "side.h"

#include <cstddef>
#include <cstdint>

namespace equifuzz::prevec::parts {

//! A program's operations: at most MAX_OPS.
inline constexpr size_t MAX_OPS{256};
//! A range operation's values: a count (a parameter modulo MAX_RANGE_VALUES) and a step in
//! [0, MAX_STEP] from the operation's value.
inline constexpr size_t MAX_RANGE_VALUES{100};
inline constexpr uint64_t MAX_STEP{3};
//! A parameter's forms, in the order ConsumeParam offers them: near an anchor (the inline
//! boundaries and growth steps), small (in [0, MAX_SMALL_PARAM]), one byte, two bytes.
enum class ParamForm : size_t { ANCHOR, SMALL, BYTE, WORD, LAST = WORD };
inline constexpr uint32_t MAX_SMALL_PARAM{15};
//! A script input: at most MAX_PUSHES pushes, MAX_DATA bytes of material.
inline constexpr size_t MAX_PUSHES{6};
inline constexpr size_t MAX_DATA{256};

inline bool UsesY(OpKind k)
{
    return k == OpKind::InsertSelfElement || k == OpKind::InsertCount || k == OpKind::InsertSelfRange || k == OpKind::EraseRange ||
           k == OpKind::SetElement;
}
inline bool UsesZ(OpKind k) { return k == OpKind::InsertSelfRange; }
inline bool UsesValues(OpKind k) { return k == OpKind::InsertRange || k == OpKind::AssignRange || k == OpKind::ConstructRange; }

} // namespace equifuzz::prevec::parts
