// Known answers for the prevout fetch pair (#35295; differential/prevout_fetch/BEHAVIOUR.md): what the
// overlay's misses read and leave, which inputs the queue takes, when its tail falls behind, the
// flush's warning, and the decoder's promise of txids that can be computed.
#include <catch2/catch.hpp>
#include <prevout_fetch/model.h>
#include <prevout_fetch/pair.h>
#include <prevout_fetch/side.h>

#include <random>
#include <set>
#include <string>
#include <vector>

using namespace equifuzz::prevout_fetch;

namespace {

Coin P2pkh(int64_t amount)
{
    Bytes script{0x76, 0xa9, 20};
    script.insert(script.end(), 20, 0x33);
    script.insert(script.end(), {0x88, 0xac});
    return Coin{.height = 800'000, .coinbase = false, .amount = amount, .script = script};
}

Ref X(uint8_t id, uint32_t n = 0) { return Ref{Ref::EXTERNAL, id, n}; }
Ref T(uint8_t tx, uint32_t n = 0) { return Ref{tx, 0, n}; }

//! Coins x1..x4 in the database, x1 spent in the middle cache; a coinbase and `inputs` per tx.
Scenario Block(const std::vector<std::vector<Ref>>& inputs, uint8_t workers)
{
    Scenario s;
    for (uint8_t id = 1; id <= 4; ++id) s.db.emplace_back(X(id), P2pkh(1000 * id));
    s.middle.push_back({.kind = MiddleOp::Kind::SPEND, .at = X(1), .coin = {}});
    s.vtx.push_back({.vin = {}, .vout = {P2pkh(5000)}});
    for (const auto& vin : inputs) s.vtx.push_back({.vin = vin, .vout = {P2pkh(700)}});
    for (size_t i = 0; i < s.vtx.size(); ++i) s.order.push_back(static_cast<uint8_t>(i));
    s.workers = workers;
    return s;
}

const Side& Optimized()
{
    for (const auto& s : Sides()) {
        if (s.role == equifuzz::Role::OPTIMIZED) return *s.side;
    }
    FAIL("no optimized side");
    throw;
}

} // namespace

TEST_CASE("ConnectBlock's order consumes every queued input, an earlier transaction's output filtered")
{
    // tx2 spends tx1's output: its coin is the overlay's own (AddCoin), so it is never queued.
    const Scenario s{Block({{X(2)}, {T(1), X(3)}}, 8)};
    const Result r{Optimized().run(s, 8)};
    CHECK(r.stopped.empty());
    CHECK(r.consumed == true);
    CHECK(r.warnings.empty());
    // Every side, Core's with and without workers included, agrees.
    Check(s);
}

TEST_CASE("a permuted order leaves the tail behind: the flush warns, the answers are the same")
{
    Scenario s{Block({{X(2), X(3)}, {X(4)}}, 2)};
    s.pattern = Scenario::Pattern::PERMUTED;
    s.order = {0, 2, 1};  // tx2's x4 is missed first: the queue's tail waits at x2
    const Result r{Optimized().run(s, 2)};
    CHECK(r.stopped.empty());
    CHECK(r.consumed == false);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0] == "Block " + std::string(64, '7') +
                               " input prevout prefetch queue was not fully consumed; inputs were accessed out of order, so "
                               "prefetching degraded to serial lookups for this block.");
    const Result serial{Optimized().run(s, 0)};
    CHECK(serial.consumed == true);
    CHECK(serial.warnings.empty());
    CHECK(serial.accesses == r.accesses);
    CHECK(serial.middle == r.middle);
    Check(s);
}

TEST_CASE("a pool interrupted before the block refuses the tasks: a warning, nothing queued, the serial answers")
{
    Scenario s{Block({{X(2), X(3)}, {X(4)}}, 8)};
    s.interrupted = true;
    s.pattern = Scenario::Pattern::PERMUTED;
    s.order = {0, 2, 1};  // out of order: a queue kept by mistake would be left unconsumed
    const Result r{Optimized().run(s, 8)};
    CHECK(r.stopped.empty());
    CHECK(r.consumed == true);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0] == "Failed to submit prevout fetch tasks; falling back to single-threaded fetching for this block.");
    const Result serial{Optimized().run(s, 0)};
    CHECK(serial.warnings.empty());
    CHECK(serial.accesses == r.accesses);
    CHECK(serial.middle == r.middle);
    // Core's merge, its pool started and then interrupted, logs the same line.
    Check(s);
    // Nothing to queue (only the coinbase): nothing is submitted, so nothing is refused.
    Scenario empty{Block({}, 8)};
    empty.interrupted = true;
    CHECK(Optimized().run(empty, 8).warnings.empty());
    Check(empty);
}

TEST_CASE("the coinbase's outputs stay queued, and so does the same outpoint twice")
{
    // Spending the coinbase: its txid never joins the filter, and its coin is an overlay hit.
    CHECK(Optimized().run(Block({{T(0)}}, 1), 1).consumed == false);
    // The same outpoint twice in one transaction: the second HaveCoin is a hit, its entry waits.
    CHECK(Optimized().run(Block({{X(2), X(2)}}, 1), 1).consumed == false);
    Check(Block({{T(0)}}, 1));
    Check(Block({{X(2), X(2)}}, 16));
}

TEST_CASE("a miss reads the middle cache without filling it, and a spent middle entry is missing")
{
    // x1 is spent (DIRTY) in the middle cache, unspent in the database: the block stops there.
    Scenario s{Block({{X(2)}, {X(1)}}, 8)};
    const Result r{Optimized().run(s, 8)};
    CHECK(r.stopped == "tx 2 input 0 missing");
    CHECK_FALSE(r.flushed);
    // The middle cache holds only its own spent entry: the overlay's reads of x2 left nothing.
    CHECK(r.middle.entries == 1);
    CHECK(std::ranges::none_of(r.middle.coins, [](const auto& c) { return c.has_value(); }));
    Check(s);
}

TEST_CASE("a flush moves the overlay's DIRTY entries into the middle cache")
{
    const Scenario s{Block({{X(2)}}, 0)};
    const Result r{Optimized().run(s, 0)};
    REQUIRE(r.flushed);
    CHECK(r.flush_error.empty());
    // x1 spent (its own), x2 spent by tx1, the coinbase's and tx1's outputs added.
    CHECK(r.middle.entries == 4);
    const std::vector<Ref> named{NamedRefs(s)};
    const auto at{[&](const Ref& ref) { return r.middle.coins[std::ranges::find(named, ref) - named.begin()]; }};
    CHECK(at(T(0)) == OutputCoin(s, 0, 0));
    CHECK(at(T(1)) == OutputCoin(s, 1, 0));
    CHECK_FALSE(at(X(2)).has_value());
    CHECK_FALSE(at(X(3)).has_value());  // never read: not in the middle cache
}

TEST_CASE("the decoder's block references never form a cycle")
{
    std::mt19937 rng{35295};
    for (int round = 0; round < 3000; ++round) {
        std::vector<uint8_t> bytes(rng() % 300);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        const Scenario s{Decode(fdp)};
        // Kahn's order over "tx i spends an output of tx j" must place every transaction.
        const size_t n{s.vtx.size()};
        std::vector<std::set<size_t>> deps(n);
        for (size_t i = 0; i < n; ++i) {
            for (const Ref& r : s.vtx[i].vin) {
                if (!r.External()) deps[i].insert(r.tx);
            }
        }
        std::set<size_t> placed;
        for (bool progress = true; progress;) {
            progress = false;
            for (size_t i = 0; i < n; ++i) {
                if (placed.contains(i)) continue;
                if (std::ranges::all_of(deps[i], [&](size_t j) { return placed.contains(j); })) {
                    placed.insert(i);
                    progress = true;
                }
            }
        }
        REQUIRE(placed.size() == n);
    }
}

TEST_CASE("EncodeScenario is Decode's mirror: a decoded scenario written and read again is the same", "[mutator]")
{
    std::mt19937 rng{31132};
    size_t with_block_refs{0}, permuted{0}, interrupted{0};
    for (int round = 0; round < 2000; ++round) {
        std::vector<uint8_t> bytes(rng() % 400);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        const Scenario first{Decode(fdp)};
        const Bytes once{EncodeScenario(first)};
        FuzzedDataProvider fdp1{once.data(), once.size()};
        const Scenario second{Decode(fdp1)};
        REQUIRE(second == first);
        CHECK(EncodeScenario(second) == once);
        for (const Tx& tx : first.vtx) with_block_refs += std::ranges::any_of(tx.vin, [](const Ref& r) { return !r.External(); });
        permuted += first.pattern == Scenario::Pattern::PERMUTED;
        interrupted += first.interrupted;
    }
    // Every field was met: references within the block, a permuted order, an interrupted pool.
    CHECK(with_block_refs > 100);
    CHECK(permuted > 100);
    CHECK(interrupted > 50);
}
