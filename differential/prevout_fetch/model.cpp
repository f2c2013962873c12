// The model's three layers and its run of a scenario (model.h).
#include "model.h"

namespace equifuzz::prevout_fetch {
namespace {

//! CScript::IsUnspendable: OP_RETURN first, or longer than MAX_SCRIPT_SIZE.
bool Unspendable(const Bytes& script) { return (!script.empty() && script[0] == 0x6a) || script.size() > 10'000; }

} // namespace

std::map<Ref, CacheModel::Entry>::iterator CacheModel::Find(const Ref& at)
{
    if (const auto it{m_entries.find(at)}; it != m_entries.end()) return it;  // a spent entry too
    std::optional<Coin> coin{m_fetch(at)};
    if (!coin) return m_entries.end();
    return m_entries.emplace(at, Entry{.coin = std::move(coin), .dirty = false, .fresh = false}).first;
}

bool CacheModel::Have(const Ref& at)
{
    const auto it{Find(at)};
    return it != m_entries.end() && it->second.coin.has_value();
}

std::optional<Coin> CacheModel::Get(const Ref& at)
{
    const auto it{Find(at)};
    return it == m_entries.end() ? std::nullopt : it->second.coin;
}

bool CacheModel::Spend(const Ref& at)
{
    const auto it{Find(at)};
    if (it == m_entries.end()) return false;
    if (it->second.fresh) {
        m_entries.erase(it);
    } else {
        it->second.dirty = true;
        it->second.coin.reset();
    }
    return true;
}

bool CacheModel::Add(const Ref& at, const Coin& coin, bool possible_overwrite)
{
    if (Unspendable(coin.script)) return false;
    // AddCoin looks at this cache only: nothing is fetched from below.
    auto [it, inserted]{m_entries.try_emplace(at)};
    bool fresh{false};
    if (!possible_overwrite) {
        if (it->second.coin) return true;
        fresh = !it->second.dirty;
    }
    it->second.coin = coin;
    it->second.dirty = true;
    if (fresh) it->second.fresh = true;
    return false;
}

std::optional<Coin> CacheModel::Peek(const Ref& at) const
{
    if (const auto it{m_entries.find(at)}; it != m_entries.end()) return it->second.coin;
    return m_fetch(at);
}

std::string CacheModel::FlushInto(CacheModel& parent)
{
    for (const auto& [at, e] : m_entries) {
        if (!e.dirty) continue;
        const auto it{parent.m_entries.find(at)};
        if (it == parent.m_entries.end()) {
            // A FRESH spent entry never reached the parent: nothing to write.
            if (e.fresh && !e.coin) continue;
            parent.m_entries.emplace(at, Entry{.coin = e.coin, .dirty = true, .fresh = e.fresh});
        } else if (e.fresh && it->second.coin) {
            return "FRESH flag misapplied to coin that exists in parent cache";
        } else if (it->second.fresh && !e.coin) {
            parent.m_entries.erase(it);
        } else {
            it->second.coin = e.coin;
            it->second.dirty = true;
        }
    }
    m_entries.clear();
    return "";
}

Snapshot CacheModel::Take(const std::vector<Ref>& named) const
{
    Snapshot snap;
    for (const Ref& at : named) {
        const auto it{m_entries.find(at)};
        snap.coins.push_back(it == m_entries.end() ? std::nullopt : it->second.coin);
    }
    snap.entries = m_entries.size();
    return snap;
}

Base::Base(const Scenario& s)
    : middle{[this](const Ref& at) -> std::optional<Coin> {
          const auto it{db.find(at)};
          return it == db.end() ? std::nullopt : std::optional{it->second};
      }}
{
    // The database is written through a cache (AddCoin with possible_overwrite): an unspendable
    // coin never reaches it, a later coin at the same outpoint replaces an earlier one.
    for (const auto& [at, coin] : s.db) {
        if (!Unspendable(coin.script)) db[at] = coin;
    }
    for (const MiddleOp& op : s.middle) {
        switch (op.kind) {
        case MiddleOp::Kind::ADD_FRESH: (void)middle.Add(op.at, op.coin, false); break;
        case MiddleOp::Kind::ADD_DIRTY: (void)middle.Add(op.at, op.coin, true); break;
        case MiddleOp::Kind::SPEND: (void)middle.Spend(op.at); break;
        case MiddleOp::Kind::ACCESS: (void)middle.Get(op.at); break;
        }
    }
}

Result RunModel(const Scenario& s, Base& base, Fetcher& fetcher, const std::function<void(Result&, bool)>& queue_state)
{
    CacheModel overlay{[&](const Ref& at) { return fetcher.FetchFromBase(at); }};
    Result r;
    r.stopped = Drive(s, overlay, r.accesses);
    queue_state(r, false);
    const std::vector<Ref> named{NamedRefs(s)};
    r.overlay = overlay.Take(named);
    if (r.stopped.empty() && s.flush) {
        queue_state(r, true);
        r.flushed = true;
        r.flush_error = overlay.FlushInto(base.middle);
    }
    overlay.Reset();  // the guard's Reset: whatever the flush left
    r.middle = base.middle.Take(named);
    return r;
}

std::string SubmitFailedWarning()
{
    return "Failed to submit prevout fetch tasks; falling back to single-threaded fetching for this block.";
}

std::string UnconsumedWarning()
{
    // uint256::ToString of the block hash: its 32 equal bytes in hex, in either byte order.
    const char digits[]{"0123456789abcdef"};
    std::string hash;
    for (int i = 0; i < 32; ++i) hash += {digits[BLOCK_HASH_BYTE >> 4], digits[BLOCK_HASH_BYTE & 15]};
    return "Block " + hash +
           " input prevout prefetch queue was not fully consumed; inputs were accessed out of order, so prefetching "
           "degraded to serial lookups for this block.";
}

} // namespace equifuzz::prevout_fetch
