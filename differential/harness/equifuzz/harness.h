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
//             {Model("original"),  xorpair::RunApply(xorpair::original_side(), in)},
//             {Model("optimized"), xorpair::RunApply(xorpair::optimized_side(), in)},
//         });
//     }
//
// A side's result is a typed value (a struct with operator==) that can describe itself as an
// Outcome: everything the side made observable for one input (return values, error strings,
// bytes written, positions), as named fields in a fixed order. Compare() checks that every side's
// result equals the first's, as typed values; the Outcomes, the description and all text are
// built only when a report is printed. A property that must hold inside one side (chunked ==
// one-shot, say) is checked with Require() or RequireOf(). On failure the harness prints
// the target, the raw input, the decoded input, the outcomes side by side with the first
// difference marked, and one signature line, and the input goes on, so that every check of it
// runs (a Core side that already fails before the change does not hide what the after side
// does). When the input ends, one finding line per failure (JSON, record.cpp) says which sides
// differed and the class of the field; then the process aborts so libFuzzer and AFL++ keep the
// input, or, when EQUIFUZZ_FINDINGS_DIR is set, records the input once per signature and counts
// every hit, and fuzzing goes on (record.cpp). EQUIFUZZ_ALLOW names fields (or properties) whose
// differences are notes, not findings: the comparison looks past them to the next field. Fields
// declared FieldClass::INTERNAL are looked past the same way and, when only they differ, recorded
// as "internal" (EQUIFUZZ_STRICT=1 counts them); an input marked OutsideContract() records its
// findings as "outside-contract" (EQUIFUZZ_BEYOND_CONTRACT=1 counts them).
// EQUIFUZZ_ONLY_SIGNATURE ("<target>:<signature>") aborts only on an input that shows that one, so
// that libFuzzer's crash minimization keeps it.
//
// Targets must be deterministic: no clock, no unseeded randomness, no global state that
// survives from one input to the next.
#pragma once

#include <equifuzz/side.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

//! On a function that is the harness's bookkeeping, not a routine under test (a digest of a
//! container, a trace writer): libFuzzer's coverage instrumentation (edge counters and comparison
//! tracing) is left out of it. Its loops run on every input and tell the fuzzer nothing; ASan and
//! UBSan stay. Code it inlines loses coverage too: what it calls must be harness code or covered
//! where the target exercises it (a container's begin() and end(), say). It is kept out of line:
//! clang instruments a function after inlining, so a body inlined into an instrumented caller
//! would be instrumented there (PadWithFiller's loop was, inside ConsumeBytesPadded).
#if defined(__clang__)
#define EQUIFUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define EQUIFUZZ_NO_COVERAGE
#endif

namespace equifuzz {

using Bytes = std::vector<uint8_t>;

//! One observable value. Integers keep their signedness so a report prints them as written.
using Value = std::variant<bool, int64_t, uint64_t, std::string, Bytes>;

//! How much a difference in a field matters; a finding takes the class of its first differing
//! field, and reports list verdicts first. Three tiers: what Core *promises* its callers
//! (VERDICT and DATA), what it is free to change (INTERNAL), and its texts (DIAGNOSTIC).
enum class FieldClass : uint8_t {
    VERDICT,    //!< promise: accepted or rejected, ok, valid
    DATA,       //!< promise: bytes written, values, content, positions (a field's default)
    DIAGNOSTIC, //!< error text or code beside a verdict, bytes consumed by a rejected input, logs
    //! State the code under test may change without breaking a caller: entry counts, memory
    //! usage, iteration and flush order, which partial batch holds which coin. The comparison
    //! looks past it (as past an allowed field) to the promises; a difference only here is
    //! recorded as its own kind, "internal", which no verdict counts unless EQUIFUZZ_STRICT=1.
    INTERNAL,
};
const char* FieldClassName(FieldClass c);
//! A field's class when its pair does not say (Outcome::As): "ok", "accepted", "valid" and
//! "verdict" are verdicts; "error", "reason", "debug", "terminate_error" and "core_outcome" are
//! diagnostics; any other name is data.
FieldClass DefaultFieldClass(std::string_view name);

struct Field {
    std::string name;
    Value value;
    FieldClass cls{FieldClass::DATA};
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

    //! Declares the class of the field added last: o.Add("consumed", n).As(FieldClass::DIAGNOSTIC).
    Outcome& As(FieldClass cls);

    const std::vector<Field>& Fields() const { return m_fields; }
    bool operator==(const Outcome&) const = default;

private:
    std::vector<Field> m_fields;
};

//! The decoded input is printed the same way as an outcome.
using Description = Outcome;

//! What a side returned for one input: any type with == and a description of itself as an
//! Outcome, by a member `Outcome ToOutcome() const` or a free `ToOutcome(const T&)` found by
//! argument-dependent lookup (an Outcome is one too). Sides are compared as these typed values;
//! the Outcome, with its names, hex and text, is built only for a report.
template <typename T>
concept Reportable = std::equality_comparable<T> &&
                     (std::same_as<T, Outcome> || requires(const T& r) { { r.ToOutcome() } -> std::same_as<Outcome>; } ||
                      requires(const T& r) { { ToOutcome(r) } -> std::same_as<Outcome>; });

namespace detail {
template <Reportable T>
Outcome AsOutcome(const T& r)
{
    if constexpr (std::same_as<T, Outcome>) {
        return r;
    } else if constexpr (requires { { r.ToOutcome() } -> std::same_as<Outcome>; }) {
        return r.ToOutcome();
    } else {
        return ToOutcome(r);
    }
}

template <Reportable T>
struct ResultOps {
    static bool Equal(const void* a, const void* b) { return *static_cast<const T*>(a) == *static_cast<const T*>(b); }
    static Outcome Report(const void* r) { return AsOutcome(*static_cast<const T*>(r)); }
};
} // namespace detail

//! Whose a compared side is, which decides where a finding comes from: one of our models (or a
//! fixed reference: a released Core as an oracle, std::vector), or Bitcoin Core's code before or
//! after the change. The harness never guesses it from a side's name.
enum class Party : unsigned char { MODEL, CORE_ORIGINAL, CORE_OPTIMIZED };
constexpr Party PartyOf(Role role)
{
    return role == Role::CORE_ORIGINAL ? Party::CORE_ORIGINAL : role == Role::CORE_OPTIMIZED ? Party::CORE_OPTIMIZED : Party::MODEL;
}
//! "core-original", "core-optimized" or "model": a party as the finding lines name it.
const char* PartyName(Party party);

//! A compared side: the name reports give it ("optimized", "core-optimized writer", "G") and its
//! party. The name must outlive the check (a side's label, a literal, a SideName).
struct Label {
    std::string_view name;
    Party party;
};
//! One of our models, or a fixed reference, named `name`.
constexpr Label Model(std::string_view name) { return {name, Party::MODEL}; }
//! A side of a pair's Sides() (its label and role), as reports name it.
constexpr Label LabelOf(std::string_view label, Role role) { return {label, PartyOf(role)}; }
template <typename SideT>
constexpr Label LabelOf(const LabeledSide<SideT>& side) { return LabelOf(side.label, side.role); }

//! One side's result in a Compare call: `{Model("optimized"), result}`. It refers to the result, which
//! lives until the call returns (a temporary in the braces does); it cannot be copied, so it
//! cannot outlive the call. For a list built at run time, use Labeled<T>.
class SideResult
{
public:
    template <Reportable T>
    SideResult(Label side, const T& result)
        : label{side}, m_result{&result}, m_equal{&detail::ResultOps<T>::Equal}, m_report{&detail::ResultOps<T>::Report}
    {
    }
    SideResult(const SideResult&) = delete;
    SideResult& operator=(const SideResult&) = delete;

    Label label;
    //! Same type and equal. Results of different types are compared through their Outcomes.
    bool SameAs(const SideResult& other) const
    {
        if (m_equal == other.m_equal) return m_equal(m_result, other.m_result);
        return ToOutcome() == other.ToOutcome();
    }
    Outcome ToOutcome() const { return m_report(m_result); }

private:
    const void* m_result;
    bool (*m_equal)(const void*, const void*);
    Outcome (*m_report)(const void*);
};

//! A result compared on the part every side must agree on (other members may differ by design,
//! a capacity, say): T::Agreed() ties those members (std::tie), T::ToOutcome() reports them.
template <typename T>
struct AgreedPart {
    const T* result;
    bool operator==(const AgreedPart& other) const { return result->Agreed() == other.result->Agreed(); }
    Outcome ToOutcome() const { return result->ToOutcome(); }
};

//! A result compared where it lies (a list of sides' results kept for later checks).
template <Reportable T>
struct ByRef {
    const T* result;
    bool operator==(const ByRef& other) const { return *result == *other.result; }
    Outcome ToOutcome() const { return detail::AsOutcome(*result); }
};

//! A side and its result, owned: for lists of sides built at run time (a loop over Sides()).
template <Reportable T>
struct Labeled {
    Label label;
    T result;
};

//! Every side's result for one input, in the order of `sides` (a pair's Sides()): `run(side)`
//! for each, labelled with the side's name. The list is allocated once, at its final size.
template <typename SideList, typename Run>
auto EachSide(const SideList& sides, const Run& run)
{
    using Result = std::remove_cvref_t<decltype(run(*std::begin(sides)->side))>;
    std::vector<Labeled<Result>> results;
    results.reserve(std::size(sides));
    for (const auto& [label, side, role] : sides) results.push_back({LabelOf(label, role), run(*side)});
    return results;
}

//! Makes the decoded input's description; called only when a report is printed, so a target
//! pays nothing for it on inputs where the sides agree.
using DescribeFn = std::function<Description()>;

namespace detail {
template <typename F>
concept Describer = std::is_invocable_r_v<Description, const F&> && !std::same_as<std::remove_cvref_t<F>, Outcome>;

//! Prints the mismatch report for sides that differ and records the finding (the input goes on).
void ReportMismatch(const DescribeFn& describe, std::span<const Label> sides, std::span<const Outcome> outcomes);
void ReportMismatch(const DescribeFn& describe, std::span<const SideResult> sides);
//! Prints the property-violation report and records the finding (the input goes on).
//! `side`: the side the property is of (RequireOf), none for a property of the input.
void ReportViolation(std::string_view property, std::optional<Label> side, const DescribeFn& describe, const Outcome& detail);

//! EQUIFUZZ_LIST_FIELDS=<file>: the names of every field and property the comparisons meet are
//! written to <file> at exit, one per line with its class after a tab ("property" for a property:
//! what `--allow` checks its names against and `./equifuzz fields` lists). Unset, the comparisons
//! pay one test of a flag.
bool ListingFields();
void NoteFields(const Outcome& outcome);
void NoteProperty(std::string_view property);

struct NoDetail {};
template <typename D>
Outcome DetailOutcome(const D& detail)
{
    if constexpr (std::same_as<D, NoDetail>) {
        return {};
    } else if constexpr (std::is_invocable_r_v<Outcome, const D&>) {
        return detail();
    } else {
        static_assert(!std::same_as<D, Outcome>, "a Require detail is built only on failure: pass a typed result or a lambda, not an Outcome");
        return AsOutcome(detail);
    }
}
} // namespace detail

//! Require for a property of one side: a failure's signature names the side (property:side).
template <detail::Describer Describe, typename Detail = detail::NoDetail>
void RequireOf(Label side, bool holds, std::string_view property, const Describe& describe, const Detail& seen = {})
{
    if (detail::ListingFields()) [[unlikely]] detail::NoteProperty(property);
    if (!holds) [[unlikely]] detail::ReportViolation(property, side, DescribeFn{std::cref(describe)}, detail::DetailOutcome(seen));
}

//! Aborts with a mismatch report unless every side's result equals the first one's. The
//! results are compared as typed values; `describe` and the Outcomes run only for a report.
template <detail::Describer Describe>
void Compare(const Describe& describe, std::initializer_list<SideResult> sides)
{
    if (detail::ListingFields()) [[unlikely]] detail::NoteFields(sides.begin()->ToOutcome());
    for (const SideResult& side : sides) {
        if (!sides.begin()->SameAs(side)) [[unlikely]] detail::ReportMismatch(DescribeFn{std::cref(describe)}, {sides.begin(), sides.size()});
    }
}

template <detail::Describer Describe, Reportable T>
void Compare(const Describe& describe, std::span<const Labeled<T>> sides)
{
    if (detail::ListingFields() && !sides.empty()) [[unlikely]] detail::NoteFields(detail::AsOutcome(sides.front().result));
    for (const Labeled<T>& side : sides) {
        if (!(sides.front().result == side.result)) [[unlikely]] {
            std::vector<Label> labels;
            std::vector<Outcome> outcomes;
            for (const Labeled<T>& s : sides) {
                labels.push_back(s.label);
                outcomes.push_back(detail::AsOutcome(s.result));
            }
            detail::ReportMismatch(DescribeFn{std::cref(describe)}, labels, outcomes);
        }
    }
}

template <detail::Describer Describe, Reportable T>
void Compare(const Describe& describe, const std::vector<Labeled<T>>& sides)
{
    Compare(describe, std::span<const Labeled<T>>{sides});
}

//! Aborts with a report naming `property` unless `holds`. `detail` says what was seen: a typed
//! result or a lambda returning an Outcome, turned into text only when the property fails.
template <detail::Describer Describe, typename Detail = detail::NoDetail>
void Require(bool holds, std::string_view property, const Describe& describe, const Detail& seen = {})
{
    if (detail::ListingFields()) [[unlikely]] detail::NoteProperty(property);
    if (!holds) [[unlikely]] detail::ReportViolation(property, std::nullopt, DescribeFn{std::cref(describe)}, detail::DetailOutcome(seen));
}

//! Marks the current input as outside the caller contract of the code under test (`why`, one
//! plain sentence: "AddCoin may-be-FRESH over a coin the database holds"): Core promises nothing
//! there, so its differences and violations are recorded as kind "outside-contract", listed and
//! never counted, unless EQUIFUZZ_BEYOND_CONTRACT=1 (hunting robustness bugs). Call it before or
//! after the checks: it holds for the whole input. The first reason is kept. With
//! EQUIFUZZ_LOG_CONTRACT=1 each such input prints one line (to count them over a corpus).
void OutsideContract(std::string_view why);
//! Whether the current input was marked OutsideContract.
bool IsOutsideContract();
//! EQUIFUZZ_BEYOND_CONTRACT=1: decoders may build states outside the contracts (their default is
//! to build only states Core's callers create), and such inputs' findings count.
bool BeyondContract();

//! Whether this run lists the names of the fields and properties its checks meet
//! (EQUIFUZZ_LIST_FIELDS, for `--allow` and `./equifuzz fields`): a target's hot path, which
//! skips the named checks, must not return early then.
inline bool ListingFieldNames() { return detail::ListingFields(); }

//! Whether a check of the current input has failed so far (an allowed difference aside): for a
//! target whose check that must fail (a hot path's verdict) runs after the checks that report.
bool InputHasFindings();

//! "<label> <what>" as a side's name in a report, made once per pair of static strings (a side's
//! label, a literal) and kept for the process, so naming a side costs nothing per input; the
//! side's party comes with it.
Label SideName(const char* label, Role role, const char* what);

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
//! Called by EQUIFUZZ_TARGET after the body: with findings, prints their summary and aborts, or
//! (EQUIFUZZ_FINDINGS_DIR) records them and returns.
void EndInput();
//! Set by the replay driver so a report names the file being replayed.
void SetInputOrigin(std::string origin);
const char* CurrentTarget();
//! The current input's findings so far, as "<kind> <signature> roles=<roles>" (the harness's own tests).
std::vector<std::string> InputFindings();
} // namespace detail

} // namespace equifuzz

//! Declares the fuzz target of this binary. `input` is the raw fuzz input.
#ifdef EQUIFUZZ_AFL_MUTATOR_LIBRARY
// The AFL++ mutator library (equifuzz/mutator.h) compiles the target's file for its
// EQUIFUZZ_MUTATOR only: the body becomes a template nothing instantiates, so it emits no code
// and needs none of the sides.
#define EQUIFUZZ_TARGET(name)                                                           \
    template <int = 0>                                                                  \
    [[maybe_unused]] static void EquifuzzTargetBody(std::span<const uint8_t> input)
#else
#define EQUIFUZZ_TARGET(name)                                                           \
    static void EquifuzzTargetBody(std::span<const uint8_t> input);                     \
    extern "C" const char* EquifuzzTargetName() { return #name; }                       \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)             \
    {                                                                                   \
        ::equifuzz::detail::BeginInput(#name, data, size);                              \
        EquifuzzTargetBody(std::span<const uint8_t>{data, size});                       \
        ::equifuzz::detail::EndInput();                                                 \
        return 0;                                                                       \
    }                                                                                   \
    static void EquifuzzTargetBody(std::span<const uint8_t> input)
#endif
