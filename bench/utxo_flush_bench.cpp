// UTXO flush pair (#31645): wall time of a whole flush of N new coins into an empty database in a
// temporary directory, on Bitcoin Core's sides only (ours have no disk): each tree at its own
// default batch size (core-original 16 MiB, core-optimized 32 MiB: the change itself), timing the
// cache's fill, the flush and LevelDB's writes together. The flush alone, with the partial
// batches and peak memory per run, is utxo_flush_quality's table.
#include "common/bench.h"

#include <utxo_flush/side.h>

#include <benchmark/benchmark.h>

#include <string>

using namespace equifuzz::utxo_flush;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

void Register()
{
    for (const size_t coins : {size_t{10'000}, size_t{100'000}}) {
        const CaseOptions opt{.bytes_per_op = 0, .items_per_op = static_cast<int64_t>(coins), .instruction_runs = 1};
        for (const auto& [label, side, role] : Sides()) {
            if (!side->flush_on_disk) continue;
            Add("utxo_flush", "flush_" + std::to_string(coins) + "_coins_on_disk_default_batch", label, [side, coins] {
                return Operation{[side, coins] { benchmark::DoNotOptimize(side->flush_on_disk(coins, std::nullopt)); }};
            }, opt);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
