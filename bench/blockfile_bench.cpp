// Block/undo file pair: writing and reading real blocks, every side on the same job.
//   write: the block records of 277647.dat (one mainnet block) and blk_0_to_4.dat (five blocks),
//          each body handed over in the field writes Core's serializer issues (bench/common/
//          real_data.h), obfuscated with a non-zero key: the original AutoFile path XORs and
//          fwrites each field; the optimized BufferedWriter collects them and writes per buffer.
//   read:  the same records read back (magic, size, body) through AutoFile versus BufferedReader.
// The file is a real temporary file (std::tmpfile, so $TMPDIR or /tmp): after the first run its
// pages are in the page cache, so these figures are CPU and system-call costs, not the disk's.
#include "common/bench.h"
#include "common/real_data.h"

#include <blockfile/side.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

using namespace equifuzz;
using namespace equifuzz::blockfile;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

constexpr Key KEY{0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0x07, 0x18};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File TempFile()
{
    File f{std::tmpfile()};
    if (!f) {
        std::perror("std::tmpfile");
        std::exit(2);
    }
    return f;
}

[[noreturn]] void Fail(const char* side, const std::string& error)
{
    std::fprintf(stderr, "%s failed on the benchmark's own job: %s\n", side, error.c_str());
    std::exit(3);
}

void Register()
{
    for (const std::string name : {"277647.dat", "blk_0_to_4.dat"}) {
        const std::vector<Block> blocks{bench::Blocks(name)};
        const std::vector<Bytes> bodies{bench::BlockBodies(bench::ReadDataFile(name))};
        auto job{std::make_shared<WriteJob>()};
        job->key = KEY;
        job->direct = true; // Core on the FILE itself, as ours (no fault layer)
        size_t fields{0};
        int64_t bytes{0};
        for (size_t i = 0; i < bodies.size(); ++i) {
            WriteOp op;
            op.kind = WriteOp::Kind::BLOCK;
            op.data = bodies[i];
            op.chunks = bench::FieldWrites(blocks[i]);
            fields += op.chunks.size();
            bytes += static_cast<int64_t>(bodies[i].size() + HEADER_BYTES);
            job->ops.push_back(std::move(op));
        }
        const std::string what{name + " (" + std::to_string(bodies.size()) + " blocks, " + std::to_string(fields) + " field writes)"};
        const CaseOptions opt{.bytes_per_op = bytes, .items_per_op = 1, .instruction_runs = 5};
        for (const auto& [label, side, role] : Sides()) {
            Add("blockfile", "write " + what, label, [side, job]() -> Operation {
                auto file{std::make_shared<File>(TempFile())};
                return [side, job, file] {
                    std::rewind(file->get()); // every run writes the same bytes over the last run's
                    const WriteResult r{side->write(file->get(), *job)};
                    if (!r.error.empty()) Fail(side->name, r.error);
                    benchmark::DoNotOptimize(r.positions.data());
                };
            }, opt);
        }
        for (const auto& [label, side, role] : Sides()) {
            Add("blockfile", "read " + what, label, [side, job]() -> Operation {
                auto file{std::make_shared<File>(TempFile())};
                if (!original_side().write(file->get(), *job).error.empty()) std::abort();
                auto records{std::make_shared<RecordsJob>(RecordsJob{job->key, 0, job->ops.size(), false, {}, DEFAULT_BUFFER, /*direct=*/true})};
                return [side, file, records] {
                    std::rewind(file->get()); // the job reads from offset 0 of the file as it stands
                    const RecordsResult r{side->read_records(file->get(), *records)};
                    if (!r.error.empty()) Fail(side->name, r.error);
                    benchmark::DoNotOptimize(r.bodies.data());
                };
            }, opt);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
