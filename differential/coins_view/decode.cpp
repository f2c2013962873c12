// The pair's list of sides, its fuzz input's decoder (pair.h) and the callers' contracts an input
// may break (ContractBreak). Every choice among named values is read through the pair's
// choices.json (ConsumeChoice); encode.cpp writes them back.
#include "pair.h"

#include "model.h"
#include "pair_parts.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

EQUIFUZZ_DEFINE_SIDES(equifuzz::coins_view)

namespace equifuzz::coins_view {

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
    case ScriptKind::P2SH: {
        Bytes s{0xa9, 20};
        s.insert(s.end(), 20, b);
        s.push_back(0x87);
        return s;
    }
    case ScriptKind::P2WPKH: {
        Bytes s{0x00, 20};
        s.insert(s.end(), 20, b);
        return s;
    }
    case ScriptKind::OP_RETURN: return {0x6a, b};
    case ScriptKind::RAW: return fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, MAX_RAW_SCRIPT));
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

//! Four txids and eight output indexes: 32 outpoints, so that calls meet.
Outpoint DecodeOutpoint(FuzzedDataProvider& fdp)
{
    Outpoint at;
    at.id = fdp.ConsumeIntegralInRange<uint8_t>(1, TXIDS);
    at.n = OUTPUT_INDEXES[fdp.ConsumeIntegralInRange<size_t>(0, std::size(OUTPUT_INDEXES) - 1)];
    return at;
}

//! Walks the scenario on the model of Core's state machine; `visit(op, model)` sees each call
//! before it runs and may change it (the decoder) or judge it (ContractBreak); false stops.
template <typename Visit>
void Walk(Scenario& s, const Visit& visit)
{
    Model model{s, /*fresh_rule=*/true};
    for (size_t i = 0; i < s.ops.size(); ++i) {
        if (!visit(s.ops[i], model)) return;
        if (!model.Apply(s.ops[i], static_cast<uint16_t>(i))) return;
    }
}

} // namespace

Scenario Decode(FuzzedDataProvider& fdp, bool faults)
{
    Scenario s;
    if (faults) {
        // The fault first: the rest of the input reads as the in-memory target's does.
        s.on_disk = true;
        s.fault.kind = ConsumeChoice<FaultKind>(fdp);
        s.fault.at = fdp.ConsumeIntegralInRange<uint8_t>(1, s.fault.kind == Fault::Kind::READ ? MAX_READ_AT : MAX_FAULT_AT);
        if (s.fault.kind == Fault::Kind::TORN) s.fault.keep = fdp.ConsumeIntegral<uint8_t>();
    }
    s.obfuscate = fdp.ConsumeBool();
    s.caches = fdp.ConsumeIntegralInRange<uint8_t>(1, MAX_CACHES);
    const size_t db{fdp.ConsumeIntegralInRange<size_t>(0, MAX_DB_COINS)};
    for (size_t i = 0; i < db && fdp.remaining_bytes() > 0; ++i) {
        const Outpoint at{DecodeOutpoint(fdp)};
        s.db.emplace_back(at, DecodeCoin(fdp));
    }
    const bool beyond{BeyondContract()};
    Model model{s, /*fresh_rule=*/true};
    std::set<Outpoint> named;  // the outpoints of the database and of every call so far
    for (const auto& [at, coin] : s.db) named.insert(at);
    Admission admission;
    while (fdp.remaining_bytes() > 0 && s.ops.size() < MAX_OPS) {
        Op op;
        op.kind = ConsumeChoice<OpKind>(fdp);
        const size_t depth{model.Depth()};
        if (!admission.Admit(op.kind, depth, model.Detached())) continue;
        const std::optional<uint8_t> fixed{FixedView(op.kind, depth)};
        op.view = fixed ? *fixed : ResolveView(ConsumeChoice<Level>(fdp), op.kind, depth);
        if (LooksUp(op.kind) && op.view == depth && model.Detached()) {
            // A detached cache is asked mostly for what it was given (mempool acceptance's checks
            // read the coins they brought in): one of those, or any outpoint.
            const auto& held{model.HeldSet()};
            if (fdp.ConsumeBool() && !held.empty()) {
                op.at = *std::next(held.begin(), static_cast<std::ptrdiff_t>(fdp.ConsumeIntegralInRange<size_t>(0, held.size() - 1)));
            } else {
                op.at = DecodeOutpoint(fdp);
            }
        } else if (TakesOutpoint(op.kind)) {
            op.at = DecodeOutpoint(fdp);
        }
        if (model.Detached() && !WhileDetached(op.kind)) {
            // A node sets the top cache's backend back before it writes or reshapes the stack.
            Op attach;
            attach.kind = Op::Kind::ATTACH;
            attach.view = static_cast<uint8_t>(depth);
            (void)model.Apply(attach, static_cast<uint16_t>(s.ops.size()));
            s.ops.push_back(attach);
            if (s.ops.size() == MAX_OPS) break;
        }
        if (LooksUp(op.kind) && op.view == depth && model.Detached()) op.unheld = !model.Held(op.at);
        if (op.kind == Op::Kind::ADD) {
            op.coin = DecodeCoin(fdp);
            op.possible_overwrite = fdp.ConsumeBool();
        } else if (op.kind == Op::Kind::EMPLACE) {
            op.coin = DecodeCoin(fdp);
        } else if (op.kind == Op::Kind::SPEND) {
            op.moveout = fdp.ConsumeBool();
            op.spends_a_coin = model.Visible(depth, op.at).has_value();
        } else if (op.kind == Op::Kind::SET_BEST) {
            op.hash.fill(fdp.ConsumeIntegralInRange<uint8_t>(1, 255));
        } else if (op.kind == Op::Kind::RESIZE) {
            op.cache_bytes = CACHE_SIZES[fdp.ConsumeIntegralInRange<size_t>(0, std::size(CACHE_SIZES) - 1)];
        }
        if (!beyond) KeepWithinContract(op, model, named);
        if (!beyond && (op.kind == Op::Kind::FLUSH || op.kind == Op::Kind::SYNC) && op.view == 1 && IsNull(model.CacheBlock(1))) {
            // A node gives the cache over the database its tip before it flushes it.
            Op best;
            best.kind = Op::Kind::SET_BEST;
            best.view = 1;
            best.hash.fill(static_cast<uint8_t>(0x10 + s.ops.size()));
            (void)model.Apply(best, static_cast<uint16_t>(s.ops.size()));
            s.ops.push_back(best);
            if (s.ops.size() == MAX_OPS) break;
        }
        if (TakesOutpoint(op.kind)) named.insert(op.at);
        const bool goes_on{model.Apply(op, static_cast<uint16_t>(s.ops.size()))};
        s.ops.push_back(op);
        if (!goes_on) break;
    }
    return s;
}

std::string ContractBreak(const Scenario& s)
{
    std::string why;
    Scenario copy{s};
    size_t index{0};
    std::set<Outpoint> named;
    for (const auto& [at, coin] : s.db) named.insert(at);
    Walk(copy, [&](const Op& op, const Model& model) {
        ++index;
        if (op.kind == Op::Kind::EMPLACE && named.contains(op.at)) {
            why = "call " + std::to_string(index) + ": EmplaceCoinInternalDANGER of " + OutpointName(op.at) +
                  ", which the scenario named before (a cache may hold it; a snapshot's load writes each coin once)";
            return false;
        }
        if (model.Detached() && !WhileDetached(op.kind)) {
            why = "call " + std::to_string(index) + ": " + CoreName(op.kind) +
                  " while the top cache's backend is the empty view (a node sets it back first)";
            return false;
        }
        if (LooksUp(op.kind) && op.view == model.Depth() && model.Detached() && op.unheld == model.Held(op.at)) {
            why = "call " + std::to_string(index) + ": a lookup of the detached top cache marked " +
                  (op.unheld ? "not brought in" : "brought in") + ", which the calls before say otherwise";
            return false;
        }
        if (op.kind == Op::Kind::EMPLACE && Unspendable(op.coin.script)) {
            why = "call " + std::to_string(index) + ": EmplaceCoinInternalDANGER of an unspendable coin at " + OutpointName(op.at) +
                  " (a snapshot holds only coins of the UTXO set, which never keeps one)";
            return false;
        }
        if (TakesOutpoint(op.kind)) named.insert(op.at);
        if (op.kind == Op::Kind::ADD && !op.possible_overwrite && !Unspendable(op.coin.script) && model.Visible(model.Depth(), op.at)) {
            why = "call " + std::to_string(index) + ": AddCoin without possible_overwrite over " + OutpointName(op.at) +
                  ", which the top cache shows unspent";
            return false;
        }
        if ((op.kind == Op::Kind::FLUSH || op.kind == Op::Kind::SYNC) && op.view == 1 && IsNull(model.CacheBlock(1))) {
            why = "call " + std::to_string(index) + ": the cache over the database flushed into it without a best block";
            return false;
        }
        return true;
    });
    return why;
}

} // namespace equifuzz::coins_view
