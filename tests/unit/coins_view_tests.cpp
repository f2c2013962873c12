// Known answers for the coins view pair (differential/coins_view/README.md): what a stack of caches
// over a database answers and writes, on hand-made scenarios, by our two models and by every side
// this build has; and the decoder's promise of scenarios within the callers' contracts.
#include <catch2/catch.hpp>
#include <coins_view/model.h>
#include <coins_view/pair.h>
#include <coins_view/side.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <random>
#include <set>
#include <string>
#include <vector>

using namespace equifuzz::coins_view;

namespace {

Coin P2pkh(int64_t amount, uint8_t b = 0x33)
{
    Bytes script{0x76, 0xa9, 20};
    script.insert(script.end(), 20, b);
    script.insert(script.end(), {0x88, 0xac});
    return Coin{.height = 800'000, .coinbase = false, .amount = amount, .script = script};
}

Outpoint X(uint8_t id, uint32_t n = 0) { return Outpoint{.id = id, .n = n}; }

Op Call(Op::Kind kind, uint8_t view, Outpoint at = {})
{
    Op op;
    op.kind = kind;
    op.view = view;
    op.at = at;
    return op;
}

Op Add(uint8_t top, Outpoint at, Coin coin, bool overwrite = false)
{
    Op op{Call(Op::Kind::ADD, top, at)};
    op.coin = std::move(coin);
    op.possible_overwrite = overwrite;
    return op;
}

Op Spend(uint8_t top, Outpoint at, bool has_coin, bool moveout = true)
{
    Op op{Call(Op::Kind::SPEND, top, at)};
    op.moveout = moveout;
    op.spends_a_coin = has_coin;
    return op;
}

Op SetBest(uint8_t view, uint8_t byte)
{
    Op op{Call(Op::Kind::SET_BEST, view)};
    op.hash.fill(byte);
    return op;
}

Hash Filled(uint8_t b)
{
    Hash h;
    h.fill(b);
    return h;
}

//! Coins x1:0 and x2:0 in the database; `caches` caches over it.
Scenario WithDb(uint8_t caches, std::vector<Op> ops)
{
    Scenario s;
    s.db = {{X(1), P2pkh(1000)}, {X(2), P2pkh(2000)}};
    s.caches = caches;
    s.ops = std::move(ops);
    return s;
}

const Content& Last(const Result& r) { return r.promised.contents.back().second; }

} // namespace

TEST_CASE("a coin added and spent in one cache never reaches the database", "[model]")
{
    const Scenario s{WithDb(1, {Add(1, X(3), P2pkh(5)), Spend(1, X(3), true), SetBest(1, 9), Call(Op::Kind::FLUSH, 1)})};
    for (const bool fresh_rule : {true, false}) {
        const Result r{RunModel(s, fresh_rule)};
        CHECK(r.promised.stopped.empty());
        CHECK(Last(r) == Encode({{X(1), P2pkh(1000)}, {X(2), P2pkh(2000)}}, Filled(9)));
        REQUIRE(r.promised.answers.size() == 1);
        CHECK(r.promised.answers[0].flag);
        CHECK(r.promised.answers[0].coin == P2pkh(5));
    }
}

TEST_CASE("a database coin spent through two caches is erased by the bottom flush", "[model]")
{
    const Scenario s{WithDb(2, {Spend(2, X(1), true), Call(Op::Kind::FLUSH, 2), Call(Op::Kind::HAVE, 0, X(1)), SetBest(1, 7),
                                Call(Op::Kind::FLUSH, 1), Call(Op::Kind::HAVE, 0, X(1)), Call(Op::Kind::CURSOR, 0)})};
    for (const bool fresh_rule : {true, false}) {
        const Result r{RunModel(s, fresh_rule)};
        REQUIRE(r.promised.answers.size() == 4);
        CHECK(r.promised.answers[1].flag);   // the database still has it after the top flush
        CHECK(!r.promised.answers[2].flag);  // and not after the bottom one
        const Answer& walk{r.promised.answers[3]};
        REQUIRE(walk.walk.size() == 1);
        CHECK(walk.walk[0].first == X(2));
        CHECK(walk.hashes == std::vector<Hash>{Filled(7)});
    }
}

TEST_CASE("a spent coin added again without possible_overwrite is not FRESH: its spend reaches the database", "[model]")
{
    // A reorg: x1 spent, added back (DIRTY, not FRESH: the database still holds it), spent again.
    const Scenario s{WithDb(1, {Spend(1, X(1), true), Add(1, X(1), P2pkh(1000)), Spend(1, X(1), true), SetBest(1, 3),
                                Call(Op::Kind::FLUSH, 1)})};
    for (const bool fresh_rule : {true, false}) {
        CHECK(Last(RunModel(s, fresh_rule)) == Encode({{X(2), P2pkh(2000)}}, Filled(3)));
    }
}

TEST_CASE("GetBestBlock takes the view below's when the cache has none, and keeps it", "[model]")
{
    const Scenario s{WithDb(2, {Call(Op::Kind::GET_BEST, 2), SetBest(1, 5), Call(Op::Kind::GET_BEST, 2), Call(Op::Kind::GET_BEST, 1)})};
    const Result r{RunModel(s, true)};
    REQUIRE(r.promised.answers.size() == 3);
    CHECK(r.promised.answers[0].hashes == std::vector<Hash>{DbTip()});
    CHECK(r.promised.answers[1].hashes == std::vector<Hash>{DbTip()});  // cached from the first call
    CHECK(r.promised.answers[2].hashes == std::vector<Hash>{Filled(5)});
}

TEST_CASE("a restart drops what the caches held and keeps what was flushed", "[model]")
{
    const Scenario s{WithDb(1, {Add(1, X(3), P2pkh(5)), Call(Op::Kind::REOPEN, 0), Call(Op::Kind::HAVE, 1, X(3)),
                                Call(Op::Kind::GET_BEST, 1)})};
    const Result r{RunModel(s, true)};
    REQUIRE(r.promised.answers.size() == 2);
    CHECK(!r.promised.answers[0].flag);
    CHECK(r.promised.answers[1].hashes == std::vector<Hash>{DbTip()});
}

TEST_CASE("AddCoin leaves an unspendable coin out", "[model]")
{
    Coin op_return{P2pkh(5)};
    op_return.script = {0x6a, 0x01};
    const Scenario s{WithDb(1, {Add(1, X(4), op_return), Call(Op::Kind::HAVE, 1, X(4))})};
    CHECK(!RunModel(s, true).promised.answers[0].flag);
}

TEST_CASE("an emplaced coin is DIRTY, not FRESH: its spend reaches the database", "[model]")
{
    // A snapshot's coin emplaced and flushed, then spent in a cache and flushed: the database loses it.
    Op emplace{Call(Op::Kind::EMPLACE, 1, X(3))};
    emplace.coin = P2pkh(7);
    const Scenario s{WithDb(1, {emplace, SetBest(1, 4), Call(Op::Kind::FLUSH, 1), Spend(1, X(3), true), Call(Op::Kind::FLUSH, 1)})};
    for (const bool fresh_rule : {true, false}) {
        const Result r{RunModel(s, fresh_rule)};
        REQUIRE(r.promised.contents.size() == 3);
        CHECK(r.promised.contents[0].second == Encode({{X(1), P2pkh(1000)}, {X(2), P2pkh(2000)}, {X(3), P2pkh(7)}}, Filled(4)));
        CHECK(Last(r) == Encode({{X(1), P2pkh(1000)}, {X(2), P2pkh(2000)}}, Filled(4)));
    }
}

TEST_CASE("Reset discards the top cache's changes and block, not the views below", "[model]")
{
    const Scenario s{WithDb(2, {SetBest(1, 6), Spend(2, X(1), true), Add(2, X(3), P2pkh(5)), SetBest(2, 8), Call(Op::Kind::RESET, 2),
                                Call(Op::Kind::HAVE, 2, X(1)), Call(Op::Kind::HAVE, 2, X(3)), Call(Op::Kind::GET_BEST, 2)})};
    for (const bool fresh_rule : {true, false}) {
        const Result r{RunModel(s, fresh_rule)};
        REQUIRE(r.promised.answers.size() == 4);
        CHECK(r.promised.answers[1].flag);   // the spend is gone
        CHECK(!r.promised.answers[2].flag);  // and the add
        CHECK(r.promised.answers[3].hashes == std::vector<Hash>{Filled(6)});  // the block is the cache below's
    }
}

namespace {
//! A lookup of the detached top cache at an outpoint nobody brought into it.
Op Unheld(Op::Kind kind, uint8_t view, Outpoint at)
{
    Op op{Call(kind, view, at)};
    op.unheld = true;
    return op;
}
} // namespace

TEST_CASE("a detached cache answers for the coins and block it was given, and no others", "[model]")
{
    // Mempool acceptance: HaveCoin of x1:0 and of x3:0 (missing), AccessCoin of x2:0, the best
    // block into scope, then the empty view as backend.
    const Scenario s{WithDb(2, {Call(Op::Kind::HAVE, 2, X(1)), Call(Op::Kind::HAVE, 2, X(3)), Call(Op::Kind::ACCESS, 2, X(2)),
                                Call(Op::Kind::GET_BEST, 2), Call(Op::Kind::DETACH, 2), Call(Op::Kind::GET, 2, X(1)),
                                Call(Op::Kind::HAVE, 2, X(3)), Call(Op::Kind::ACCESS, 2, X(2)), Call(Op::Kind::GET_BEST, 2),
                                Unheld(Op::Kind::GET, 2, X(1, 1)), Call(Op::Kind::HAVE, 1, X(1)), Call(Op::Kind::ATTACH, 2),
                                Call(Op::Kind::GET, 2, X(1, 1))})};
    CHECK(ContractBreak(s).empty());
    for (const bool fresh_rule : {true, false}) {
        const Result r{RunModel(s, fresh_rule)};
        REQUIRE(r.promised.answers.size() == 10);  // the unheld lookup is not among them
        CHECK(r.promised.answers[4].coin == P2pkh(1000));
        CHECK(!r.promised.answers[5].flag);
        CHECK(r.promised.answers[6].coin == P2pkh(2000));
        CHECK(r.promised.answers[7].hashes == std::vector<Hash>{DbTip()});
        CHECK(r.promised.answers[8].op == 10);
        CHECK(r.promised.answers[8].flag);  // the view below is not detached
    }
    // Without the block brought into scope the detached cache names none.
    const Scenario no_block{WithDb(1, {Call(Op::Kind::DETACH, 1), Call(Op::Kind::GET_BEST, 1)})};
    CHECK(RunModel(no_block, true).promised.answers[0].hashes == std::vector<Hash>{Hash{}});
    // A lookup marked against the calls before it, and a write while detached, are outside the contract.
    Scenario wrong{s};
    wrong.ops[9].unheld = false;
    CHECK(ContractBreak(wrong).find("marked brought in") != std::string::npos);
    const Scenario write{WithDb(1, {Call(Op::Kind::DETACH, 1), Add(1, X(3), P2pkh(5))})};
    CHECK(ContractBreak(write).find("AddCoin while the top cache's backend is the empty view") != std::string::npos);
}

TEST_CASE("every side of this build answers the known scenarios alike", "[sides]")
{
    const std::vector<Scenario> scenarios{
        WithDb(1, {Add(1, X(3), P2pkh(5)), Spend(1, X(3), true), SetBest(1, 9), Call(Op::Kind::FLUSH, 1), Call(Op::Kind::CURSOR, 0)}),
        WithDb(2, {Spend(2, X(1), true), Call(Op::Kind::SYNC, 2), Call(Op::Kind::GET, 1, X(1)), SetBest(1, 7), Call(Op::Kind::FLUSH, 1),
                   Call(Op::Kind::REOPEN, 0), Call(Op::Kind::CURSOR, 0)}),
        WithDb(3, {Call(Op::Kind::ACCESS, 1, X(2)), Spend(3, X(2), true), Call(Op::Kind::FLUSH, 3), Call(Op::Kind::UNCACHE, 1, X(2)),
                   Call(Op::Kind::PEEK, 2, X(2)), Call(Op::Kind::HAVE, 0, X(2)), Call(Op::Kind::GET_HEADS, 0)}),
        WithDb(2, {[] {
                       Op emplace{Call(Op::Kind::EMPLACE, 2, X(4, 128))};
                       emplace.coin = P2pkh(9);
                       return emplace;
                   }(),
                   SetBest(2, 2), Spend(2, X(2), true), Call(Op::Kind::RESET, 2), Call(Op::Kind::GET, 2, X(4, 128)),
                   Call(Op::Kind::HAVE, 2, X(2)), Call(Op::Kind::GET_BEST, 2), Call(Op::Kind::MEMORY, 2)}),
        WithDb(2, {Call(Op::Kind::HAVE, 2, X(1)), Call(Op::Kind::ACCESS, 2, X(3)), Call(Op::Kind::GET_BEST, 2), Call(Op::Kind::DETACH, 2),
                   Call(Op::Kind::GET, 2, X(1)), Call(Op::Kind::PEEK, 2, X(3)), Call(Op::Kind::GET_BEST, 2),
                   Unheld(Op::Kind::HAVE, 2, X(2)), Call(Op::Kind::UNCACHE, 2, X(1)), Unheld(Op::Kind::ACCESS, 2, X(1)),
                   Call(Op::Kind::ATTACH, 2), Spend(2, X(1), true), Call(Op::Kind::DETACH, 2), Call(Op::Kind::HAVE, 2, X(1)),
                   Call(Op::Kind::ATTACH, 2), Call(Op::Kind::FLUSH, 2)}),
    };
    for (const Scenario& s : scenarios) {
        const Promised first{Sides()[0].side->run(s).promised};
        for (const auto& side : Sides()) {
            INFO(side.label);
            const Result r{side.side->run(s)};
            CHECK(r.promised == first);
            if (r.bookkeeping) {
                CHECK(r.bookkeeping->usage.empty());
                CHECK(r.bookkeeping->dirty.empty());
                CHECK(r.bookkeeping->fresh.empty());
                CHECK(r.bookkeeping->spent_flagged.empty());
            }
        }
    }
}

TEST_CASE("the decoder builds scenarios within the callers' contracts", "[decoder]")
{
    std::mt19937 rng{1};
    for (int i = 0; i < 2000; ++i) {
        std::vector<uint8_t> bytes(rng() % 600);
        for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        const Scenario s{Decode(fdp)};
        INFO(i);
        CHECK(ContractBreak(s).empty());
        CHECK(s.ops.size() <= MAX_OPS);
        CHECK(RunModel(s, true).promised.stopped.empty());
    }
}

TEST_CASE("an emplaced coin outside a snapshot's contract is named by ContractBreak", "[decoder]")
{
    Scenario s;
    s.caches = 1;
    Op emplace{Call(Op::Kind::EMPLACE, 1, X(2, 1))};
    emplace.coin = P2pkh(5'000);
    s.ops = {emplace};
    CHECK(ContractBreak(s).empty());
    // An OP_RETURN output: never in the UTXO set, so never in a snapshot.
    s.ops[0].coin.script = Bytes{0x6a, 0x01, 0x00};
    CHECK(ContractBreak(s).find("unspendable coin at x2:1") != std::string::npos);
    // An outpoint the database already holds.
    s.ops[0].coin = P2pkh(5'000);
    s.db = {{X(2, 1), P2pkh(7'000)}};
    CHECK(ContractBreak(s).find("which the scenario named before") != std::string::npos);
}

TEST_CASE("a failed write stops the flush, and the database opens again whole", "[sides][faults]")
{
    // A spend and a new coin through one cache over a database of two coins, then the flush into
    // the database: its batch is the log's first record (two Appends, its header and its body,
    // then a Flush) once the calls begin.
    Scenario s{WithDb(1, {Spend(1, X(1), true), Add(1, X(3), P2pkh(5)), SetBest(1, 9), Call(Op::Kind::FLUSH, 1),
                          Call(Op::Kind::GET, 0, X(3))})};
    s.on_disk = true;
    const Content before{RunModel(WithDb(1, {}), true).promised.contents.back().second};
    struct Case {
        Fault fault;
        bool written;  //!< whether the record reached the log whole (the database holds the flush)
    };
    const std::vector<Case> cases{
        {Fault{.kind = Fault::Kind::APPEND, .at = 1}, false},
        {Fault{.kind = Fault::Kind::APPEND, .at = 2}, false},
        {Fault{.kind = Fault::Kind::TORN, .at = 2, .keep = 128}, false},
        {Fault{.kind = Fault::Kind::FLUSH, .at = 1}, true},
    };
    const Result model{RunModel(s, true)};
    const Content& flushed{model.promised.contents.front().second};
    REQUIRE(flushed != before);
    size_t core{0};
    for (const Case& c : cases) {
        s.fault = c.fault;
        for (const auto& side : Sides()) {
            if (!side.side->injects_faults) continue;
            ++core;
            INFO(side.label << ", " << static_cast<int>(c.fault.kind) << " at " << int{c.fault.at});
            const Result r{side.side->run(s)};
            REQUIRE(r.faulted);
            CHECK(r.faulted->op == 3);
            CHECK(r.faulted->what.starts_with("write fault: "));
            CHECK(r.faulted->before == before);
            CHECK(r.faulted->after == (c.written ? flushed : before));
            for (const Answer& a : r.promised.answers) CHECK(a.op < 3);  // nothing after the fault: the node stopped
        }
    }
    // A fault later than every write of the scenario never fires: it runs to the end.
    s.fault = Fault{.kind = Fault::Kind::APPEND, .at = 9};
    for (const auto& side : Sides()) {
        if (!side.side->injects_faults) continue;
        const Result r{side.side->run(s)};
        CHECK_FALSE(r.faulted);
        CHECK(r.promised == model.promised);
    }
    if (core == 0) WARN("this build has no Core side: write faults are not exercised");
}

TEST_CASE("a failed read stops the lookup: it is never an absent coin", "[sides][faults]")
{
    // The database's coins flushed, a restart (LevelDB writes its log into a table file), then a
    // lookup through the cache and one of the database itself: the first read of the table fails.
    for (const uint8_t view : {uint8_t{1}, uint8_t{0}}) {
        // GetCoin through the cache (the error catcher stops it), AccessCoin of the database itself (its own error).
        const Op::Kind lookup{view == 0 ? Op::Kind::ACCESS : Op::Kind::GET};
        Scenario s{WithDb(1, {Call(Op::Kind::REOPEN, 0), Call(lookup, view, X(1)), Call(Op::Kind::HAVE, 1, X(2))})};
        s.on_disk = true;
        s.fault = Fault{.kind = Fault::Kind::READ, .at = 1};
        for (const auto& side : Sides()) {
            if (!side.side->injects_faults) continue;
            INFO(side.label << ", a lookup of view " << int{view});
            const Result r{side.side->run(s)};
            REQUIRE(r.faulted);
            CHECK(r.faulted->op == 1);
            CHECK(r.faulted->what.starts_with("read fault: "));
            CHECK(r.faulted->after == r.faulted->before);  // a read changes nothing
            for (const Answer& a : r.promised.answers) CHECK(a.op < 1);
        }
    }
}

TEST_CASE("EncodeScenario is Decode's mirror; MutateScenario keeps inputs within the contracts", "[mutator]")
{
    for (const bool faults : {false, true}) {
        std::mt19937 rng{faults ? 7u : 3u};
        size_t changed{0};
        size_t meeting{0};  // mutated scenarios whose calls meet an outpoint again after a flush or compaction
        for (int i = 0; i < 1000; ++i) {
            std::vector<uint8_t> raw(rng() % 700);
            for (uint8_t& b : raw) b = static_cast<uint8_t>(rng());
            FuzzedDataProvider fdp{raw.data(), raw.size()};
            const Scenario first{Decode(fdp, faults)};
            // Written and read again: the same scenario, every field (the calls Decode inserted are
            // written as calls, and read back as the same calls).
            const Bytes once{EncodeScenario(first)};
            FuzzedDataProvider fdp1{once.data(), once.size()};
            const Scenario second{Decode(fdp1, faults)};
            INFO(i << (faults ? " (faults)" : ""));
            CHECK(second.ops == first.ops);
            CHECK(second.db == first.db);
            CHECK(second.caches == first.caches);
            CHECK(second.obfuscate == first.obfuscate);
            CHECK(second.on_disk == first.on_disk);
            if (faults) CHECK(second.fault == first.fault);
            CHECK(EncodeScenario(second) == once);
            // Mutated: an input the targets read within the callers' contracts, its calls all run.
            std::vector<uint8_t> mutated{raw};
            equifuzz::Mutation m{mutated, 2048, static_cast<uint32_t>(i)};
            if (!MutateScenario(m, faults)) continue;
            ++changed;
            FuzzedDataProvider fdp2{mutated.data(), mutated.size()};
            const Scenario third{Decode(fdp2, faults)};
            CHECK(ContractBreak(third).empty());
            CHECK(RunModel(third, true).promised.stopped.empty());
            bool moved{false};
            std::set<Outpoint> before;
            for (const Op& op : third.ops) {
                if (op.kind == Op::Kind::FLUSH || op.kind == Op::Kind::COMPACT || op.kind == Op::Kind::REOPEN) moved |= !before.empty();
                const bool reads{op.kind == Op::Kind::ACCESS || op.kind == Op::Kind::GET || op.kind == Op::Kind::PEEK ||
                                 op.kind == Op::Kind::HAVE || op.kind == Op::Kind::SPEND};
                if (moved && reads && before.contains(op.at)) {
                    ++meeting;
                    break;
                }
                if (op.kind == Op::Kind::ADD || op.kind == Op::Kind::SPEND || op.kind == Op::Kind::ACCESS) before.insert(op.at);
            }
        }
        CHECK(changed > 800);
        CHECK(meeting > 100);
    }
}
