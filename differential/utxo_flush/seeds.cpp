// The UTXO flush targets' seeds, written by the pair's encoder (EncodeScenario; common/seeds.h).
//
// utxo_flush_batches reads every choice through the FuzzedDataProvider, so random inputs of
// assorted lengths give blocks of assorted sizes; constant inputs pick the edge choices.
//
// utxo_flush_steps and utxo_flush_disk get scenarios around real coins: the amounts, scripts and
// coinbase flags of the outputs of the real blocks in tests/data/bitcoin, at their block's
// height. A first block creates coins, a second spends some and creates more, flushed at batch
// sizes that cut them into several batches, interrupted before a partial batch and recovered
// (sometimes interrupted again), with and without obfuscation, Flush and Sync. utxo_flush_faults
// gets the same scenarios, most interruptions a write fault in the log instead. Each target also
// gets the pair's reproducer of its kind, written out below (CrashRecovery, FaultRecovery).
#include "pair.h"
#include "pair_parts.h"

#include <common/seeds.h>

#include <optional>

namespace equifuzz::utxo_flush {
namespace {

using Kind = Op::Kind;

Op MakeOp(Kind kind, uint8_t txid, uint32_t n, const Coin& coin = {}, bool possible_overwrite = false)
{
    Op op;
    op.kind = kind;
    op.txid.fill(txid);
    op.n = n;
    op.coin = coin;
    op.possible_overwrite = possible_overwrite;
    return op;
}

Fault MakeFault(Fault::Kind kind, size_t at, uint8_t keep = 0)
{
    Fault f;
    f.kind = kind;
    f.at = at;
    f.keep = keep;
    return f;
}

//! A step: a block's ops (none for a recovery: the decoder repeats the interrupted block's), its
//! batch size, the partial batch it crashes before, Sync or Flush, its write fault.
Step MakeStep(std::vector<Op> ops, std::optional<uint64_t> batch, size_t crash, bool sync, Fault fault = {})
{
    Step s;
    s.ops = std::move(ops);
    s.batch_bytes = batch;
    s.crash_before = crash;
    s.sync = sync;
    s.fault = fault;
    return s;
}

Fault RandomFault(seeds::Stream& r)
{
    const Fault::Kind kind{r.Pick({Fault::Kind::APPEND, Fault::Kind::TORN, Fault::Kind::FLUSH})};
    const size_t at{r.Pick<size_t>({1, 2, 3, 4, 5, 7, 12, 20})};
    return MakeFault(kind, at, kind == Fault::Kind::TORN ? static_cast<uint8_t>(r.Below(256)) : 0);
}

//! Two blocks over real coins; a crash point (or, with `faults`, mostly a write fault) in one of
//! them, then its recovery, sometimes interrupted again.
Scenario RandomScenario(seeds::Stream& r, const std::vector<Coin>& coins, bool faults)
{
    Scenario in;
    in.obfuscate = r.Chance(50);
    std::vector<std::pair<uint8_t, uint32_t>> outpoints;
    for (uint8_t t = 1; t <= TXIDS; ++t) {
        for (uint32_t n = 0; n <= MAX_SMALL_N; ++n) outpoints.emplace_back(t, n);
    }
    r.Shuffle(outpoints);
    const size_t made{r.InRange(4, 14)};
    const std::vector created(outpoints.begin(), outpoints.begin() + made);
    const auto sample{[&](size_t k) {
        auto from{created};
        r.Shuffle(from);
        from.resize(k);
        return from;
    }};
    std::vector<std::vector<Op>> blocks(1);
    for (const auto& [t, n] : created) blocks[0].push_back(MakeOp(Kind::ADD, t, n, r.Pick(coins)));
    std::vector<Op> second;
    for (const auto& [t, n] : sample(r.InRange(1, made / 2))) second.push_back(MakeOp(Kind::SPEND, t, n));
    const size_t later{r.InRange(2, 8)};
    for (size_t i = made; i < made + later; ++i) {
        second.push_back(MakeOp(Kind::ADD, outpoints[i].first, outpoints[i].second, r.Pick(coins), r.Chance(30)));
    }
    for (const auto& [t, n] : sample(2)) second.push_back(MakeOp(Kind::ACCESS, t, n));
    r.Shuffle(second);
    if (r.Chance(30)) { // an output no one can spend: the cache never keeps it
        Coin c{r.Pick(coins)};
        Bytes script{0x6a, 0x04};
        script.insert(script.end(), c.script.begin(), c.script.begin() + std::min<size_t>(4, c.script.size()));
        c.script = script;
        c.coinbase = false;
        second.push_back(MakeOp(Kind::ADD, outpoints.back().first, outpoints.back().second, c));
    }
    if (r.Chance(30)) { // a coin on disk re-added as FRESH and spent in the same block: it stays
        const auto [t, n]{r.Pick(created)};
        second.push_back(MakeOp(Kind::ADD, t, n, r.Pick(coins)));
        second.push_back(MakeOp(Kind::SPEND, t, n));
    }
    if (second.size() > MAX_BLOCK_OPS) second.resize(MAX_BLOCK_OPS);
    blocks.push_back(second);
    const size_t crash_block{r.Below(blocks.size())};
    for (size_t i = 0; i < blocks.size(); ++i) {
        size_t crash{i == crash_block ? r.InRange(1, 4) : 0};
        Fault fault;
        if (faults && crash != 0 && r.Chance(80)) {
            crash = 0;
            fault = RandomFault(r);
        }
        const std::optional<uint64_t> batch{r.Pick<std::optional<uint64_t>>({std::nullopt, 0, 40, 84, 120, 300, 1000})};
        in.steps.push_back(MakeStep(blocks[i], batch, crash, r.Chance(25), fault));
        if (crash != 0 || fault.kind != Fault::Kind::NONE) {
            const size_t again{r.Chance(50) ? r.InRange(1, 3) : 0};
            const Fault fault_again{faults && again == 0 && r.Chance(40) ? RandomFault(r) : Fault{}};
            const std::optional<uint64_t> recovery_batch{r.Pick<std::optional<uint64_t>>({std::nullopt, 0, 100})};
            in.steps.push_back(MakeStep(blocks[i], recovery_batch, again, false, fault_again));
            if (again != 0 || fault_again.kind != Fault::Kind::NONE) in.steps.push_back(MakeStep(blocks[i], std::nullopt, 0, false));
        }
    }
    if (in.steps.size() > MAX_STEPS) in.steps.resize(MAX_STEPS);
    return in;
}

//! Block 1 creates six real coins; block 2 spends two, rewrites one and creates two.
std::vector<std::vector<Op>> TwoBlocks(const std::vector<Coin>& coins)
{
    std::vector<Op> first;
    for (uint8_t t = 1; t <= 6; ++t) first.push_back(MakeOp(Kind::ADD, t, 0, coins.at(5 + t)));
    return {first,
            {MakeOp(Kind::SPEND, 1, 0), MakeOp(Kind::SPEND, 2, 0), MakeOp(Kind::ADD, 3, 0, coins.at(40), true),
             MakeOp(Kind::ADD, 7, 0, coins.at(41)), MakeOp(Kind::ADD, 8, 1, coins.at(42))}};
}

//! The pair's crash-recovery reproducer (corpora/regressions/utxo_flush_disk/
//! recovery-after-nested-crash): block 2 flushed one entry per batch and interrupted before its
//! third partial batch; the recovery interrupted before its second; the second recovery completes
//! at the side's default batch size.
Scenario CrashRecovery(const std::vector<Coin>& coins)
{
    const auto blocks{TwoBlocks(coins)};
    Scenario in;
    in.obfuscate = true;
    in.steps = {MakeStep(blocks[0], std::nullopt, 0, false), MakeStep(blocks[1], 0, 3, false), MakeStep(blocks[1], 0, 2, false),
                MakeStep(blocks[1], std::nullopt, 0, false)};
    return in;
}

//! The pair's write-fault reproducer (corpora/regressions/utxo_flush_faults/
//! torn-write-then-recovery): block 2 flushed one entry per batch, and the log's fifth Append
//! (batch 3's record header) writes 100/256 of its bytes and fails; the recovery replays block 2
//! at the side's default batch size.
Scenario FaultRecovery(const std::vector<Coin>& coins)
{
    const auto blocks{TwoBlocks(coins)};
    Scenario in;
    in.obfuscate = true;
    in.steps = {MakeStep(blocks[0], std::nullopt, 0, false), MakeStep(blocks[1], 0, 0, false, MakeFault(Fault::Kind::TORN, 5, 100)),
                MakeStep(blocks[1], std::nullopt, 0, false)};
    return in;
}

void AddScenarios(seeds::Writer& w, std::string_view target, const std::vector<Coin>& coins, size_t count, Storage storage)
{
    seeds::Stream r{std::string{target} + "/scenarios"};
    for (size_t i = 0; i < count; ++i) w.Add(target, EncodeScenario(RandomScenario(r, coins, storage == Storage::DISK_FAULTS), storage));
}

} // namespace
} // namespace equifuzz::utxo_flush

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace utxo_flush;
    std::vector<Coin> coins;
    for (const RealCoin& c : w.RealCoins(MAX_RAW_SCRIPT)) coins.push_back(seeds::CoinAs<Coin>(c));

    w.AddRandom("utxo_flush_batches", {0, 8, 32, 64, 128, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200});
    w.AddConstant("utxo_flush_batches", {0x00, 0x01, 0x7f, 0xff}, {16, 256, 1024});

    w.Add("utxo_flush_steps", EncodeScenario(CrashRecovery(coins), Storage::MEMORY));
    AddScenarios(w, "utxo_flush_steps", coins, 40, Storage::MEMORY);
    w.AddRandom("utxo_flush_steps", {16, 64, 128, 256, 512, 1024});

    w.Add("utxo_flush_disk", EncodeScenario(CrashRecovery(coins), Storage::DISK));
    AddScenarios(w, "utxo_flush_disk", coins, 12, Storage::DISK);

    w.Add("utxo_flush_faults", EncodeScenario(FaultRecovery(coins), Storage::DISK_FAULTS));
    AddScenarios(w, "utxo_flush_faults", coins, 16, Storage::DISK_FAULTS);
}

} // namespace equifuzz::seeds
