// CheckTransaction pair: ns per transaction for 1, 2, 3, 10, 100, 1000 and 2500 inputs (distinct
// random outpoints, one output: the valid case, where every input is compared), and over every
// transaction of the real block 277647 (items = transactions). The original side collects the
// outpoints in a std::set; the optimized one sorts a vector, with fast paths for 1 and 2 inputs.
#include "common/bench.h"
#include "common/real_data.h"

#include <tx_check/side.h>

#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

using namespace equifuzz;
using namespace equifuzz::tx_check;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

Transaction WithInputs(size_t count)
{
    std::mt19937_64 rng{count};
    Transaction tx;
    tx.vin.resize(count);
    for (TxIn& in : tx.vin) {
        for (uint8_t& b : in.prevout.hash) b = static_cast<uint8_t>(rng());
        in.prevout.n = static_cast<uint32_t>(rng() % 4);
        in.script_sig = Bytes(107, 0x51);
    }
    tx.vout.push_back(TxOut{50'000, Bytes(25, 0x76)});
    return tx;
}

//! The side's check of `tx`, its input converted beforehand (Core's sides build a CTransaction,
//! which hashes it; that is not CheckTransaction's cost).
std::function<TxVerdict()> Prepare(const Side& side, const Transaction& tx)
{
    if (side.prepare_check) return side.prepare_check(tx);
    return [&side, tx] { return side.check_transaction(tx); };
}

void Register()
{
    for (const size_t inputs : {size_t{1}, size_t{2}, size_t{3}, size_t{10}, size_t{100}, size_t{1000}, size_t{2500}}) {
        auto tx{std::make_shared<Transaction>(WithInputs(inputs))};
        const CaseOptions opt{.items_per_op = 1, .instruction_runs = std::max<int64_t>(2, 2000 / static_cast<int64_t>(inputs))};
        for (const auto& [label, side, role] : Sides()) {
            Add("tx_check", std::to_string(inputs) + (inputs == 1 ? " input" : " inputs"), label, [side, tx]() -> Operation {
                return [check = Prepare(*side, *tx)] {
                    const TxVerdict v{check()};
                    if (!v.valid) std::abort();
                    benchmark::DoNotOptimize(v.reason.data());
                };
            }, opt);
        }
    }
    auto block{std::make_shared<Block>(bench::Blocks("277647.dat").at(0))};
    const CaseOptions every{.items_per_op = static_cast<int64_t>(block->txs.size()), .instruction_runs = 3};
    for (const auto& [label, side, role] : Sides()) {
        Add("tx_check", "every tx of block 277647 (" + std::to_string(block->txs.size()) + ")", label, [side, block]() -> Operation {
            auto checks{std::make_shared<std::vector<std::function<TxVerdict()>>>()};
            for (const Transaction& tx : block->txs) checks->push_back(Prepare(*side, tx));
            return [checks] {
                size_t valid{0};
                for (const auto& check : *checks) valid += check().valid;
                if (valid != checks->size()) std::abort();
                benchmark::DoNotOptimize(valid);
            };
        }, every);
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
