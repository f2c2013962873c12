// The decoder's mirror: a scenario written as the bytes Decode (decode.cpp) reads back, for the seed
// program (seeds.cpp). Every function makes the encoder's calls in the order Decode makes the
// provider's, each range from pair_parts.h and each named choice through choices.json
// (EncodeChoice). Of the ways Decode can read an outpoint (its own bytes, a pick from the
// database's or the middle cache's list, a second spend of an earlier input), the encoder always
// writes the first: the same outpoint, fewer choices to keep in step (unit test: a decoded
// scenario written and decoded again is the same scenario).
#include "pair.h"
#include "pair_parts.h"

#include <equifuzz/mutator.h>

#include <algorithm>
#include <iterator>
#include <numeric>

namespace equifuzz::prevout_fetch {

using namespace parts;

namespace {

bool RepeatedByte(const Bytes& s, size_t from, size_t n)
{
    return std::all_of(s.begin() + from, s.begin() + from + n, [&](uint8_t b) { return b == s[from]; });
}

void EncodeScript(FdpEncoder& e, const Bytes& s)
{
    if (s.size() == 25 && s[0] == 0x76 && s[1] == 0xa9 && s[2] == 20 && s[23] == 0x88 && s[24] == 0xac && RepeatedByte(s, 3, 20)) {
        e.Integral<uint8_t>(s[3]);
        EncodeChoice(e, ScriptKind::P2PKH);
    } else if (s.size() == 22 && s[0] == 0x00 && s[1] == 20 && RepeatedByte(s, 2, 20)) {
        e.Integral<uint8_t>(s[2]);
        EncodeChoice(e, ScriptKind::P2WPKH);
    } else if (s.size() == 2 && s[0] == 0x6a) {
        e.Integral<uint8_t>(s[1]);
        EncodeChoice(e, ScriptKind::OP_RETURN);
    } else if (s.empty()) {
        e.Integral<uint8_t>(0);
        EncodeChoice(e, ScriptKind::EMPTY);
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

void EncodeExternal(FdpEncoder& e, const Ref& r)
{
    e.Integral(r.External() ? r.id : 1, 1, EXTERNAL_IDS);
    e.Integral(r.External() ? r.n : 0, 0, MAX_N);
}

} // namespace

Bytes EncodeScenario(const Scenario& s)
{
    FdpEncoder e;
    const size_t db{std::min(s.db.size(), MAX_DB_COINS)};
    e.Integral(db, 0, MAX_DB_COINS);
    for (size_t i = 0; i < db; ++i) {
        EncodeExternal(e, s.db[i].first);
        EncodeCoin(e, s.db[i].second);
    }
    const size_t middle{std::min(s.middle.size(), MAX_MIDDLE_OPS)};
    e.Integral(middle, 0, MAX_MIDDLE_OPS);
    for (size_t i = 0; i < middle; ++i) {
        const MiddleOp& op{s.middle[i]};
        EncodeChoice(e, op.kind);
        if (db > 0) e.Bool(false); // not a pick from the database's list: its own outpoint
        EncodeExternal(e, op.at);
        if (op.kind == MiddleOp::Kind::ADD_FRESH || op.kind == MiddleOp::Kind::ADD_DIRTY) EncodeCoin(e, op.coin);
    }
    const size_t txs{std::clamp<size_t>(s.vtx.size(), 1, MAX_TXS)};
    e.Integral(txs, 1, MAX_TXS);
    std::vector<std::set<size_t>> deps(txs);  // as Decode keeps them: no reference closes a cycle
    for (size_t i = 0; i < txs; ++i) {
        const Tx tx{i < s.vtx.size() ? s.vtx[i] : Tx{}};
        if (i > 0) {
            std::vector<Ref> vin{tx.vin};
            if (vin.empty()) vin.emplace_back(); // Decode reads at least one input
            if (vin.size() > MAX_INPUTS) vin.resize(MAX_INPUTS);
            e.Integral(vin.size(), 1, MAX_INPUTS);
            for (const Ref& r : vin) {
                if (r.External() || r.tx >= txs || Reaches(deps, r.tx, i)) {
                    EncodeChoice(e, InputSource::EXTERNAL);
                    EncodeExternal(e, r);
                } else {
                    EncodeChoice(e, InputSource::IN_BLOCK);
                    e.Integral(r.tx, 0, txs - 1);
                    e.Integral(r.n, 0, MAX_N);
                    deps[i].insert(r.tx);
                }
            }
        }
        std::vector<Coin> vout{tx.vout};
        if (vout.empty()) vout.emplace_back(); // Decode reads at least one output
        if (vout.size() > MAX_OUTPUTS) vout.resize(MAX_OUTPUTS);
        e.Integral(vout.size(), 1, MAX_OUTPUTS);
        for (const Coin& c : vout) EncodeCoin(e, c);
    }
    const auto* workers{std::find(std::begin(WORKER_CHOICES), std::end(WORKER_CHOICES), s.workers)};
    const size_t worker_index{workers == std::end(WORKER_CHOICES) ? 0 : static_cast<size_t>(workers - std::begin(WORKER_CHOICES))};
    e.Integral(worker_index, 0, std::size(WORKER_CHOICES) - 1);
    EncodeChoice(e, s.pattern);
    if (s.pattern == Scenario::Pattern::PERMUTED) {
        // Decode shuffles 0..txs-1 by swapping position i-1 with a chosen one, i from txs down: the
        // choice that brings s.order[i-1] there (the identity where s.order is not a permutation).
        std::vector<uint8_t> order(txs);
        std::iota(order.begin(), order.end(), 0);
        std::vector<uint8_t> want{s.order};
        std::vector<uint8_t> sorted{want};
        std::sort(sorted.begin(), sorted.end());
        if (sorted != order) want = order;
        for (size_t i = txs; i > 1; --i) {
            const size_t k{static_cast<size_t>(std::find(order.begin(), order.begin() + i, want[i - 1]) - order.begin())};
            e.Integral(k, 0, i - 1);
            std::swap(order[i - 1], order[k]);
        }
    } else if (s.pattern == Scenario::Pattern::STOP) {
        e.Integral(std::min(s.stop_after, txs), 0, txs);
    }
    EncodeChoice(e, s.flush ? FlushOverlay::YES : FlushOverlay::NO);
    if (WORKER_CHOICES[worker_index] > 0) EncodeChoice(e, s.interrupted ? Pool::INTERRUPTED : Pool::RUNNING);
    return e.Finish();
}

} // namespace equifuzz::prevout_fetch
