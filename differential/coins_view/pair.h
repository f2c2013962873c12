// The coins view pair's fuzz input (a scenario, side.h) decoded from the fuzzer's bytes, its
// description, and the check.
#pragma once

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

#include "side.h"

#include <string>

namespace equifuzz::coins_view {

//! The most calls an input makes.
inline constexpr size_t MAX_OPS{64};
//! The most restarts and resizes an input makes (each reopens the database); later ones are skipped.
inline constexpr size_t MAX_REOPENS{2};
//! The most compactions an input makes (on trees before CCoinsViewDB's own, each is a reopen).
inline constexpr size_t MAX_COMPACTIONS{2};
//! The latest Append or Flush of the log a write fault picks (each bottom flush appends a record's
//! header and body, then flushes it).
inline constexpr uint8_t MAX_FAULT_AT{12};
//! The latest read of a table file a READ fault picks: a scenario's coins fit in one data block of
//! one table, which LevelDB reads once and then keeps in its block cache, so the lookups of a
//! scenario read few times.
inline constexpr uint8_t MAX_READ_AT{3};

//! Up to eight coins in the database, one to three caches over it, then calls on any view until
//! the input ends. Within the callers' contracts unless EQUIFUZZ_BEYOND_CONTRACT: AddCoin without
//! possible_overwrite only where the top cache shows no unspent coin (its contract: FRESH only
//! for a coin no view below holds), and the cache over the database has a best block before it
//! is flushed into it (CCoinsViewDB::BatchWrite asserts one: a node always sets it).
//! With `faults` (the faults target): first a fault (its kind, the Append or Flush of the log or
//! the read of a table file it fails, at most MAX_FAULT_AT or MAX_READ_AT; a torn Append's share), then the same
//! scenario, run with Core's database on real files.
Scenario Decode(FuzzedDataProvider& fdp, bool faults = false);
//! Decode's mirror (encode.cpp): the bytes Decode reads back as `s` (with its fault when
//! `s.on_disk`), the calls Decode would skip left out and those it would insert written out.
Bytes EncodeScenario(const Scenario& s);
//! The structured mutation (mutate.cpp): the input decoded, its scenario changed where the stack's
//! bugs live (a call repeated on the same outpoint at another level, a flush, restart or
//! compaction inserted, a run of calls copied), and written again with EncodeScenario.
bool MutateScenario(Mutation& m, bool faults);
Description Describe(const Scenario& s);
std::string OutpointName(const Outpoint& at);
//! A call as Core names it (AddCoin, ...): the choice's words describe it in a report's input.
const char* CoreName(Op::Kind k);
//! The first caller contract the scenario breaks, in one sentence, or "".
std::string ContractBreak(const Scenario& s);

Outcome ToOutcome(const Promised& p);
Outcome ToOutcome(const Internals& i);

//! Runs the scenario on every side; compares what Core promises across all of them, what it is
//! free to change across Core's sides (reported, never counted), and checks each Core side's
//! bookkeeping properties.
void Check(const Scenario& s);

} // namespace equifuzz::coins_view
