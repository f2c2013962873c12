// Serialization pair: ns per block for the real block 277647 (149,164 bytes): serialize it,
// compute its serialized size (SizeComputer), and read it back; the seeds' claims are #31868's
// SerializeBlock (~12-41 % faster) and SizeComputerBlock (~18-20 % faster).
#include "common/bench.h"
#include "common/real_data.h"

#include <serialize/side.h>

#include <benchmark/benchmark.h>

#include <memory>

using namespace equifuzz;
using namespace equifuzz::serialize;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

//! The side's call for `op` on block 277647, its input converted beforehand (Core's sides build
//! a CBlock, whose transactions hash themselves; that is not the serializer's cost).
std::function<uint64_t()> Prepare(const Side& side, const std::shared_ptr<const Block>& block,
                                  const std::shared_ptr<const Bytes>& bytes, BenchOp op)
{
    if (side.prepare_block) return side.prepare_block(*block, *bytes, op);
    const auto value{std::make_shared<const equifuzz::serialize::Value>(*block)};
    switch (op) {
    case BenchOp::SERIALIZE: return [&side, value] { return uint64_t{side.serialize(*value).size()}; };
    case BenchOp::SIZE: return [&side, value] { return side.serialized_size(*value); };
    case BenchOp::DESERIALIZE: return [&side, bytes] { return uint64_t{side.deserialize(KIND_BLOCK, *bytes).consumed}; };
    }
    return nullptr;
}

void Register()
{
    auto bytes{std::make_shared<const Bytes>(bench::BlockBodies(bench::ReadDataFile("277647.dat")).at(0))};
    auto block{std::make_shared<const Block>(bench::Blocks("277647.dat").at(0))};
    const CaseOptions opt{.bytes_per_op = static_cast<int64_t>(bytes->size()), .items_per_op = 1, .instruction_runs = 5};
    for (const auto& [name, op] : {std::pair{"serialize block 277647", BenchOp::SERIALIZE},
                                    std::pair{"size of block 277647", BenchOp::SIZE},
                                    std::pair{"deserialize block 277647", BenchOp::DESERIALIZE}}) {
        for (const auto& [label, side, role] : Sides()) {
            Add("serialize", name, label, [side, block, bytes, op]() -> Operation {
                // The input stays alive as long as the call (Core's reader keeps a span of it).
                return [call = Prepare(*side, block, bytes, op), bytes] {
                    const uint64_t n{call()};
                    if (n != bytes->size()) std::abort();
                    benchmark::DoNotOptimize(n);
                };
            }, opt);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
