// The harness's own pieces: outcomes, rendering, hex. (The mismatch report itself is tested
// end to end by tests/python/test_reports.py through a mutant's reproducer.)
#include <catch2/catch.hpp>
#include <equifuzz/choices.h>
#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace equifuzz;

// A choice as a pair's generated header declares one (tools/equifuzz/choices.py writes the same shape).
enum class Sample : uint8_t { NONE, FIRST, SECOND, THIRD };
template <>
struct equifuzz::ChoiceList<Sample> {
    static constexpr std::string_view about{"harness test: Sample"};
    static constexpr std::array<Choice<Sample>, 4> list{{{Sample::NONE, 0, "none"}, {Sample::FIRST, 5, "first"},
                                                         {Sample::SECOND, 3, "second"}, {Sample::THIRD, 2, "third"}}};
};

TEST_CASE("outcomes compare by name, kind and value, in order")
{
    Outcome a, b;
    a.Add("x", uint64_t{1}).Add("y", std::string{"s"});
    b.Add("x", uint64_t{1}).Add("y", std::string{"s"});
    CHECK(a == b);
    b.Add("z", true);
    CHECK_FALSE(a == b);
    Outcome c;
    c.Add("x", int64_t{1}).Add("y", std::string{"s"});
    CHECK_FALSE(a == c); // same number, other kind
}

TEST_CASE("hex and rendering")
{
    const Bytes b{0x00, 0xab, 0xff};
    CHECK(Hex(b) == "00abff");
    CHECK(Render(Value{b}) == "00abff (3 B)");
    CHECK(Render(Value{Bytes{}}) == "(empty) (0 B)");
    CHECK(Render(Value{std::string{"a\"b\n"}}) == "\"a\\x22b\\x0a\"");
    CHECK(Render(Value{int64_t{-5}}) == "-5");
    Bytes long_bytes(300, 0x11);
    long_bytes[200] = 0x22;
    const std::string r{Render(Value{long_bytes}, 48, 200)};
    CHECK(r.find("[22]") != std::string::npos);   // the focus byte is marked
    CHECK(r.find("(300 B)") != std::string::npos); // and the full length given
    CHECK(r.size() < 80);
}

TEST_CASE("Compare accepts equal outcomes from every side")
{
    Outcome o;
    o.Add("bytes", Bytes{1, 2, 3});
    Compare([] { return Description{}; }, {{Model("a"), o}, {Model("b"), o}, {Model("c"), o}});
    SUCCEED();
}

namespace {
//! A typed result: compared with ==, reported through ToOutcome() only for a report.
struct Typed {
    uint64_t n{0};
    Bytes b;
    bool operator==(const Typed&) const = default;
    Outcome ToOutcome() const { return Outcome{}.Add("n", n).Add("b", b); }
};
struct Counted {
    int value{0};
    bool operator==(const Counted&) const = default;
};
int g_reports{0};
Outcome ToOutcome(const Counted& c)
{
    ++g_reports;
    return Outcome{}.Add("value", c.value);
}
} // namespace

TEST_CASE("typed results are compared without building their reports or the description")
{
    static_assert(Reportable<Typed>);
    static_assert(Reportable<Counted>); // a free ToOutcome found by argument-dependent lookup
    static_assert(Reportable<Outcome>);
    static_assert(!Reportable<Bytes>);  // no report, not a result
    g_reports = 0;
    int described{0};
    const auto describe = [&] {
        ++described;
        return Description{};
    };
    Compare(describe, {{Model("a"), Counted{7}}, {Model("b"), Counted{7}}});
    std::vector<Labeled<Counted>> sides{{Model("x"), {1}}, {Model("y"), {1}}, {Model("z"), {1}}};
    Compare(describe, sides);
    Require(true, "holds", describe, Counted{2});
    RequireOf(Model("x"), true, "holds", describe, [&] { return ToOutcome(Counted{3}); });
    CHECK(g_reports == 0);
    CHECK(described == 0);
}

TEST_CASE("SideResult compares typed values, and results of other types through their reports")
{
    const Typed a{1, {2}}, b{1, {2}}, c{1, {3}};
    const SideResult ra{Model("a"), a}, rb{Model("b"), b}, rc{Model("c"), c};
    CHECK(ra.SameAs(rb));
    CHECK_FALSE(ra.SameAs(rc));
    const Outcome as_outcome{a.ToOutcome()};
    const SideResult ro{Model("o"), as_outcome};
    CHECK(ra.SameAs(ro)); // a typed result and an Outcome with the same fields
    CHECK_FALSE(rc.SameAs(ro));
}

TEST_CASE("AgreedPart and ByRef compare in place")
{
    struct Part {
        int agreed{0};
        int free{0}; //!< may differ by design
        auto Agreed() const { return std::tie(agreed); }
        Outcome ToOutcome() const { return Outcome{}.Add("agreed", agreed); }
    };
    const Part p{1, 10}, q{1, 20}, r{2, 10};
    CHECK(AgreedPart<Part>{&p} == AgreedPart<Part>{&q});
    CHECK_FALSE(AgreedPart<Part>{&p} == AgreedPart<Part>{&r});
    const Typed a{1, {2}}, c{1, {3}};
    CHECK(ByRef<Typed>{&a} == ByRef<Typed>{&a});
    CHECK_FALSE(ByRef<Typed>{&a} == ByRef<Typed>{&c});
}

TEST_CASE("SideName is made once per pair of static strings")
{
    static const char label[]{"core-original"};
    const Label first{SideName(label, Role::CORE_ORIGINAL, "CSipHasher")};
    CHECK(first.name == "core-original CSipHasher");
    CHECK(first.party == Party::CORE_ORIGINAL);
    CHECK(SideName(label, Role::CORE_ORIGINAL, "CSipHasher").name.data() == first.name.data()); // the same string, not a new one
}

TEST_CASE("CallOneOf picks as ConsumeIntegralInRange(0, N - 1) does, and returns the action's value")
{
    for (unsigned byte = 0; byte < 256; ++byte) {
        const uint8_t data[2]{0x5a, static_cast<uint8_t>(byte)}; // integers are read from the end
        FuzzedDataProvider by_range{data, sizeof(data)};
        FuzzedDataProvider by_call{data, sizeof(data)};
        const int expected{by_range.ConsumeIntegralInRange<int>(0, 4)};
        const int got{CallOneOf(by_call, [] { return 0; }, [] { return 1; }, [] { return 2; }, [] { return 3; }, [] { return 4; })};
        CHECK(got == expected);
        CHECK(by_call.remaining_bytes() == by_range.remaining_bytes()); // the same bytes read
    }
    const uint8_t one[1]{7};
    FuzzedDataProvider fdp{one, 1};
    int called{-1};
    CallOneOf(fdp, [&] { called = 0; }, [&] { called = 1; });
    CHECK(called == 7 % 2);
}

TEST_CASE("ConsumeChoice reads as ConsumeIntegralInRange over the weights, and EncodeChoice writes it back", "[harness][choices]")
{
    STATIC_REQUIRE(ChoiceSpan<Sample>() == 10);
    for (unsigned byte = 0; byte < 256; ++byte) {
        const uint8_t data[2]{0x5a, static_cast<uint8_t>(byte)};
        FuzzedDataProvider by_range{data, sizeof(data)};
        FuzzedDataProvider by_choice{data, sizeof(data)};
        const int v{by_range.ConsumeIntegralInRange<int>(1, 10)}; // any range of the same width
        const Sample expected{v <= 5 ? Sample::FIRST : v <= 8 ? Sample::SECOND : Sample::THIRD};
        CHECK(ConsumeChoice<Sample>(by_choice) == expected);
        CHECK(by_choice.remaining_bytes() == by_range.remaining_bytes());
    }
    for (const Sample s : {Sample::FIRST, Sample::SECOND, Sample::THIRD}) {
        FdpEncoder e;
        EncodeChoice(e, s);
        e.Integral(42, 0, 99);
        const std::vector<uint8_t> bytes{e.Finish()};
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        CHECK(ConsumeChoice<Sample>(fdp) == s);
        CHECK(fdp.ConsumeIntegralInRange<int>(0, 99) == 42);
    }
    for (unsigned byte = 0; byte < 256; ++byte) { // up to SECOND only: the first 8 integers
        const uint8_t data[1]{static_cast<uint8_t>(byte)};
        FuzzedDataProvider by_range{data, sizeof(data)};
        FuzzedDataProvider by_choice{data, sizeof(data)};
        const int v{by_range.ConsumeIntegralInRange<int>(0, 7)};
        CHECK(ConsumeChoice<Sample>(by_choice, Sample::SECOND) == (v < 5 ? Sample::FIRST : Sample::SECOND));
        FdpEncoder e;
        EncodeChoice(e, Sample::SECOND, Sample::SECOND);
        const std::vector<uint8_t> bytes{e.Finish()};
        FuzzedDataProvider back{bytes.data(), bytes.size()};
        CHECK(ConsumeChoice<Sample>(back, Sample::SECOND) == Sample::SECOND);
    }
    FuzzedDataProvider empty{nullptr, 0};
    CHECK(ConsumeChoice<Sample>(empty) == Sample::FIRST); // no bytes: the first decodable value
    CHECK(ChoiceName(Sample::SECOND) == "second");
    CHECK(ChoiceName(static_cast<Sample>(9)) == "(not a value of this choice)");
    std::vector<uint8_t> bytes;
    Mutation m{bytes, 64, 1};
    std::array<int, 4> picked{};
    for (int i = 0; i < 300; ++i) ++picked[static_cast<size_t>(PickChoice<Sample>(m))];
    CHECK(picked[0] == 0); // weight 0: never picked, as never decoded
    CHECK((picked[1] > 0 && picked[2] > 0 && picked[3] > 0));
}

// --- structured mutations' building blocks (equifuzz/mutator.h) ----------------------------------

TEST_CASE("FdpEncoder writes what FuzzedDataProvider reads back", "[harness][mutator]")
{
    FdpEncoder e;
    e.Integral(7, 0, 9);            // one byte
    e.Bytes(std::vector<uint8_t>{0xaa, 0xbb});
    e.Integral(300, 1, 5000);       // two bytes
    e.Bool(true);
    e.Integral<uint32_t>(0xdeadbeef);
    e.Integral(2'000'000'000'000'000, 0, 2'100'000'000'000'000); // seven bytes
    e.Integral(99, 3, 6);           // clamped to 6
    const std::vector<uint8_t> bytes{e.Finish()};
    FuzzedDataProvider fdp{bytes.data(), bytes.size()};
    CHECK(fdp.ConsumeIntegralInRange<int>(0, 9) == 7);
    CHECK(fdp.ConsumeBytes<uint8_t>(2) == std::vector<uint8_t>{0xaa, 0xbb});
    CHECK(fdp.ConsumeIntegralInRange<size_t>(1, 5000) == 300);
    CHECK(fdp.ConsumeBool());
    CHECK(fdp.ConsumeIntegral<uint32_t>() == 0xdeadbeef);
    CHECK(fdp.ConsumeIntegralInRange<int64_t>(0, 2'100'000'000'000'000) == 2'000'000'000'000'000);
    CHECK(fdp.ConsumeIntegralInRange<int>(3, 6) == 6);
    CHECK(fdp.remaining_bytes() == 0);
}

TEST_CASE("Mutation inserts only what fits", "[harness][mutator]")
{
    std::vector<uint8_t> bytes{1, 2, 3};
    Mutation m{bytes, 5, 42};
    CHECK_FALSE(m.Insert(1, std::vector<uint8_t>{9, 9, 9}));
    CHECK(bytes == std::vector<uint8_t>{1, 2, 3});
    CHECK(m.Insert(1, std::vector<uint8_t>{9, 9}));
    CHECK(bytes == std::vector<uint8_t>{1, 9, 9, 2, 3});
    CHECK(m.Room() == 0);
}

// The tiers: a difference only in internal fields, or on an input outside the caller contract,
// is a note: the input does not count as failed (EndInput would abort this test otherwise).
TEST_CASE("internal fields are looked past; a difference only there is a note", "[harness][tiers]")
{
    const auto desc{[] { return Description{}; }};
    const uint8_t raw[1]{0};
    detail::BeginInput("harness_tests", raw, sizeof(raw));
    Outcome a, b;
    a.Add("found", true).Add("entries", uint64_t{3}).As(FieldClass::INTERNAL).Add("value", uint64_t{7});
    b.Add("found", true).Add("entries", uint64_t{5}).As(FieldClass::INTERNAL).Add("value", uint64_t{7});
    const Label before{LabelOf("core-original", Role::CORE_ORIGINAL)}, after{LabelOf("core-optimized", Role::CORE_OPTIMIZED)};
    Compare(desc, {{before, a}, {after, b}});
    CHECK_FALSE(InputHasFindings());
    CHECK(detail::InputFindings() == std::vector<std::string>{"internal internal:entries:core-original|core-optimized roles=core-differ"});
    // A side that reports more internal fields (a step it interrupted): still a note.
    Outcome c{a};
    c.Add("left after the crash", std::string{"2 entries"}).As(FieldClass::INTERNAL);
    Outcome d{a};
    Compare(desc, {{before, c}, {after, d}});
    CHECK_FALSE(InputHasFindings());
    detail::EndInput();

    // A promise past an internal difference is still compared.
    detail::BeginInput("harness_tests", raw, sizeof(raw));
    Outcome e{b};
    Outcome f;
    f.Add("found", true).Add("entries", uint64_t{3}).As(FieldClass::INTERNAL).Add("value", uint64_t{8});
    OutsideContract("the test's own: every finding of this input is a note");  // so that EndInput does not abort
    CHECK(IsOutsideContract());
    Compare(desc, {{before, e}, {after, f}});
    CHECK_FALSE(InputHasFindings());
    CHECK(detail::InputFindings() == std::vector<std::string>{"outside-contract outside-contract:value:core-original|core-optimized roles=core-differ"});
    detail::EndInput();
    CHECK_FALSE(IsOutsideContract());  // the mark is the input's only
}

// Where a finding comes from is decided by each side's party (Label), never by its name: a model
// named like a Core side is a model, a Core side named like anything is Core's.
TEST_CASE("a side's party, not its name, decides the roles of a finding", "[harness][roles]")
{
    const auto desc{[] { return Description{}; }};
    const uint8_t raw[1]{0};
    Outcome a, b;
    a.Add("entries", uint64_t{3}).As(FieldClass::INTERNAL);
    b.Add("entries", uint64_t{5}).As(FieldClass::INTERNAL);
    detail::BeginInput("harness_tests", raw, sizeof(raw));
    Compare(desc, {{Model("core-original lookalike"), a}, {LabelOf("G", Role::CORE_OPTIMIZED), b}});
    CHECK(detail::InputFindings() == std::vector<std::string>{"internal internal:entries:core-original_lookalike|G roles=core-optimized-vs-model"});
    detail::EndInput();
    detail::BeginInput("harness_tests", raw, sizeof(raw));
    Compare(desc, {{Model("core-original"), a}, {Model("core-optimized"), b}});
    CHECK(detail::InputFindings() == std::vector<std::string>{"internal internal:entries:core-original|core-optimized roles=models"});
    detail::EndInput();
    CHECK(std::string_view{PartyName(PartyOf(Role::OPTIMIZED))} == "model");
    CHECK(std::string_view{PartyName(PartyOf(Role::CORE_ORIGINAL))} == "core-original");
}

TEST_CASE("FieldClassName names the tiers", "[harness][tiers]")
{
    CHECK(std::string_view{FieldClassName(FieldClass::INTERNAL)} == "internal");
    CHECK(std::string_view{FieldClassName(FieldClass::DIAGNOSTIC)} == "diagnostic");
    CHECK(DefaultFieldClass("entries") == FieldClass::DATA);  // internal only where a pair declares it
}
