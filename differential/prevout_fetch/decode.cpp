// The prevout_fetch pair's list of sides and its decoder (fuzz bytes to a scenario: the database,
// the middle cache's calls, the block, the workers); every choice among named values is read
// through choices.json (ConsumeChoice), and each range and rule from pair_parts.h, which the encoder
// (encode.cpp) reads too.
#include "pair.h"
#include "pair_parts.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

EQUIFUZZ_DEFINE_SIDES(equifuzz::prevout_fetch)

namespace equifuzz::prevout_fetch {

using namespace parts;

namespace {

Bytes DecodeScript(FuzzedDataProvider& fdp)
{
    const uint8_t b{fdp.ConsumeIntegral<uint8_t>()};
    switch (ConsumeChoice<ScriptKind>(fdp)) {
    case ScriptKind::P2PKH: {
        Bytes s{0x76, 0xa9, 20};
        s.insert(s.end(), 20, b);
        s.insert(s.end(), {0x88, 0xac});
        return s;
    }
    case ScriptKind::P2WPKH: {
        Bytes s{0x00, 20};
        s.insert(s.end(), 20, b);
        return s;
    }
    case ScriptKind::OP_RETURN: // unspendable: AddCoin leaves it out
        return {0x6a, b};
    case ScriptKind::EMPTY:
        return {};
    case ScriptKind::RAW: // anything, stored as it is
        return fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, MAX_RAW_SCRIPT));
    }
    return {};
}

Coin DecodeCoin(FuzzedDataProvider& fdp)
{
    Coin c;
    c.height = fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_HEIGHT);
    c.coinbase = fdp.ConsumeBool();
    c.amount = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<int64_t>(0, SMALL_AMOUNT) : fdp.ConsumeIntegralInRange<int64_t>(0, MAX_MONEY);
    c.script = DecodeScript(fdp);
    return c;
}

//! A few external outpoints, so that the database, the middle cache and the inputs meet.
Ref DecodeExternal(FuzzedDataProvider& fdp)
{
    Ref r;
    r.id = fdp.ConsumeIntegralInRange<uint8_t>(1, EXTERNAL_IDS);
    r.n = fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_N);
    return r;
}

template <typename T>
const T& Pick(FuzzedDataProvider& fdp, const std::vector<T>& from)
{
    return from[fdp.ConsumeIntegralInRange<size_t>(0, from.size() - 1)];
}

} // namespace

Scenario Decode(FuzzedDataProvider& fdp)
{
    Scenario s;
    std::vector<Ref> db_refs, middle_refs;
    // Within the contracts (unless EQUIFUZZ_BEYOND_CONTRACT): a may-be-FRESH add over a coin the
    // middle cache shows unspent is made with possible_overwrite; an input a transaction already
    // spends is not added again.
    const bool beyond{BeyondContract()};
    VisibleCoins visible;
    const size_t db{fdp.ConsumeIntegralInRange<size_t>(0, MAX_DB_COINS)};
    for (size_t i = 0; i < db && fdp.remaining_bytes() > 0; ++i) {
        const Ref at{DecodeExternal(fdp)};
        s.db.emplace_back(at, DecodeCoin(fdp));
        db_refs.push_back(at);
        if (!UnspendableScript(s.db.back().second.script)) visible.db.insert(at);
    }
    const size_t middle{fdp.ConsumeIntegralInRange<size_t>(0, MAX_MIDDLE_OPS)};
    for (size_t i = 0; i < middle && fdp.remaining_bytes() > 0; ++i) {
        MiddleOp op;
        op.kind = ConsumeChoice<MiddleOpKind>(fdp);
        // Mostly a database coin: spent, rewritten or fetched in the middle cache.
        op.at = !db_refs.empty() && fdp.ConsumeBool() ? Pick(fdp, db_refs) : DecodeExternal(fdp);
        if (op.kind == MiddleOp::Kind::ADD_FRESH || op.kind == MiddleOp::Kind::ADD_DIRTY) op.coin = DecodeCoin(fdp);
        if (!beyond && op.kind == MiddleOp::Kind::ADD_FRESH && !UnspendableScript(op.coin.script) && visible.Unspent(op.at)) {
            op.kind = MiddleOp::Kind::ADD_DIRTY;
        }
        (void)visible.Apply(op);
        s.middle.push_back(op);
        middle_refs.push_back(op.at);
    }
    const size_t txs{fdp.ConsumeIntegralInRange<size_t>(1, MAX_TXS)};
    s.vtx.resize(txs);
    std::vector<std::set<size_t>> deps(txs);  // deps[i]: the block's transactions tx i spends from
    std::vector<Ref> inputs;                   // every input so far, for a second spend of one
    for (size_t i = 0; i < txs; ++i) {
        Tx& tx{s.vtx[i]};
        const size_t nin{i == 0 ? 0 : fdp.ConsumeIntegralInRange<size_t>(1, MAX_INPUTS)};
        for (size_t k = 0; k < nin; ++k) {
            Ref r;
            switch (ConsumeChoice<InputSource>(fdp)) {
            case InputSource::EXTERNAL: r = DecodeExternal(fdp); break;
            case InputSource::DATABASE: r = db_refs.empty() ? DecodeExternal(fdp) : Pick(fdp, db_refs); break;
            case InputSource::MIDDLE: r = middle_refs.empty() ? DecodeExternal(fdp) : Pick(fdp, middle_refs); break;
            case InputSource::IN_BLOCK: {
                // Another transaction of this block, earlier or later (its txid filters the queue
                // or not); one that would close a cycle becomes an external outpoint.
                const auto j{fdp.ConsumeIntegralInRange<size_t>(0, txs - 1)};
                const auto n{fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_N)};
                r = Reaches(deps, j, i) ? DecodeExternal(fdp) : Ref{static_cast<uint8_t>(j), 0, n};
                break;
            }
            case InputSource::SECOND_SPEND: r = inputs.empty() ? DecodeExternal(fdp) : Pick(fdp, inputs); break;
            }
            // A second spend of another transaction's input may name this transaction's own
            // output, or one that spends from it: no cycle either.
            if (!r.External() && deps[i].insert(r.tx).second && Reaches(deps, r.tx, i)) {
                deps[i].erase(r.tx);
                r = DecodeExternal(fdp);
            }
            if (!beyond && std::ranges::find(tx.vin, r) != tx.vin.end()) continue;
            tx.vin.push_back(r);
            inputs.push_back(r);
        }
        const size_t nout{fdp.ConsumeIntegralInRange<size_t>(1, MAX_OUTPUTS)};
        for (size_t n = 0; n < nout; ++n) tx.vout.push_back(DecodeCoin(fdp));
    }
    s.workers = WORKER_CHOICES[fdp.ConsumeIntegralInRange<size_t>(0, std::size(WORKER_CHOICES) - 1)];
    s.pattern = ConsumeChoice<Pattern>(fdp);
    for (size_t i = 0; i < txs; ++i) s.order.push_back(static_cast<uint8_t>(i));
    if (s.pattern == Scenario::Pattern::PERMUTED) {
        for (size_t i = txs; i > 1; --i) std::swap(s.order[i - 1], s.order[fdp.ConsumeIntegralInRange<size_t>(0, i - 1)]);
    } else if (s.pattern == Scenario::Pattern::STOP) {
        s.stop_after = fdp.ConsumeIntegralInRange<size_t>(0, txs);
    }
    s.flush = ConsumeChoice<FlushOverlay>(fdp) == FlushOverlay::YES;
    // Last, and only on its last integer: an input that ends before it keeps a running pool.
    s.interrupted = s.workers > 0 && ConsumeChoice<Pool>(fdp) == Pool::INTERRUPTED;
    return s;
}

std::string RefName(const Ref& r)
{
    return (r.External() ? "x" + std::to_string(r.id) : "tx" + std::to_string(r.tx)) + ":" + std::to_string(r.n);
}

} // namespace equifuzz::prevout_fetch
