// The mismatch report. Its layout is documented in README.md ("Reading a mismatch report").
#include <equifuzz/harness.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <map>
#include <utility>
#include <optional>

namespace equifuzz {
namespace {

struct InputState {
    const char* target{"(unknown target)"};
    const uint8_t* data{nullptr};
    size_t size{0};
    std::string origin{"fuzzer input"};
};

InputState& State()
{
    static InputState state;
    return state;
}

constexpr char HEX_DIGITS[] = "0123456789abcdef";

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

//! A side's name as it appears in a signature: no spaces, so the signature stays one token.
std::string SideTag(std::string_view name)
{
    std::string tag{name};
    std::replace(tag.begin(), tag.end(), ' ', '_');
    return tag;
}

//! The tool's command that runs this input through this very binary: its build directory when
//! that is not the default replay build, and --mutant when the binary is a variant
//! (fuzz_targets/<target>__<variant>).
std::string ReproduceCommand(const std::string& input)
{
    std::string build_dir, variant;
    char exe[4096];
    const ssize_t n{readlink("/proc/self/exe", exe, sizeof(exe) - 1)};
    if (n > 0) {
        const std::string path(exe, static_cast<size_t>(n));
        const size_t slash{path.rfind('/')};
        const std::string name{path.substr(slash + 1)};
        const std::string prefix{std::string{State().target} + "__"};
        if (name.rfind(prefix, 0) == 0) variant = name.substr(prefix.size());
        const std::string dir{path.substr(0, slash)};
        if (dir.size() > 13 && dir.compare(dir.size() - 13, 13, "/fuzz_targets") == 0) build_dir = dir.substr(0, dir.size() - 13);
    }
    std::string cmd{"./equifuzz "};
    if (!build_dir.empty() && build_dir != EQUIFUZZ_DEFAULT_BUILD_DIR) cmd += "--build-dir " + build_dir + " ";
    cmd += "reproduce " + std::string{State().target} + " " + input;
    if (!variant.empty()) cmd += " --mutant " + variant;
    return cmd;
}

[[noreturn]] void Finish(const std::string& signature)
{
    std::fprintf(stderr, "signature: equifuzz-mismatch %s:%s\n", State().target, signature.c_str());
    const bool from_file{State().origin != "fuzzer input" && State().origin != "standard input"};
    std::fprintf(stderr, "reproduce: %s\n", ReproduceCommand(from_file ? State().origin : "<the input file the fuzzer saved>").c_str());
    std::fflush(stderr);
    std::abort();
}

} // namespace

Outcome& Outcome::Add(std::string name, Value value)
{
    m_fields.push_back({std::move(name), std::move(value)});
    return *this;
}

Outcome& Outcome::Add(std::string name, std::span<const std::byte> bytes)
{
    const auto* p{reinterpret_cast<const uint8_t*>(bytes.data())};
    return Add(std::move(name), Bytes(p, p + bytes.size()));
}

std::string_view SideName(const char* label, const char* what)
{
    static std::map<std::pair<const char*, const char*>, std::string> names;
    auto [it, added]{names.try_emplace({label, what})};
    if (added) it->second = std::string{label} + " " + what;
    return it->second;
}

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

void KeepAlive(std::span<const std::byte> bytes)
{
    [[maybe_unused]] static volatile std::byte sink;
    for (const std::byte b : bytes) sink = b;
}

namespace detail {

void ReportMismatch(const DescribeFn& describe, std::span<const SideResult> sides)
{
    std::vector<std::string_view> names;
    std::vector<Outcome> outcomes;
    for (const SideResult& s : sides) {
        names.push_back(s.name);
        outcomes.push_back(s.ToOutcome());
    }
    ReportMismatch(describe, names, outcomes);
}

void ReportMismatch(const DescribeFn& describe, std::span<const std::string_view> names, std::span<const Outcome> outcomes)
{
    const Outcome& first{outcomes.front()};
    const std::string_view first_name{names.front()};
    // Find the first field (in the first side's order) where any side differs.
    std::optional<size_t> bad_field;
    size_t bad{0};
    for (size_t k = 0; k < outcomes.size(); ++k) {
        const auto& fa{first.Fields()};
        const auto& fb{outcomes[k].Fields()};
        for (size_t i = 0; i < std::max(fa.size(), fb.size()); ++i) {
            const bool same{i < fa.size() && i < fb.size() && fa[i].name == fb[i].name && fa[i].value == fb[i].value};
            if (!same && (!bad_field || i < *bad_field)) {
                bad_field = i;
                bad = k;
            }
        }
    }
    if (!bad_field) {
        // The typed results differ in something their Outcomes do not show: a ToOutcome() that
        // leaves out a compared member. Say so rather than print two equal columns.
        PrintHeader("MISMATCH", describe());
        std::fprintf(stderr, "the sides' results differ, but their reports are equal: a ToOutcome() leaves out a compared member\n");
        Finish("unreported-difference:" + SideTag(first_name) + "|" + SideTag(names.back()));
    }
    const Outcome& other{outcomes[bad]};
    const std::string_view other_name{names[bad]};

    PrintHeader("MISMATCH", describe());
    std::fprintf(stderr, "outcomes (first difference marked >>):\n");
    std::fprintf(stderr, "   %-18s", "field");
    for (const std::string_view n : names) std::fprintf(stderr, " %-50.*s", int(n.size()), n.data());
    std::fprintf(stderr, "\n");
    size_t rows{0};
    for (const Outcome& o : outcomes) rows = std::max(rows, o.Fields().size());
    std::optional<size_t> mark;
    for (size_t i = 0; i < rows; ++i) {
        std::optional<size_t> row_mark;
        if (i == *bad_field && i < first.Fields().size() && i < other.Fields().size()) {
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
        std::fprintf(stderr, "%s %-18s", i == *bad_field ? ">>" : "  ", row_name.c_str());
        for (const Outcome& o : outcomes) {
            const auto& f{o.Fields()};
            std::string cell{"(missing)"};
            if (i < f.size()) cell = (f[i].name == row_name ? "" : f[i].name + "=") + RenderValue(f[i].value, 44, row_mark);
            std::fprintf(stderr, " %-50s", cell.c_str());
        }
        std::fprintf(stderr, "\n");
    }

    const auto& fa{first.Fields()};
    const auto& fb{other.Fields()};
    const size_t i{*bad_field};
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
    // The signature names the field and the two sides, so that differences between other sides
    // de-duplicate apart (script_eval:final_stack:520|G).
    Finish(field_name + ":" + SideTag(first_name) + "|" + SideTag(other_name));
}

void ReportViolation(std::string_view property, const DescribeFn& describe, const Outcome& seen)
{
    PrintHeader("PROPERTY VIOLATED", describe());
    std::fprintf(stderr, "property: %.*s\n", int(property.size()), property.data());
    for (const Field& f : seen.Fields()) {
        std::fprintf(stderr, "  %-18s %s\n", f.name.c_str(), RenderValue(f.value, 120, std::nullopt).c_str());
    }
    Finish(std::string{property});
}

} // namespace detail

namespace detail {
void BeginInput(const char* target, const uint8_t* data, size_t size)
{
    InputState& s{State()};
    s.target = target;
    s.data = data;
    s.size = size;
}
void SetInputOrigin(std::string origin) { State().origin = std::move(origin); }
const char* CurrentTarget() { return State().target; }
} // namespace detail

} // namespace equifuzz

// AddressSanitizer's defaults for every binary built here; ASAN_OPTIONS in the environment still
// wins, key by key. max_uar_stack_size_log=16: detect_stack_use_after_return (on by default in
// clang 15 and later) gives each thread a fake stack, and after every throw ASan sweeps all of it
// before the next call; at the default 2^20 bytes per frame size class that sweep dominates a
// target whose inputs make Core's deserializers throw on almost every execution (measured in
// bench/results/2026-11-24-throughput.md).
// At 2^16 (the smallest ASan allows) the sweep is 16 times shorter; a frame that finds no fake
// slot left (over 1,024 nested 64-byte frames, or 4 of 16 KiB) lives on the real stack and only
// its use-after-return goes unseen.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EQUIFUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(EQUIFUZZ_ASAN)
extern "C" __attribute__((used, visibility("default"))) const char* __asan_default_options()
{
    return "max_uar_stack_size_log=16";
}
#endif
