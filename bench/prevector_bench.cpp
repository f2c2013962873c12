// prevector pair (#32279, CScriptBase from prevector<28> to prevector<36>): the common output
// scripts built with pushes, copied, and read back the way unserialization does (one exact-size
// resize_uninitialized, then the bytes); a UTXO-like mix of 1000 scripts copied into a vector (as
// a coins cache holds them); and every side's build_script (build, copy, range-construct,
// unserialize and inspect one script: the pair's own operation, Core's trees included).
// Every case reports allocs_per_op (bench/common/bench.cpp counts malloc and realloc).
#include "common/bench.h"

#include <prevector/pair.h>
#include <prevector/prevector.h>
#include <prevector/script.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace equifuzz::prevec;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

ScriptInput Input(ScriptKind kind)
{
    ScriptInput in;
    in.kind = kind;
    for (int i = 0; i < 200; ++i) in.data.push_back(static_cast<uint8_t>(i * 13 + 5));
    return in;
}

template <unsigned N>
BasicScript<prevector<N, uint8_t>> Build(const std::vector<ScriptItem>& items)
{
    BasicScript<prevector<N, uint8_t>> s;
    for (const ScriptItem& item : items) {
        if (item.is_push) {
            s << std::span<const uint8_t>{item.data};
        } else {
            s << item.opcode;
        }
    }
    return s;
}

//! Our prevector<N>'s cases; N = 28 is the original side, 36 the optimized one.
template <unsigned N>
void RegisterOurs(const char* label)
{
    const CaseOptions opt{.items_per_op = 1, .instruction_runs = 200};
    for (const ScriptKind kind : {ScriptKind::P2WPKH, ScriptKind::P2PKH, ScriptKind::P2WSH, ScriptKind::P2TR,
                                  ScriptKind::P2PKCompressed, ScriptKind::Multisig1of2}) {
        const std::string name{equifuzz::ChoiceName(kind)};
        auto items{std::make_shared<const std::vector<ScriptItem>>(ScriptItems(Input(kind)))};
        Add("prevector", "build " + name, label, [items]() -> Operation {
            return [items] {
                BasicScript<prevector<N, uint8_t>> s{Build<N>(*items)};
                benchmark::DoNotOptimize(s.data());
            };
        }, opt);
        Add("prevector", "copy " + name, label, [items]() -> Operation {
            auto source{std::make_shared<const prevector<N, uint8_t>>(Build<N>(*items))};
            return [source] {
                prevector<N, uint8_t> copy(*source);
                benchmark::DoNotOptimize(copy.data());
            };
        }, opt);
        Add("prevector", "read " + name, label, [items]() -> Operation {
            const BasicScript<prevector<N, uint8_t>> source{Build<N>(*items)};
            auto bytes{std::make_shared<const std::vector<uint8_t>>(source.begin(), source.end())};
            return [bytes] {
                prevector<N, uint8_t> s;
                s.resize_uninitialized(static_cast<uint32_t>(bytes->size()));
                std::memcpy(s.data(), bytes->data(), bytes->size());
                benchmark::DoNotOptimize(s.data());
            };
        }, opt);
    }
    // 1000 outputs in a rough present-day mix: 40% P2WPKH, 25% P2TR, 10% P2WSH, 15% P2PKH, 10% P2SH.
    Add("prevector", "utxo mix (1000 scripts copied)", label, []() -> Operation {
        auto kinds{std::make_shared<std::vector<prevector<N, uint8_t>>>()};
        for (const ScriptKind k : {ScriptKind::P2WPKH, ScriptKind::P2TR, ScriptKind::P2WSH, ScriptKind::P2PKH, ScriptKind::P2SH}) {
            kinds->emplace_back(Build<N>(ScriptItems(Input(k))));
        }
        static constexpr int weights[]{40, 25, 10, 15, 10};
        auto order{std::make_shared<std::vector<int>>()};
        for (int i = 0; i < 1000; ++i) {
            int pick{(i * 37) % 100};
            int k{0};
            while (pick >= weights[k]) pick -= weights[k++];
            order->push_back(k);
        }
        return [kinds, order] {
            std::vector<prevector<N, uint8_t>> coins;
            coins.reserve(order->size());
            for (const int k : *order) coins.emplace_back((*kinds)[k]);
            benchmark::DoNotOptimize(coins.data());
        };
    }, {.items_per_op = 1000, .instruction_runs = 5});
}

void Register()
{
    RegisterOurs<28>("original");
    RegisterOurs<36>("optimized");
    const CaseOptions opt{.items_per_op = 1, .instruction_runs = 100};
    for (const ScriptKind kind : {ScriptKind::P2WPKH, ScriptKind::P2TR, ScriptKind::P2PKH, ScriptKind::Multisig1of2}) {
        auto input{std::make_shared<const ScriptInput>(Input(kind))};
        for (const auto& [label, side, role] : Sides()) {
            Add("prevector", std::string{"build_script "} + std::string{equifuzz::ChoiceName(kind)}, label, [side, input]() -> Operation {
                return [side, input] {
                    const ScriptFacts f{side->build_script(*input)};
                    benchmark::DoNotOptimize(f.bytes.data());
                };
            }, opt);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
