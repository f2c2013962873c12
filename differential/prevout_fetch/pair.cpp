// The pair's list of sides, its fuzz input's decoder and description, and the check (pair.h).
// Every choice among named values is read through the pair's choices.json (ConsumeChoice).
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
