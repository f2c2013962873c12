// SipHash pair benchmarks: ns per hash on outpoint inputs (32-byte txid + 32-bit index) for the
// generic streaming SipHash-2-4 (CSipHasher over the 36 bytes), the specialized
// SipHashUint256Extra, the presalted PresaltedSipHasher(h, n), and SipHash-1-3-UJ (streaming and
// the fixed-width Hash(h, n)); then std::unordered_map insert + lookup keyed by outpoints with the
// salted outpoint hasher in each family.
//
// Every hasher is called through the pair's Side table (an indirect call), so the numbers compare
// the routines with equal call overhead; in Bitcoin Core the hashers inline into the map code.
#include <siphash/pair.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <unordered_map>
#include <vector>

using namespace equifuzz::siphash;

namespace {

struct Outpoint {
    Uint256 txid;
    uint32_t n;
    bool operator==(const Outpoint&) const = default;
};

std::vector<Outpoint> RandomOutpoints(size_t count, uint64_t seed)
{
    std::mt19937_64 rng{seed};
    std::vector<Outpoint> out(count);
    for (Outpoint& o : out) {
        for (unsigned w = 0; w < 4; ++w) {
            const uint64_t x{rng()};
            std::memcpy(o.txid.data() + 8 * w, &x, 8);
        }
        o.n = static_cast<uint32_t>(rng() % 8);
    }
    return out;
}

const Key SALT{0x243f6a8885a308d3, 0x13198a2e03707344};

template <typename F>
void PerHash(benchmark::State& state, F&& hash)
{
    const auto points{RandomOutpoints(4096, 1)};
    size_t i{0};
    uint64_t acc{0};
    for (auto _ : state) {
        const Outpoint& o{points[i++ & 4095]};
        acc += hash(o);
        benchmark::DoNotOptimize(acc);
    }
    state.SetItemsProcessed(state.iterations());
}

void Generic24(benchmark::State& state)
{
    PerHash(state, [](const Outpoint& o) {
        uint8_t buf[36];
        std::memcpy(buf, o.txid.data(), 32);
        for (unsigned i = 0; i < 4; ++i) buf[32 + i] = static_cast<uint8_t>(o.n >> (8 * i));
        return original_side().sip24_bytes(SALT, std::span<const uint8_t>(buf, sizeof buf));
    });
}
void Specialized24(benchmark::State& state)
{
    PerHash(state, [](const Outpoint& o) { return original_side().sip24_uint256_extra(SALT, o.txid, o.n); });
}
void Presalted24(benchmark::State& state)
{
    PerHash(state, [](const Outpoint& o) { return optimized_side().sip24_uint256_extra(SALT, o.txid, o.n); });
}
void Streaming13UJ(benchmark::State& state)
{
    PerHash(state, [](const Outpoint& o) { return original_side().uj_outpoint(SALT, o.txid, o.n); });
}
void FixedWidth13UJ(benchmark::State& state)
{
    PerHash(state, [](const Outpoint& o) { return optimized_side().uj_outpoint(SALT, o.txid, o.n); });
}

template <Family F>
struct MapHasher {
    size_t operator()(const Outpoint& o) const { return static_cast<size_t>(optimized_side().outpoint_hasher(F, SALT, o.txid, o.n)); }
};

template <Family F>
void MapInsertLookup(benchmark::State& state)
{
    const auto points{RandomOutpoints(static_cast<size_t>(state.range(0)), 2)};
    for (auto _ : state) {
        std::unordered_map<Outpoint, uint32_t, MapHasher<F>> map;
        map.reserve(points.size());
        for (const Outpoint& o : points) map.emplace(o, o.n);
        size_t found{0};
        for (const Outpoint& o : points) found += map.count(o);
        benchmark::DoNotOptimize(found);
    }
    // One item = one insert plus one lookup.
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

} // namespace

BENCHMARK(Generic24);
BENCHMARK(Specialized24);
BENCHMARK(Presalted24);
BENCHMARK(Streaming13UJ);
BENCHMARK(FixedWidth13UJ);
BENCHMARK(MapInsertLookup<Family::SIP24>)->Arg(1 << 10)->Arg(1 << 16);
BENCHMARK(MapInsertLookup<Family::SIP13UJ>)->Arg(1 << 10)->Arg(1 << 16);

BENCHMARK_MAIN();
