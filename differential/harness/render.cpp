// Values and reports as people read them: bytes in hex around a difference, strings escaped,
// a report's header and its one-line details. The report's layout is documented in README.md
// ("Reading a mismatch report").
#include "internal.h"

#include <algorithm>
#include <variant>

namespace equifuzz {
namespace internal {

std::string RenderBytes(const Bytes& b, size_t max_chars, std::optional<size_t> mark)
{
    const size_t window{std::max<size_t>(4, max_chars / 2)};
    size_t begin{0};
    if (b.size() > window && mark) begin = std::min(*mark > window / 4 ? *mark - window / 4 : 0, b.size() - window);
    const size_t end{std::min(b.size(), begin + window)};
    std::string out;
    if (begin > 0) out += "…@" + std::to_string(begin) + ":";
    for (size_t i = begin; i < end; ++i) {
        const bool marked{mark && *mark == i};
        if (marked) out += '[';
        out += HEX_DIGITS[b[i] >> 4];
        out += HEX_DIGITS[b[i] & 15];
        if (marked) out += ']';
    }
    if (end < b.size()) out += "…";
    if (b.empty()) out += "(empty)";
    out += " (" + std::to_string(b.size()) + " B)";
    return out;
}

std::string RenderString(const std::string& s, size_t max_chars)
{
    std::string out{"\""};
    for (const char c : s) {
        if (out.size() >= max_chars) {
            out += "…";
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            out += c;
        } else {
            const auto u{static_cast<unsigned char>(c)};
            out += "\\x";
            out += HEX_DIGITS[u >> 4];
            out += HEX_DIGITS[u & 15];
        }
    }
    return out + "\"";
}

std::string RenderValue(const Value& v, size_t max_chars, std::optional<size_t> mark)
{
    struct Visitor {
        size_t max_chars;
        std::optional<size_t> mark;
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(int64_t i) const { return std::to_string(i); }
        std::string operator()(uint64_t u) const { return std::to_string(u); }
        std::string operator()(const std::string& s) const { return RenderString(s, max_chars); }
        std::string operator()(const Bytes& b) const { return RenderBytes(b, max_chars, mark); }
    };
    return std::visit(Visitor{max_chars, mark}, v);
}

const char* KindName(const Value& v)
{
    static constexpr const char* NAMES[] = {"bool", "int", "uint", "string", "bytes"};
    return NAMES[v.index()];
}

//! The first byte index at which two byte values differ (or the shorter length).
std::optional<size_t> FirstByteDifference(const Value& a, const Value& b)
{
    const auto* x{std::get_if<Bytes>(&a)};
    const auto* y{std::get_if<Bytes>(&b)};
    if (!x || !y) return std::nullopt;
    const auto [ix, iy]{std::mismatch(x->begin(), x->end(), y->begin(), y->end())};
    return static_cast<size_t>(ix - x->begin());
}

void PrintHeader(const char* what, const Description& input)
{
    const InputState& s{State()};
    std::fprintf(stderr, "\n==== equifuzz %s ====\n", what);
    std::fprintf(stderr, "target : %s\n", s.target);
    std::fprintf(stderr, "input  : %s, %zu bytes: %s\n", s.origin.c_str(), s.size,
                 RenderBytes(Bytes(s.data, s.data + s.size), 128, std::nullopt).c_str());
    std::fprintf(stderr, "decoded input:\n");
    for (const Field& f : input.Fields()) {
        std::fprintf(stderr, "  %-18s %s\n", f.name.c_str(), RenderValue(f.value, 96, std::nullopt).c_str());
    }
}

//! An outcome or a decoded input as a report's one line: its first fields, abbreviated.
std::string FieldsLine(const Outcome& fields)
{
    std::string out;
    for (const Field& f : fields.Fields()) {
        if (out.size() > 200) {
            out += ", …";
            break;
        }
        out += (out.empty() ? "" : ", ") + f.name + " " + RenderValue(f.value, 64, std::nullopt);
    }
    return out;
}

//! "<side> shows <fields>; input: …" for a property one side's results (or the models') break.
std::string ViolationDetail(std::string_view side, const Outcome& seen, const Description& input)
{
    std::string out{(side.empty() ? std::string{"the models show: "} : std::string{side} + " shows: ") + FieldsLine(seen)};
    if (const std::string in{FieldsLine(input)}; !in.empty()) out += "; input: " + in;
    return out;
}

//! "<field>: <side> <value>; <side> <value>; input: …" for a field two sides' outcomes differ in.
std::string FieldDetail(size_t i, std::string_view a_name, const Outcome& a, std::string_view b_name, const Outcome& b,
                        const Description& input)
{
    const auto value{[i](const Outcome& o) { return i < o.Fields().size() ? RenderValue(o.Fields()[i].value, 80, std::nullopt) : std::string{"(missing)"}; }};
    const std::string& name{i < a.Fields().size() ? a.Fields()[i].name : b.Fields()[i].name};
    std::string out{name + ": " + std::string{a_name} + " " + value(a) + "; " + std::string{b_name} + " " + value(b)};
    if (const std::string in{FieldsLine(input)}; !in.empty()) out += "; input: " + in;
    return out;
}

//! A side's name as it appears in a signature: no spaces, so the signature stays one token.
std::string SideTag(std::string_view name)
{
    std::string tag{name};
    std::replace(tag.begin(), tag.end(), ' ', '_');
    return tag;
}

std::optional<size_t> PrintOutcomeTable(std::span<const std::string_view> names, std::span<const Outcome> outcomes, size_t bad_field, size_t bad)
{
    const Outcome& first{outcomes.front()};
    const Outcome& other{outcomes[bad]};
    std::fprintf(stderr, "outcomes (first difference marked >>):\n");
    std::fprintf(stderr, "   %-18s", "field");
    for (const std::string_view n : names) std::fprintf(stderr, " %-50.*s", int(n.size()), n.data());
    std::fprintf(stderr, "\n");
    size_t rows{0};
    for (const Outcome& o : outcomes) rows = std::max(rows, o.Fields().size());
    std::optional<size_t> mark;
    for (size_t i = 0; i < rows; ++i) {
        std::optional<size_t> row_mark;
        if (i == bad_field && i < first.Fields().size() && i < other.Fields().size()) {
            row_mark = FirstByteDifference(first.Fields()[i].value, other.Fields()[i].value);
            mark = row_mark;
        }
        const Outcome* labels{&first};
        for (const Outcome& o : outcomes) {
            if (i < o.Fields().size()) {
                labels = &o;
                break;
            }
        }
        const std::string& row_name{labels->Fields()[i].name};
        std::fprintf(stderr, "%s %-18s", i == bad_field ? ">>" : "  ", row_name.c_str());
        for (const Outcome& o : outcomes) {
            const auto& f{o.Fields()};
            std::string cell{"(missing)"};
            if (i < f.size()) cell = (f[i].name == row_name ? "" : f[i].name + "=") + RenderValue(f[i].value, 44, row_mark);
            std::fprintf(stderr, " %-50s", cell.c_str());
        }
        std::fprintf(stderr, "\n");
    }
    return mark;
}

std::string PrintFirstDifference(std::string_view first_name, const Outcome& first, std::string_view other_name, const Outcome& other,
                                 size_t bad_field, std::optional<size_t> mark)
{
    const auto& fa{first.Fields()};
    const auto& fb{other.Fields()};
    const size_t i{bad_field};
    std::string field_name;
    if (i >= fa.size() || i >= fb.size()) {
        field_name = i < fa.size() ? fa[i].name : fb[i].name;
        std::fprintf(stderr, "first difference: field '%s' is present in only one of %.*s and %.*s\n", field_name.c_str(),
                     int(first_name.size()), first_name.data(), int(other_name.size()), other_name.data());
    } else if (fa[i].name != fb[i].name) {
        field_name = fa[i].name;
        std::fprintf(stderr, "first difference: field %zu is '%s' in %.*s but '%s' in %.*s\n", i, fa[i].name.c_str(),
                     int(first_name.size()), first_name.data(), fb[i].name.c_str(), int(other_name.size()), other_name.data());
    } else {
        field_name = fa[i].name;
        std::fprintf(stderr, "first difference: field '%s'", field_name.c_str());
        if (mark) {
            const auto& x{std::get<Bytes>(fa[i].value)};
            const auto& y{std::get<Bytes>(fb[i].value)};
            const auto byte_of = [&](const Bytes& b) { return *mark < b.size() ? Hex(std::span{&b[*mark], 1}) : std::string{"end"}; };
            std::fprintf(stderr, ", byte %zu: %.*s=%s %.*s=%s", *mark, int(first_name.size()), first_name.data(),
                         byte_of(x).c_str(), int(other_name.size()), other_name.data(), byte_of(y).c_str());
        } else if (fa[i].value.index() != fb[i].value.index()) {
            std::fprintf(stderr, " (a %s versus a %s)", KindName(fa[i].value), KindName(fb[i].value));
        }
        std::fprintf(stderr, "\n");
        // Print the two differing values in full width, one per line: table cells are shortened.
        std::fprintf(stderr, "  %-10.*s %s\n", int(first_name.size()), first_name.data(), RenderValue(fa[i].value, 160, mark).c_str());
        std::fprintf(stderr, "  %-10.*s %s\n", int(other_name.size()), other_name.data(), RenderValue(fb[i].value, 160, mark).c_str());
    }
    return field_name;
}

} // namespace internal
using namespace internal;

std::string Hex(std::span<const uint8_t> bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const uint8_t b : bytes) {
        out += HEX_DIGITS[b >> 4];
        out += HEX_DIGITS[b & 15];
    }
    return out;
}

std::string Hex(std::span<const std::byte> bytes)
{
    return Hex(std::span{reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

std::string Render(const Value& value, size_t max_chars, std::optional<size_t> mark)
{
    return RenderValue(value, max_chars, mark);
}

} // namespace equifuzz
