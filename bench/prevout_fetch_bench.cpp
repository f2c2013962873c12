// Prevout fetch pair (#35295): wall time of connecting the real block 277647's reads through
// ConnectBlock's overlay (per transaction HaveCoin, AccessCoin and SpendCoin of every input, AddCoin
// of every output) over an empty cache over an on-disk database opened afresh for each block (its
// own cache cold), on Bitcoin Core's sides only (ours have no database): core-original, the tree
// before the change, serial; core-optimized, the merge, with 0 (its serial path), 1, 2, 4 and 8
// workers of a pool kept between blocks, as a node keeps it. Each of the block's inputs spending
// an earlier block gets a made-up coin in the database (the block does not carry its prevouts).
#include "common/bench.h"
#include "common/real_data.h"

#include <prevout_fetch/side.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace equifuzz::prevout_fetch;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

void Register()
{
    static const std::vector<uint8_t> block{equifuzz::bench::BlockBodies(equifuzz::bench::ReadDataFile("277647.dat")).at(0)};
    for (const uint8_t workers : {0, 1, 2, 4, 8}) {
        const std::string name{"connect_277647_reads_" + std::to_string(workers) + "_workers"};
        for (const auto& [label, side, role] : Sides()) {
            if (!side->read_block || (workers != 0 && !side->read_block_fetches)) continue;
            const auto read{side->read_block};
            Add("prevout_fetch", name, label, [read, workers] {
                // Every input is read, every queued one consumed: a block the bench did not read
                // as ConnectBlock does would time something else.
                const ReadBlockCost first{read(block, workers)};
                if (first.inputs == 0 || first.missing != 0 || !first.consumed) {
                    std::fprintf(stderr, "prevout_fetch bench: %llu inputs read, %llu missing, queue %s: not ConnectBlock's reads\n",
                                 static_cast<unsigned long long>(first.inputs), static_cast<unsigned long long>(first.missing),
                                 first.consumed ? "consumed" : "left unconsumed");
                    std::exit(1);
                }
                return Operation{[read, workers] { benchmark::DoNotOptimize(read(block, workers)); }};
            }, CaseOptions{.bytes_per_op = 0, .items_per_op = 1, .instruction_runs = 3, .real_time = true});
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
