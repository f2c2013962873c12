#include "bench.h"

#include <benchmark/benchmark.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define EQUIFUZZ_HAVE_CALLGRIND 1
#else
#define EQUIFUZZ_HAVE_CALLGRIND 0
#endif

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <regex>
#include <vector>

// Heap allocations are counted by wrapping malloc and realloc in the bench programs only (glibc's
// __libc_* entry points; operator new goes through malloc): every case reports allocs_per_op. A
// sanitizer build (the replay build runs the programs once as a test) keeps its own allocator.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EQUIFUZZ_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define EQUIFUZZ_SANITIZED_ALLOCATOR 1
#endif

namespace {
std::atomic<uint64_t> g_allocs{0};
} // namespace

#ifndef EQUIFUZZ_SANITIZED_ALLOCATOR
extern "C" void* __libc_malloc(size_t);
extern "C" void* __libc_realloc(void*, size_t);

extern "C" void* malloc(size_t n)
{
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(n);
}
extern "C" void* realloc(void* p, size_t n)
{
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(p, n);
}
#endif

namespace equifuzz::bench {
namespace {

struct Case {
    std::string name;
    std::function<Operation()> make;
    CaseOptions options;
};

std::vector<Case>& Cases()
{
    static std::vector<Case> cases;
    return cases;
}

int CountInstructions(const std::string& filter)
{
#if EQUIFUZZ_HAVE_CALLGRIND
    if (!RUNNING_ON_VALGRIND) {
        std::fprintf(stderr, "--equifuzz-instructions counts only under valgrind --tool=callgrind --collect-atstart=no\n");
        return 2;
    }
    const std::regex match{filter.empty() ? std::string{".*"} : filter};
    for (const Case& c : Cases()) {
        if (!std::regex_search(c.name, match)) continue;
        const Operation op{c.make()};
        op(); // warm up: first-touch page faults and lazy initialisation are not the routine
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT; // on (the run starts with --collect-atstart=no)
        for (int64_t i = 0; i < c.options.instruction_runs; ++i) op();
        CALLGRIND_TOGGLE_COLLECT; // off
        CALLGRIND_DUMP_STATS_AT(c.name.c_str());
        std::printf("%s runs=%lld items=%lld\n", c.name.c_str(), static_cast<long long>(c.options.instruction_runs),
                    static_cast<long long>(c.options.items_per_op));
    }
    return 0;
#else
    (void)filter;
    std::fprintf(stderr, "this program was built without <valgrind/callgrind.h> (apt-get install valgrind), so it cannot count instructions\n");
    return 2;
#endif
}

} // namespace

void Add(const std::string& pair, const std::string& case_name, const std::string& side,
         std::function<Operation()> make, CaseOptions options)
{
    Cases().push_back(Case{pair + "/" + case_name + "/" + side, std::move(make), options});
}

int Main(int argc, char** argv)
{
    std::string filter;
    bool instructions{false};
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--equifuzz-instructions") == 0) {
            instructions = true;
            continue;
        }
        if (std::strncmp(argv[i], "--benchmark_filter=", 19) == 0) filter = argv[i] + 19;
        if (std::strcmp(argv[i], "--equifuzz-list") == 0) {
            for (const Case& c : Cases()) std::printf("%s\n", c.name.c_str());
            return 0;
        }
        rest.push_back(argv[i]);
    }
    if (instructions) return CountInstructions(filter);

    for (const Case& c : Cases()) {
        auto* registered = benchmark::RegisterBenchmark(c.name.c_str(), [&c](benchmark::State& state) {
            const Operation op{c.make()};
            const uint64_t allocs_before{g_allocs.load(std::memory_order_relaxed)};
            for (auto _ : state) op();
            const uint64_t allocs{g_allocs.load(std::memory_order_relaxed) - allocs_before};
#ifndef EQUIFUZZ_SANITIZED_ALLOCATOR
            state.counters["allocs_per_op"] = static_cast<double>(allocs) / static_cast<double>(state.iterations());
#else
            (void)allocs;
#endif
            if (c.options.bytes_per_op > 0) state.SetBytesProcessed(state.iterations() * c.options.bytes_per_op);
            state.SetItemsProcessed(state.iterations() * c.options.items_per_op);
            state.counters["items_per_op"] = static_cast<double>(c.options.items_per_op);
        });
        if (c.options.real_time) registered->UseRealTime();
    }
    int n{static_cast<int>(rest.size())};
    benchmark::Initialize(&n, rest.data());
    if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace equifuzz::bench
