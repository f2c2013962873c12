// SipHash pair: ns per hash on outpoints (32-byte txid + 32-bit index), every side:
//   generic:      SipHash-2-4 over the 36 bytes through the streaming hasher (CSipHasher);
//   uint256+n:    SipHashUint256Extra on the original sides, PresaltedSipHasher(h, n) on the
//                 optimized ones (#30442's change);
//   1-3 outpoint: SipHash-1-3 "jumboblock" outpoint hash, streaming versus fixed width;
//   salted hasher: each family's outpoint hasher as SaltedOutpointHasher calls it (Core's sides:
//                 the hasher salted once, as the table holds it; ours salt per call, four XORs);
// and std::unordered_map insert + lookup of 1,024 and 65,536 outpoints keyed by that hasher.
// Each call goes through the pair's Side table (an indirect call) on every side alike; in Bitcoin
// Core the hashers inline into the map code. Items are hashes (map: one insert plus one lookup).
#include "common/bench.h"

#include <siphash/pair.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace equifuzz::siphash;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

struct Outpoint {
    Uint256 txid;
    uint32_t n;
    bool operator==(const Outpoint&) const = default;
};

std::shared_ptr<const std::vector<Outpoint>> RandomOutpoints(size_t count, uint64_t seed)
{
    std::mt19937_64 rng{seed};
    auto out{std::make_shared<std::vector<Outpoint>>(count)};
    for (Outpoint& o : *out) {
        for (unsigned w = 0; w < 4; ++w) {
            const uint64_t x{rng()};
            std::memcpy(o.txid.data() + 8 * w, &x, 8);
        }
        o.n = static_cast<uint32_t>(rng() % 8);
    }
    return out;
}

const Key SALT{0x243f6a8885a308d3, 0x13198a2e03707344};
constexpr size_t BATCH{256};

using Hasher = std::function<uint64_t(const Uint256&, uint32_t)>;

//! The side's salted outpoint hasher: Core's built once (PresaltedSipHasher or SipHasher13UJ held
//! as SaltedOutpointHasher holds them); ours through outpoint_hasher, which salts on each call.
Hasher Salted(const Side& side, Family family)
{
    if (side.make_outpoint_hasher) return side.make_outpoint_hasher(family, SALT);
    if (!side.outpoint_hasher) return {};
    return [&side, family](const Uint256& h, uint32_t n) { return side.outpoint_hasher(family, SALT, h, n); };
}

//! One operation hashes BATCH outpoints (the call through std::function is paid once per batch).
template <typename F>
void AddPerHash(const std::string& name, const std::string& label, F hash)
{
    Add("siphash", name, label, [hash]() -> Operation {
        return [hash, points = RandomOutpoints(BATCH, 1)] {
            uint64_t acc{0};
            for (const Outpoint& o : *points) acc += hash(o);
            benchmark::DoNotOptimize(acc);
        };
    }, {.items_per_op = BATCH, .instruction_runs = 20});
}

void Register()
{
    for (const auto& [label, s, role] : Sides()) {
        const Side* side{s};
        AddPerHash("SipHash-2-4 generic, 36 bytes", label, [side](const Outpoint& o) {
            uint8_t buf[36];
            std::memcpy(buf, o.txid.data(), 32);
            for (unsigned i = 0; i < 4; ++i) buf[32 + i] = static_cast<uint8_t>(o.n >> (8 * i));
            return side->sip24_bytes(SALT, std::span<const uint8_t>(buf, sizeof buf));
        });
        AddPerHash("SipHash-2-4 uint256 + n", label, [side](const Outpoint& o) { return side->sip24_uint256_extra(SALT, o.txid, o.n); });
        // Core's trees before the SipHash-1-3 hasher have no uj_outpoint.
        if (side->uj_outpoint) {
            AddPerHash("SipHash-1-3 outpoint", label, [side](const Outpoint& o) { return side->uj_outpoint(SALT, o.txid, o.n); });
        }
        for (const Family f : {Family::SIP24, Family::SIP13UJ}) {
            const std::string fam{f == Family::SIP24 ? "SipHash-2-4" : "SipHash-1-3"};
            const Hasher hasher{Salted(*side, f)};
            if (!hasher) continue; // a Core tree before SipHash-1-3
            AddPerHash("salted outpoint hasher, " + fam, label, [hasher](const Outpoint& o) { return hasher(o.txid, o.n); });
            for (const size_t count : {size_t{1} << 10, size_t{1} << 16}) {
                Add("siphash", "map insert+lookup " + std::to_string(count) + ", " + fam, label, [hasher, count]() -> Operation {
                    struct MapHasher {
                        Hasher hasher;
                        size_t operator()(const Outpoint& o) const { return static_cast<size_t>(hasher(o.txid, o.n)); }
                    };
                    return [hasher, points = RandomOutpoints(count, 2)] {
                        std::unordered_map<Outpoint, uint32_t, MapHasher> map(points->size(), MapHasher{hasher});
                        for (const Outpoint& o : *points) map.emplace(o, o.n);
                        size_t found{0};
                        for (const Outpoint& o : *points) found += map.count(o);
                        benchmark::DoNotOptimize(found);
                    };
                }, {.items_per_op = static_cast<int64_t>(count), .instruction_runs = count > 4096 ? 1 : 5});
            }
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
