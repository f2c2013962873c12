// The prevout_fetch pair's checks: when a scenario is outside the contracts (ContractBreak), its
// description and a run's results in the reports' words (they share the text of a coin and an
// outpoint), and Check: every side observes the same block connected, the fetchers consume the same
// inputs, and the optimized model consumes every queued input in ConnectBlock's order.
#include "pair.h"
#include "pair_parts.h"

#include <algorithm>
#include <set>
#include <string>

namespace equifuzz::prevout_fetch {

using namespace parts;

std::string ContractBreak(const Scenario& s)
{
    VisibleCoins coins;
    for (const auto& [at, coin] : s.db) {
        if (!UnspendableScript(coin.script)) coins.db.insert(at);
    }
    for (const MiddleOp& op : s.middle) {
        if (std::string why{coins.Apply(op)}; !why.empty()) return why;
    }
    for (size_t i = 0; i < s.vtx.size(); ++i) {
        std::set<Ref> seen;
        for (const Ref& r : s.vtx[i].vin) {
            if (!seen.insert(r).second) {
                return "tx" + std::to_string(i) + " spends " + RefName(r) +
                       " twice (CheckTransaction rejects such a transaction before ConnectBlock)";
            }
        }
    }
    return {};
}

namespace {

std::string CoinText(const Coin& c)
{
    return std::to_string(c.amount) + " sat, height " + std::to_string(c.height) + (c.coinbase ? ", coinbase" : "") +
           ", script " + Hex(c.script);
}

template <typename T, typename F>
std::string Joined(const std::vector<T>& items, const F& text)
{
    std::string out;
    for (const T& item : items) out += (out.empty() ? "" : "; ") + text(item);
    return out.empty() ? "none" : out;
}

const char* KindName(Access::Kind k)
{
    switch (k) {
    case Access::Kind::HAVE: return "HaveCoin";
    case Access::Kind::ACCESS: return "AccessCoin";
    case Access::Kind::SPEND: return "SpendCoin";
    case Access::Kind::ADD: return "AddCoin";
    }
    return "?";
}

void AddSnapshot(Outcome& o, const std::string& what, const Snapshot& snap)
{
    // How many entries a cache holds (spent ones kept or forgotten) is the cache's own business.
    o.Add(what + " entries", snap.entries).As(FieldClass::INTERNAL);
    for (size_t i = 0; i < snap.coins.size(); ++i) {
        if (snap.coins[i]) o.Add(what + " #" + std::to_string(i), CoinText(*snap.coins[i]));
    }
}

} // namespace

Description Describe(const Scenario& s)
{
    Description d;
    d.Add("database", Joined(s.db, [](const auto& e) { return RefName(e.first) + " = " + CoinText(e.second); }));
    d.Add("middle cache", Joined(s.middle, [](const MiddleOp& op) {
        return std::string{ChoiceName(op.kind)} + " " + RefName(op.at) +
               (op.kind == MiddleOp::Kind::ADD_FRESH || op.kind == MiddleOp::Kind::ADD_DIRTY ? " = " + CoinText(op.coin) : "");
    }));
    for (size_t i = 0; i < s.vtx.size(); ++i) {
        const Tx& tx{s.vtx[i]};
        d.Add("tx" + std::to_string(i) + (i == 0 ? " (coinbase)" : ""),
              "spends " + Joined(tx.vin, RefName) + ", creates " + std::to_string(tx.vout.size()) + " outputs");
    }
    if (s.interrupted) d.Add("workers", std::to_string(s.workers) + ", the pool interrupted before the block");
    else d.Add("workers", unsigned{s.workers});
    std::string order;
    for (const uint8_t i : s.order) order += (order.empty() ? "" : " ") + std::to_string(i);
    d.Add("pattern", s.pattern == Scenario::Pattern::CONNECT    ? "ConnectBlock's order"
                     : s.pattern == Scenario::Pattern::PERMUTED ? "permuted: " + order
                                                                : "stops after " + std::to_string(s.stop_after) + " txs");
    d.Add("flush", std::string{ChoiceName(s.flush ? FlushOverlay::YES : FlushOverlay::NO)});
    const std::vector<Ref> named{NamedRefs(s)};
    std::string names;
    for (size_t i = 0; i < named.size(); ++i) names += (i ? " " : "") + ("#" + std::to_string(i) + "=" + RefName(named[i]));
    d.Add("named outpoints", names);
    return d;
}

Outcome Observed::ToOutcome() const
{
    Outcome o;
    o.Add("connected", stopped.empty()).As(FieldClass::VERDICT);
    o.Add("stopped", stopped.empty() ? std::string{"no"} : stopped).As(FieldClass::DIAGNOSTIC);
    for (size_t i = 0; i < accesses.size(); ++i) {
        const Access& a{accesses[i]};
        const std::string name{std::to_string(i + 1) + " " + KindName(a.kind) + " " + RefName(a.at)};
        if (a.kind == Access::Kind::ACCESS) o.Add(name, a.coin ? CoinText(*a.coin) : std::string{"empty coin"});
        else if (a.kind == Access::Kind::ADD) o.Add(name, a.flag ? "threw" : "added");
        else o.Add(name, a.flag);
    }
    AddSnapshot(o, "overlay", overlay);
    o.Add("flushed", flushed);
    if (!flush_error.empty()) o.Add("flush error", flush_error).As(FieldClass::DIAGNOSTIC);
    if (middle) AddSnapshot(o, "middle", *middle);
    else o.Add("middle", "left out: a side could not flush (a failed Assume aborts in this build)");
    return o;
}

Outcome Fetching::ToOutcome() const
{
    Outcome o;
    o.Add("all inputs consumed", consumed);
    o.Add("warnings", warnings.size()).As(FieldClass::DIAGNOSTIC);
    for (size_t i = 0; i < warnings.size(); ++i) o.Add("warning " + std::to_string(i + 1), warnings[i]).As(FieldClass::DIAGNOSTIC);
    return o;
}

namespace {

//! A block a node could get past HaveInputs with: no input spends the coinbase (immature, and
//! queued because the coinbase's txid never joins the filter) or an outpoint another input spends.
bool NodeShaped(const Scenario& s)
{
    std::set<Ref> seen;
    for (const Tx& tx : s.vtx) {
        for (const Ref& r : tx.vin) {
            if (!r.External() && r.tx == 0) return false;
            if (!seen.insert(r).second) return false;
        }
    }
    return true;
}

} // namespace

void Check(const Scenario& s)
{
    const auto desc{[&] { return Describe(s); }};
    if (const std::string why{ContractBreak(s)}; !why.empty()) OutsideContract(why);
    struct Run {
        Label label;
        const Side* side;
        Role role;
        bool serial_rerun;  //!< Core's merge run again with 0 workers
        Result result;
    };
    std::vector<Run> runs;
    for (const auto& [label, side, role] : Sides()) runs.push_back({LabelOf(label, role), side, role, false, side->run(s, s.workers)});
    // Core's merge with no workers: the serial path of the new code.
    for (const auto& [label, side, role] : Sides()) {
        if (role == Role::CORE_OPTIMIZED && side->fetches && s.workers != 0) {
            runs.push_back({LabelOf("core-optimized, 0 workers", role), side, role, true, side->run(s, 0)});
        }
    }
    const bool withheld{std::ranges::any_of(runs, [](const Run& r) { return r.result.flush_withheld; })};
    std::vector<Labeled<Observed>> observed;
    for (const Run& r : runs) {
        const Result& x{r.result};
        observed.push_back({r.label, Observed{x.accesses, x.stopped, x.overlay, x.flushed, x.flush_error,
                                              withheld ? std::nullopt : std::optional{x.middle}}});
    }
    Compare(desc, observed);

    if (s.workers == 0) return;
    std::vector<Labeled<Fetching>> fetching;
    for (const Run& r : runs) {
        if (!r.side->fetches || !r.result.consumed || r.serial_rerun) continue;
        // A side that withheld its flush logged no warning: the warnings are then left out.
        fetching.push_back({r.label, Fetching{*r.result.consumed, withheld ? std::vector<std::string>{} : r.result.warnings}});
    }
    if (fetching.size() > 1) Compare(desc, fetching);
    for (const Run& r : runs) {
        if (r.role != Role::OPTIMIZED || !r.result.consumed) continue;
        if (s.pattern == Scenario::Pattern::CONNECT && r.result.stopped.empty() && NodeShaped(s)) {
            RequireOf(r.label, *r.result.consumed, "connect-order-consumes-every-queued-input", desc,
                      Fetching{*r.result.consumed, r.result.warnings});
        }
    }
}

} // namespace equifuzz::prevout_fetch
