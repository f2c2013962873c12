// The UTXO flush pair's fuzz input: two blocks' cursors over one database, two batch sizes and a
// crash point, decoded from the fuzzer's bytes, and what the targets compare.
#pragma once

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

#include "side.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace equifuzz::utxo_flush {

struct FlushInput {
    std::vector<CursorEntry> block1;  //!< flushed first (tip 1) into an empty database
    std::vector<CursorEntry> block2;  //!< then (tip 2): new coins, and block 1's spent or rewritten
    uint64_t size_a{0};               //!< two batch sizes the second flush is cut at
    uint64_t size_b{0};
    size_t crash_before{0};           //!< 1-based partial batch the flush at size_a dies before; 0: none
};

FlushInput DecodeFlush(FuzzedDataProvider& fdp);
Description Describe(const FlushInput& in);

inline constexpr Hash TIP1{[] { Hash h{}; h.fill(0x11); return h; }()};
inline constexpr Hash TIP2{[] { Hash h{}; h.fill(0x22); return h; }()};
inline constexpr Hash TIP_OTHER{[] { Hash h{}; h.fill(0x33); return h; }()};

//! A database's logical content as one comparable, reportable value.
struct DbContent {
    Content content;
    bool operator==(const DbContent&) const = default;
    Outcome ToOutcome() const;
};

} // namespace equifuzz::utxo_flush
