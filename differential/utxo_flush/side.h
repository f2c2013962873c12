// The UTXO flush pair (#31645): what every side offers. A side runs a scenario: blocks of cache
// operations (AddCoin, SpendCoin, AccessCoin), each block then flushed with its tip through
// CCoinsViewDB::BatchWrite, cut into batches at a given size or the side's default, possibly
// "crashing" before a chosen partial batch. Our sides run it on the model (model.h, cache.h);
// Bitcoin Core's sides (core/shim.cpp) on CCoinsViewCache over CCoinsViewDB over the tree's own
// LevelDB. What #31645 changed is the default batch size: 16 MiB before, 32 MiB after.
#pragma once

#include <equifuzz/choices/utxo_flush.h>
#include <equifuzz/side.h>

#include "model.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace equifuzz::utxo_flush {

inline constexpr uint64_t MiB{uint64_t{1} << 20};

//! The dynamic batch size proposed in #31645's review and dropped for the fixed 32 MiB (the PR's
//! commit 1c88f34884): 16 MiB per whole 450 MiB of -dbcache (integer division), clamped to
//! [16 MiB, 256 MiB]. A third variant for the benchmark; no tree has it.
constexpr uint64_t DynamicBatchBytes(uint64_t dbcache_bytes)
{
    const uint64_t scaled{(dbcache_bytes / (450 * MiB)) * (16 * MiB)};
    return scaled < 16 * MiB ? 16 * MiB : scaled > 256 * MiB ? 256 * MiB : scaled;
}

//! One call on the cache (CCoinsViewCache's AddCoin, SpendCoin or AccessCoin).
struct Op {
    using Kind = OpKind;  // choices.json
    Kind kind{Kind::ADD};
    Hash txid{};
    uint32_t n{0};
    Coin coin;                        //!< ADD: the coin
    bool possible_overwrite{false};   //!< ADD: false lets the cache mark the entry FRESH
    bool operator==(const Op&) const = default;
};

//! A write error LevelDB meets during a flush, on a real directory (utxo_flush_faults): the
//! `at`-th call of one kind on the write-ahead log's files fails with an I/O error. Each batch is
//! one log record; only the log's writes are on the flush's own path (tables and the manifest are
//! written by compactions, on LevelDB's background thread, whose timing is not the input's).
struct Fault {
    //! choices.json: NONE; APPEND (Append fails and writes nothing); TORN (Append writes the first
    //! `keep`/256 of its bytes, then fails); FLUSH (Flush fails after the bytes reached the file:
    //! the record may survive).
    using Kind = FaultKind;
    Kind kind{Kind::NONE};
    size_t at{0};      //!< 1-based call of that kind on the log since the flush began
    uint8_t keep{0};   //!< TORN: the share of the failing Append written, in 256ths
    bool operator==(const Fault&) const = default;
};

//! One block: a fresh cache over the database, the operations, then a flush with `tip`.
struct Step {
    std::vector<Op> ops;
    Hash tip{};
    std::optional<uint64_t> batch_bytes;  //!< nullopt: the side's default (-dbbatchsize unset)
    size_t crash_before{0};               //!< 1-based partial batch the flush dies before; 0: none
    //! As ReplayBlocks' RollforwardBlock after a crash: every ADD passes possible_overwrite =
    //! HaveCoin (so nothing that may be on disk is marked FRESH), whatever `ops` say.
    bool rollforward{false};
    bool sync{false};                     //!< flush with Sync (the cache kept) instead of Flush
    Fault fault;                          //!< a write error during the flush (sides that inject them)
    bool operator==(const Step&) const = default;
};

struct Scenario {
    std::vector<Step> steps;
    bool obfuscate{false};
    //! On a real directory, closed and reopened before every step; else LevelDB's memory Env,
    //! kept open between steps (a reopen would lose it).
    bool on_disk{false};
    //! With on_disk: the database's files in LevelDB's memory Env, which keeps them across the
    //! reopens (utxo_flush_disk, where the file system is not what is tested); else real files
    //! (utxo_flush_faults, whose faults hit the real log file).
    bool files_in_memory{false};
};

//! What a side observed after one step.
struct StepResult {
    //! "", "crash before partial batch <k>", or the error a write fault became ("write fault: "
    //! and what Core threw, or "write fault ignored" when the flush went on past it); on disk,
    //! "the database does not reopen: " and LevelDB's reason is appended when it refuses to open
    std::string stopped;
    size_t partial_batches{0};    //!< partial batches written before the final one (or the crash)
    size_t refused{0};            //!< ADDs refused (possible_overwrite false over an unspent coin)
    size_t faulted_batch{0};      //!< 1-based batch (the final one counted) a write fault hit; 0: none
    Content content;              //!< the database's logical content after the step
    bool operator==(const StepResult&) const = default;
};

//! One timed flush of a real database (the benchmark's unit).
struct FlushCost {
    double seconds{0};           //!< CCoinsViewCache::Flush alone, filling the cache excluded
    size_t partial_batches{0};
    uint64_t largest_batch_bytes{0};  //!< the largest batch handed to LevelDB, to 0.01 MiB (as Core logs it)
};

struct Side {
    const char* name;
    //! The default batch size (-dbbatchsize) the flush is cut at.
    uint64_t default_batch_bytes;
    std::vector<StepResult> (*run)(const Scenario& scenario);
    //! Fills a cache with `coins` new P2PKH coins over an empty database in a temporary
    //! directory and flushes it at `batch_bytes` (nullopt: the side's default). Only sides that
    //! write a real database have it (Core's); ours leave it null.
    FlushCost (*flush_on_disk)(size_t coins, std::optional<uint64_t> batch_bytes);
    //! Whether run() injects each step's Fault (Core's sides, whose LevelDB writes real files);
    //! our models have no write-ahead log to fail.
    bool injects_faults{false};
};

EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::utxo_flush
