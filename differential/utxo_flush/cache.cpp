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

namespace {

//! Walks the steps that are not recoveries over the content every complete flush leaves: `visit`
//! gets each step and a cache over the database before it, and may change the step's operations.
template <typename Visit>
void WalkCompleted(Scenario& scenario, const Visit& visit)
{
    Content db;
    for (Step& step : scenario.steps) {
        if (step.rollforward) continue;  // it completes its crashed step: the content is that step's
        CacheModel cache{db};
        if (!visit(step, cache)) return;
        db = Flush(db, cache.Cursor(), step.tip, 0).content;
    }
}

//! AddCoin's caller contract: without possible_overwrite only for a coin no view holds unspent.
bool BreaksAddContract(const Op& op, CacheModel& cache)
{
    return op.kind == Op::Kind::ADD && !op.possible_overwrite && cache.Have(op.txid, op.n);
}

} // namespace

std::string ContractBreak(const Scenario& scenario)
{
    std::string why;
    Scenario copy{scenario};
    size_t index{0};
    WalkCompleted(copy, [&](Step& step, CacheModel& cache) {
        ++index;
        for (const Op& op : step.ops) {
            if (BreaksAddContract(op, cache)) {
                why = "block " + std::to_string(index) + ": AddCoin without possible_overwrite over " + std::to_string(op.txid[0]) + ":" +
                      std::to_string(op.n) + ", which the cache or the database holds unspent";
                return false;
            }
            (void)cache.Apply(op);
        }
        return true;
    });
    return why;
}

void KeepContract(Scenario& scenario)
{
    WalkCompleted(scenario, [&](Step& step, CacheModel& cache) {
        for (Op& op : step.ops) {
            if (BreaksAddContract(op, cache)) op.possible_overwrite = true;
            (void)cache.Apply(op);
        }
        return true;
    });
    // A recovery repeats its crashed step's operations: give it the changed ones.
    for (size_t i = 1; i < scenario.steps.size(); ++i) {
        if (scenario.steps[i].rollforward) scenario.steps[i].ops = scenario.steps[i - 1].ops;
    }
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
