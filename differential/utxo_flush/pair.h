// The UTXO flush pair's fuzz input: two blocks' cursors over one database, two batch sizes and a
// crash point, decoded from the fuzzer's bytes, and what the targets compare.
#pragma once

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

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

//! How a target stores the database and what may interrupt a flush.
enum class Storage : uint8_t {
    MEMORY,       //!< utxo_flush_steps: LevelDB's memory Env, kept open; crashes between batches
    DISK,         //!< utxo_flush_disk: a real directory, closed and reopened after every step
    DISK_FAULTS,  //!< utxo_flush_faults: DISK, and write faults in the write-ahead log
};

//! The blocks of cache operations a side runs (side.h). A step after one with a crash point or a
//! write fault is its recovery: the same operations, the same tip, replayed as RollforwardBlock
//! does; a recovery may be interrupted again.
Scenario DecodeScenario(FuzzedDataProvider& fdp, Storage storage);
//! Whether a step stops before its flush completes (a crash point or a write fault).
bool Interrupts(const Step& s);
//! The bytes DecodeScenario reads back as `in` (values it cannot produce become the nearest it can).
Bytes EncodeScenario(const Scenario& in, Storage storage);
//! The scenario targets' structured mutation: the input decoded, one to three changes (a crash
//! point or a write fault, the step after it becoming its recovery; a small batch size; an added
//! step; an added, copied or removed operation, an unspendable or a re-added coin among them;
//! Sync or Flush), then written again with EncodeScenario.
bool MutateScenario(Mutation& m, Storage storage);
Description Describe(const Scenario& in);

//! One side's run of a scenario: every step's result.
struct RunResult {
    std::vector<StepResult> steps;
    bool operator==(const RunResult&) const = default;
    Outcome ToOutcome() const;
};

//! Runs the scenario on every side and checks it: every side's steps the same (content, crash,
//! partial batches, refused adds); each flush leaves B at its tip and no H; a crash leaves the
//! content before it (crash before the first partial batch) or no B, H = [new, old] and every coin
//! at its old or its uninterrupted value, after exactly the batches before it; and the recovery
//! that completes gives the uninterrupted content, unless the crashed block's own operations broke
//! the cache's contract (an ADD refused, or FRESH over a coin on disk), which a replay may not undo.
//! A write fault must stop the flush with Core's dbwrapper_error and leave whole batches: those
//! before the one it hit, or that one too (a record LevelDB had already handed the file); the
//! recovery is then checked as after a crash. Faults are run by the sides that inject them (Core's)
//! and compared between them; without such a side the scenario runs without its faults, and says so.
void CheckScenario(const Scenario& in);

//! Whether every coin of `now` (and every coin `before` or `after` has) is at its value in
//! `before` or at its value in `after`, absence included: the state a crash between two contents
//! may leave.
bool EachCoinOldOrNew(const Content& now, const Content& before, const Content& after);

//! A database's logical content as one comparable, reportable value.
struct DbContent {
    Content content;
    bool operator==(const DbContent&) const = default;
    Outcome ToOutcome() const;
};

} // namespace equifuzz::utxo_flush
