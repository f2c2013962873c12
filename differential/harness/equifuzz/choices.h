// Named choices: one list, read by a pair's decoder, its encoder and its structured mutation.
//
// A pair declares each choice its decoder makes in differential/<pair>/choices.json:
//
//     "OpKind": {"about": "What an operation of a block does with its outpoint.",
//                "values": [["ADD", 5, "add"], ["SPEND", 3, "spend"], ["ACCESS", 2, "access"]]}
//
// Each value has a name (an enumerator), a weight (how many of the provider's integers decode
// to it: ADD above is 5 in 10) and the words a report uses for it. The build writes the
// enum and its list into <equifuzz/choices/<pair>.h> (tools/equifuzz/choices.py); the seed
// generators read the same file. The code then never spells a range:
//
//     const OpKind kind{ConsumeChoice<OpKind>(fdp)};   // decoder
//     EncodeChoice(e, op.kind);                        // encoder (seeds, structured mutation)
//     op.kind = PickChoice<OpKind>(m);                 // structured mutation
//     d.Add("kind", ChoiceName(op.kind));              // report
//
// Adding a value is one line of JSON; a switch over the enum without a case for it does not
// compile (-Werror=switch), and the ranges of the decoder and the encoder cannot drift apart.
// ConsumeChoice reads the provider as ConsumeIntegralInRange(0, total weight - 1) does, which
// takes the same bytes, and gives the same value, as any range of that width did before.
// A value of weight 0 is never decoded (an enum's "none", say) and cannot be encoded.
#pragma once

#include <equifuzz/mutator.h>
#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

namespace equifuzz {

template <typename E>
struct Choice {
    E value;
    uint32_t weight;
    std::string_view name;  //!< the words a report uses
};

//! Specialized for each enum by the generated header: `static constexpr std::array<Choice<E>, N> list`
//! (in the enum's order), `static constexpr std::string_view about`.
template <typename E>
struct ChoiceList;

//! How many integers the provider's choice among E spans (the sum of the weights).
template <typename E>
constexpr uint64_t ChoiceSpan()
{
    uint64_t span{0};
    for (const auto& c : ChoiceList<E>::list) span += c.weight;
    return span;
}

namespace detail {
//! The span of the values up to and including `last`, in the list's order.
template <typename E>
constexpr uint64_t SpanThrough(E last)
{
    uint64_t span{0};
    for (const auto& c : ChoiceList<E>::list) {
        span += c.weight;
        if (c.value == last) break;
    }
    return span;
}
} // namespace detail

namespace detail {
//! Each integer of the provider's range mapped to its value, so that a decoder's choice is one
//! load, not a walk over the list (with coverage and comparison tracing on every step of it).
template <typename E>
inline constexpr auto BY_INTEGER{[] {
    static_assert(ChoiceSpan<E>() > 0, "a choice needs a value of weight > 0");
    static_assert(ChoiceSpan<E>() <= 4096, "a choice's weights add up to at most 4096");
    std::array<E, ChoiceSpan<E>()> by{};
    size_t i{0};
    for (const auto& c : ChoiceList<E>::list) {
        for (uint32_t k = 0; k < c.weight; ++k) by[i++] = c.value;
    }
    return by;
}()};

//! Whether EQUIFUZZ_TRACE_CHOICES is set: each choice a decoder reads is then written to stderr as
//! `equifuzz-choice\t<pair>: <enum>\t<address of its first byte>\t<bytes>\t<value's index>`
//! (the harness writes the input's own address first, BeginInput), which
//! tools/equifuzz/rechoose.py reads to carry committed inputs over a change of weights.
inline bool TraceChoices()
{
    static const bool trace{std::getenv("EQUIFUZZ_TRACE_CHOICES") != nullptr};
    return trace;
}

template <typename E>
E Traced(FuzzedDataProvider& fdp, uint64_t span)
{
    const size_t before{fdp.remaining_bytes()};
    const E value{BY_INTEGER<E>[fdp.ConsumeIntegralInRange<uint64_t>(0, span - 1)]};
    if (TraceChoices()) {
        // An integer is read from the end of the bytes left, which begin at the provider's first
        // member (its data pointer; the class is standard-layout, so the two share an address).
        static_assert(std::is_standard_layout_v<FuzzedDataProvider>);
        const uint8_t* const left{*reinterpret_cast<const uint8_t* const*>(&fdp)};
        const size_t after{fdp.remaining_bytes()};
        std::fprintf(stderr, "equifuzz-choice\t%.*s\t%#zx\t%zu\t%d\n", static_cast<int>(ChoiceList<E>::about.size()),
                     ChoiceList<E>::about.data(), reinterpret_cast<uintptr_t>(left + after), before - after,
                     static_cast<int>(value));
    }
    return value;
}
} // namespace detail

//! One of the values of E, each as often as its weight says.
template <typename E>
E ConsumeChoice(FuzzedDataProvider& fdp)
{
    return detail::Traced<E>(fdp, ChoiceSpan<E>());
}

//! One of the values of E up to and including `last`, in the list's order (a decoder that leaves
//! the list's final values out in some inputs: a seek where a file cannot seek). The encoder is
//! given the same `last`.
template <typename E>
E ConsumeChoice(FuzzedDataProvider& fdp, E last)
{
    return detail::Traced<E>(fdp, detail::SpanThrough(last));
}

namespace detail {
template <typename E>
constexpr const Choice<E>* FindChoice(E value)
{
    for (const auto& c : ChoiceList<E>::list) {
        if (c.value == value) return &c;
    }
    return nullptr;
}
} // namespace detail

//! The first integer of `value`'s range, as the bytes ConsumeChoice (with the same `last`) reads
//! back as `value`.
template <typename E>
void EncodeChoice(FdpEncoder& e, E value, E last = ChoiceList<E>::list.back().value)
{
    uint64_t first{0};
    for (const auto& c : ChoiceList<E>::list) {
        if (c.value == value) {
            if (c.weight == 0 || first >= detail::SpanThrough(last)) break;
            e.Integral(first, 0, detail::SpanThrough(last) - 1);
            return;
        }
        first += c.weight;
    }
    std::fprintf(stderr, "EncodeChoice: %s: value %d is never decoded (weight 0, or after `last`)\n",
                 ChoiceList<E>::about.data(), static_cast<int>(value));
    std::abort();
}

//! One of the values a decoder can give, each as likely.
template <typename E>
E PickChoice(Mutation& m)
{
    constexpr size_t decodable{[] {
        size_t n{0};
        for (const auto& c : ChoiceList<E>::list) n += c.weight > 0;
        return n;
    }()};
    size_t k{m.Below(decodable)};
    for (const auto& c : ChoiceList<E>::list) {
        if (c.weight > 0 && k-- == 0) return c.value;
    }
    std::abort(); // unreachable
}

//! The words a report uses for `value`.
template <typename E>
constexpr std::string_view ChoiceName(E value)
{
    const Choice<E>* c{detail::FindChoice(value)};
    return c ? c->name : std::string_view{"(not a value of this choice)"};
}

} // namespace equifuzz
