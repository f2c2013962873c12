// The coins view targets' seeds, written by the pair's encoder (EncodeScenario; common/seeds.h).
//
// Random inputs of assorted lengths give stacks and call sequences of assorted shapes (the
// decoder reads every choice through the FuzzedDataProvider); constant inputs pick the edge
// choices. And stories a node lives, around real coins (the outputs of the real blocks in
// tests/data/bitcoin, 277647.dat among them, their scripts carried as raw bytes): a block's view
// over the chainstate's cache spends database coins and adds new ones, is flushed into the cache
// below, which is flushed into the database and read back with the cursor, then a restart; a coin
// added and spent in the same cache (FRESH, never written); a coin spent and added again (a reorg,
// DIRTY and not FRESH); three caches with Sync, Uncache, the memory figures and a cache resize;
// caches pushed and dropped unflushed; compactions between flushes; a snapshot's coins emplaced,
// and a block's view reset; Uncache of changed coins; a mempool check's view with the empty view
// as its backend; a node stopped while its compaction runs.
//
// coins_view_faults (the database on real files, one write or read failing) gets random inputs
// and the same stories, each with each of a few faults (FAULTS).
#include "pair.h"
#include "pair_parts.h"

#include <common/seeds.h>

#include <algorithm>
#include <functional>
#include <initializer_list>

namespace equifuzz::coins_view {
namespace {

using Kind = Op::Kind;

//! One story: the scenario's start, then its calls, each at a level of the stack as it is then.
class Story
{
public:
    Story(bool obfuscate, uint8_t caches, std::vector<std::pair<Outpoint, Coin>> db, const Fault& fault)
    {
        m_s.obfuscate = obfuscate;
        m_s.caches = caches;
        m_s.db = std::move(db);
        m_s.on_disk = fault.kind != Fault::Kind::NONE;
        m_s.fault = fault;
        m_depth = caches;
    }
    //! A call at `level` (ignored by the calls whose view is fixed), on outpoint `at`.
    Story& Call(Kind kind, Level level = Level::TOP, Outpoint at = {})
    {
        Op op;
        op.kind = kind;
        op.at = at;
        op.view = ViewOf(level);
        return Push(op);
    }
    Story& At(Kind kind, Level level, uint8_t id, uint32_t n) { return Call(kind, level, {id, n}); }
    Story& Add(uint8_t id, uint32_t n, const Coin& coin, bool overwrite = false)
    {
        Op op{Base(Kind::ADD, id, n)};
        op.coin = coin;
        op.possible_overwrite = overwrite;
        return Push(op);
    }
    Story& Emplace(uint8_t id, uint32_t n, const Coin& coin)
    {
        Op op{Base(Kind::EMPLACE, id, n)};
        op.coin = coin;
        return Push(op);
    }
    Story& Spend(uint8_t id, uint32_t n, bool moveout = false)
    {
        Op op{Base(Kind::SPEND, id, n)};
        op.moveout = moveout;
        return Push(op);
    }
    Story& SetBest(Level level, uint8_t byte)
    {
        Op op;
        op.kind = Kind::SET_BEST;
        op.view = ViewOf(level);
        op.hash.fill(byte);
        return Push(op);
    }
    Story& Resize(size_t index)
    {
        Op op;
        op.kind = Kind::RESIZE;
        op.cache_bytes = CACHE_SIZES[index];
        return Push(op);
    }
    Bytes Encode() const { return EncodeScenario(m_s); }

private:
    uint8_t ViewOf(Level level) const
    {
        switch (level) {
        case Level::TOP: return m_depth;
        case Level::BELOW_TOP: return m_depth > 1 ? m_depth - 1 : 1;
        case Level::BOTTOM: return 1;
        case Level::DATABASE: return 0;
        }
        return m_depth;
    }
    Op Base(Kind kind, uint8_t id, uint32_t n) const
    {
        Op op;
        op.kind = kind;
        op.at = {id, n};
        op.view = m_depth;
        return op;
    }
    Story& Push(Op op)
    {
        if (op.kind == Kind::PUSH) ++m_depth;
        if (op.kind == Kind::POP) --m_depth;
        m_s.ops.push_back(std::move(op));
        return *this;
    }

    Scenario m_s;
    uint8_t m_depth;
};

//! The stories over `coins` (taken in order), each with `fault`, to `add`.
void Stories(const std::vector<seeds::RealCoin>& coins, const Fault& fault, const std::function<void(const Bytes&)>& add)
{
    size_t next{0};
    const auto pick{[&] { return seeds::CoinAs<Coin>(coins.at(next++)); }};
    std::vector<std::pair<Outpoint, Coin>> db;
    for (uint8_t id : {1, 2}) {
        for (uint32_t n : {0, 1, 2, 3}) db.emplace_back(Outpoint{id, n}, pick());
    }
    const auto first{[&](size_t n) { return std::vector(db.begin(), db.begin() + n); }};
    constexpr Level TOP{Level::TOP}, BELOW_TOP{Level::BELOW_TOP}, BOTTOM{Level::BOTTOM}, DATABASE{Level::DATABASE};
    {   // A block's view over the chainstate's cache: spends, new coins, two flushes, a restart.
        Story s{true, 2, db, fault};
        s.At(Kind::ACCESS, TOP, 1, 0).Spend(1, 0, true).Spend(2, 3, false);
        for (uint32_t n : {0, 1, 127, 128}) s.Add(3, n, pick());
        s.Spend(3, 1, true);
        s.At(Kind::HAVE, BELOW_TOP, 1, 0).Call(Kind::FLUSH, TOP).Call(Kind::GET_BEST, DATABASE);
        s.SetBest(BOTTOM, 0x42).Call(Kind::FLUSH, BOTTOM).Call(Kind::CURSOR).Call(Kind::GET_HEADS);
        s.Call(Kind::REOPEN).Call(Kind::CURSOR).At(Kind::HAVE, DATABASE, 3, 0).At(Kind::GET, TOP, 3, 128).Call(Kind::GET_BEST, TOP);
        add(s.Encode());
    }
    {   // A coin added and spent in one cache (FRESH: nothing reaches the database), and a Sync.
        Story s{false, 1, first(2), fault};
        s.Add(4, 16'383, pick()).Call(Kind::MEMORY, TOP).Spend(4, 16'383, true);
        s.Add(4, 16'384, pick()).SetBest(TOP, 7).Call(Kind::SYNC, TOP);
        s.At(Kind::HAVE_IN_CACHE, TOP, 4, 16'384).Spend(4, 16'384).Call(Kind::FLUSH, TOP).Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // A reorg: a database coin spent, then added again without possible_overwrite (DIRTY, not FRESH).
        Story s{true, 1, first(4), fault};
        s.Spend(1, 2, true).Add(1, 2, pick()).Spend(1, 2);
        s.SetBest(TOP, 9).Call(Kind::FLUSH, TOP).At(Kind::GET, DATABASE, 1, 2).Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // Three caches: Sync of the middle one, Uncache, memory figures, a resize, caches dropped.
        Story s{false, 3, db, fault};
        s.At(Kind::ACCESS, BOTTOM, 2, 0).At(Kind::ACCESS, TOP, 2, 1).At(Kind::UNCACHE, BOTTOM, 2, 0);
        s.Add(4, 2, pick()).Spend(2, 1, true).Call(Kind::SYNC, TOP);
        s.At(Kind::PEEK, BELOW_TOP, 4, 2).At(Kind::HAVE_IN_CACHE, BELOW_TOP, 2, 1).Call(Kind::SYNC, BELOW_TOP);
        s.Call(Kind::MEMORY, BOTTOM).Resize(1).Call(Kind::POP).Call(Kind::PUSH).At(Kind::GET, TOP, 4, 2);
        s.SetBest(BOTTOM, 0x99).Call(Kind::FLUSH, BOTTOM).Call(Kind::CURSOR).Call(Kind::GET_BEST, TOP);
        add(s.Encode());
    }
    {   // Changes dropped unflushed: a view popped, a restart with the caches full.
        Story s{true, 2, first(3), fault};
        s.Add(2, 127, pick()).Spend(1, 0).Call(Kind::POP).At(Kind::HAVE, TOP, 1, 0);
        s.Call(Kind::PUSH).Spend(1, 1, true).Call(Kind::FLUSH, TOP).Call(Kind::REOPEN).At(Kind::HAVE, TOP, 1, 1);
        s.Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // Compactions: coins written and the database compacted (its tables rewritten, the coins at a
        // deep level); coins spent, a restart (LevelDB writes its log to a level-0 table) and the
        // database compacted again: each deletion marker meets the coin it hides a level below.
        Story s{false, 1, first(4), fault};
        s.SetBest(TOP, 3).Call(Kind::FLUSH, TOP).Call(Kind::COMPACT).Spend(1, 1, true);
        s.Spend(1, 3).Add(2, 0, pick()).Call(Kind::FLUSH, TOP).Call(Kind::REOPEN).Call(Kind::COMPACT);
        s.At(Kind::GET, DATABASE, 1, 1).At(Kind::HAVE, DATABASE, 1, 3).Call(Kind::CURSOR).At(Kind::GET, TOP, 2, 0);
        add(s.Encode());
    }
    {   // A compaction still running when the cache is resized (Core's ResizeCache replaces the
        // database the compaction thread uses; a lock orders them), then reads and a flush.
        Story s{true, 2, first(6), fault};
        s.Call(Kind::COMPACT).Resize(1).At(Kind::GET, DATABASE, 2, 1).Spend(2, 0, true);
        s.Call(Kind::FLUSH, TOP).SetBest(BOTTOM, 5).Call(Kind::FLUSH, BOTTOM).Call(Kind::COMPACT).Resize(0);
        s.Call(Kind::CURSOR).At(Kind::HAVE, TOP, 2, 0);
        add(s.Encode());
    }
    {   // A snapshot's load: coins emplaced into the chainstate's cache over an empty database,
        // flushed and walked; then a block's view over it spends and adds, and is reset (the block
        // discarded): its changes are gone, the chainstate's coins are as they were.
        Story s{false, 1, {}, fault};
        for (const Outpoint at : {Outpoint{3, 0}, Outpoint{3, 1}, Outpoint{3, 16'384}, Outpoint{4, 2}}) s.Emplace(at.id, at.n, pick());
        s.Call(Kind::MEMORY, TOP).SetBest(TOP, 0x55).Call(Kind::FLUSH, TOP).Call(Kind::CURSOR).Call(Kind::PUSH);
        s.Spend(3, 1, true).Add(1, 0, pick()).SetBest(TOP, 0x56);
        s.Call(Kind::RESET).At(Kind::GET, TOP, 3, 1).At(Kind::HAVE, TOP, 1, 0).Call(Kind::GET_BEST, TOP).Call(Kind::MEMORY, TOP);
        s.Emplace(2, 128, pick()).Call(Kind::SYNC, TOP).SetBest(BOTTOM, 0x57);
        s.Call(Kind::FLUSH, BOTTOM).Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // Uncache of changed coins: an added coin and a spent one are DIRTY, and Uncache leaves them
        // (a dropped change would be lost); a clean one fetched from below goes. Every answer is a
        // promise, on trees with or without a dirty count.
        Story s{false, 2, first(2), fault};
        s.Add(3, 3, pick()).Spend(1, 0, true).At(Kind::ACCESS, TOP, 1, 1);
        s.At(Kind::UNCACHE, TOP, 3, 3).At(Kind::UNCACHE, TOP, 1, 0).At(Kind::UNCACHE, TOP, 1, 1);
        s.At(Kind::GET, TOP, 3, 3).At(Kind::HAVE, TOP, 1, 0).At(Kind::GET, TOP, 1, 1).Call(Kind::FLUSH, TOP);
        s.SetBest(BOTTOM, 0x31).Call(Kind::FLUSH, BOTTOM).Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // Mempool acceptance: a scratch view brings a transaction's coins in (HaveCoin of each
        // input, one of them missing; AccessCoin), the best block into scope, then has the empty
        // view for its backend: it still answers for what it was given; a coin it was not given, or
        // let go of (Uncache), is its own business. Then its backend set back, a spend, and the
        // view flushed.
        Story s{true, 2, first(6), fault};
        s.At(Kind::HAVE, TOP, 1, 0).At(Kind::HAVE, TOP, 1, 1).At(Kind::HAVE, TOP, 4, 0).At(Kind::ACCESS, TOP, 1, 2);
        s.Call(Kind::GET_BEST, TOP).Call(Kind::DETACH).At(Kind::ACCESS, TOP, 1, 0).At(Kind::GET, TOP, 1, 1);
        s.At(Kind::HAVE, TOP, 4, 0).At(Kind::PEEK, TOP, 1, 2).Call(Kind::GET_BEST, TOP).At(Kind::GET, TOP, 1, 3);
        s.At(Kind::HAVE, BELOW_TOP, 1, 3).At(Kind::UNCACHE, TOP, 1, 1).At(Kind::HAVE, TOP, 1, 1);
        s.Call(Kind::MEMORY, TOP).Call(Kind::ATTACH).Spend(1, 0, true).Call(Kind::DETACH);
        s.At(Kind::ACCESS, TOP, 1, 0).Call(Kind::ATTACH).Call(Kind::FLUSH, TOP).SetBest(BOTTOM, 0x66);
        s.Call(Kind::FLUSH, BOTTOM).Call(Kind::CURSOR);
        add(s.Encode());
    }
    {   // A node stopped while its compaction runs: spends flushed, the compaction started, and a
        // restart right away (closing the database waits for the compaction); LevelDB's memory read
        // through the database, then the coins read back.
        Story s{true, 1, first(5), fault};
        s.Spend(1, 1, true).Spend(2, 0).SetBest(TOP, 0x71);
        s.Call(Kind::FLUSH, TOP).Call(Kind::COMPACT).Call(Kind::REOPEN).Call(Kind::MEMORY, TOP).At(Kind::GET, DATABASE, 1, 1);
        s.At(Kind::HAVE, TOP, 1, 2).Call(Kind::CURSOR);
        add(s.Encode());
    }
}

//! The benchmark's inputs of one kind (bench/results/2026-11-29-coins-view-input-kinds.txt): 150
//! inputs of 30 calls around real coins (adds, spends, lookups, flushes and Syncs with their best
//! blocks, memory figures), each with the `extra` calls halfway (a cursor walk, a restart, a
//! compaction, or none).
void InputKind(const std::vector<seeds::RealCoin>& coins, std::string_view name, const std::vector<Kind>& extra,
               const std::function<void(const Bytes&)>& add)
{
    seeds::Stream r{name};
    constexpr size_t INPUTS{150}, CALLS{30};
    for (size_t i = 0; i < INPUTS; ++i) {
        std::vector<std::pair<Outpoint, Coin>> db;
        for (int k = 0; k < 6; ++k) {
            const Outpoint at{static_cast<uint8_t>(r.InRange(1, 2)), OUTPUT_INDEXES[r.Below(4)]};
            if (std::none_of(db.begin(), db.end(), [&](const auto& e) { return e.first == at; })) db.emplace_back(at, seeds::CoinAs<Coin>(r.Pick(coins)));
        }
        const bool obfuscate{r.Chance(50)};
        Story s{obfuscate, static_cast<uint8_t>(r.InRange(1, 3)), db, Fault{}};
        for (size_t k = 0; k < CALLS; ++k) {
            const Outpoint at{static_cast<uint8_t>(r.InRange(1, 4)), OUTPUT_INDEXES[r.Below(std::size(OUTPUT_INDEXES))]};
            const Kind kind{r.Pick({Kind::ADD, Kind::SPEND, Kind::ACCESS, Kind::GET, Kind::HAVE, Kind::FLUSH, Kind::GET_BEST, Kind::SYNC, Kind::MEMORY})};
            if (kind == Kind::ADD) {
                s.Add(at.id, at.n, seeds::CoinAs<Coin>(r.Pick(coins)), true);
            } else if (kind == Kind::SPEND) {
                s.Spend(at.id, at.n, true);
            } else if (kind == Kind::ACCESS || kind == Kind::GET || kind == Kind::HAVE) {
                s.Call(kind, Level::TOP, at);
            } else if (kind == Kind::FLUSH || kind == Kind::SYNC) {
                s.SetBest(Level::TOP, static_cast<uint8_t>(r.InRange(1, 255))).Call(kind, Level::TOP);
            } else {
                s.Call(kind, Level::TOP);
            }
            if (k == CALLS / 2) {
                for (const Kind e : extra) s.Call(e);
            }
        }
        add(s.Encode());
    }
}

Fault MakeFault(Fault::Kind kind, uint8_t at, uint8_t keep = 0)
{
    Fault f;
    f.kind = kind;
    f.at = at;
    f.keep = keep;
    return f;
}

} // namespace
} // namespace equifuzz::coins_view

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace coins_view;
    const std::vector<RealCoin> coins{w.RealCoins(parts::MAX_RAW_SCRIPT)};
    w.AddRandom("coins_view", {0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600});
    w.AddConstant("coins_view", {0x00, 0x01, 0x7f, 0xff}, {16, 256, 1024});
    // Windows of real coins: the first block's and 277647's (the last file's) outputs.
    const auto to_view{[&](const Bytes& b) { w.Add("coins_view", b); }};
    Stories(coins, Fault{}, to_view);
    Stories(std::vector(coins.end() - 40, coins.end()), Fault{}, to_view);

    w.AddRandom("coins_view_faults", {0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600});
    // The faults the stories carry: each kind, early and later in the log's writes (a bottom flush
    // appends a record's header and body, then flushes it) or the lookups' reads of table files
    // (after a restart or a compaction the coins are in tables).
    using K = Fault::Kind;
    for (const Fault& f : {MakeFault(K::APPEND, 1), MakeFault(K::APPEND, 2), MakeFault(K::TORN, 2, 100), MakeFault(K::FLUSH, 1),
                           MakeFault(K::APPEND, 4), MakeFault(K::FLUSH, 2), MakeFault(K::TORN, 4, 200), MakeFault(K::READ, 1),
                           MakeFault(K::READ, 3)}) {
        Stories(coins, f, [&](const Bytes& b) { w.Add("coins_view_faults", b); });
    }

    // Not seeds: the inputs bench/results/2026-11-29-coins-view-input-kinds.txt times, written
    // when named (coins_view_seeds --data tests/data/bitcoin --out OUTDIR input_kinds/plain ...).
    const std::pair<const char*, std::vector<Op::Kind>> kinds[]{
        {"input_kinds/plain", {}}, {"input_kinds/compact", {Op::Kind::COMPACT}}, {"input_kinds/reopen", {Op::Kind::REOPEN}},
        {"input_kinds/cursor", {Op::Kind::CURSOR}}};
    for (const auto& [name, extra] : kinds) {
        if (w.Wants(name)) InputKind(coins, name, extra, [&](const Bytes& b) { w.Add(name, b); });
    }
}

} // namespace equifuzz::seeds
