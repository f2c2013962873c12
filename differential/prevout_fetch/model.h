// Our model of the three layers ConnectBlock's view sees (differential/prevout_fetch/BEHAVIOUR.md):
// a database, a cache over it (the middle one) and an overlay cache over that, whose misses ask
// the middle cache without filling it (PeekCoin). The cache rules are those the UTXO flush pair's
// model keeps (utxo_flush/cache.h): AddCoin ignores an unspendable script and refuses
// possible_overwrite=false over an unspent cached coin, marking FRESH an entry that was not DIRTY;
// SpendCoin forgets a FRESH entry and marks any other DIRTY and spent; a flush hands the child's
// DIRTY entries to the parent as BatchWrite does. The prefetch queue (optimized) is a Fetcher.
#pragma once

#include "side.h"

#include <functional>
#include <map>
#include <optional>

namespace equifuzz::prevout_fetch {

class CacheModel
{
public:
    //! What a miss asks the layer below: the coin, or nullopt.
    using Fetch = std::function<std::optional<Coin>(const Ref&)>;
    explicit CacheModel(Fetch fetch) : m_fetch{std::move(fetch)} {}

    bool Have(const Ref& at);
    std::optional<Coin> Get(const Ref& at);
    bool Spend(const Ref& at);
    //! true: AddCoin threw (an unspent coin and possible_overwrite false).
    bool Add(const Ref& at, const Coin& coin, bool possible_overwrite);
    //! PeekCoin: the cached entry (nullopt when spent), else the layer below; fills nothing.
    std::optional<Coin> Peek(const Ref& at) const;
    //! BatchWrite of this cache's DIRTY entries into `parent`, then this cache emptied; "" or the
    //! error BatchWrite threw.
    std::string FlushInto(CacheModel& parent);
    void Reset() { m_entries.clear(); }
    Snapshot Take(const std::vector<Ref>& named) const;

private:
    struct Entry {
        std::optional<Coin> coin;  //!< nullopt: spent
        bool dirty{false};
        bool fresh{false};
    };
    std::map<Ref, Entry>::iterator Find(const Ref& at);

    Fetch m_fetch;
    std::map<Ref, Entry> m_entries;
};

//! The database and the middle cache as the scenario leaves them before the block.
struct Base {
    std::map<Ref, Coin> db;
    CacheModel middle;
    explicit Base(const Scenario& s);
    Base(const Base&) = delete;
    Base& operator=(const Base&) = delete;
};

//! Where the overlay's misses go: straight to the middle cache (the serial path), or through the
//! prefetch queue (optimized.cpp).
struct Fetcher {
    virtual ~Fetcher() = default;
    virtual std::optional<Coin> FetchFromBase(const Ref& at) = 0;
};

//! Runs the scenario on the model, the overlay's misses going to `fetcher`; `queue_state` fills
//! the queue's fields of the result (consumed, warnings) at the block's end and before the flush.
Result RunModel(const Scenario& s, Base& base, Fetcher& fetcher,
                const std::function<void(Result&, bool flushing)>& queue_state);

//! The warning a flush with unconsumed inputs logs (coins.h, CoinsViewOverlay::Flush).
std::string UnconsumedWarning();
//! The warning StartFetching logs when the pool refuses its tasks (coins.cpp).
std::string SubmitFailedWarning();

} // namespace equifuzz::prevout_fetch
