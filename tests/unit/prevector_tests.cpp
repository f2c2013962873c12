// prevector pair (spec section 1): the allocation table per script type, the push_back capacity
// steps, sizeof, and the API rules of 1a, run on both sides and on the template directly.
#include <catch2/catch.hpp>
#include <prevector/pair.h>
#include <prevector/prevector.h>
#include <prevector/program.h>
#include <prevector/script.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::prevec;

namespace {

const std::vector<const Side*> SIDES{&original_side(), &optimized_side()};

ScriptFacts Build(const Side& side, ScriptKind kind, uint32_t length = 0)
{
    ScriptInput in;
    in.kind = kind;
    in.length = length;
    for (int i = 0; i < 100; ++i) in.data.push_back(static_cast<uint8_t>(i * 7 + 1));
    return side.build_script(in);
}

//! Capacities seen while pushing 0..max elements: the sizes at which capacity changed, and to what.
template <unsigned N>
std::vector<std::pair<uint32_t, uint32_t>> PushSteps(uint32_t max)
{
    prevector<N, uint8_t> v;
    std::vector<std::pair<uint32_t, uint32_t>> steps;
    uint32_t cap{v.capacity()};
    for (uint32_t i = 1; i <= max; ++i) {
        v.push_back(static_cast<uint8_t>(i));
        if (v.capacity() != cap) steps.emplace_back(i, cap = v.capacity());
    }
    return steps;
}

template <unsigned N>
prevector<N, uint8_t> Filled(uint32_t n)
{
    prevector<N, uint8_t> v;
    for (uint32_t i = 0; i < n; ++i) v.push_back(static_cast<uint8_t>(i));
    return v;
}

} // namespace

TEST_CASE("sizeof(CScriptBase): 32 at N=28, 40 at N=36 (33..36 all 40, 37 gives 48)")
{
    STATIC_REQUIRE(sizeof(prevector<28, uint8_t>) == 32);
    STATIC_REQUIRE(sizeof(prevector<33, uint8_t>) == 40);
    STATIC_REQUIRE(sizeof(prevector<36, uint8_t>) == 40);
    STATIC_REQUIRE(sizeof(prevector<37, uint8_t>) == 48);
    CHECK(original_side().sizeof_bytes_container == 32);
    CHECK(optimized_side().sizeof_bytes_container == 40);
    CHECK(original_side().inline_size == 28);
    CHECK(optimized_side().inline_size == 36);
}

TEST_CASE("push_back capacity steps: N=28 29->43, 44->66, ...; N=36 37->55, 56->84, ...")
{
    const std::vector<std::pair<uint32_t, uint32_t>> s28{{29, 43}, {44, 66}, {67, 100}, {101, 151}, {152, 228}, {229, 343}};
    const std::vector<std::pair<uint32_t, uint32_t>> s36{{37, 55}, {56, 84}, {85, 127}, {128, 192}, {193, 289}, {290, 435}};
    CHECK(PushSteps<28>(300) == s28);
    CHECK(PushSteps<36>(400) == s36);
}

TEST_CASE("allocation table per script type (spec 1b)")
{
    struct Row {
        ScriptKind kind;
        uint32_t length;
        size_t size;
        bool inline28, inline36;
    };
    const std::vector<Row> rows{
        {ScriptKind::P2A, 0, 4, true, true},
        {ScriptKind::P2WPKH, 0, 22, true, true},
        {ScriptKind::P2SH, 0, 23, true, true},
        {ScriptKind::P2PKH, 0, 25, true, true},
        {ScriptKind::P2WSH, 0, 34, false, true},
        {ScriptKind::P2TR, 0, 34, false, true},
        {ScriptKind::P2PKCompressed, 0, 35, false, true},
        {ScriptKind::OpReturn, 26, 28, true, true},
        {ScriptKind::OpReturn, 27, 29, false, true},
        {ScriptKind::OpReturn, 34, 36, false, true},
        {ScriptKind::OpReturn, 35, 37, false, false},
        {ScriptKind::WitnessCommitment, 0, 38, false, false},
        {ScriptKind::OpReturn, 80, 83, false, false},
        {ScriptKind::Multisig1of1, 0, 37, false, false},
        {ScriptKind::Multisig1of2, 0, 71, false, false},
        {ScriptKind::Multisig2of3, 0, 105, false, false},
        {ScriptKind::P2PKUncompressed, 0, 67, false, false},
    };
    for (const Row& row : rows) {
        INFO(ChoiceName(row.kind) << " length " << row.length);
        for (const Side* side : SIDES) {
            INFO(side->name);
            const ScriptFacts f{Build(*side, row.kind, row.length)};
            CHECK(f.bytes.size() == row.size);
            const bool expect{side->inline_size == 28 ? row.inline28 : row.inline36};
            CHECK(f.built_direct == expect);
            CHECK(f.range_direct == expect);
            CHECK(f.copy_direct == expect);
            CHECK(f.read_direct == expect);
            CHECK(f.built_memory == (expect ? 0 : f.built_capacity));
            CHECK(f.dynamic_usage == MallocUsage(f.built_memory));
        }
        CHECK(Build(original_side(), row.kind, row.length).bytes == Build(optimized_side(), row.kind, row.length).bytes);
    }
}

TEST_CASE("script bytes and queries match the concatenation oracle")
{
    for (const auto& choice : ChoiceList<ScriptKind>::list) {
        ScriptInput in;
        in.kind = choice.value;
        in.length = 36;
        in.pushes = {20, 76, 256};
        for (int i = 0; i < 64; ++i) in.data.push_back(static_cast<uint8_t>(i));
        const ScriptFacts oracle{BuildScriptOracle(in)};
        for (const Side* side : SIDES) {
            INFO(ChoiceName(in.kind) << " " << side->name);
            CHECK(side->build_script(in).ToOutcome() == oracle.ToOutcome());
        }
    }
    ScriptInput p2wsh{ScriptKind::P2WSH, 0, {}, {}};
    const ScriptFacts f{original_side().build_script(p2wsh)};
    CHECK(f.is_p2wsh);
    CHECK(f.witness_version == 0);
    CHECK(f.witness_program.size() == 32);
    ScriptInput p2sh{ScriptKind::P2SH, 0, {}, {}};
    CHECK(optimized_side().build_script(p2sh).is_p2sh);
    ScriptInput opret{ScriptKind::OpReturn, 80, {}, {}};
    CHECK(optimized_side().build_script(opret).is_unspendable);
    CHECK(optimized_side().build_script(opret).bytes[1] == OP_PUSHDATA1);
}

TEST_CASE("boundary: 36 bytes inline at N=36, 37 on the heap with capacity 37 (range) or 55 (push_back)")
{
    const std::vector<uint8_t> b36(36, 1), b37(37, 2);
    const prevector<36, uint8_t> r36(b36.begin(), b36.end());
    const prevector<36, uint8_t> r37(b37.begin(), b37.end());
    CHECK(r36.is_direct());
    CHECK(r36.capacity() == 36);
    CHECK(r36.allocated_memory() == 0);
    CHECK_FALSE(r37.is_direct());
    CHECK(r37.capacity() == 37);
    CHECK(r37.allocated_memory() == 37);
    CHECK(Filled<36>(37).capacity() == 55);
    CHECK(Filled<36>(36).is_direct());
}

TEST_CASE("API rules of spec 1a (both N)")
{
    SECTION("a heap vector of 0 elements; clear and erase keep the heap; shrink_to_fit returns inline at size N")
    {
        auto v{Filled<28>(40)};
        REQUIRE(v.capacity() == 43);
        v.clear();
        CHECK(v.size() == 0);
        CHECK_FALSE(v.is_direct());
        CHECK(v.capacity() == 43);
        CHECK(v.allocated_memory() == 43);
        v.assign(28u, uint8_t{5});
        CHECK_FALSE(v.is_direct()); // assign keeps a big enough capacity
        v.erase(v.begin(), v.begin());
        CHECK(v.size() == 28);
        v.shrink_to_fit();
        CHECK(v.is_direct());
        CHECK(v.capacity() == 28);
        v.push_back(1);
        CHECK(v.capacity() == 43);
        v.shrink_to_fit();
        CHECK(v.capacity() == 29); // exact realloc at N+1
    }
    SECTION("reserve: no-op up to N, exact beyond; resize grows exactly and zero-fills")
    {
        prevector<36, uint8_t> v;
        v.reserve(36);
        CHECK(v.is_direct());
        v.reserve(37);
        CHECK(v.capacity() == 37);
        CHECK(v.size() == 0);
        prevector<28, uint8_t> w;
        w.resize(30);
        CHECK(w.capacity() == 30);
        CHECK(std::count(w.begin(), w.end(), 0) == 30);
    }
    SECTION("copy constructor is sized from size, copy assignment keeps capacity")
    {
        auto big{Filled<28>(60)};
        big.resize(10);
        const prevector<28, uint8_t> copy(big);
        CHECK(copy.is_direct());
        auto dest{Filled<28>(50)};
        dest = big;
        CHECK(dest.capacity() == 66);
        CHECK(dest == big);
    }
    SECTION("move leaves the source empty and inline; swap exchanges modes")
    {
        auto a{Filled<36>(40)};
        auto b{Filled<36>(3)};
        a.swap(b);
        CHECK(a.size() == 3);
        CHECK(a.is_direct());
        CHECK(b.capacity() == 55);
        prevector<36, uint8_t> c(std::move(b));
        CHECK(b.empty());
        CHECK(b.is_direct());
        CHECK(c.size() == 40);
        a = std::move(c);
        CHECK(c.empty());
        CHECK(a.size() == 40);
    }
    SECTION("operator< is size first; == compares size and elements")
    {
        const std::vector<uint8_t> x{0x02}, y{0x01, 0x01};
        const prevector<28, uint8_t> px(x.begin(), x.end()), py(y.begin(), y.end());
        CHECK(px < py);
        CHECK_FALSE(py < px);
        CHECK(y < x); // std::vector: lexicographic
        CHECK(px != py);
    }
    SECTION("insert returns the position; erase returns first; self-insertion copies first")
    {
        auto v{Filled<28>(28)};
        CHECK(v.insert(v.begin() + 5, uint8_t{99}) - v.begin() == 5);
        CHECK(v.erase(v.begin() + 3, v.begin() + 3) - v.begin() == 3);
        CHECK(v.erase(v.begin() + 2) - v.begin() == 2);
        auto w{Filled<28>(20)};
        std::vector<uint8_t> expect(w.begin(), w.end());
        const std::vector<uint8_t> range(expect.begin(), expect.begin() + 20);
        expect.insert(expect.begin() + 3, range.begin(), range.end());
        w.insert(w.begin() + 3, w.begin(), w.end());
        CHECK(std::vector<uint8_t>(w.begin(), w.end()) == expect);
        CHECK(w.capacity() == 60);
    }
    SECTION("resize_uninitialized gives exact capacity; serialization is CompactSize + bytes")
    {
        prevector<36, uint8_t> v;
        v.resize_uninitialized(37);
        CHECK(v.capacity() == 37);
        for (uint32_t i = 0; i < 37; ++i) v[i] = static_cast<uint8_t>(i);
        const Bytes ser{SerializeElements(v)};
        CHECK(ser.size() == 38);
        CHECK(ser[0] == 37);
        CHECK(ser == SerializeElements(std::vector<uint8_t>(v.begin(), v.end())));
    }
}

TEST_CASE("op programs: both sides match the oracle and the capacity model")
{
    OpProgram program;
    for (uint32_t i = 0; i < 40; ++i) program.push_back({OpKind::PushBack, 0, 0, 0, {}, i});
    program.push_back({OpKind::EraseRange, 5, 0, 0, {}, 0});
    program.push_back({OpKind::InsertSelfRange, 3, 0, 40, {}, 0});
    program.push_back({OpKind::Resize, 36, 0, 0, {}, 0});
    program.push_back({OpKind::ShrinkToFit, 0, 0, 0, {}, 0});
    program.push_back({OpKind::CopyConstruct, 0, 0, 0, {}, 0});
    program.push_back({OpKind::ConstructCount, 37, 0, 0, {}, 4});
    program.push_back({OpKind::Swap, 0, 0, 0, {}, 0});
    program.push_back({OpKind::MoveAssignBA, 0, 0, 0, {}, 0});
    program.push_back({OpKind::Relations, 0, 0, 0, {}, 0});
    program.push_back({OpKind::Reserialize, 0, 0, 0, {}, 0});
    for (const TraceDigest digest : {TraceDigest::Fast, TraceDigest::Fnv1a}) {
        const OpsResult oracle{RunOracle(program, digest)};
        const OpsResult oracle_wide{RunOracleWide(program, digest)};
        for (const Side* side : SIDES) {
            INFO(side->name << (digest == TraceDigest::Fast ? ", fast digest" : ", FNV-1a digest"));
            const OpsResult r{side->run_ops(program, digest)};
            CHECK(r.ToOutcome() == oracle.ToOutcome());
            CHECK(r.inconsistency.empty());
            CHECK(r.storage == ModelStorage(program, side->inline_size, 1));
            CHECK(r.less == oracle.size_first_less);
            const OpsResult w{side->run_ops_wide(program, digest)};
            CHECK(w.ToOutcome() == oracle_wide.ToOutcome());
            CHECK(w.storage == ModelStorage(program, side->inline_size, sizeof(Wide)));
        }
    }
}

TEST_CASE("trace digests: the fast one separates a changed element, an order and a size, as FNV-1a does")
{
    // Every size 0..80 (inline and heap at both N), every position: a byte with its top bit
    // flipped (FNV-1a must tell it too), a Wide with bit 0, 31 or 63 of either word flipped.
    for (uint32_t n = 0; n <= 80; ++n) {
        std::vector<uint8_t> bytes(n);
        std::vector<Wide> wide(n);
        for (uint32_t i = 0; i < n; ++i) {
            bytes[i] = static_cast<uint8_t>(i * 7);
            wide[i] = MakeValue<Wide>(i);
        }
        const prevector<28, uint8_t> pv(bytes.begin(), bytes.end());
        CHECK(FastDigest(pv) == FastDigest(bytes));
        CHECK(FnvDigest(pv) == FnvDigest(bytes));
        for (uint32_t i = 0; i < n; ++i) {
            INFO("size " << n << ", element " << i);
            std::vector<uint8_t> b{bytes};
            b[i] ^= 0x80;
            CHECK(FastDigest(b) != FastDigest(bytes));
            CHECK(FnvDigest(b) != FnvDigest(bytes));
            for (const int bit : {0, 31, 63}) {
                std::vector<Wide> w{wide};
                w[i].hi ^= uint64_t{1} << bit;
                CHECK(FastDigest(w) != FastDigest(wide));
                w = wide;
                w[i].lo ^= uint64_t{1} << bit;
                CHECK(FastDigest(w) != FastDigest(wide));
            }
        }
        // The same elements in another order, as a misplaced insert or erase leaves them: the
        // first and last swapped, or all rotated by one (a digest that adds or xors the words
        // would miss the rotation).
        const auto order_counts = [](const auto& v) {
            auto swapped{v};
            std::swap(swapped.front(), swapped.back());
            auto rotated{v};
            std::rotate(rotated.begin(), rotated.begin() + 1, rotated.end());
            CHECK(FastDigest(swapped) != FastDigest(v));
            CHECK(FastDigest(rotated) != FastDigest(v));
        };
        if (n >= 2) {
            order_counts(bytes);
            order_counts(wide);
        }
        // One more zero element: the same bytes but one, the length tells them apart.
        std::vector<uint8_t> longer{bytes};
        longer.push_back(0);
        CHECK(FastDigest(longer) != FastDigest(bytes));
    }
}

namespace {

//! A byte container over std::vector whose iterators step back over element 1 when BREAK says so
//! (1: the mutable iterator, 2: the const one): what SelfCheck's backward walks must notice.
template <int BREAK>
struct SkipsBackOverOne {
    using value_type = uint8_t;
    template <bool CONST>
    struct Iter {
        using iterator_category = std::bidirectional_iterator_tag;
        using value_type = uint8_t;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<CONST, const uint8_t*, uint8_t*>;
        using reference = std::conditional_t<CONST, const uint8_t&, uint8_t&>;
        pointer p{nullptr};
        pointer base{nullptr};
        reference operator*() const { return *p; }
        Iter& operator++() { ++p; return *this; }
        Iter operator++(int) { Iter old{*this}; ++p; return old; }
        Iter& operator--()
        {
            --p;
            if (BREAK == (CONST ? 2 : 1) && p == base + 1) --p;
            return *this;
        }
        Iter operator+(difference_type k) const { return {p + k, base}; }
        Iter operator-(difference_type k) const { return {p - k, base}; }
        difference_type operator-(const Iter& o) const { return p - o.p; }
        bool operator==(const Iter& o) const { return p == o.p; }
    };
    std::vector<uint8_t> v;
    SkipsBackOverOne() = default;
    template <typename It>
    SkipsBackOverOne(It first, It last) { for (; first != last; ++first) v.push_back(*first); }
    size_t size() const { return v.size(); }
    bool empty() const { return v.empty(); }
    Iter<false> begin() { return {v.data(), v.data()}; }
    Iter<false> end() { return {v.data() + v.size(), v.data()}; }
    Iter<true> begin() const { return {v.data(), v.data()}; }
    Iter<true> end() const { return {v.data() + v.size(), v.data()}; }
    uint8_t& operator[](size_t i) { return v[i]; }
    const uint8_t& operator[](size_t i) const { return v[i]; }
    uint8_t* data() { return v.data(); }
    uint8_t& front() { return v.front(); }
    uint8_t& back() { return v.back(); }
    bool operator==(const SkipsBackOverOne& o) const { return v == o.v; }
};

} // namespace

TEST_CASE("SelfCheck: a backward walk that skips an element is reported, mutable and const")
{
    const std::vector<uint8_t> bytes{10, 11, 12, 13};
    SkipsBackOverOne<0> sound{bytes.begin(), bytes.end()};
    SkipsBackOverOne<1> mutable_broken{bytes.begin(), bytes.end()};
    SkipsBackOverOne<2> const_broken{bytes.begin(), bytes.end()};
    CHECK(SelfCheck(sound).empty());
    CHECK(SelfCheck(mutable_broken) == "reverse iteration differs");
    CHECK(SelfCheck(const_broken) == "const reverse iteration differs");
}

namespace {
bool SameOps(const OpProgram& a, const OpProgram& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Op& x, const Op& y) {
        return x.kind == y.kind && x.x == y.x && x.y == y.y && x.z == y.z && x.value == y.value && x.values == y.values;
    });
}
} // namespace

TEST_CASE("EncodeProgram and EncodeScript mirror the decoders: a decoded input written and read again is the same", "[mutator]")
{
    std::mt19937 rng{32279};
    size_t ranges{0}, pushes{0};
    for (int round = 0; round < 2000; ++round) {
        std::vector<uint8_t> bytes(rng() % 300);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        const OpProgram first{DecodeProgram(fdp)};
        const Bytes once{EncodeProgram(first)};
        FuzzedDataProvider again{once.data(), once.size()};
        REQUIRE(SameOps(DecodeProgram(again), first));
        for (const Op& op : first) ranges += !op.values.empty();

        FuzzedDataProvider fdp2{bytes.data(), bytes.size()};
        const ScriptInput in{DecodeScript(fdp2)};
        const Bytes script{EncodeScript(in)};
        FuzzedDataProvider again2{script.data(), script.size()};
        const ScriptInput back{DecodeScript(again2)};
        REQUIRE((back.kind == in.kind && back.length == in.length && back.pushes == in.pushes && back.data == in.data));
        pushes += !in.pushes.empty();
    }
    // The fields that take the most care were met: range values, push lists.
    CHECK(ranges > 200);
    CHECK(pushes > 50);
}
