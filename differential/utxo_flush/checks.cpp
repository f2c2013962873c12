// The utxo_flush scenario targets' checks: every side's results equal, then, on the first side's
// results, what a flush must leave in the database after each step: the best-block marker (key
// 'B') at the step's tip and no head-blocks marker (key 'H') when it completes; when it stops
// between batches, no 'B', 'H' naming the new tip and the old one, each coin at its value before
// or after the step, and a recovery that gives what an uninterrupted flush gives.
#include "pair.h"

#include "cache.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <optional>

namespace equifuzz::utxo_flush {

bool EachCoinOldOrNew(const Content& now, const Content& before, const Content& after)
{
    // Every coin key of the three contents where it stands (coin keys are contiguous, from
    // DB_COIN on); a key two contents share is looked at twice, which costs less than a merged copy.
    for (const Content* c : {&now, &before, &after}) {
        for (auto entry{c->lower_bound(Bytes{DB_COIN})}; entry != c->end() && entry->first[0] == DB_COIN; ++entry) {
            const Bytes& key{entry->first};
            const auto it{now.find(key)};
            const auto same{[&](const Content& other) {
                const auto at{other.find(key)};
                return (at == other.end()) == (it == now.end()) && (at == other.end() || at->second == it->second);
            }};
            if (!same(before) && !same(after)) return false;
        }
    }
    return true;
}

namespace {

//! The content `step` leaves over `before` when exactly its first `batches` batches (the final one
//! counted) are written; nullopt: all of them, as an uninterrupted flush.
Content AfterBatches(const Content& before, const Step& step, uint64_t batch_bytes, std::optional<size_t> batches = std::nullopt)
{
    CacheModel cache{before};
    cache.ApplyStep(step);
    return Flush(before, cache.Cursor(), step.tip, batch_bytes, std::nullopt, batches).content;
}

//! Whether a step's own operations keep the cache's contract over the database before it.
bool KeepsContract(const Step& step, const Content& before)
{
    CacheModel cache{before};
    return cache.ApplyStep(step) == 0 && !cache.FreshOverDisk();
}

//! What each step leaves when nothing interrupts its flush, computed once for every side that
//! starts the step from the same content (they usually do: the sides differ only where an
//! interruption left other coins).
class Uninterrupted
{
public:
    const Content& Of(const Scenario& in, size_t step, const Content& before, uint64_t batch_bytes)
    {
        for (const Entry& e : m_done) {
            if (e.step == step && e.batch_bytes == batch_bytes && (e.before == &before || *e.before == before)) return e.after;
        }
        return m_done.emplace_back(Entry{step, batch_bytes, &before, AfterBatches(before, in.steps[step], batch_bytes)}).after;
    }

private:
    struct Entry {
        size_t step;
        uint64_t batch_bytes;
        const Content* before;  //!< a side's result, which outlives the checks
        Content after;
    };
    std::deque<Entry> m_done;  //!< a deque: what Of returned stays where it is
};

bool HasFaults(const Scenario& in)
{
    return std::ranges::any_of(in.steps, [](const Step& s) { return s.fault.kind != Fault::Kind::NONE; });
}

} // namespace

namespace {

//! The flush's properties over one side's results (`side`: its name in a report). `model_order`:
//! the side walks the dirty entries in the order our cache model lists them (our sides), so its
//! batches are the model's; a Core side may walk them in any order (not a promise), so what a
//! write fault leaves is checked without the model's batch boundaries: nothing, everything, or an
//! interrupted flush's state (no best block, head blocks new and old, each coin old or new).
template <typename Describe>
void CheckSteps(const Scenario& in, uint64_t default_batch_bytes, Label side, bool model_order,
                const std::vector<StepResult>& steps, Uninterrupted& flushed, const Describe& desc)
{
    static const Content nothing;
    const Content* before_step{&nothing};  // the content the step starts from: the step before's, not copied
    Hash old_tip{};  // the best block before the step, or the head-blocks marker's old tip while a flush is unfinished
    size_t crashed_at{SIZE_MAX};  // the step whose flush was interrupted, until one completes
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step& step{in.steps[i]};
        const StepResult& r{steps[i]};
        const Content& before{*before_step};
        // What the step left, as a property's detail: made only when one fails.
        const auto state{[&r] { return DbContent{r.content}.ToOutcome(); }};
        RequireOf(side, r.stopped.find("the database does not reopen") == std::string::npos, "the-database-reopens", desc, state);
        const uint64_t batch_bytes{step.batch_bytes.value_or(default_batch_bytes)};
        // What the step leaves when nothing interrupts it: needed only when something did.
        const Content& uninterrupted{r.stopped.empty() ? nothing : flushed.Of(in, i, before, batch_bytes)};
        bool completed{r.stopped.empty()};
        if (r.faulted_batch != 0) {
            RequireOf(side, r.stopped.starts_with("write fault: "), "a-write-fault-stops-the-flush", desc, state);
            if (model_order) {
                const Content upto_hit{AfterBatches(before, step, batch_bytes, r.faulted_batch)};
                const Content before_hit{AfterBatches(before, step, batch_bytes, r.faulted_batch - 1)};
                RequireOf(side, r.content == before_hit || r.content == upto_hit, "a-write-fault-leaves-whole-batches", desc, state);
            } else {
                const auto heads{HeadBlocks(r.content)};
                const bool interrupted_state{!BestBlock(r.content) && heads && heads->first == step.tip && heads->second == old_tip &&
                                             EachCoinOldOrNew(r.content, before, uninterrupted)};
                RequireOf(side, r.content == before || r.content == uninterrupted || interrupted_state,
                          "a-write-fault-leaves-nothing-all-or-an-interrupted-flush", desc, state);
            }
            completed = r.content == uninterrupted;  // the fault hit the final batch after it was handed over
        }
        if (completed) {
            RequireOf(side, BestBlock(r.content) == step.tip && !HeadBlocks(r.content), "flush-leaves-best-block-at-its-tip-and-no-head-blocks",
                      desc, state);
            if (crashed_at != SIZE_MAX) {
                const Content& at_crash{crashed_at == 0 ? nothing : steps[crashed_at - 1].content};
                if (KeepsContract(in.steps[crashed_at], at_crash)) {
                    const Content& expected{flushed.Of(in, crashed_at, at_crash, in.steps[crashed_at].batch_bytes.value_or(default_batch_bytes))};
                    RequireOf(side, r.content == expected, "recovery-gives-the-uninterrupted-content", desc, DbContent{expected});
                }
                crashed_at = SIZE_MAX;
            }
            old_tip = step.tip;
        } else {
            if (crashed_at == SIZE_MAX) crashed_at = i;
            if (r.faulted_batch == 0) {
                RequireOf(side, r.partial_batches + 1 == step.crash_before, "crash-after-the-batches-before-it", desc, state);
            }
            // Nothing of the flush may be written by a crash before its first batch; a write fault
            // in the first batch leaves nothing when LevelDB had not handed the record to the file.
            const bool nothing_written{r.faulted_batch != 0 ? r.content == before : step.crash_before == 1};
            if (nothing_written) {
                RequireOf(side, r.content == before, "crash-before-the-first-batch-writes-nothing", desc, state);
            } else {
                const auto heads{HeadBlocks(r.content)};
                RequireOf(side, !BestBlock(r.content) && heads && heads->first == step.tip && heads->second == old_tip,
                          "crash-leaves-no-best-block-and-head-blocks-new-old", desc, state);
                // Every coin at its value before the step or at its uninterrupted value.
                RequireOf(side, EachCoinOldOrNew(r.content, before, uninterrupted), "each-coin-old-or-new", desc, state);
            }
        }
        before_step = &r.content;
    }
}

} // namespace

void CheckScenario(const Scenario& scenario)
{
    // Write faults need a side whose LevelDB writes files (Core's); only those run a scenario
    // with faults, and they are compared with each other. A build without one runs the scenario
    // without its faults, and says so once.
    std::vector<LabeledSide<Side>> sides;
    Scenario without_faults;
    const Scenario* run{&scenario};
    if (HasFaults(scenario)) {
        for (const auto& s : Sides()) {
            if (s.side->injects_faults) sides.push_back(s);
        }
        if (sides.empty()) {
            static const bool said{[] {
                std::fprintf(stderr, "utxo_flush: no side of this build injects write faults (Bitcoin Core's sides are "
                                     "left out): scenarios run without their faults, which are not checked\n");
                return true;
            }()};
            (void)said;
            without_faults = scenario;
            for (Step& s : without_faults.steps) s.fault = {};
            run = &without_faults;
        }
    }
    if (sides.empty()) sides.assign(Sides().begin(), Sides().end());
    const Scenario& in{*run};
    const auto desc{[&] { return Describe(in); }};
    // The decoder builds only in-contract scenarios (KeepContract) unless hunting beyond the
    // contracts: only then can an input break one, so only then is it looked for.
    if (BeyondContract()) {
        if (const std::string why{ContractBreak(in)}; !why.empty()) OutsideContract(why);
    }
    const auto runs{EachSide(sides, [&](const Side& side) { return RunResult{side.run(in)}; })};
    Compare(desc, runs);
    // What a flush promises, on every side: the sides may differ in where a flush was cut and
    // what an interruption left (internal state), never in these.
    Uninterrupted flushed;
    for (size_t k = 0; k < runs.size(); ++k) {
        const bool model_order{sides[k].role == Role::ORIGINAL || sides[k].role == Role::OPTIMIZED};
        CheckSteps(in, sides[k].side->default_batch_bytes, runs[k].label, model_order, runs[k].result.steps, flushed, desc);
    }
}

} // namespace equifuzz::utxo_flush
