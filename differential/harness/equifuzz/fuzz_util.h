// Small named helpers on top of clang's FuzzedDataProvider.
#pragma once

#include <equifuzz/harness.h> // EQUIFUZZ_NO_COVERAGE
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace equifuzz {

//! Grows `out` to `n` bytes with the filler pattern (byte i is i * 151 + 7), written in place.
EQUIFUZZ_NO_COVERAGE inline void PadWithFiller(std::vector<uint8_t>& out, size_t n)
{
    size_t i{out.size()};
    if (i >= n) return;
    out.resize(n);
    for (; i < n; ++i) out[i] = static_cast<uint8_t>(i * 151u + 7u);
}

//! `n` bytes: as many as the provider still has, then a fixed filler pattern, so the fuzzer
//! controls a length independently of how many input bytes remain.
inline std::vector<uint8_t> ConsumeBytesPadded(FuzzedDataProvider& fdp, size_t n)
{
    std::vector<uint8_t> out{fdp.ConsumeBytes<uint8_t>(n)};
    PadWithFiller(out, n);
    return out;
}

//! Splits `total` into consecutive chunk lengths chosen by the provider (at most `max_chunks`;
//! empty chunks allowed; the last chunk takes the remainder). The lengths sum to `total`.
inline std::vector<size_t> ConsumeChunks(FuzzedDataProvider& fdp, size_t total, size_t max_chunks)
{
    std::vector<size_t> chunks;
    size_t left{total};
    const size_t count{fdp.ConsumeIntegralInRange<size_t>(1, max_chunks)};
    chunks.reserve(count);
    for (size_t i = 1; i < count && left > 0; ++i) {
        const size_t c{fdp.ConsumeIntegralInRange<size_t>(0, left)};
        chunks.push_back(c);
        left -= c;
    }
    chunks.push_back(left);
    return chunks;
}

//! A length near a multiple of `unit` (k*unit-1, k*unit, k*unit+1, ...) or any length up to
//! `max`: fast paths and their tails are reached far more often than with a uniform pick.
inline size_t ConsumeLengthNearMultiple(FuzzedDataProvider& fdp, size_t unit, size_t max)
{
    if (fdp.ConsumeBool()) return fdp.ConsumeIntegralInRange<size_t>(0, max);
    const size_t k{fdp.ConsumeIntegralInRange<size_t>(0, max / unit)};
    const size_t base{k * unit};
    const size_t delta{fdp.ConsumeIntegralInRange<size_t>(0, 2 * unit)};
    const size_t len{base + delta >= unit ? base + delta - unit : 0};
    return len > max ? max : len;
}

//! Calls one of `actions`, picked by the provider, and returns what it returns. The choice among
//! N is written once and N is the number of actions, never a range kept in step by hand. It
//! reads the provider as ConsumeIntegralInRange(0, N - 1) does, so a switch over such a range
//! becomes a CallOneOf without changing what any input means.
template <typename... Actions>
auto CallOneOf(FuzzedDataProvider& fdp, Actions&&... actions)
{
    constexpr size_t N{sizeof...(Actions)};
    static_assert(N > 0, "CallOneOf needs at least one action");
    const size_t chosen{fdp.ConsumeIntegralInRange<size_t>(0, N - 1)};
    using Result = std::common_type_t<std::invoke_result_t<Actions&>...>;
    size_t i{0};
    if constexpr (std::is_void_v<Result>) {
        ((i++ == chosen ? actions() : void()), ...);
    } else {
        std::optional<Result> result;
        ((i++ == chosen ? void(result.emplace(actions())) : void()), ...);
        return *std::move(result);
    }
}

} // namespace equifuzz
