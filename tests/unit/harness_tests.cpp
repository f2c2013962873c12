// The harness's own pieces: outcomes, rendering, hex. (The mismatch report itself is tested
// end to end by tests/python/test_reports.py through a mutant's reproducer.)
#include <catch2/catch.hpp>
#include <equifuzz/harness.h>

using namespace equifuzz;

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
    Compare(Description{}, {{"a", o}, {"b", o}, {"c", o}});
    SUCCEED();
}
