// equifuzz benchmarks: one case, every side, the same input.
//
// A bench program registers each case once per side with Add(); the benchmark is named
// "<pair>/<case>/<side>" (side = the label the fuzz targets use: original, optimized,
// core-original, core-optimized; or a reference such as memcpy). `./equifuzz bench` runs the
// programs, groups the names by pair and case, and puts the sides side by side.
//
// Two ways to run a program:
//   bench_<pair> [Google Benchmark flags]      wall time per operation (--benchmark_repetitions,
//                                              --benchmark_format=json, --benchmark_filter ...)
//   valgrind --tool=callgrind --collect-atstart=no bench_<pair> --equifuzz-instructions
//       every case's operation runs once to warm up, then `instruction_runs` times with collection
//       toggled on, then CALLGRIND_DUMP_STATS_AT("<name>"): one dump per case, whose
//       instruction total divided by the runs is the case's instructions per operation (a count
//       that does not depend on what else the machine is doing).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace equifuzz::bench {

//! One operation of a case; it must consume its result (benchmark::DoNotOptimize).
using Operation = std::function<void()>;

struct CaseOptions {
    int64_t bytes_per_op{0};      //!< reported as bytes_per_second when > 0
    int64_t items_per_op{1};      //!< the table divides time per operation by this (ns per item)
    int64_t instruction_runs{20}; //!< operations counted under callgrind
    //! Iterations and rates by wall time, not the main thread's CPU time: a case whose work runs
    //! on other threads (prevout_fetch's workers).
    bool real_time{false};
};

//! Registers <pair>/<case_name>/<side>. `make` builds the input and returns the operation; it is
//! called only when the case runs (a filtered-out case allocates nothing).
void Add(const std::string& pair, const std::string& case_name, const std::string& side,
         std::function<Operation()> make, CaseOptions options = {});

//! Runs Google Benchmark, or the instruction count with --equifuzz-instructions.
int Main(int argc, char** argv);

} // namespace equifuzz::bench

//! A bench program's main(): registers its cases with `register_cases()`, then runs.
#define EQUIFUZZ_BENCH_MAIN(register_cases)    \
    int main(int argc, char** argv)            \
    {                                          \
        register_cases();                      \
        return ::equifuzz::bench::Main(argc, argv); \
    }
