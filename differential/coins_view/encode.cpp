// The decoder's mirror: a scenario written as the bytes Decode (decode.cpp) reads back, for the
// structured mutation (mutate.cpp) and the unit tests. It makes the encoder's calls in the order
// Decode makes the provider's, each named choice through choices.json (EncodeChoice) and each range
// from pair_parts.h; it follows the scenario on the model of Core's state machine, as Decode does,
// to know the stack's depth and whether the top cache is detached. Every call is written, the
// ones Decode inserted too (a best block before the bottom cache's first flush, the backend set
// back before a write): read back, they are calls of the input, and Decode inserts nothing more.
// A value Decode cannot produce is written as the nearest one it can (unit test: a decoded
// scenario written and decoded again is the same scenario).
#include "pair.h"

#include "model.h"
#include "pair_parts.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>

namespace equifuzz::coins_view {

using namespace parts;

namespace {

bool RepeatedByte(const Bytes& s, size_t from, size_t n)
{
    return s.size() >= from + n && std::all_of(s.begin() + from, s.begin() + from + n, [&](uint8_t b) { return b == s[from]; });
}

void EncodeScript(FdpEncoder& e, const Bytes& s)
{
    if (s.size() == 25 && s[0] == 0x76 && s[1] == 0xa9 && s[2] == 20 && s[23] == 0x88 && s[24] == 0xac && RepeatedByte(s, 3, 20)) {
        e.Integral<uint8_t>(s[3]);
        EncodeChoice(e, ScriptKind::P2PKH);
    } else if (s.size() == 23 && s[0] == 0xa9 && s[1] == 20 && s[22] == 0x87 && RepeatedByte(s, 2, 20)) {
        e.Integral<uint8_t>(s[2]);
        EncodeChoice(e, ScriptKind::P2SH);
    } else if (s.size() == 22 && s[0] == 0x00 && s[1] == 20 && RepeatedByte(s, 2, 20)) {
        e.Integral<uint8_t>(s[2]);
        EncodeChoice(e, ScriptKind::P2WPKH);
    } else if (s.size() == 2 && s[0] == 0x6a) {
        e.Integral<uint8_t>(s[1]);
        EncodeChoice(e, ScriptKind::OP_RETURN);
    } else { // raw bytes (at most MAX_RAW_SCRIPT)
        e.Integral<uint8_t>(0);
        EncodeChoice(e, ScriptKind::RAW);
        const size_t n{std::min(s.size(), MAX_RAW_SCRIPT)};
        e.Integral(n, 0, MAX_RAW_SCRIPT);
        e.Bytes(std::span{s}.first(n));
    }
}

void EncodeCoin(FdpEncoder& e, const Coin& c)
{
    e.Integral(c.height, 0, MAX_HEIGHT);
    e.Bool(c.coinbase);
    const int64_t amount{std::clamp<int64_t>(c.amount, 0, MAX_MONEY)};
    e.Bool(amount <= SMALL_AMOUNT);
    e.Integral(static_cast<uint64_t>(amount), 0, static_cast<uint64_t>(amount <= SMALL_AMOUNT ? SMALL_AMOUNT : MAX_MONEY));
    EncodeScript(e, c.script);
}

void EncodeOutpoint(FdpEncoder& e, const Outpoint& at)
{
    e.Integral(at.id, 1, TXIDS);
    const auto* it{std::find(std::begin(OUTPUT_INDEXES), std::end(OUTPUT_INDEXES), at.n)};
    e.Integral(it == std::end(OUTPUT_INDEXES) ? 0 : static_cast<uint64_t>(it - std::begin(OUTPUT_INDEXES)), 0, std::size(OUTPUT_INDEXES) - 1);
}

//! A level that ResolveView turns into `view` at this depth.
Level LevelOf(uint8_t view, size_t depth)
{
    if (view == 0) return Level::DATABASE;
    if (view == depth) return Level::TOP;
    if (view == 1) return Level::BOTTOM;
    return Level::BELOW_TOP;  // depth - 1, the only view left
}

} // namespace

Bytes EncodeScenario(const Scenario& s)
{
    FdpEncoder e;
    if (s.on_disk) {
        EncodeChoice(e, s.fault.kind == Fault::Kind::NONE ? Fault::Kind::APPEND : s.fault.kind);
        const uint8_t last{s.fault.kind == Fault::Kind::READ ? MAX_READ_AT : MAX_FAULT_AT};
        e.Integral(s.fault.at, 1, last);
        if (s.fault.kind == Fault::Kind::TORN) e.Integral<uint8_t>(s.fault.keep);
    }
    e.Bool(s.obfuscate);
    e.Integral(s.caches, 1, MAX_CACHES);
    const size_t db{std::min(s.db.size(), MAX_DB_COINS)};
    e.Integral(db, 0, MAX_DB_COINS);
    for (size_t i = 0; i < db; ++i) {
        EncodeOutpoint(e, s.db[i].first);
        EncodeCoin(e, s.db[i].second);
    }
    // Follows Decode's loop: a call it would skip is not written (PUSH on a full stack, a third
    // restart, ...), the calls it would insert are written before the one that needs them, and
    // each call is made what Decode makes of it (an AddCoin over a coin the top cache shows gets
    // possible_overwrite, ...) before the model runs it, so that the model's stack stays Decode's.
    const bool beyond{BeyondContract()};
    Model model{s, /*fresh_rule=*/true};
    std::set<Outpoint> named;
    for (const auto& [at, coin] : s.db) named.insert(at);
    size_t written{0};
    Admission admission;
    //! The view Decode resolves the call to at this depth, and the level written for it (none for
    //! a call whose view is fixed).
    struct Resolved {
        uint8_t view;
        bool reads_level;
        Level level;
    };
    const auto resolve{[&](const Op& op, size_t depth) {
        if (const auto fixed{FixedView(op.kind, depth)}) return Resolved{*fixed, false, Level::TOP};
        const Level level{LevelOf(op.view > depth ? static_cast<uint8_t>(depth) : op.view, depth)};
        return Resolved{ResolveView(level, op.kind, depth), true, level};
    }};
    const auto write{[&](Op op) {
        const size_t depth{model.Depth()};
        const Resolved where{resolve(op, depth)};
        op.view = where.view;
        if (!beyond) KeepWithinContract(op, model, named);
        EncodeChoice(e, op.kind);
        if (where.reads_level) EncodeChoice(e, where.level);
        const bool detached_lookup{LooksUp(op.kind) && op.view == depth && model.Detached()};
        if (detached_lookup) e.Bool(false);  // not one of the held coins by index: this outpoint
        if (TakesOutpoint(op.kind)) EncodeOutpoint(e, op.at);
        op.unheld = detached_lookup && !model.Held(op.at);
        if (op.kind == Op::Kind::ADD) {
            EncodeCoin(e, op.coin);
            e.Bool(op.possible_overwrite);
        } else if (op.kind == Op::Kind::EMPLACE) {
            EncodeCoin(e, op.coin);
        } else if (op.kind == Op::Kind::SPEND) {
            e.Bool(op.moveout);
            op.spends_a_coin = model.Visible(depth, op.at).has_value();
        } else if (op.kind == Op::Kind::SET_BEST) {
            const uint8_t byte{std::max<uint8_t>(op.hash[0], 1)};
            e.Integral(byte, 1, 255);
            op.hash.fill(byte);
        } else if (op.kind == Op::Kind::RESIZE) {
            const auto* it{std::find(std::begin(CACHE_SIZES), std::end(CACHE_SIZES), op.cache_bytes)};
            const size_t index{it == std::end(CACHE_SIZES) ? 0 : static_cast<size_t>(it - std::begin(CACHE_SIZES))};
            e.Integral(index, 0, std::size(CACHE_SIZES) - 1);
            op.cache_bytes = CACHE_SIZES[index];
        }
        if (TakesOutpoint(op.kind)) named.insert(op.at);
        return model.Apply(op, static_cast<uint16_t>(written++));
    }};
    for (const Op& op : s.ops) {
        if (written >= MAX_OPS) break;
        const size_t depth{model.Depth()};
        if (!admission.Admit(op.kind, depth, model.Detached())) continue;
        if (model.Detached() && !WhileDetached(op.kind)) {
            // A node sets the top cache's backend back before it writes or reshapes the stack.
            Op attach;
            attach.kind = Op::Kind::ATTACH;
            if (!write(attach) || written == MAX_OPS) break;
        }
        if (!beyond && (op.kind == Op::Kind::FLUSH || op.kind == Op::Kind::SYNC) && resolve(op, depth).view == 1 &&
            IsNull(model.CacheBlock(1))) {
            // A node gives the cache over the database its tip before it flushes it.
            Op best;
            best.kind = Op::Kind::SET_BEST;
            best.view = 1;
            best.hash.fill(static_cast<uint8_t>(0x10 + written));
            if (!write(best) || written == MAX_OPS) break;
        }
        if (!write(op)) break;
    }
    return e.Finish();
}

} // namespace equifuzz::coins_view
