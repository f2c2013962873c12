// A model of CCoinsViewCache as far as the flush sees it (differential/utxo_flush/BEHAVIOUR.md, 1(a)
// items 4 and 6, and Core's coins.cpp as the spec describes it): which entries the cursor lists,
// in which order, DIRTY and spent or not. AddCoin ignores an unspendable script (OP_RETURN first,
// or more than 10,000 bytes), refuses possible_overwrite=false over an unspent cached coin, and
// marks the entry FRESH when it was not DIRTY; SpendCoin forgets a FRESH entry and marks any other
// DIRTY and spent; AccessCoin fetches a coin from the database as a clean entry. An entry joins
// the cursor's list when it is first flagged, and a forgotten entry leaves it.
#pragma once

#include "model.h"
#include "side.h"

#include <map>
#include <utility>
#include <vector>

namespace equifuzz::utxo_flush {

class CacheModel
{
public:
    explicit CacheModel(const Content& db) : m_db{db} {}

    //! Applies one operation; false if AddCoin refused it (Core throws std::logic_error).
    bool Apply(const Op& op);
    //! Applies a step's operations in order, a rollforward's ADDs with possible_overwrite =
    //! HaveCoin as RollforwardBlock passes it; returns how many ADDs were refused.
    size_t ApplyStep(const Step& step);
    //! HaveCoin: an unspent coin in the cache or the database.
    bool Have(const Hash& txid, uint32_t n);
    //! What CCoinsViewCache::Flush hands BatchWrite.
    std::vector<CursorEntry> Cursor() const;
    //! Whether an ADD with possible_overwrite=false marked FRESH a coin the database has (the
    //! caller's contract broken: spending it again would leave it on disk).
    bool FreshOverDisk() const { return m_fresh_over_disk; }

private:
    struct Entry {
        Coin coin;
        bool spent{true};
        bool dirty{false};
        bool fresh{false};
    };
    using Key = std::pair<Hash, uint32_t>;
    std::map<Key, Entry>::iterator Fetch(const Key& key);
    void Flag(const Key& key);
    void Forget(std::map<Key, Entry>::iterator it);

    const Content& m_db;
    std::map<Key, Entry> m_entries;
    std::vector<Key> m_flagged;  //!< in the order entries were first flagged
    bool m_fresh_over_disk{false};
};

inline constexpr size_t MAX_SCRIPT_SIZE{10'000};
inline constexpr uint8_t OP_RETURN{0x6a};

//! The first caller contract the scenario breaks, in one sentence, or "". A step's operations
//! run over a cache on the database its steps before leave when every flush completes (a
//! recovery completes its crashed step): an AddCoin without possible_overwrite is made only for
//! an outpoint that shows no unspent coin there (AddCoin's contract: Core throws over an unspent
//! cached coin, and marks FRESH a coin the database holds, which a later spend would leave on
//! disk). A recovery's adds pass possible_overwrite = HaveCoin, as RollforwardBlock does.
std::string ContractBreak(const Scenario& scenario);
//! The same scenario with every AddCoin that would break that contract given possible_overwrite:
//! what the decoder builds unless EQUIFUZZ_BEYOND_CONTRACT.
void KeepContract(Scenario& scenario);

//! Runs a scenario on the model database (our sides).
std::vector<StepResult> RunModel(const Scenario& scenario, uint64_t default_batch_bytes);

} // namespace equifuzz::utxo_flush
