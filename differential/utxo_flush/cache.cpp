// The cache model and the model's run of a scenario (cache.h).
#include "cache.h"

#include <algorithm>

namespace equifuzz::utxo_flush {

std::map<CacheModel::Key, CacheModel::Entry>::iterator CacheModel::Fetch(const Key& key)
{
    auto it{m_entries.find(key)};
    if (it != m_entries.end()) return it;
    if (!m_db.contains(CoinKey(key.first, key.second))) return m_entries.end();
    // A clean entry: its value is never written, so only its presence matters.
    return m_entries.emplace(key, Entry{.coin = {}, .spent = false}).first;
}

void CacheModel::Flag(const Key& key)
{
    if (std::find(m_flagged.begin(), m_flagged.end(), key) == m_flagged.end()) m_flagged.push_back(key);
}

void CacheModel::Forget(std::map<Key, Entry>::iterator it)
{
    m_flagged.erase(std::remove(m_flagged.begin(), m_flagged.end(), it->first), m_flagged.end());
    m_entries.erase(it);
}

bool CacheModel::Have(const Hash& txid, uint32_t n)
{
    const auto it{Fetch({txid, n})};
    return it != m_entries.end() && !it->second.spent;
}

bool CacheModel::Apply(const Op& op)
{
    const Key key{op.txid, op.n};
    switch (op.kind) {
    case Op::Kind::ADD: {
        const Bytes& script{op.coin.script};
        if ((!script.empty() && script[0] == OP_RETURN) || script.size() > MAX_SCRIPT_SIZE) return true;
        auto [it, inserted]{m_entries.try_emplace(key)};
        bool fresh{false};
        if (!op.possible_overwrite) {
            if (!it->second.spent) return false;
            fresh = !it->second.dirty;
            if (fresh && m_db.contains(CoinKey(op.txid, op.n))) m_fresh_over_disk = true;
        }
        it->second.coin = op.coin;
        it->second.spent = false;
        it->second.dirty = true;
        if (fresh) it->second.fresh = true;
        Flag(key);
        return true;
    }
    case Op::Kind::SPEND: {
        const auto it{Fetch(key)};
        if (it == m_entries.end()) return true;
        if (it->second.fresh) {
            Forget(it);
        } else {
            it->second.dirty = true;
            it->second.spent = true;
            Flag(key);
        }
        return true;
    }
    case Op::Kind::ACCESS:
        Fetch(key);
        return true;
    }
    return true;
}

std::vector<CursorEntry> CacheModel::Cursor() const
{
    std::vector<CursorEntry> cursor;
    for (const Key& key : m_flagged) {
        const Entry& e{m_entries.at(key)};
        cursor.push_back({.txid = key.first, .n = key.second, .coin = e.coin, .dirty = e.dirty, .spent = e.spent});
    }
    return cursor;
}

size_t CacheModel::ApplyStep(const Step& step)
{
    size_t refused{0};
    for (Op op : step.ops) {
        if (step.rollforward && op.kind == Op::Kind::ADD) op.possible_overwrite = Have(op.txid, op.n);
        if (!Apply(op)) ++refused;
    }
    return refused;
}

std::vector<StepResult> RunModel(const Scenario& scenario, uint64_t default_batch_bytes)
{
    std::vector<StepResult> results;
    Content db;
    for (const Step& step : scenario.steps) {
        StepResult r;
        CacheModel cache{db};
        r.refused = cache.ApplyStep(step);
        const std::optional<size_t> crash{step.crash_before ? std::optional{step.crash_before} : std::nullopt};
        FlushResult flushed{Flush(db, cache.Cursor(), step.tip, step.batch_bytes.value_or(default_batch_bytes), crash)};
        r.stopped = flushed.stopped;
        r.partial_batches = flushed.partial_batches;
        db = std::move(flushed.content);
        r.content = db;
        results.push_back(std::move(r));
    }
    return results;
}

} // namespace equifuzz::utxo_flush
