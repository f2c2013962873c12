// The prevout fetch target's seeds, written by the pair's encoder (EncodeScenario; common/seeds.h).
//
// Random inputs of assorted lengths give databases, middle caches and blocks of assorted shapes
// (the decoder reads every choice through the FuzzedDataProvider); constant inputs pick the edge
// choices. A few scenarios are written out: a block spending database coins in ConnectBlock's
// order, with each worker count; the same permuted; one spending an earlier transaction's output
// (in a block that connects, and in one that does not); one spending the same outpoint twice; and
// blocks whose pool was interrupted before them (StartFetching's Submit refused).
//
// And the shapes of a real block (277647.dat in tests/data/bitcoin): windows of five consecutive
// transactions of it, each with its real inputs (up to the decoder's four), its spends of an
// earlier transaction of the window (the block's own chains, 86 -> 87 and 107 -> 112 -> 113 among
// them) and its real outputs (up to three, their amounts and scripts). The block does not carry
// its prevouts' coins: the outpoints it spends from elsewhere get real outputs of the same block
// as their coins, the first eight in the database and the next six added to the middle cache, so
// that the window connects; distinct outpoints are named by the decoder's 24 external outpoints
// in order.
#include "pair.h"
#include "pair_parts.h"

#include <common/seeds.h>
#include <common/transaction.h>

#include <algorithm>
#include <map>
#include <numeric>

namespace equifuzz::prevout_fetch {
namespace {

using namespace parts;

Ref External(uint8_t id, uint32_t n)
{
    Ref r;
    r.id = id;
    r.n = n;
    return r;
}

Ref InBlock(uint8_t tx, uint32_t n)
{
    Ref r;
    r.tx = tx;
    r.n = n;
    return r;
}

//! A made-up coin: P2PKH of `byte` repeated, at height 800,000.
Coin MadeUp(int64_t amount, uint8_t byte)
{
    Coin c;
    c.height = 800'000;
    c.amount = amount;
    c.script = {0x76, 0xa9, 20};
    c.script.insert(c.script.end(), 20, byte);
    c.script.insert(c.script.end(), {0x88, 0xac});
    return c;
}

//! The order Decode makes of the swaps it reads for a PERMUTED block (the k-th read for position
//! txs - k).
std::vector<uint8_t> OrderOfSwaps(size_t txs, const std::vector<size_t>& swaps)
{
    std::vector<uint8_t> order(txs);
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = txs, k = 0; i > 1; --i, ++k) std::swap(order[i - 1], order[swaps.at(k)]);
    return order;
}

//! Coins x1:0..x4:0 in the database, x1:0 spent in the middle cache, and a block: the coinbase,
//! then one transaction per list of inputs.
Scenario Made(const std::vector<std::vector<Ref>>& inputs, uint8_t workers, Scenario::Pattern pattern,
              const std::vector<size_t>& swaps = {}, bool interrupted = false)
{
    Scenario s;
    for (uint8_t id = 1; id <= 4; ++id) s.db.emplace_back(External(id, 0), MadeUp(1000 * id, id));
    MiddleOp spend;
    spend.kind = MiddleOp::Kind::SPEND;
    spend.at = External(1, 0);
    s.middle.push_back(spend);
    s.vtx.push_back({{}, {MadeUp(5000, 0x42)}});
    for (const auto& vin : inputs) s.vtx.push_back({vin, {MadeUp(700, 0x55)}});
    s.workers = workers;
    s.pattern = pattern;
    const size_t txs{s.vtx.size()};
    if (pattern == Scenario::Pattern::PERMUTED) s.order = OrderOfSwaps(txs, swaps.empty() ? std::vector<size_t>(txs - 1, 0) : swaps);
    if (pattern == Scenario::Pattern::STOP) s.stop_after = 1;
    s.flush = true;
    s.interrupted = interrupted;
    return s;
}

Coin Real(const TxOut& out)
{
    Coin c;
    c.height = 277'000;
    c.amount = std::min(out.value, MAX_MONEY);
    c.script = out.script_pubkey;
    return c;
}

//! Windows of `size` consecutive transactions of the real block, as scenarios (see the top):
//! those with a chain inside the window first, then evenly spaced others, `count` in all.
std::vector<Scenario> RealWindows(const seeds::Writer& w, size_t size = 5, size_t count = 10)
{
    const Bytes raw{w.RealBlocks().back()};
    ByteReader reader{raw};
    const Block block{ReadBlock(reader)};
    const std::vector<Transaction>& txs{block.txs};
    std::map<Hash256, size_t> where;
    for (size_t i = 0; i < txs.size(); ++i) where[Txid(txs[i])] = i;
    std::vector<TxOut> coins;
    for (const Transaction& tx : txs) {
        for (const TxOut& out : tx.vout) {
            if (out.script_pubkey.size() <= MAX_RAW_SCRIPT) coins.push_back(out);
        }
    }
    const auto prevouts{[&](size_t i) {
        std::vector<std::pair<Hash256, uint32_t>> out;
        for (size_t k = 0; k < txs[i].vin.size() && k < MAX_INPUTS; ++k) out.emplace_back(txs[i].vin[k].prevout.hash, txs[i].vin[k].prevout.n);
        return out;
    }};
    // Whether prevout (h, n) of the window's transaction at `place` is an output of an earlier one.
    const auto inside{[&](size_t start, size_t place, const Hash256& h, uint32_t n) {
        const auto it{where.find(h)};
        return it != where.end() && it->second >= start && it->second < start + place && n <= MAX_N;
    }};
    std::vector<size_t> chained, plain;
    for (size_t start = 1; start + size <= txs.size(); ++start) {
        bool chain{false};
        for (size_t i = start; i < start + size; ++i) {
            for (const auto& [h, n] : prevouts(i)) {
                const auto it{where.find(h)};
                chain |= it != where.end() && it->second >= start && it->second < i;
            }
        }
        (chain ? chained : plain).push_back(start);
    }
    std::vector<size_t> starts(chained.begin(), chained.begin() + std::min(chained.size(), count - 3));
    const size_t step{std::max<size_t>(1, plain.size() / 3)};
    for (size_t k = 0, taken = 0; k < plain.size() && taken < 3; k += step, ++taken) starts.push_back(plain[k]);

    std::vector<Scenario> out;
    for (size_t number = 0; number < starts.size(); ++number) {
        const size_t start{starts[number]};
        // The outpoints the window spends from outside it, in order, each an external Ref.
        std::vector<std::pair<Hash256, uint32_t>> outside;
        for (size_t place = 0; place < size; ++place) {
            for (const auto& [h, n] : prevouts(start + place)) {
                if (!inside(start, place, h, n) && std::find(outside.begin(), outside.end(), std::pair{h, n}) == outside.end()) outside.emplace_back(h, n);
            }
        }
        if (outside.size() > 24) outside.resize(24);
        const auto ref{[&](const std::pair<Hash256, uint32_t>& o) {
            const auto it{std::find(outside.begin(), outside.end(), o)};
            if (it == outside.end()) return External(EXTERNAL_IDS, MAX_N);
            const size_t k{static_cast<size_t>(it - outside.begin())};
            return External(static_cast<uint8_t>(1 + k / 4), static_cast<uint32_t>(k % 4));
        }};
        Scenario s;
        for (size_t k = 0; k < outside.size() && k < MAX_DB_COINS; ++k) s.db.emplace_back(ref(outside[k]), Real(coins[(start + k) % coins.size()]));
        for (size_t k = MAX_DB_COINS; k < outside.size() && k < MAX_DB_COINS + MAX_MIDDLE_OPS; ++k) {
            MiddleOp op;
            op.kind = MiddleOp::Kind::ADD_DIRTY;
            op.at = ref(outside[k]);
            op.coin = Real(coins[(start + k) % coins.size()]);
            s.middle.push_back(op);
        }
        s.vtx.push_back({{}, {Real(txs[0].vout.at(0))}}); // the coinbase's one output: the block's own
        for (size_t place = 0; place < size; ++place) {
            Tx tx;
            for (const auto& [h, n] : prevouts(start + place)) {
                // An earlier transaction of the window, else the outpoint's external name (a
                // database coin, a middle-cache one, or missing).
                tx.vin.push_back(inside(start, place, h, n) ? InBlock(static_cast<uint8_t>(1 + where.at(h) - start), n) : ref({h, n}));
            }
            for (const TxOut& o : txs[start + place].vout) {
                if (o.script_pubkey.size() <= MAX_RAW_SCRIPT && tx.vout.size() < MAX_OUTPUTS) tx.vout.push_back(Real(o));
            }
            if (tx.vout.empty()) tx.vout.push_back(Real(coins[0]));
            s.vtx.push_back(tx);
        }
        s.workers = number % 2 == 0 ? 8 : 2;
        // Every third block permuted: the last transaction and the coinbase swap places.
        s.pattern = number % 3 == 2 ? Scenario::Pattern::PERMUTED : Scenario::Pattern::CONNECT;
        if (s.pattern == Scenario::Pattern::PERMUTED) {
            std::vector<size_t> swaps{0};
            for (size_t k = size; k > 1; --k) swaps.push_back(k - 1);
            s.order = OrderOfSwaps(size + 1, swaps);
        }
        s.flush = true;
        out.push_back(s);
    }
    return out;
}

} // namespace
} // namespace equifuzz::prevout_fetch

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace prevout_fetch;
    using P = Scenario::Pattern;
    constexpr std::string_view T{"prevout_fetch"};
    w.AddRandom(T, {0, 8, 16, 32, 48, 64, 96, 128, 160, 200, 256, 320, 400, 512});
    w.AddConstant(T, {0x00, 0x01, 0x7f, 0xff}, {16, 128, 512});
    const auto x{[](uint8_t id, uint32_t n) { return External(id, n); }};
    const auto add{[&](const Scenario& s) { w.Add(T, EncodeScenario(s)); }};
    for (const uint8_t workers : {0, 2, 8, 16}) {
        // Database coins in ConnectBlock's order: every queued input consumed.
        add(Made({{x(2, 0), x(3, 0)}, {x(4, 0)}}, workers, P::CONNECT));
        // The same, transactions swapped: the queue's tail falls behind.
        add(Made({{x(2, 0), x(3, 0)}, {x(4, 0)}}, workers, P::PERMUTED, {1, 0}));
        // An earlier transaction's output (filtered from the queue), a spent and a missing outpoint.
        add(Made({{x(2, 0)}, {InBlock(1, 0), x(3, 0)}, {x(1, 0)}}, workers, P::CONNECT));
        add(Made({{x(2, 0)}, {InBlock(1, 0), x(3, 0)}}, workers, P::CONNECT));
        add(Made({{x(2, 0)}, {x(5, 1)}}, workers, P::STOP));
        // The same outpoint twice in one transaction (beyond the contract only: within it, the
        // decoder keeps one): a cache hit leaves its queued entry behind.
        add(Made({{x(2, 0), x(2, 0)}, {x(3, 0)}}, workers, P::CONNECT));
    }
    for (const uint8_t workers : {2, 8}) {
        // The pool interrupted before the block: Submit refused, a warning, the serial path; in
        // ConnectBlock's order and permuted (a queue kept by mistake would fall behind).
        add(Made({{x(2, 0), x(3, 0)}, {x(4, 0)}}, workers, P::CONNECT, {}, true));
        add(Made({{x(2, 0), x(3, 0)}, {x(4, 0)}}, workers, P::PERMUTED, {1, 0}, true));
    }
    for (const Scenario& s : RealWindows(w)) add(s);
}

} // namespace equifuzz::seeds
