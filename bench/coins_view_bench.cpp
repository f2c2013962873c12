// Coins view pair: one block's work on Bitcoin Core's coins view stack, before and after a change of
// coins.cpp, txdb.cpp or dbwrapper.cpp (Core's sides only: our models keep no database). Over a
// database of N coins in LevelDB's memory Env, a block's view over the chainstate's cache looks up
// and spends every coin and adds as many new ones; the view is flushed into the chainstate's cache
// and that into the database; then the same in reverse, which leaves the database as it was. The
// time is per coin of the block (items = 2N coins spent and 2N added per operation), so the two
// sides' figures compare the code of the two trees on the same calls (coins_view::Side::bench_block).
#include "common/bench.h"

#include <coins_view/side.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace equifuzz::coins_view;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

//! What Side::bench_block answers: the amounts of the coins it looks up (coin i holds 1,000 + i
//! satoshis) and one per spend, in each of its two rounds.
uint64_t Expected(size_t coins)
{
    const uint64_t n{coins};
    return 2 * (1'000 * n + n * (n - 1) / 2 + n);
}

void Register()
{
    for (const size_t coins : {size_t{1'000}, size_t{20'000}}) {
        const CaseOptions opt{.bytes_per_op = 0, .items_per_op = static_cast<int64_t>(2 * coins), .instruction_runs = 2};
        for (const auto& [label, side, role] : Sides()) {
            if (!side->bench_block) continue;
            Add("coins_view", "block_of_" + std::to_string(coins) + "_coins", label, [side, coins, label] {
                return Operation{[side, coins, label] {
                    // Every coin found with its amount and spent, twice, and the chainstate's cache
                    // empty after its flush: anything else is a broken side, not a figure.
                    const uint64_t got{side->bench_block(coins)};
                    if (got != Expected(coins)) {
                        std::fprintf(stderr, "coins_view bench: %s answered %llu for %zu coins, not %llu\n", label,
                                     static_cast<unsigned long long>(got), coins, static_cast<unsigned long long>(Expected(coins)));
                        std::abort();
                    }
                    benchmark::DoNotOptimize(got);
                }};
            }, opt);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
