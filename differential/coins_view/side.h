// The coins view pair: what every side offers. A side runs a scenario: coins written to a
// database, one to three caches stacked over it, then a sequence of calls on any of them
// (differential/coins_view/README.md). Our sides run it on models (model.h): Core's FRESH/DIRTY
// state machine as its header documents it (original), and the contract alone, every cache an
// overlay of the coins it changed (optimized). Bitcoin Core's sides (core/shim.cpp) run it on
// CCoinsViewCache over CCoinsViewCache over CCoinsViewDB over the tree's own LevelDB, before and
// after a change of coins.cpp, txdb.cpp or dbwrapper.cpp.
//
// What a side returns is split by what Core promises (Promised: every lookup's answer, every
// spend of a coin the view holds, the best block, the database's content after each write that
// reaches it, its cursor's walk) and what it is free to change (Internals: entry counts, memory,
// which coins a cache keeps, the answer of a spend that finds no coin). Properties of Core's own
// bookkeeping are checked inside each Core side (Bookkeeping).
#pragma once

#include <equifuzz/choices/coins_view.h>
#include <equifuzz/side.h>

// Coin, Bytes, Hash, Content and Core's encodings of a coin's key and value (relative: Core sides
// see no include path of ours but the harness).
#include "../utxo_flush/model.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace equifuzz::coins_view {

using utxo_flush::Bytes;
using utxo_flush::Coin;
using utxo_flush::Content;
using utxo_flush::Hash;

//! The most caches the stack holds (a node: the chainstate's cache, a block's view over it, and a
//! scratch view over that).
inline constexpr size_t MAX_CACHES{3};
//! The output indexes an outpoint names: small ones, and the edges of VARINT's one- and two-byte
//! forms (the key's order on disk is the order of its bytes).
inline constexpr uint32_t OUTPUT_INDEXES[]{0, 1, 2, 3, 127, 128, 16'383, 16'384};
//! The LevelDB cache sizes a RESIZE picks from (bytes).
inline constexpr uint64_t CACHE_SIZES[]{1 << 20, 8 << 20, 0};

//! An outpoint: a txid of `id` repeated, and output `n`.
struct Outpoint {
    uint8_t id{1};
    uint32_t n{0};
    auto operator<=>(const Outpoint&) const = default;
    Hash Txid() const
    {
        Hash h;
        h.fill(id);
        return h;
    }
};

struct Op {
    using Kind = OpKind;  // choices.json
    Kind kind{Kind::ACCESS};
    //! The view the call goes to: 0 the database, 1 the cache over it, ..., the stack's depth the
    //! top cache. ADD and SPEND always go to the top cache.
    uint8_t view{1};
    Outpoint at;
    Coin coin;                        //!< ADD
    bool possible_overwrite{false};   //!< ADD
    bool moveout{false};              //!< SPEND: pass a coin to move the spent one into
    Hash hash{};                      //!< SET_BEST
    uint64_t cache_bytes{0};          //!< RESIZE
    //! SPEND: whether the view held an unspent coin there when the input was decoded. Only then
    //! does Core promise what SpendCoin returns (true, and the coin moved out); a spend of a coin
    //! the view does not hold has no effect on any lookup, and its return value is the cache's
    //! own (a spent entry it still keeps answers true, an absent one false).
    bool spends_a_coin{false};
    //! ACCESS, GET, PEEK, HAVE of the top cache while its backend is the empty view (DETACH):
    //! whether the caller never brought the outpoint into the cache (no AccessCoin, HaveCoin or
    //! write of it since the cache last let go of what it held). Core promises a detached cache
    //! answers for what it was given (mempool acceptance relies on it); for any other outpoint the
    //! answer is the cache's own, reported and not compared.
    bool unheld{false};
    bool operator==(const Op&) const = default;
};

//! A write or a read that fails (the faults target): once the calls begin, the `at`-th Append
//! (APPEND, TORN) or Flush (FLUSH) on the database's write-ahead log, or the `at`-th read of a
//! table file by the lookups (READ), fails with an I/O error.
struct Fault {
    using Kind = FaultKind;  // choices.json
    Kind kind{Kind::NONE};
    uint8_t at{0};    //!< 1-based
    uint8_t keep{0};  //!< TORN: the share of the failing Append written, in 256ths
    bool operator==(const Fault&) const = default;
};

struct Scenario {
    std::vector<std::pair<Outpoint, Coin>> db;  //!< written to the database first, with best block DB_TIP
    uint8_t caches{1};                          //!< the stack's depth at the start, 1 to MAX_CACHES
    std::vector<Op> ops;
    bool obfuscate{false};
    //! The faults target: Core's database on real files (a directory of its own, made afresh for
    //! the scenario) through a file system that fails the write `fault` names.
    bool on_disk{false};
    Fault fault;
};

//! The best block the database is given with its first coins.
inline Hash DbTip()
{
    Hash h;
    h.fill(0xdb);
    return h;
}

//! One call's answer, as Core promises it.
struct Answer {
    uint16_t op{0};                     //!< index into Scenario::ops
    std::optional<Coin> coin;           //!< ACCESS (nullopt: the empty coin), GET, PEEK, SPEND's moved-out coin
    bool flag{false};                   //!< HAVE; SPEND's return value
    std::vector<Hash> hashes;           //!< GET_BEST (one), GET_HEADS, CURSOR (its best block)
    std::vector<std::pair<Outpoint, Coin>> walk;  //!< CURSOR: every coin, in the cursor's order
    bool operator==(const Answer&) const = default;
};

//! What Core promises, for one scenario.
struct Promised {
    std::vector<Answer> answers;
    //! The database's content (every key and value, de-obfuscated, the obfuscation key's own entry
    //! left out) after each call that writes it or reopens it: a FLUSH or SYNC of the bottom cache,
    //! REOPEN, RESIZE; then at the end.
    std::vector<std::pair<uint16_t, Content>> contents;
    //! Why the scenario stopped early ("" when it ran to the end): what a call threw.
    std::string stopped;
    bool operator==(const Promised&) const = default;
};

//! What Core is free to change, for one scenario (Core's sides only: our models do not model a
//! cache's memory).
struct Internals {
    struct Value {
        uint16_t op{0};
        uint64_t number{0};   //!< HAVE_IN_CACHE, a spend's answer with no coin: 0 or 1; MEMORY: usage
        uint64_t second{0};   //!< MEMORY: GetCacheSize
        bool operator==(const Value&) const = default;
    };
    std::vector<Value> values;
    std::vector<uint64_t> entries;  //!< each cache's entries at the end, bottom first
    std::vector<uint64_t> dirty;    //!< each cache's DIRTY entries at the end, bottom first
    bool operator==(const Internals&) const = default;
};

//! Core's own bookkeeping, checked inside a Core side after every call that changes a cache: the
//! first break of each property, in words ("" when it held throughout).
struct Bookkeeping {
    std::string usage;   //!< cachedCoinsUsage equals the sum of its entries' DynamicMemoryUsage
    std::string dirty;   //!< the dirty count (trees that keep one) equals the DIRTY entries
    std::string fresh;   //!< a FRESH entry's coin is unspent in no cache below and not in the database
    std::string spent_flagged;  //!< every spent entry is DIRTY (a clean spent entry would never reach the database)
};

//! What a Core side's fault did (the faults target): the call it failed, what the call did
//! (threw, as a node then stops; or went on, which no correct side does), and the database's
//! whole content when it is opened again, as a node restarting finds it.
struct Faulted {
    uint16_t op{0};
    std::string what;
    Content before;   //!< the database's whole content just before the call
    Content after;    //!< after the restart (empty when it does not reopen: `what` says why)
    bool operator==(const Faulted&) const = default;
};

struct Result {
    Promised promised;
    Internals internals;
    std::optional<Bookkeeping> bookkeeping;  //!< Core's sides only
    std::optional<Faulted> faulted;          //!< a Core side whose write fault fired
};

struct Side {
    const char* name;
    Result (*run)(const Scenario& scenario);
    //! Core's sides: one block's lookups, spends, adds and two flushes over a database of that many
    //! coins, and their reverse (bench/coins_view_bench.cpp); our models have none.
    uint64_t (*bench_block)(size_t coins);
    //! Whether the side's database has a log a write fault can fail (Core's): our models run a
    //! faults scenario without its fault.
    bool injects_faults;
};

EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::coins_view
