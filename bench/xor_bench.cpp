// Obfuscation XOR pair: MiB/s of every side applying a key to 64 B .. 8 MiB, at a file offset
// that is a multiple of 8 and at one that is not, beside memcpy of the same size (a bandwidth
// reference: a pass that reads and writes every byte once); and the stream's view, a 64 KiB
// block handed over in the field-sized chunks a serializer writes, each at its running offset.
#include "common/bench.h"

#include <xor/side.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::xorpair;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

constexpr Key KEY{std::byte{0xa1}, std::byte{0xb2}, std::byte{0xc3}, std::byte{0xd4},
                  std::byte{0xe5}, std::byte{0xf6}, std::byte{0x07}, std::byte{0x18}};

std::shared_ptr<std::vector<std::byte>> Data(size_t size)
{
    auto data{std::make_shared<std::vector<std::byte>>(size)};
    for (size_t i = 0; i < size; ++i) (*data)[i] = static_cast<std::byte>(i * 131 + 7);
    return data;
}

std::string SizeName(size_t size)
{
    if (size >= (1 << 20)) return std::to_string(size >> 20) + "MiB";
    if (size >= (1 << 10)) return std::to_string(size >> 10) + "KiB";
    return std::to_string(size) + "B";
}

//! Field sizes of a transaction-heavy stream: version, count, outpoint, script, sequence, value...
std::vector<size_t> FieldChunks(size_t total)
{
    static constexpr size_t PATTERN[]{4, 1, 32, 4, 1, 107, 4, 1, 8, 1, 25, 8, 1, 22, 4};
    std::vector<size_t> chunks;
    size_t sum{0};
    for (size_t i = 0; sum < total; ++i) {
        const size_t c{std::min(PATTERN[i % std::size(PATTERN)], total - sum)};
        chunks.push_back(c);
        sum += c;
    }
    return chunks;
}

void Register()
{
    for (const size_t size : {size_t{64}, size_t{512}, size_t{4096}, size_t{65536}, size_t{1} << 20, size_t{8} << 20}) {
        const CaseOptions opt{.bytes_per_op = static_cast<int64_t>(size), .items_per_op = 1,
                              .instruction_runs = std::max<int64_t>(1, static_cast<int64_t>((size_t{1} << 20) / size))};
        for (const uint64_t offset : {uint64_t{0}, uint64_t{3}}) {
            const std::string name{"apply " + SizeName(size) + " offset " + std::to_string(offset)};
            for (const auto& [label, side, role] : Sides()) {
                Add("xor", name, label, [side, size, offset]() -> Operation {
                    auto data{Data(size)};
                    return [side, data, offset] {
                        side->apply(KEY, *data, offset);
                        benchmark::DoNotOptimize(data->data());
                        benchmark::ClobberMemory();
                    };
                }, opt);
            }
            if (offset != 0) continue;
            Add("xor", name, "memcpy", [size]() -> Operation {
                auto from{Data(size)};
                auto to{Data(size)};
                return [from, to] {
                    std::memcpy(to->data(), from->data(), from->size());
                    benchmark::DoNotOptimize(to->data());
                    benchmark::ClobberMemory();
                };
            }, opt);
        }
    }
    constexpr size_t STREAM{65536};
    const CaseOptions stream{.bytes_per_op = STREAM, .items_per_op = 1, .instruction_runs = 16};
    for (const auto& [label, side, role] : Sides()) {
        Add("xor", "chunked 64KiB in field writes, offset 8", label, [side]() -> Operation {
            auto data{Data(STREAM)};
            auto chunks{std::make_shared<std::vector<size_t>>(FieldChunks(STREAM))};
            return [side, data, chunks] {
                side->apply_chunked(KEY, *data, 8, *chunks);
                benchmark::DoNotOptimize(data->data());
                benchmark::ClobberMemory();
            };
        }, stream);
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
