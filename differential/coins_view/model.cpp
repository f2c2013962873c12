// The models of the coins view stack (model.h).
#include "model.h"

#include <utility>

namespace equifuzz::coins_view {

bool Unspendable(const Bytes& script) { return (!script.empty() && script[0] == 0x6a) || script.size() > 10'000; }

Content Encode(const std::map<Outpoint, Coin>& coins, const Hash& best)
{
    Content c;
    for (const auto& [at, coin] : coins) c.emplace(utxo_flush::CoinKey(at.Txid(), at.n), utxo_flush::CoinValue(coin));
    if (!IsNull(best)) c.emplace(Bytes{utxo_flush::DB_BEST_BLOCK}, Bytes(best.begin(), best.end()));
    return c;
}

Model::Model(const Scenario& s, bool fresh_rule) : m_fresh_rule{fresh_rule}, m_caches(s.caches)
{
    // The database's first coins, written as a node's first flush writes them.
    for (const auto& [at, coin] : s.db) {
        if (!Unspendable(coin.script)) m_db[at] = coin;
    }
    if (!s.db.empty()) m_db_best = DbTip();
}

std::optional<Coin> Model::Visible(size_t view, const Outpoint& at) const
{
    for (size_t v = view; v > 0; --v) {
        const auto& entries{m_caches[v - 1].entries};
        if (const auto it{entries.find(at)}; it != entries.end()) return it->second.coin;
    }
    if (const auto it{m_db.find(at)}; it != m_db.end()) return it->second;
    return std::nullopt;
}

Model::Entry* Model::Fetch(size_t view, const Outpoint& at)
{
    auto& entries{m_caches[view - 1].entries};
    if (const auto it{entries.find(at)}; it != entries.end()) return &it->second;
    std::optional<Coin> below{Visible(view - 1, at)};
    if (!below) return nullptr;
    return &entries.emplace(at, Entry{.coin = std::move(below), .dirty = false, .fresh = false}).first->second;
}

Hash Model::BestBlock(size_t view)
{
    if (view == 0) return m_db_best;
    Hash& block{m_caches[view - 1].block};
    // A detached cache asks the empty view, which has no block.
    if (IsNull(block) && !m_caches[view - 1].detached) block = BestBlock(view - 1);
    return block;
}

void Model::Snapshot(uint16_t index) { m_result.promised.contents.emplace_back(index, Encode(m_db, m_db_best)); }

bool Model::Write(size_t view, bool erase, uint16_t index)
{
    Cache& child{m_caches[view - 1]};
    if (view == 1) {
        for (const auto& [at, e] : child.entries) {
            if (!e.dirty) continue;
            if (e.coin) m_db[at] = *e.coin;
            else m_db.erase(at);
        }
        m_db_best = child.block;
    } else {
        Cache& parent{m_caches[view - 2]};
        for (const auto& [at, e] : child.entries) {
            if (!e.dirty) continue;
            const auto it{parent.entries.find(at)};
            if (it == parent.entries.end()) {
                if (!(e.fresh && !e.coin)) parent.entries.emplace(at, Entry{.coin = e.coin, .dirty = true, .fresh = e.fresh});
                continue;
            }
            if (e.fresh && it->second.coin) {
                m_result.promised.stopped = "FRESH flag misapplied to coin that exists in parent cache";
                return false;
            }
            if (it->second.fresh && !e.coin) {
                parent.entries.erase(it);
            } else {
                it->second.coin = e.coin;
                it->second.dirty = true;
            }
        }
        parent.block = child.block;
    }
    if (erase) {
        child.entries.clear();
    } else {
        // Sync: spent entries go, the others stay as clean copies of what is below now.
        std::erase_if(child.entries, [](const auto& kv) { return !kv.second.coin; });
        for (auto& [at, e] : child.entries) e.dirty = e.fresh = false;
    }
    if (view == 1) Snapshot(index);
    return true;
}

bool Model::Apply(const Op& op, uint16_t index)
{
    Promised& out{m_result.promised};
    const size_t top{m_caches.size()};
    switch (op.kind) {
    case Op::Kind::ADD: {
        if (Unspendable(op.coin.script)) return true;
        auto [it, inserted]{m_caches[top - 1].entries.try_emplace(op.at)};
        bool fresh{false};
        if (!op.possible_overwrite) {
            if (it->second.coin) {
                out.stopped = "Attempted to overwrite an unspent coin (when possible_overwrite is false)";
                return false;
            }
            fresh = m_fresh_rule && !it->second.dirty;
        }
        it->second.coin = op.coin;
        it->second.dirty = true;
        if (fresh) it->second.fresh = true;
        m_caches[top - 1].held.insert(op.at);
        return true;
    }
    case Op::Kind::EMPLACE:
        // A coin no view has seen (the decoder's contract), unchecked: DIRTY, not FRESH, kept even
        // when unspendable.
        m_caches[top - 1].entries.insert_or_assign(op.at, Entry{.coin = op.coin, .dirty = true, .fresh = false});
        m_caches[top - 1].held.insert(op.at);
        return true;
    case Op::Kind::DETACH:
        m_caches[top - 1].detached = true;
        return true;
    case Op::Kind::ATTACH:
        m_caches[top - 1].detached = false;
        return true;
    case Op::Kind::RESET:
        // The top cache's changes and block are gone; the views below are as they were.
        m_caches[top - 1] = Cache{};
        return true;
    case Op::Kind::SPEND: {
        auto& entries{m_caches[top - 1].entries};
        Entry* e{Fetch(top, op.at)};
        if (op.spends_a_coin) out.answers.push_back({.op = index, .coin = op.moveout && e ? e->coin : std::nullopt, .flag = e != nullptr, .hashes = {}, .walk = {}});
        m_caches[top - 1].held.insert(op.at);
        if (!e) return true;
        if (e->fresh) {
            entries.erase(op.at);
        } else {
            e->dirty = true;
            e->coin.reset();
        }
        return true;
    }
    case Op::Kind::ACCESS:
    case Op::Kind::GET:
    case Op::Kind::PEEK:
    case Op::Kind::HAVE: {
        const bool detached{op.view == top && m_caches[top - 1].detached};
        if (detached && op.unheld) return true;  // the cache's own answer (Core's sides report it)
        std::optional<Coin> coin;
        if (op.view == 0 || op.kind == Op::Kind::PEEK || detached) {
            // A detached cache fetches nothing: what it was given it still holds, and shows.
            coin = Visible(op.view, op.at);
        } else if (const Entry* e{Fetch(op.view, op.at)}) {
            coin = e->coin;
        }
        if (op.view > 0 && !detached && (op.kind == Op::Kind::ACCESS || op.kind == Op::Kind::HAVE)) m_caches[op.view - 1].held.insert(op.at);
        if (op.kind == Op::Kind::HAVE) out.answers.push_back({.op = index, .coin = {}, .flag = coin.has_value(), .hashes = {}, .walk = {}});
        else out.answers.push_back({.op = index, .coin = std::move(coin), .flag = false, .hashes = {}, .walk = {}});
        return true;
    }
    case Op::Kind::HAVE_IN_CACHE:
    case Op::Kind::MEMORY:
        return true;
    case Op::Kind::RESIZE:
    case Op::Kind::COMPACT:
        // A resize reopens the database, a compaction rewrites its files: neither changes a key.
        Snapshot(index);
        return true;
    case Op::Kind::UNCACHE: {
        auto& entries{m_caches[op.view - 1].entries};
        if (const auto it{entries.find(op.at)}; it != entries.end() && !it->second.dirty) entries.erase(it);
        m_caches[op.view - 1].held.erase(op.at);
        return true;
    }
    case Op::Kind::FLUSH:
    case Op::Kind::SYNC:
        m_caches[op.view - 1].held.clear();
        return Write(op.view, op.kind == Op::Kind::FLUSH, index);
    case Op::Kind::SET_BEST:
        m_caches[op.view - 1].block = op.hash;
        return true;
    case Op::Kind::GET_BEST:
        out.answers.push_back({.op = index, .coin = {}, .flag = false, .hashes = {BestBlock(op.view)}, .walk = {}});
        return true;
    case Op::Kind::GET_HEADS:
        // Only a flush that stopped between its batches leaves head blocks: none does here.
        out.answers.push_back({.op = index, .coin = {}, .flag = false, .hashes = {}, .walk = {}});
        return true;
    case Op::Kind::CURSOR: {
        Answer a{.op = index, .coin = {}, .flag = false, .hashes = {m_db_best}, .walk = {}};
        // The cursor walks the keys in the order of their bytes: the txid, then VARINT(n).
        std::map<Bytes, std::pair<Outpoint, Coin>> by_key;
        for (const auto& [at, coin] : m_db) by_key.emplace(utxo_flush::CoinKey(at.Txid(), at.n), std::pair{at, coin});
        for (auto& [key, entry] : by_key) a.walk.push_back(std::move(entry));
        out.answers.push_back(std::move(a));
        return true;
    }
    case Op::Kind::REOPEN:
        // A restart: what the caches held unflushed is gone; the database is what was written.
        for (Cache& c : m_caches) c = Cache{};
        Snapshot(index);
        return true;
    case Op::Kind::PUSH:
        m_caches.emplace_back();
        return true;
    case Op::Kind::POP:
        m_caches.pop_back();
        return true;
    }
    return true;
}

Result RunModel(const Scenario& s, bool fresh_rule)
{
    Model model{s, fresh_rule};
    for (size_t i = 0; i < s.ops.size(); ++i) {
        if (!model.Apply(s.ops[i], static_cast<uint16_t>(i))) return model.Take();
    }
    return model.Finish(static_cast<uint16_t>(s.ops.size()));
}

} // namespace equifuzz::coins_view
