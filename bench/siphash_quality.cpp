// Bucket uniformity and avalanche of the salted outpoint hasher, SipHash-1-3-UJ versus the
// SipHash-2-4 control (spec 3f, "Distribution checks"). Not a fuzz target and not a benchmark:
// a small measurement program that links the pair library and prints tables.
//
// Build: ./equifuzz build bench (target siphash_quality).
// Run: build/bench/bench/siphash_quality [items_log2=18] [bucket_csv]
//
// Chi-square: n items into 2^k buckets by the low k bits of the hash; statistic
// sum (observed - expected)^2 / expected with 2^k - 1 degrees of freedom; p from the
// Wilson-Hilferty normal approximation (upper tail). Inputs: random outpoints; one txid with
// consecutive indexes; consecutive txids (limb 0 counts, n = 0); txids that differ only in
// limb 3 (the last internal word, the first bytes of the displayed hex); and, to check the keys
// are independent, the same random set under a second key (reported as the fraction of equal
// bucket assignments at k = 16, expected 2^-16).
#include <siphash/pair.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace equifuzz::siphash;

namespace {

struct Outpoint {
    Uint256 txid;
    uint32_t n;
};

Uint256 RandomTxid(std::mt19937_64& rng)
{
    return Uint256FromWords(rng(), rng(), rng(), rng());
}

std::vector<Outpoint> MakeSet(const std::string& kind, size_t count, std::mt19937_64& rng)
{
    std::vector<Outpoint> out(count);
    const Uint256 fixed{RandomTxid(rng)};
    const uint64_t f0{LE64(fixed.data())}, f1{LE64(fixed.data() + 8)}, f2{LE64(fixed.data() + 16)}, f3{LE64(fixed.data() + 24)};
    for (size_t i = 0; i < count; ++i) {
        if (kind == "random") out[i] = {RandomTxid(rng), static_cast<uint32_t>(rng() % 16)};
        if (kind == "same-txid-consecutive-n") out[i] = {fixed, static_cast<uint32_t>(i)};
        if (kind == "consecutive-txids") out[i] = {Uint256FromWords(i, 0, 0, 0), 0};
        if (kind == "txids-differ-in-limb-3") out[i] = {Uint256FromWords(f0, f1, f2, f3 ^ i), 0};
        if (kind == "txids-differ-in-limb-0") out[i] = {Uint256FromWords(f0 ^ i, f1, f2, f3), 1};
    }
    return out;
}

struct Chi2 {
    double stat;
    double dof;
    double z;
    double p;
};

Chi2 ChiSquare(const std::vector<uint64_t>& hashes, unsigned k)
{
    const size_t buckets{size_t{1} << k};
    std::vector<uint64_t> count(buckets);
    for (const uint64_t h : hashes) ++count[h & (buckets - 1)];
    const double expected{double(hashes.size()) / double(buckets)};
    double stat{0};
    for (const uint64_t c : count) stat += (double(c) - expected) * (double(c) - expected) / expected;
    const double dof{double(buckets - 1)};
    const double z{(std::cbrt(stat / dof) - (1 - 2 / (9 * dof))) / std::sqrt(2 / (9 * dof))};
    return {stat, dof, z, 0.5 * std::erfc(z / std::sqrt(2.0))};
}

uint64_t Hash(Family f, const Key& key, const Outpoint& o) { return optimized_side().outpoint_hasher(f, key, o.txid, o.n); }

const char* Name(Family f) { return f == Family::SIP24 ? "SipHash-2-4" : "SipHash-1-3-UJ"; }

} // namespace

int main(int argc, char** argv)
{
    const unsigned log2n{argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : 18u};
    const size_t count{size_t{1} << log2n};
    std::FILE* csv{argc > 2 ? std::fopen(argv[2], "w") : nullptr};
    if (csv) std::fprintf(csv, "family,input,k,bucket,count\n");
    std::mt19937_64 keyrng{20260722};
    const Key key{keyrng(), keyrng()};
    const Key key2{keyrng(), keyrng()};

    std::printf("items %zu (2^%u), key %016llx %016llx\n\n", count, log2n, (unsigned long long)key.k0, (unsigned long long)key.k1);
    std::printf("| hasher | input set | k | chi2 | dof | z | p |\n|---|---|---|---|---|---|---|\n");
    for (const char* kind : {"random", "same-txid-consecutive-n", "consecutive-txids", "txids-differ-in-limb-3", "txids-differ-in-limb-0"}) {
        std::mt19937_64 rng{std::hash<std::string>{}(kind)};
        const auto set{MakeSet(kind, count, rng)};
        for (const Family f : {Family::SIP13UJ, Family::SIP24}) {
            std::vector<uint64_t> hashes;
            hashes.reserve(count);
            for (const Outpoint& o : set) hashes.push_back(Hash(f, key, o));
            for (const unsigned k : {8u, 12u, 16u}) {
                const Chi2 c{ChiSquare(hashes, k)};
                std::printf("| %s | %s | %u | %.1f | %.0f | %+.2f | %.3f |\n", Name(f), kind, k, c.stat, c.dof, c.z, c.p);
                if (csv && k == 8) {
                    std::vector<uint64_t> occ(256);
                    for (const uint64_t h : hashes) ++occ[h & 255];
                    for (size_t b = 0; b < 256; ++b) std::fprintf(csv, "%s,%s,%u,%zu,%llu\n", Name(f), kind, k, b, (unsigned long long)occ[b]);
                }
            }
        }
    }

    // Key independence: how often two keys put the same outpoint in the same of 2^16 buckets.
    std::printf("\n| hasher | same bucket under two keys (k=16), observed | expected |\n|---|---|---|\n");
    {
        std::mt19937_64 rng{7};
        const auto set{MakeSet("random", count, rng)};
        for (const Family f : {Family::SIP13UJ, Family::SIP24}) {
            size_t same{0};
            for (const Outpoint& o : set) same += ((Hash(f, key, o) ^ Hash(f, key2, o)) & 0xffff) == 0;
            std::printf("| %s | %.3g (%zu of %zu) | %.3g |\n", Name(f), double(same) / double(count), same, count, 1.0 / 65536);
        }
    }

    // Avalanche: flip each of the 256 txid bits and 32 index bits; each output bit should flip
    // with probability 1/2. Reports the mean and the worst (input bit, output bit) deviation.
    std::printf("\n| hasher | samples | mean flip probability | worst |p - 0.5| over 288x64 bit pairs | worst in sigmas (sigma = 0.5/sqrt(samples); ~4.2 expected for the max of 18432) |\n|---|---|---|---|---|\n");
    for (const Family f : {Family::SIP13UJ, Family::SIP24}) {
        const size_t samples{4000};
        std::mt19937_64 rng{99};
        std::vector<uint32_t> flips(288 * 64);
        double total{0};
        for (size_t s = 0; s < samples; ++s) {
            const Outpoint o{RandomTxid(rng), static_cast<uint32_t>(rng())};
            const uint64_t base{Hash(f, key, o)};
            for (unsigned bit = 0; bit < 288; ++bit) {
                Outpoint p{o};
                if (bit < 256) p.txid[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
                else p.n ^= 1u << (bit - 256);
                const uint64_t d{base ^ Hash(f, key, p)};
                total += std::popcount(d);
                for (unsigned ob = 0; ob < 64; ++ob) flips[bit * 64 + ob] += (d >> ob) & 1;
            }
        }
        double worst{0};
        for (const uint32_t c : flips) worst = std::max(worst, std::fabs(double(c) / double(samples) - 0.5));
        std::printf("| %s | %zu | %.5f | %.4f | %.2f |\n", Name(f), samples, total / (double(samples) * 288 * 64), worst,
                    worst / (0.5 / std::sqrt(double(samples))));
    }
    if (csv) std::fclose(csv);
    return 0;
}
