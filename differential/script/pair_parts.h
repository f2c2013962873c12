// The script pair's own pieces, shared by its source files (not part of the pair's interface,
// pair.h): the input generator (generate.cpp) and the outcome helpers (decode.cpp).
#pragma once

#include "side.h"

#include <equifuzz/choices/script.h>
#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

#include <string>

namespace equifuzz::script {

//! Flags the targets use: all of them.
inline constexpr uint32_t FUZZ_FLAGS{ALL_FLAGS};

// The ranges the decoders (decode.cpp) read and the encoders (decode.cpp, mutate.cpp) write, once.
//! An evaluation's initial stack: at most EVAL_STACK_ITEMS items.
inline constexpr size_t EVAL_STACK_ITEMS{4};
//! A raw spend's scriptSig and scriptPubKey: at most RAW_SPEND_SCRIPT bytes each; its witness at
//! most RAW_SPEND_WITNESS items.
inline constexpr size_t RAW_SPEND_SCRIPT{64};
inline constexpr size_t RAW_SPEND_WITNESS{3};
//! A stray witness item follows a spend when a number in [0, STRAY_WITNESS_ONE_IN) is 0.
inline constexpr int STRAY_WITNESS_ONE_IN{16};

//! An element: mostly small, often at the sizes that matter (520, 521, 8000), sometimes all equal bytes.
Bytes ConsumeElement(FuzzedDataProvider& fdp);
//! A script number's minimal little-endian bytes (sign in the top bit of the last byte).
Bytes ScriptNumBytes(int64_t v);
//! Up to `max_items` elements.
Stack ConsumeStack(FuzzedDataProvider& fdp, size_t max_items);
//! The bytes ConsumeElement and ConsumeStack read back as `item` / `stack` (an item of a size they
//! cannot give is cut to the largest they can; the size written is returned).
size_t EncodeElement(FdpEncoder& e, const Bytes& item);
void EncodeStack(FdpEncoder& e, const Stack& stack, size_t max_items);
//! A structured script: sized pushes in every push form, numbers (minimal or not), opcodes,
//! conditionals, and now and then a truncated push at the end.
Bytes BuildScript(FuzzedDataProvider& fdp, size_t max_ops);

//! A stack as two report fields: its depth and its items as pushes.
void AddStack(Outcome& o, const std::string& name, const Stack& stack);

} // namespace equifuzz::script
