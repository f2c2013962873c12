// The flush of #31645 measured on Bitcoin Core's own code: for N new coins (10^4 .. 10^6) flushed
// into an empty database in a temporary directory, each Core side at its default batch size
// (before #31645: 16 MiB, after: 32 MiB), and both trees at both sizes and at the dynamic size of
// the PR's review (DynamicBatchBytes, at -dbcache 2000 and 4500 MiB): the flush's wall time
// (CCoinsViewCache::Flush alone), the partial batches it wrote, the largest batch (as Core logs
// it, to 0.01 MiB) and the process's peak resident memory. Every run is its own child process
// (fork before anything is opened), so the peak is that run's alone. Not a fuzz target and not a
// Google Benchmark: a measurement program that prints a Markdown table and, with a path, CSV.
//
// Build: ./equifuzz build bench (target utxo_flush_quality).
// Run:   build/bench/bench/utxo_flush_quality [runs=3] [max_coins=1000000] [csv]
// The table's peak memory includes the cache of N coins, the same for every batch size.
#include <utxo_flush/side.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace equifuzz::utxo_flush;

namespace {

struct Run {
    FlushCost cost;
    long peak_kib{0};
};

//! One flush in a child process; nullopt if the child failed.
std::optional<Run> Measure(const Side& side, size_t coins, std::optional<uint64_t> batch)
{
    int fds[2];
    if (pipe(fds) != 0) return std::nullopt;
    const pid_t pid{fork()};
    if (pid < 0) return std::nullopt;
    if (pid == 0) {
        close(fds[0]);
        const FlushCost cost{side.flush_on_disk(coins, batch)};
        const ssize_t wrote{write(fds[1], &cost, sizeof(cost))};
        _exit(wrote == sizeof(cost) ? 0 : 1);
    }
    close(fds[1]);
    Run run;
    const ssize_t got{read(fds[0], &run.cost, sizeof(run.cost))};
    close(fds[0]);
    int status{0};
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof(run.cost)) {
        return std::nullopt;
    }
    run.peak_kib = usage.ru_maxrss;
    return run;
}

std::string Mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

} // namespace

int main(int argc, char** argv)
{
    const int runs{argc > 1 ? std::max(1, std::atoi(argv[1])) : 3};
    const size_t max_coins{argc > 2 ? static_cast<size_t>(std::atoll(argv[2])) : size_t{1'000'000}};
    FILE* csv{argc > 3 ? std::fopen(argv[3], "w") : nullptr};
    if (csv) std::fprintf(csv, "coins,side,batch_bytes,run,flush_seconds,partial_batches,largest_batch_bytes,peak_kib\n");
    std::printf("| coins | side | batch | flush s (median of %d) | partial batches | largest batch | peak RSS (median) |\n", runs);
    std::printf("|---:|---|---|---:|---:|---:|---:|\n");
    bool any{false};
    for (size_t coins{10'000}; coins <= max_coins; coins *= 10) {
        for (const auto& [label, side, role] : Sides()) {
            if (!side->flush_on_disk) continue;
            // Its default, both fixed sizes, and the dynamic size of #31645's review at -dbcache
            // 2000 and 4500 MiB (64 and 160 MiB).
            for (const std::optional<uint64_t> batch : {std::optional<uint64_t>{}, std::optional{16 * MiB}, std::optional{32 * MiB},
                                                        std::optional{DynamicBatchBytes(2000 * MiB)}, std::optional{DynamicBatchBytes(4500 * MiB)}}) {
                const uint64_t bytes{batch.value_or(side->default_batch_bytes)};
                if (batch && bytes == side->default_batch_bytes) continue;  // the default row has it
                std::vector<double> seconds;
                std::vector<long> peaks;
                FlushCost last;
                for (int r = 0; r < runs; ++r) {
                    const auto m{Measure(*side, coins, batch)};
                    if (!m) {
                        std::fprintf(stderr, "utxo_flush_quality: a run of %s with %zu coins failed\n", label, coins);
                        return 1;
                    }
                    seconds.push_back(m->cost.seconds);
                    peaks.push_back(m->peak_kib);
                    last = m->cost;
                    if (csv) std::fprintf(csv, "%zu,%s,%llu,%d,%.6f,%zu,%llu,%ld\n", coins, label, (unsigned long long)bytes, r, m->cost.seconds,
                                          m->cost.partial_batches, (unsigned long long)m->cost.largest_batch_bytes, m->peak_kib);
                }
                std::sort(seconds.begin(), seconds.end());
                std::sort(peaks.begin(), peaks.end());
                std::printf("| %zu | %s | %s%s | %.3f | %zu | %.2f MiB | %.1f MiB |\n", coins, label, Mib(bytes).c_str(),
                            batch ? "" : " (default)", seconds[seconds.size() / 2], last.partial_batches,
                            double(last.largest_batch_bytes) / double(MiB), double(peaks[peaks.size() / 2]) / 1024.0);
                std::fflush(stdout);
                any = true;
            }
        }
    }
    if (csv) std::fclose(csv);
    if (!any) {
        std::fprintf(stderr, "utxo_flush_quality: this build has no Bitcoin Core sides: nothing to measure\n");
        return 1;
    }
    return 0;
}
