// equifuzz harness: how a differential fuzz target is written, how the sides' outcomes are
// compared, and how a mismatch is reported.
//
// A target (one file in fuzz_targets/) reads top to bottom:
//
//     EQUIFUZZ_TARGET(xor_apply)
//     {
//         FuzzedDataProvider fdp{input.data(), input.size()};
//         const auto in{xorpair::DecodeApply(fdp)};          // decoder: bytes -> typed input
//         equifuzz::Compare([&] { return xorpair::Describe(in); }, {  // described only on a mismatch
//             {"original",  xorpair::RunApply(xorpair::original_side(), in)},
//             {"optimized", xorpair::RunApply(xorpair::optimized_side(), in)},
//         });
//     }
//
// An Outcome is everything a side made observable for one input (return values, error
// strings, bytes written, positions), as named fields in a fixed order. Compare() checks that
// every side produced the same fields with the same values; a property that must hold inside
// one side (chunked == one-shot, say) is checked with Require(). On failure the harness prints
// the target, the raw input, the decoded input, the outcomes side by side with the first
// difference marked, and one signature line, then aborts so libFuzzer and AFL++ keep the input.
//
// Targets must be deterministic: no clock, no unseeded randomness, no global state that
// survives from one input to the next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace equifuzz {

using Bytes = std::vector<uint8_t>;

//! One observable value. Integers keep their signedness so a report prints them as written.
using Value = std::variant<bool, int64_t, uint64_t, std::string, Bytes>;

struct Field {
    std::string name;
    Value value;
    bool operator==(const Field&) const = default;
};

//! Named fields in a fixed order: what one side made observable, or the decoded input.
class Outcome
{
public:
    Outcome& Add(std::string name, Value value);
    Outcome& Add(std::string name, std::span<const std::byte> bytes);
    Outcome& Add(std::string name, const char* text) { return Add(std::move(name), Value{std::string{text}}); }
    Outcome& Add(std::string name, int value) { return Add(std::move(name), Value{int64_t{value}}); }
    Outcome& Add(std::string name, long value) { return Add(std::move(name), Value{int64_t{value}}); }
    Outcome& Add(std::string name, long long value) { return Add(std::move(name), Value{int64_t(value)}); }
    Outcome& Add(std::string name, unsigned value) { return Add(std::move(name), Value{uint64_t{value}}); }
    Outcome& Add(std::string name, unsigned long value) { return Add(std::move(name), Value{uint64_t{value}}); }
    Outcome& Add(std::string name, unsigned long long value) { return Add(std::move(name), Value{uint64_t(value)}); }

    const std::vector<Field>& Fields() const { return m_fields; }
    bool operator==(const Outcome&) const = default;

private:
    std::vector<Field> m_fields;
};

//! The decoded input is printed the same way as an outcome.
using Description = Outcome;

struct SideResult {
    std::string_view name;
    Outcome outcome;
};

//! Makes the decoded input's description; called only when a report is printed, so a target
//! pays nothing for it on inputs where the sides agree.
using DescribeFn = std::function<Description()>;

//! Aborts with a mismatch report unless every side's outcome equals the first one's.
void Compare(const DescribeFn& describe, std::span<const SideResult> sides);
inline void Compare(const DescribeFn& describe, std::initializer_list<SideResult> sides)
{
    Compare(describe, std::span<const SideResult>{sides.begin(), sides.size()});
}
inline void Compare(const Description& input, std::initializer_list<SideResult> sides)
{
    Compare([&] { return input; }, sides);
}

//! Aborts with a report naming `property` unless `holds`. `detail` says what was seen.
void Require(bool holds, std::string_view property, const DescribeFn& describe, const Outcome& detail = {});
inline void Require(bool holds, std::string_view property, const Description& input, const Outcome& detail = {})
{
    if (!holds) Require(false, property, [&] { return input; }, detail);
}

//! Hex of bytes, lowercase, no separators.
std::string Hex(std::span<const uint8_t> bytes);
std::string Hex(std::span<const std::byte> bytes);

//! Printable form of a value; long byte strings are shortened around `mark`, a byte index
//! that is shown in brackets.
std::string Render(const Value& value, size_t max_chars = 48, std::optional<size_t> mark = std::nullopt);

//! Copies bytes through a volatile sink so the optimizer keeps computations whose only
//! effect is on an outcome (a planted bug must not be optimized away).
void KeepAlive(std::span<const std::byte> bytes);

namespace detail {
//! Called by EQUIFUZZ_TARGET before the body: remembers the target and raw input for reports.
void BeginInput(const char* target, const uint8_t* data, size_t size);
//! Set by the replay driver so a report names the file being replayed.
void SetInputOrigin(std::string origin);
const char* CurrentTarget();
} // namespace detail

} // namespace equifuzz

//! Declares the fuzz target of this binary. `input` is the raw fuzz input.
#define EQUIFUZZ_TARGET(name)                                                           \
    static void EquifuzzTargetBody(std::span<const uint8_t> input);                     \
    extern "C" const char* EquifuzzTargetName() { return #name; }                       \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)             \
    {                                                                                   \
        ::equifuzz::detail::BeginInput(#name, data, size);                              \
        EquifuzzTargetBody(std::span<const uint8_t>{data, size});                       \
        return 0;                                                                       \
    }                                                                                   \
    static void EquifuzzTargetBody(std::span<const uint8_t> input)
