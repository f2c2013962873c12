// The coins_view targets' structured mutation: a scenario decoded from the input, changed where the
// stack's bugs live, and written back as the bytes Decode reads (EncodeScenario). The bugs of a
// cache stack need calls that meet: the same outpoint added, spent, flushed down and looked up
// again at another level, a cache detached after it brought a coin in, coins compacted deep and
// their spends written over them. Bytewise mutations rarely keep an outpoint while changing the
// call around it; these do. EncodeScenario writes what Decode makes of any change (a call it would
// skip left out, a best block before a first flush), so every result is an input within the
// callers' contracts, as every decoded input is.
#include "pair.h"

#include "pair_parts.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <vector>

namespace equifuzz::coins_view {
namespace {

using namespace parts;

//! An outpoint the scenario already names (its database's or a call's), or sometimes a new one.
Outpoint AnyOutpoint(Mutation& m, const Scenario& s)
{
    std::vector<Outpoint> named;
    for (const auto& [at, coin] : s.db) named.push_back(at);
    for (const Op& op : s.ops) {
        if (TakesOutpoint(op.kind)) named.push_back(op.at);
    }
    if (!named.empty() && !m.OneIn(4)) return named[m.Below(named.size())];
    Outpoint at;
    at.id = static_cast<uint8_t>(m.Between(1, TXIDS));
    at.n = OUTPUT_INDEXES[m.Below(std::size(OUTPUT_INDEXES))];
    return at;
}

//! An outpoint the scenario does not name yet, where one is left: what a snapshot's coin is
//! (EmplaceCoinInternalDANGER of a named outpoint is read as an AddCoin).
Outpoint NewOutpoint(Mutation& m, const Scenario& s)
{
    std::vector<Outpoint> unnamed;
    for (uint8_t id = 1; id <= TXIDS; ++id) {
        for (const uint32_t n : OUTPUT_INDEXES) {
            const Outpoint at{.id = id, .n = n};
            const bool named{std::any_of(s.db.begin(), s.db.end(), [&](const auto& c) { return c.first == at; }) ||
                             std::any_of(s.ops.begin(), s.ops.end(), [&](const Op& op) { return TakesOutpoint(op.kind) && op.at == at; })};
            if (!named) unnamed.push_back(at);
        }
    }
    return unnamed.empty() ? AnyOutpoint(m, s) : unnamed[m.Below(unnamed.size())];
}

Coin AnyCoin(Mutation& m, const Scenario& s)
{
    for (const Op& op : s.ops) {
        if ((op.kind == Op::Kind::ADD || op.kind == Op::Kind::EMPLACE) && m.OneIn(3)) return op.coin;
    }
    Coin c;
    c.height = static_cast<uint32_t>(m.Below(MAX_HEIGHT + 1));
    c.coinbase = m.OneIn(4);
    c.amount = static_cast<int64_t>(m.OneIn(2) ? m.Below(SMALL_AMOUNT + 1) : m.Below(5'000'000'000));
    if (m.OneIn(8)) {
        c.script = {0x6a, m.Byte()};  // unspendable: AddCoin leaves it out
    } else if (m.OneIn(3)) {
        c.script = {0x76, 0xa9, 20};
        c.script.insert(c.script.end(), 20, m.Byte());
        c.script.insert(c.script.end(), {0x88, 0xac});
    } else {
        // Longer than a script's 28 inline bytes: a coin with memory of its own, which the cache's
        // usage must count (a P2PKH coin's is 0).
        c.script = m.Filler(m.Between(29, MAX_RAW_SCRIPT));
        if (!c.script.empty() && c.script[0] == 0x6a) c.script[0] = 0x51;
    }
    return c;
}

//! A call of `kind`: at a random level, on a named outpoint, with a coin where it takes one.
Op NewOp(Mutation& m, const Scenario& s, Op::Kind kind)
{
    Op op;
    op.kind = kind;
    op.view = static_cast<uint8_t>(m.Below(MAX_CACHES + 1));  // EncodeScenario brings it within the stack
    op.at = kind == Op::Kind::EMPLACE ? NewOutpoint(m, s) : AnyOutpoint(m, s);
    op.coin = AnyCoin(m, s);
    op.possible_overwrite = m.OneIn(2);
    op.moveout = m.OneIn(2);
    op.hash.fill(static_cast<uint8_t>(m.Between(1, 255)));
    op.cache_bytes = CACHE_SIZES[m.Below(std::size(CACHE_SIZES))];
    return op;
}

void InsertAt(Mutation& m, Scenario& s, Op op) { s.ops.insert(s.ops.begin() + static_cast<std::ptrdiff_t>(m.Below(s.ops.size() + 1)), std::move(op)); }

//! A few calls as a node makes them around one coin the scenario names, inserted together: mempool
//! acceptance's view (the coin brought in, the backend swapped for the empty view, the coin read
//! again), a block's spend flushed down to the database and read back, a block that fails to
//! connect (its view reset), a restart or a compaction and a read of the coin after it.
bool InsertIdiom(Mutation& m, Scenario& s)
{
    static constexpr std::array READS{Op::Kind::ACCESS, Op::Kind::GET, Op::Kind::PEEK, Op::Kind::HAVE};
    const Outpoint at{AnyOutpoint(m, s)};
    const auto call{[&](Op::Kind kind, uint8_t view) {
        Op op{NewOp(m, s, kind)};
        op.at = at;
        op.view = view;
        return op;
    }};
    constexpr uint8_t TOP{MAX_CACHES};  // EncodeScenario brings it down to the stack's top
    std::vector<Op> idiom;
    switch (m.Below(5)) {
    case 4: // a block that fails to connect: its view spends or adds, takes the block, and is reset
        idiom = {call(m.OneIn(2) ? Op::Kind::ADD : Op::Kind::SPEND, TOP), call(Op::Kind::SET_BEST, TOP), call(Op::Kind::RESET, TOP),
                 call(m.OneIn(2) ? Op::Kind::GET_BEST : m.Pick(READS), TOP)};
        break;
    case 0: // mempool acceptance: bring the coin in, detach, read it again
        idiom = {call(m.OneIn(2) ? Op::Kind::HAVE : Op::Kind::ACCESS, TOP), call(Op::Kind::DETACH, TOP), call(m.Pick(READS), TOP)};
        break;
    case 1: // a block's spend (or add) flushed into the cache below, then into the database, and read there
        idiom = {call(m.OneIn(3) ? Op::Kind::ADD : Op::Kind::SPEND, TOP), call(Op::Kind::FLUSH, TOP), call(Op::Kind::FLUSH, 1),
                 call(m.Pick(READS), 0)};
        break;
    case 2: // a restart, and the coin read through the new caches
        idiom = {call(Op::Kind::FLUSH, 1), call(Op::Kind::REOPEN, 0), call(m.Pick(READS), TOP)};
        break;
    default: // a compaction over what was flushed, and the coin read from the database
        idiom = {call(Op::Kind::FLUSH, 1), call(Op::Kind::COMPACT, 0), call(m.Pick(READS), 0)};
        break;
    }
    if (s.ops.size() + idiom.size() > MAX_OPS) return false;
    const size_t to{m.Below(s.ops.size() + 1)};
    s.ops.insert(s.ops.begin() + static_cast<std::ptrdiff_t>(to), idiom.begin(), idiom.end());
    return true;
}

bool Change(Mutation& m, Scenario& s, bool faults)
{
    static constexpr std::array LOOKUPS{Op::Kind::ACCESS, Op::Kind::GET, Op::Kind::PEEK, Op::Kind::HAVE, Op::Kind::HAVE_IN_CACHE};
    // The calls that move coins between levels or rewrite the database's files.
    static constexpr std::array MOVES{Op::Kind::FLUSH, Op::Kind::SYNC, Op::Kind::REOPEN, Op::Kind::COMPACT, Op::Kind::RESIZE,
                                      Op::Kind::PUSH, Op::Kind::POP, Op::Kind::DETACH, Op::Kind::RESET, Op::Kind::UNCACHE};
    const bool full{s.ops.size() >= MAX_OPS};
    switch (m.Below(11)) {
    case 9:
    case 10: // a node's few calls around one coin
        return InsertIdiom(m, s);
    case 0: // a new call of any kind
        if (full) return false;
        InsertAt(m, s, NewOp(m, s, PickChoice<OpKind>(m)));
        return true;
    case 1: // a lookup of an outpoint the scenario names, at any level, after any call
        if (full) return false;
        InsertAt(m, s, NewOp(m, s, m.Pick(LOOKUPS)));
        return true;
    case 2: // a flush, Sync, restart, compaction, push, pop, detach, Reset or Uncache
        if (full) return false;
        InsertAt(m, s, NewOp(m, s, m.Pick(MOVES)));
        return true;
    case 3: { // a run of one to four calls copied elsewhere (a spend after a re-add, a flush after the flush)
        if (s.ops.empty() || full) return false;
        const size_t from{m.Below(s.ops.size())};
        const size_t n{std::min<size_t>({1 + m.Below(4), s.ops.size() - from, MAX_OPS - s.ops.size()})};
        const std::vector<Op> run(s.ops.begin() + static_cast<std::ptrdiff_t>(from), s.ops.begin() + static_cast<std::ptrdiff_t>(from + n));
        const size_t to{m.Below(s.ops.size() + 1)};
        s.ops.insert(s.ops.begin() + static_cast<std::ptrdiff_t>(to), run.begin(), run.end());
        return true;
    }
    case 4: // one call fewer
        if (s.ops.empty()) return false;
        s.ops.erase(s.ops.begin() + static_cast<std::ptrdiff_t>(m.Below(s.ops.size())));
        return true;
    case 5: { // a call moved to another outpoint the scenario names, or to another level
        if (s.ops.empty()) return false;
        Op& op{s.ops[m.Below(s.ops.size())]};
        if (m.OneIn(2)) {
            op.at = AnyOutpoint(m, s);
        } else {
            op.view = static_cast<uint8_t>(m.Below(MAX_CACHES + 1));
        }
        return true;
    }
    case 6: { // a call of another kind on the same outpoint and level (a spend where a lookup was)
        if (s.ops.empty()) return false;
        Op& op{s.ops[m.Below(s.ops.size())]};
        const Op::Kind kind{PickChoice<OpKind>(m)};
        if (kind == op.kind) return false;
        op.kind = kind;
        if (kind == Op::Kind::ADD || kind == Op::Kind::EMPLACE) op.coin = AnyCoin(m, s);
        if (kind == Op::Kind::EMPLACE) op.at = NewOutpoint(m, s);
        return true;
    }
    case 7: // the database's first coins, or the stack's depth
        if (m.OneIn(2) && s.db.size() < MAX_DB_COINS) {
            s.db.emplace_back(AnyOutpoint(m, s), AnyCoin(m, s));
        } else if (m.OneIn(2) && !s.db.empty()) {
            s.db.erase(s.db.begin() + static_cast<std::ptrdiff_t>(m.Below(s.db.size())));
        } else {
            s.caches = static_cast<uint8_t>(m.Between(1, MAX_CACHES));
        }
        return true;
    default: // faults: another fault; else the obfuscation key
        if (faults) {
            s.fault.kind = PickChoice<FaultKind>(m);
            s.fault.at = static_cast<uint8_t>(m.Between(1, s.fault.kind == Fault::Kind::READ ? MAX_READ_AT : MAX_FAULT_AT));
            s.fault.keep = m.Byte();
        } else {
            s.obfuscate = !s.obfuscate;
        }
        return true;
    }
}

} // namespace

bool MutateScenario(Mutation& m, bool faults)
{
    return DecodeChangeEncode(
        m, [&](FuzzedDataProvider& fdp) { return Decode(fdp, faults); }, [&](Scenario& s) { return Change(m, s, faults); },
        [&](const Scenario& s) { return EncodeScenario(s); });
}

} // namespace equifuzz::coins_view
