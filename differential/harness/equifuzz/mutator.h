// Structure-aware mutations: a target whose bugs need a long, well-formed piece of input (a push
// of 521 bytes, a vector of exactly 253, a transaction spending one outpoint twice) declares
// what to insert or change with EQUIFUZZ_MUTATOR, after its EQUIFUZZ_TARGET:
//
//     EQUIFUZZ_MUTATOR(script_eval, 4)          // one mutation in 4 is structured
//     {
//         return script::MutateEval(m);         // m: equifuzz::Mutation (the bytes, the room, a seeded rng)
//     }
//
// Under libFuzzer this defines LLVMFuzzerCustomMutator: one call in `one_in` applies the body to
// a copy of the input, the others (and every call where the body declines or would exceed the
// room libFuzzer gives) run libFuzzer's own mutations (LLVMFuzzerMutate). The body only ever
// writes inputs the target could have been given: it never changes what committed inputs mean.
// Under AFL++ the same body is built a second time, without instrumentation or sanitizers, into
// lib<target>_afl_mutator.so (afl_mutator.cpp: AFL++'s custom mutator interface), which
// `equifuzz fuzz --engine afl` hands to afl-fuzz (AFL_CUSTOM_MUTATOR_LIBRARY); afl-fuzz runs it
// as a stage of its own beside its havoc. The replay driver never calls it.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

namespace equifuzz {

//! One structured mutation of one input: its bytes (to change in place), the most it may grow to,
//! and a generator seeded by the engine (the same seed gives the same mutation).
class Mutation
{
public:
    Mutation(std::vector<uint8_t>& bytes, size_t max_size, uint32_t seed) : bytes{bytes}, max_size{max_size}, m_rng{seed} {}

    std::vector<uint8_t>& bytes;
    const size_t max_size;

    //! Uniform in [0, n); 0 when n is 0.
    size_t Below(size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>{0, n - 1}(m_rng); }
    //! Uniform in [lo, hi].
    size_t Between(size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>{lo, hi}(m_rng); }
    bool OneIn(size_t n) { return Below(n) == 0; }
    uint8_t Byte() { return static_cast<uint8_t>(Below(256)); }
    template <typename T, size_t N>
    const T& Pick(const std::array<T, N>& values) { return values[Below(N)]; }
    //! Bytes left before max_size.
    size_t Room() const { return bytes.size() < max_size ? max_size - bytes.size() : 0; }
    //! Inserts `what` at `pos` (clamped to the end) when it fits; false when it does not.
    bool Insert(size_t pos, std::span<const uint8_t> what);
    //! `n` bytes: all equal (a random value) or random, as fuzz inputs usually hold.
    std::vector<uint8_t> Filler(size_t n);

private:
    std::mt19937 m_rng;
};

//! Writes the bytes a FuzzedDataProvider decoder reads back as the given choices: integers and
//! bools from the end of the input (the first one read is the last byte, most significant byte
//! first), byte strings from the front. A structured mutation decodes an input, changes the typed
//! value and writes it again with an encoder that makes the decoder's calls in the same order.
class FdpEncoder
{
public:
    //! What ConsumeIntegralInRange(min, max) returns as `value` (clamped into [min, max]).
    void Integral(uint64_t value, uint64_t min, uint64_t max);
    //! What ConsumeIntegral<T>() returns as `value`: every byte of T.
    template <typename T>
    void Integral(T value) { Integral(static_cast<uint64_t>(value), 0, static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(-1))); }
    //! What ConsumeBool() returns as `value`.
    void Bool(bool value) { Integral(value ? 1 : 0, 0, 0xff); }
    //! What ConsumeBytes(n) returns as `bytes` (n = bytes.size()).
    void Bytes(std::span<const uint8_t> bytes) { m_front.insert(m_front.end(), bytes.begin(), bytes.end()); }
    //! The input: the byte strings, then the integers' bytes in reverse order of reading.
    std::vector<uint8_t> Finish() const;

private:
    std::vector<uint8_t> m_front;
    std::vector<uint8_t> m_back; //!< in the order the decoder reads them
};

//! The usual structured mutation over a FuzzedDataProvider decoder: `decode` the input, `change`
//! the value one to three times (each call returns whether it changed anything), and write it back
//! with `encode`, the decoder's mirror. False when nothing changed or the result would not fit.
template <typename Decode, typename Change, typename Encode>
bool DecodeChangeEncode(Mutation& m, Decode decode, Change change, Encode encode)
{
    FuzzedDataProvider fdp{m.bytes.data(), m.bytes.size()};
    auto value{decode(fdp)};
    bool changed{false};
    const size_t changes{1 + m.Below(3)};
    for (size_t i = 0; i < changes; ++i) changed |= change(value);
    if (!changed) return false;
    std::vector<uint8_t> out{encode(value)};
    if (out.size() > m.max_size) return false;
    m.bytes = std::move(out);
    return true;
}

using StructuredMutation = bool (*)(Mutation& m);

namespace detail {
//! LLVMFuzzerCustomMutator's body: `mutate` on one call in `one_in`, libFuzzer's mutations otherwise.
size_t CustomMutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed, unsigned one_in, StructuredMutation mutate);
} // namespace detail

} // namespace equifuzz

//! Declares the target's structured mutation (see above); the body returns false to decline.
#ifdef EQUIFUZZ_AFL_MUTATOR_LIBRARY
//! The AFL++ mutator library's entry (afl_mutator.cpp): the body, applied to every call.
extern "C" ::equifuzz::StructuredMutation EquifuzzStructuredMutation();
#define EQUIFUZZ_MUTATOR(name, one_in)                                                       \
    static bool EquifuzzMutate_##name(::equifuzz::Mutation& m);                              \
    extern "C" ::equifuzz::StructuredMutation EquifuzzStructuredMutation() { return EquifuzzMutate_##name; } \
    static bool EquifuzzMutate_##name(::equifuzz::Mutation& m)
#else
#define EQUIFUZZ_MUTATOR(name, one_in)                                                                      \
    static bool EquifuzzMutate_##name(::equifuzz::Mutation& m);                                             \
    extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) \
    {                                                                                                       \
        return ::equifuzz::detail::CustomMutate(data, size, max_size, seed, one_in, EquifuzzMutate_##name); \
    }                                                                                                       \
    static bool EquifuzzMutate_##name(::equifuzz::Mutation& m)
#endif
