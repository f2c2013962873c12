// The check (pair.h): every side's promised results compared, Core's internals beside each other,
// a faulted call's aftermath, each Core side's bookkeeping; the input's description and the
// results as report fields.
#include "pair.h"

#include "model.h"
#include "pair_parts.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

namespace equifuzz::coins_view {

using namespace parts;

const char* CoreName(Op::Kind k)
{
    switch (k) {
    case Op::Kind::ADD: return "AddCoin";
    case Op::Kind::SPEND: return "SpendCoin";
    case Op::Kind::ACCESS: return "AccessCoin";
    case Op::Kind::GET: return "GetCoin";
    case Op::Kind::PEEK: return "PeekCoin";
    case Op::Kind::HAVE: return "HaveCoin";
    case Op::Kind::HAVE_IN_CACHE: return "HaveCoinInCache";
    case Op::Kind::UNCACHE: return "Uncache";
    case Op::Kind::FLUSH: return "Flush";
    case Op::Kind::SYNC: return "Sync";
    case Op::Kind::SET_BEST: return "SetBestBlock";
    case Op::Kind::GET_BEST: return "GetBestBlock";
    case Op::Kind::GET_HEADS: return "GetHeadBlocks";
    case Op::Kind::MEMORY: return "DynamicMemoryUsage";
    case Op::Kind::CURSOR: return "Cursor";
    case Op::Kind::REOPEN: return "restart";
    case Op::Kind::RESIZE: return "ResizeCache";
    case Op::Kind::PUSH: return "push a cache";
    case Op::Kind::POP: return "drop the top cache";
    case Op::Kind::COMPACT: return "CompactFull";
    case Op::Kind::RESET: return "Reset";
    case Op::Kind::EMPLACE: return "EmplaceCoinInternalDANGER";
    case Op::Kind::DETACH: return "SetBackend(empty view)";
    case Op::Kind::ATTACH: return "SetBackend(view below)";
    }
    return "?";
}

std::string OutpointName(const Outpoint& at) { return "x" + std::to_string(at.id) + ":" + std::to_string(at.n); }

namespace {

std::string CoinText(const Coin& c)
{
    return std::to_string(c.amount) + " sat, height " + std::to_string(c.height) + (c.coinbase ? ", coinbase" : "") +
           ", script " + Hex(c.script);
}

std::string ViewName(uint8_t view) { return view == 0 ? "database" : "cache " + std::to_string(view); }

std::string HashText(const Hash& h) { return IsNull(h) ? "null" : Hex(std::span<const uint8_t>{h.data(), 4}) + "…"; }


std::string CallName(const Scenario& s, uint16_t index)
{
    if (index >= s.ops.size()) return "end";
    const Op& op{s.ops[index]};
    std::string name{std::to_string(index + 1) + " " + CoreName(op.kind)};
    if (TakesOutpoint(op.kind)) name += " " + OutpointName(op.at);
    if (op.kind != Op::Kind::ADD && op.kind != Op::Kind::SPEND && op.kind != Op::Kind::EMPLACE && op.view != 0) name += " @" + ViewName(op.view);
    return name;
}

//! The database's content in words: each coin's outpoint (txid's byte and VARINT n) and value, and the markers.
std::string ContentText(const Content& c)
{
    std::string out;
    for (const auto& [key, value] : c) {
        std::string k;
        if (key.size() > 33 && key[0] == utxo_flush::DB_COIN) {
            uint64_t n{0};
            for (size_t i = 33; i < key.size(); ++i) {
                n = (n << 7) | (key[i] & 0x7f);
                if (key[i] & 0x80) ++n;
            }
            k = "x" + std::to_string(key[1]) + ":" + std::to_string(n);
        } else {
            k = Hex(key);
        }
        out += (out.empty() ? "" : "; ") + k + "=" + Hex(value);
    }
    return out.empty() ? "empty" : out;
}

} // namespace

Description Describe(const Scenario& s)
{
    Description d;
    std::string db;
    for (const auto& [at, coin] : s.db) db += (db.empty() ? "" : "; ") + OutpointName(at) + " = " + CoinText(coin);
    d.Add("database", db.empty() ? "empty" : db);
    d.Add("caches", unsigned{s.caches});
    d.Add("obfuscated", s.obfuscate);
    if (s.on_disk) {
        std::string fault{std::string{ChoiceName(s.fault.kind)} + ": " +
                          (s.fault.kind == Fault::Kind::READ ? std::string{"the lookups' read of a table file"}
                                                             : std::string{"the log's "} + (s.fault.kind == Fault::Kind::FLUSH ? "Flush" : "Append")) +
                          " number " + std::to_string(s.fault.at) + " since the calls began"};
        if (s.fault.kind == Fault::Kind::TORN) fault += ", " + std::to_string(s.fault.keep) + "/256 of it written";
        d.Add("write fault", s.fault.kind == Fault::Kind::NONE ? std::string{"none"} : fault + " (the database on real files)");
    }
    for (size_t i = 0; i < s.ops.size(); ++i) {
        const Op& op{s.ops[i]};
        std::string what{CallName(s, static_cast<uint16_t>(i)) + " (" + std::string{ChoiceName(op.kind)} + ")"};
        if (op.kind == Op::Kind::ADD) what += " = " + CoinText(op.coin) + (op.possible_overwrite ? ", possible_overwrite" : "");
        if (op.kind == Op::Kind::EMPLACE) what += " = " + CoinText(op.coin);
        if (op.kind == Op::Kind::SPEND) what += std::string{op.moveout ? ", moveout" : ""} + (op.spends_a_coin ? "" : ", no coin there");
        if (op.kind == Op::Kind::SET_BEST) what += " " + HashText(op.hash);
        if (op.unheld) what += ", detached and not brought in: the answer is the cache's own";
        if (op.kind == Op::Kind::RESIZE) what += " " + std::to_string(op.cache_bytes) + " bytes";
        d.Add("call " + std::to_string(i + 1), what);
    }
    return d;
}

namespace {
//! ToOutcome needs the scenario to name each call: the check sets it for the input it runs.
const Scenario* g_scenario{nullptr};
} // namespace

Outcome ToOutcome(const Promised& p)
{
    static const Scenario empty;
    const Scenario& s{g_scenario ? *g_scenario : empty};
    Outcome o;
    o.Add("ran to the end", p.stopped.empty()).As(FieldClass::VERDICT);
    if (!p.stopped.empty()) o.Add("stopped", p.stopped).As(FieldClass::DIAGNOSTIC);
    for (const Answer& a : p.answers) {
        const Op::Kind kind{a.op < s.ops.size() ? s.ops[a.op].kind : Op::Kind::ACCESS};
        std::string value;
        switch (kind) {
        case Op::Kind::HAVE: value = a.flag ? "true" : "false"; break;
        case Op::Kind::SPEND: value = std::string{a.flag ? "true" : "false"} + (a.coin ? ", moved out " + CoinText(*a.coin) : ""); break;
        case Op::Kind::GET_BEST:
        case Op::Kind::GET_HEADS: {
            for (const Hash& h : a.hashes) value += (value.empty() ? "" : ", ") + HashText(h);
            if (value.empty()) value = "none";
            break;
        }
        case Op::Kind::CURSOR: {
            value = "best block " + (a.hashes.empty() ? std::string{"?"} : HashText(a.hashes[0])) + "; ";
            for (const auto& [at, coin] : a.walk) value += OutpointName(at) + " ";
            value += "(" + std::to_string(a.walk.size()) + " coins)";
            for (const auto& [at, coin] : a.walk) value += "; " + OutpointName(at) + " = " + CoinText(coin);
            break;
        }
        default: value = a.coin ? CoinText(*a.coin) : std::string{"no coin"};
        }
        o.Add(CallName(s, a.op), value);
    }
    for (const auto& [index, content] : p.contents) o.Add("database after " + CallName(s, index), ContentText(content));
    return o;
}

Outcome ToOutcome(const Internals& in)
{
    static const Scenario empty;
    const Scenario& s{g_scenario ? *g_scenario : empty};
    Outcome o;
    for (const Internals::Value& v : in.values) {
        const Op::Kind kind{v.op < s.ops.size() ? s.ops[v.op].kind : Op::Kind::ACCESS};
        if (kind == Op::Kind::MEMORY) {
            o.Add(CallName(s, v.op), "usage " + std::to_string(v.number) + " bytes, " + std::to_string(v.second) + " entries").As(FieldClass::INTERNAL);
        } else if (kind == Op::Kind::SPEND) {
            // A spend where the view holds no coin: what it returns is the cache's own business.
            o.Add(CallName(s, v.op) + " (no coin there)", v.number != 0).As(FieldClass::INTERNAL);
        } else if (LooksUp(kind)) {
            // A detached cache asked for a coin it was not given: it shows what it kept, if anything.
            o.Add(CallName(s, v.op) + " (detached, not brought in)", v.number != 0 ? "a coin of " + std::to_string(v.second) + " sat" : std::string{"no coin"})
                .As(FieldClass::INTERNAL);
        } else {
            o.Add(CallName(s, v.op), v.number != 0).As(FieldClass::INTERNAL);
        }
    }
    for (size_t i = 0; i < in.entries.size(); ++i) o.Add("cache " + std::to_string(i + 1) + " entries at the end", in.entries[i]).As(FieldClass::INTERNAL);
    for (size_t i = 0; i < in.dirty.size(); ++i) o.Add("cache " + std::to_string(i + 1) + " dirty at the end", in.dirty[i]).As(FieldClass::INTERNAL);
    return o;
}

namespace {
//! What a Core side's fault did, as a node restarting after it sees it: the call it failed, what
//! the call did, which state the database is in (as before the call, as the whole call left it, or
//! marked as an interrupted flush, DB_HEAD_BLOCKS without DB_BEST_BLOCK, which a node's replay of
//! blocks finishes), the error's text and the exact content. All of it is compared between Core's
//! sides as internal state: which call a fault hits depends on how many writes and reads each tree
//! makes (LevelDB's layout of the tables, its block cache, the size of a flush's batches), which
//! no caller is promised. What is promised, each side's properties hold: the call stops, and the
//! database is whole (CheckFault).
struct FaultReport {
    std::string at{"did not fire"};
    std::string did;
    std::string error;
    std::string state;
    std::string content;
    bool operator==(const FaultReport&) const = default;
};
Outcome ToOutcome(const FaultReport& f)
{
    Outcome o;
    o.Add("fault at", f.at).As(FieldClass::INTERNAL);
    if (f.did.empty()) return o;
    o.Add("what the call did", f.did).As(FieldClass::INTERNAL);
    o.Add("error", f.error).As(FieldClass::INTERNAL);
    o.Add("database after the restart", f.state).As(FieldClass::INTERNAL);
    o.Add("database after the restart, its content", f.content).As(FieldClass::INTERNAL);
    return o;
}

bool MarkedInterrupted(const Content& c)
{
    return c.contains(Bytes{utxo_flush::DB_HEAD_BLOCKS}) && !c.contains(Bytes{utxo_flush::DB_BEST_BLOCK});
}

//! A fault the Core sides' files met: every side is judged on the calls before it, as if the
//! scenario had ended there (our models never fail); Core's sides must each stop the call with
//! an error (a failed read is never an absent coin) and, opened again, hold the database as it
//! was before the call, as the whole call left it (LevelDB writes a batch whole or not at all),
//! or marked as an interrupted flush (a flush of more than one batch). Where the fault hit and
//! what followed are compared between Core's sides as internal state (FaultReport).
template <typename Describe, typename Runs>
void CheckFault(const Scenario& s, const Describe& desc, Runs& runs)
{
    std::optional<uint16_t> at;
    for (const auto& r : runs) {
        if (r.result.faulted) at = std::min(at.value_or(r.result.faulted->op), r.result.faulted->op);
    }
    const Content* model_after{nullptr};
    for (const auto& r : runs) {
        if (r.role != Role::ORIGINAL || !at) continue;
        for (const auto& [index, content] : r.result.promised.contents) {
            if (index == *at) model_after = &content;
        }
    }
    std::vector<Labeled<FaultReport>> reports;
    for (auto& r : runs) {
        if (!IsCore(r.role)) continue;
        FaultReport report;
        if (const auto& f{r.result.faulted}) {
            const bool stopped{f->what.starts_with("write fault: ") || f->what.starts_with("read fault: ")};
            report.at = CallName(s, f->op);
            report.did = stopped ? "stopped with an error" : "went on";
            report.error = f->what;
            report.state = f->after == f->before                       ? "as before the call"
                           : model_after && f->after == *model_after   ? "as the whole call left it"
                           : MarkedInterrupted(f->after)                ? "marked as an interrupted flush"
                                                                        : "none of those";
            report.content = ContentText(f->after);
            const auto seen{[&] { return ToOutcome(report).Add("database before", ContentText(f->before)); }};
            RequireOf(r.label, stopped, s.fault.kind == Fault::Kind::READ ? "a-failed-read-stops-the-lookup" : "a-failed-write-stops-the-call", desc, seen);
            RequireOf(r.label, report.state != "none of those", "a-failed-write-leaves-a-whole-flush-or-its-marker", desc, seen);
        }
        reports.push_back({r.label, std::move(report)});
    }
    if (reports.size() > 1) Compare(desc, reports);
    if (!at) return;
    for (auto& r : runs) {
        Promised& p{r.result.promised};
        std::erase_if(p.answers, [&](const Answer& a) { return a.op >= *at; });
        std::erase_if(p.contents, [&](const auto& c) { return c.first >= *at; });
        if (!IsCore(r.role)) p.stopped.clear();  // a model that stopped later stopped after the fault
        if (IsCore(r.role)) r.result.internals = {};  // the caches died with the node
    }
}
} // namespace

void Check(const Scenario& s)
{
    g_scenario = &s;
    struct Unset {
        ~Unset() { g_scenario = nullptr; }
    } unset;
    const auto desc{[&] { return Describe(s); }};
    if (const std::string why{ContractBreak(s)}; !why.empty()) OutsideContract(why);
    struct Run {
        Label label;
        Role role;
        Result result;
    };
    std::vector<Run> runs;
    runs.reserve(Sides().size());
    // Our models have no log to fail: they run a faults scenario without its fault.
    Scenario without_fault{s};
    without_fault.fault = {};
    for (const auto& [label, side, role] : Sides()) runs.push_back({LabelOf(label, role), role, side->run(side->injects_faults ? s : without_fault)});
    if (s.on_disk && s.fault.kind != Fault::Kind::NONE) CheckFault(s, desc, runs);
    std::vector<Labeled<Promised>> promised;
    promised.reserve(runs.size());
    for (Run& r : runs) promised.push_back({r.label, std::move(r.result.promised)});
    Compare(desc, promised);

    std::vector<Labeled<Internals>> internals;
    for (Run& r : runs) {
        if (IsCore(r.role)) internals.push_back({r.label, std::move(r.result.internals)});
    }
    if (internals.size() > 1) Compare(desc, internals);

    for (const Run& r : runs) {
        if (!r.result.bookkeeping) continue;
        const Bookkeeping& b = *r.result.bookkeeping;
        const auto seen{[](const std::string& what) { return [&what] { return Outcome{}.Add("first break", what); }; }};
        RequireOf(r.label, b.usage.empty(), "cache-usage-is-the-sum-of-its-entries", desc, seen(b.usage));
        RequireOf(r.label, b.dirty.empty(), "dirty-count-is-the-dirty-entries", desc, seen(b.dirty));
        RequireOf(r.label, b.fresh.empty(), "fresh-entry-absent-below", desc, seen(b.fresh));
        RequireOf(r.label, b.spent_flagged.empty(), "spent-entry-is-dirty", desc, seen(b.spent_flagged));
    }
}

} // namespace equifuzz::coins_view
