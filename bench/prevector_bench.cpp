// prevector<28> versus prevector<36> as CScriptBase (#32279): building, copying and
// range-constructing (as unserialization does) the common output scripts, and a UTXO-like mix.
// Heap allocations are counted by wrapping malloc/realloc in this benchmark program only (glibc's
// __libc_* entry points); the container's code is unchanged. Counters per iteration: allocs
// (malloc + realloc calls, operator new included) and heap_bytes (allocated_memory of the results).
#include <prevector/pair.h>
#include <prevector/prevector.h>
#include <prevector/script.h>

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <vector>

extern "C" void* __libc_malloc(size_t);
extern "C" void* __libc_realloc(void*, size_t);

namespace {
std::atomic<uint64_t> g_allocs{0};
} // namespace

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

using namespace equifuzz::prevec;

namespace {

ScriptInput Input(ScriptKind kind)
{
    ScriptInput in;
    in.kind = kind;
    for (int i = 0; i < 200; ++i) in.data.push_back(static_cast<uint8_t>(i * 13 + 5));
    return in;
}

template <unsigned N>
BasicScript<N> Build(const std::vector<ScriptItem>& items)
{
    BasicScript<N> s;
    for (const ScriptItem& item : items) {
        if (item.is_push) {
            s << std::span<const uint8_t>{item.data};
        } else {
            s << item.opcode;
        }
    }
    return s;
}

template <unsigned N>
void Finish(benchmark::State& state, uint64_t allocs_before, uint64_t heap_bytes)
{
    const double iters{static_cast<double>(state.iterations())};
    state.counters["allocs"] = static_cast<double>(g_allocs.load() - allocs_before) / iters;
    state.counters["heap_bytes"] = static_cast<double>(heap_bytes);
    state.counters["sizeof"] = sizeof(prevector<N, uint8_t>);
}

template <unsigned N>
void BM_Build(benchmark::State& state)
{
    const auto items{ScriptItems(Input(static_cast<ScriptKind>(state.range(0))))};
    state.SetLabel(KindName(static_cast<ScriptKind>(state.range(0))));
    uint64_t heap{0};
    const uint64_t before{g_allocs.load()};
    for (auto _ : state) {
        BasicScript<N> s{Build<N>(items)};
        heap = s.allocated_memory();
        benchmark::DoNotOptimize(s.data());
    }
    Finish<N>(state, before, heap);
}

template <unsigned N>
void BM_Copy(benchmark::State& state)
{
    const auto items{ScriptItems(Input(static_cast<ScriptKind>(state.range(0))))};
    state.SetLabel(KindName(static_cast<ScriptKind>(state.range(0))));
    const prevector<N, uint8_t> source{Build<N>(items)};
    uint64_t heap{0};
    const uint64_t before{g_allocs.load()};
    for (auto _ : state) {
        prevector<N, uint8_t> copy(source);
        heap = copy.allocated_memory();
        benchmark::DoNotOptimize(copy.data());
    }
    Finish<N>(state, before, heap);
}

//! Unserialization's shape: one exact-size resize_uninitialized, then the bytes.
template <unsigned N>
void BM_Read(benchmark::State& state)
{
    const auto items{ScriptItems(Input(static_cast<ScriptKind>(state.range(0))))};
    state.SetLabel(KindName(static_cast<ScriptKind>(state.range(0))));
    const BasicScript<N> source{Build<N>(items)};
    const std::vector<uint8_t> bytes(source.begin(), source.end());
    uint64_t heap{0};
    const uint64_t before{g_allocs.load()};
    for (auto _ : state) {
        prevector<N, uint8_t> s;
        s.resize_uninitialized(static_cast<uint32_t>(bytes.size()));
        std::memcpy(s.data(), bytes.data(), bytes.size());
        heap = s.allocated_memory();
        benchmark::DoNotOptimize(s.data());
    }
    Finish<N>(state, before, heap);
}

//! 1000 outputs in a rough present-day mix: 40% P2WPKH, 25% P2TR, 10% P2WSH, 15% P2PKH, 10% P2SH,
//! each copied into a vector of scripts (as a coins cache holds them).
template <unsigned N>
void BM_UtxoMix(benchmark::State& state)
{
    std::vector<prevector<N, uint8_t>> kinds;
    for (const ScriptKind k : {ScriptKind::P2WPKH, ScriptKind::P2TR, ScriptKind::P2WSH, ScriptKind::P2PKH, ScriptKind::P2SH}) {
        kinds.emplace_back(Build<N>(ScriptItems(Input(k))));
    }
    static constexpr int weights[]{40, 25, 10, 15, 10};
    std::vector<int> order;
    for (int i = 0; i < 1000; ++i) {
        int pick{(i * 37) % 100};
        int k{0};
        while (pick >= weights[k]) pick -= weights[k++];
        order.push_back(k);
    }
    uint64_t heap{0};
    const uint64_t before{g_allocs.load()};
    for (auto _ : state) {
        std::vector<prevector<N, uint8_t>> coins;
        coins.reserve(order.size());
        for (const int k : order) coins.emplace_back(kinds[k]);
        heap = 0;
        for (const auto& c : coins) heap += c.allocated_memory();
        benchmark::DoNotOptimize(coins.data());
    }
    Finish<N>(state, before, heap);
    state.counters["container_bytes"] = static_cast<double>(order.size() * sizeof(prevector<N, uint8_t>));
}

} // namespace

#define EQUIFUZZ_SCRIPT_KINDS                                                                                            \
    ->Arg(static_cast<int>(ScriptKind::P2WPKH))->Arg(static_cast<int>(ScriptKind::P2PKH))                                \
        ->Arg(static_cast<int>(ScriptKind::P2WSH))->Arg(static_cast<int>(ScriptKind::P2TR))                              \
        ->Arg(static_cast<int>(ScriptKind::P2PKCompressed))->Arg(static_cast<int>(ScriptKind::Multisig1of2))

BENCHMARK(BM_Build<28>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_Build<36>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_Copy<28>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_Copy<36>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_Read<28>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_Read<36>) EQUIFUZZ_SCRIPT_KINDS;
BENCHMARK(BM_UtxoMix<28>);
BENCHMARK(BM_UtxoMix<36>);

BENCHMARK_MAIN();
