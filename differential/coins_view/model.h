// Our models of the coins view stack (README.md, "What it compares"): caches over a database, run
// one call at a time. Two rules for a cache's entries:
//   * Core's state machine (the original side): an entry is DIRTY when it differs from the view
//     below and FRESH when the view below has no unspent coin there; AddCoin without
//     possible_overwrite marks an entry FRESH unless it is DIRTY; spending a FRESH entry forgets it;
//     a flush moves DIRTY entries down (a FRESH and spent one vanishes, a FRESH one stays FRESH
//     below unless an entry is there) and erases spent coins from the database;
//   * the contract alone (the optimized side): a cache is an overlay of the coins it changed,
//     spent ones kept as such; a flush moves every change down. No FRESH, nothing forgotten.
// Both answer every call as Core promises; they differ only in what a cache keeps.
#pragma once

#include "side.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace equifuzz::coins_view {

//! CScript::IsUnspendable: OP_RETURN first, or more than MAX_SCRIPT_SIZE bytes. AddCoin leaves
//! such a coin out.
bool Unspendable(const Bytes& script);

class Model
{
public:
    //! `fresh_rule`: Core's state machine (true) or the overlay of changes (false).
    Model(const Scenario& s, bool fresh_rule);

    //! Runs op `index` of the scenario; false when it stopped the scenario (`promised.stopped` says why).
    bool Apply(const Op& op, uint16_t index);
    //! The database's content at the end (the scenario ran to it), and the result.
    Result Finish(uint16_t end)
    {
        Snapshot(end);
        return std::move(m_result);
    }
    Result Take() { return std::move(m_result); }

    //! The unspent coin view `view` shows at `at` (0: the database), without caching anything.
    std::optional<Coin> Visible(size_t view, const Outpoint& at) const;
    //! How many caches the stack holds now.
    size_t Depth() const { return m_caches.size(); }
    //! The block hash a cache holds (all zero: none; GetBestBlock then asks the view below).
    const Hash& CacheBlock(size_t view) const { return m_caches.at(view - 1).block; }
    //! Whether the top cache's backend is the empty view (DETACH).
    bool Detached() const { return m_caches.back().detached; }
    //! Whether the caller brought `at` into the top cache, so that Core promises the cache answers
    //! for it once detached: an AccessCoin or HaveCoin of it while attached, or a write of it
    //! (AddCoin of a spendable coin, SpendCoin, EmplaceCoinInternalDANGER), since the cache last
    //! let go (Uncache of it, Flush, Sync, Reset, a restart; a new cache holds nothing). A rule of
    //! the callers' contract, not of Core's map: a cache may keep more than this.
    bool Held(const Outpoint& at) const { return m_caches.back().held.contains(at); }
    const std::set<Outpoint>& HeldSet() const { return m_caches.back().held; }

private:
    struct Entry {
        std::optional<Coin> coin;  //!< nullopt: spent
        bool dirty{false};
        bool fresh{false};
    };
    struct Cache {
        std::map<Outpoint, Entry> entries;
        Hash block{};
        std::set<Outpoint> held;  //!< Held()
        bool detached{false};     //!< Detached()
    };

    //! FetchCoin: the entry view `view` keeps at `at`, fetched from below as a clean entry when it
    //! has none and the view below shows an unspent coin; nullptr when neither.
    Entry* Fetch(size_t view, const Outpoint& at);
    Hash BestBlock(size_t view);
    //! BatchWrite of cache `view` into the view below; `erase`: Flush (the cache empties), else Sync.
    bool Write(size_t view, bool erase, uint16_t index);
    void Snapshot(uint16_t index);

    const bool m_fresh_rule;
    std::map<Outpoint, Coin> m_db;
    Hash m_db_best{};
    std::vector<Cache> m_caches;  //!< bottom first: m_caches[0] is view 1
    Result m_result;
};

//! Runs a scenario on a model (our sides).
Result RunModel(const Scenario& s, bool fresh_rule);

//! Core's encoding of the database a model holds: 'C' keys with their coins, and 'B'.
Content Encode(const std::map<Outpoint, Coin>& coins, const Hash& best);

inline bool IsNull(const Hash& h)
{
    for (const uint8_t b : h) {
        if (b != 0) return false;
    }
    return true;
}

} // namespace equifuzz::coins_view
