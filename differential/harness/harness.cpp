// The comparisons and their findings: which sides differ and in what (a field, a property), how a
// finding is classed (counted, allowed, internal, outside the contract), the reports printed, and
// what an input's end does with its findings. The report's layout is documented in README.md
// ("Reading a mismatch report"); rendering is render.cpp's, the tools' lines record.cpp's, the
// environment's settings settings.cpp's.
#include "internal.h"
#include <equifuzz/choices.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fnmatch.h>
#include <map>
#include <optional>
#include <set>
#include <unistd.h>
#include <utility>

namespace equifuzz {
namespace internal {
InputState& State()
{
    static InputState state;
    return state;
}
} // namespace internal
using namespace internal;

namespace {

//! At most this many findings are kept per input; a check in a loop that fails on every round
//! adds its signature once.
constexpr size_t MAX_FINDINGS_PER_INPUT{16};

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

//! A mismatch or violation of an input marked OutsideContract (and not EQUIFUZZ_BEYOND_CONTRACT)
//! becomes an "outside-contract" note with a signature of its own, so that it never stands for
//! the same difference on an input within the contract.
Finding Tiered(Finding f)
{
    const std::string_view kind{f.kind};
    if (!State().outside_contract.empty() && !BeyondContract() && (kind == "mismatch" || kind == "violation")) {
        f.kind = "outside-contract";
        f.signature = "outside-contract:" + f.signature;
    }
    return f;
}

//! Records a finding of the current input, once per signature; false when the input already has
//! it (a check in a loop) or has as many as it keeps. `finding` has been through Tiered.
bool Record(Finding finding)
{
    auto& findings{State().findings};
    if (findings.size() >= MAX_FINDINGS_PER_INPUT) return false;
    for (const Finding& f : findings) {
        if (f.signature == finding.signature) return false;
    }
    findings.push_back(std::move(finding));
    return true;
}

//! Whether to print the report of a finding Record just saw: once per input, and when fuzzing
//! goes on after findings, only the first time this process meets its signature.
bool ShouldPrint(const std::string& signature, bool new_for_input)
{
    return new_for_input && (FindingsDir().empty() || !RecordedBefore(signature));
}

//! The end of a printed report: its signature (a mismatch's or a violated property's, marked
//! equifuzz-mismatch both) and the command that reproduces it.
//! When the input is outside the caller contract, says so under its report.
void PrintContract()
{
    if (State().outside_contract.empty()) return;
    std::fprintf(stderr, "contract: this input is outside the caller contract of the code under test (%s): %s\n",
                 State().outside_contract.c_str(), BeyondContract() ? "counted (EQUIFUZZ_BEYOND_CONTRACT=1)" : "listed, not counted");
}

void PrintSignature(const std::string& signature)
{
    std::fprintf(stderr, "signature: equifuzz-mismatch %s:%s\n", State().target, signature.c_str());
    const bool from_file{State().origin != "fuzzer input" && State().origin != "standard input"};
    std::fprintf(stderr, "reproduce: %s\n", ReproduceCommand(from_file ? State().origin : "<the input file the fuzzer saved>").c_str());
    std::fflush(stderr);
}

//! A difference that matters if any field outside EQUIFUZZ_ALLOW differs. An allowed name with
//! '*' or '?' is a shell pattern ("step * key *").
bool IsAllowed(std::string_view name)
{
    if (Allowed().contains(name)) return true;
    for (const std::string& pattern : Allowed()) {
        if (pattern.find_first_of("*?[") != std::string::npos && fnmatch(pattern.c_str(), std::string{name}.c_str(), 0) == 0) return true;
    }
    return false;
}

//! Whether the comparison looks past internal fields to the promises: unless EQUIFUZZ_STRICT, or
//! with it when EQUIFUZZ_ALLOW names "internal" (--strict for every pair but this one).
bool LookPastInternal()
{
    return !Strict() || Allowed().contains("internal");
}

//! A field the comparison looks past to the promises: internal on either side.
bool IsInternal(const Field& a, const Field& b)
{
    return LookPastInternal() && (a.cls == FieldClass::INTERNAL || b.cls == FieldClass::INTERNAL);
}

//! Whether a finding of this kind is one a run aborts on (or a verdict counts).
bool Counts(std::string_view kind) { return kind == "mismatch" || kind == "violation"; }

//! The sides of a mismatch by role: "core-differ" when Core's two sides differ from each other,
//! "<core role>-vs-model" when a Core side differs from one of our models, "models" when only
//! our models are compared. Sides are grouped by their outcomes outside the allowed fields, and
//! outside the internal ones unless `internal` (the roles of a difference only internals show).
std::string MismatchRoles(std::span<const Label> sides, std::span<const Outcome> outcomes, bool internal = false)
{
    const auto same = [&](size_t a, size_t b) {
        const auto& fa{outcomes[a].Fields()};
        const auto& fb{outcomes[b].Fields()};
        for (size_t i = 0; i < std::max(fa.size(), fb.size()); ++i) {
            if (i >= fa.size() || i >= fb.size() || fa[i].name != fb[i].name) {
                // Fields present on one side only (a step one side interrupted reports more):
                // the same when both are internal there.
                const bool either_internal{(i < fa.size() && fa[i].cls == FieldClass::INTERNAL) || (i < fb.size() && fb[i].cls == FieldClass::INTERNAL)};
                return !internal && LookPastInternal() && either_internal;
            }
            if (fa[i].value == fb[i].value || IsAllowed(fa[i].name)) continue;
            if (!internal && IsInternal(fa[i], fb[i])) continue;
            return false;
        }
        return true;
    };
    std::optional<size_t> co, cp;
    for (size_t i = 0; i < sides.size(); ++i) {
        if (sides[i].party == Party::CORE_ORIGINAL && !co) co = i;
        if (sides[i].party == Party::CORE_OPTIMIZED && !cp) cp = i;
    }
    std::vector<std::string> flags;
    if (co && cp && !same(*co, *cp)) flags.emplace_back("core-differ");
    for (const std::optional<size_t> core : {co, cp}) {
        if (!core) continue;
        for (size_t i = 0; i < sides.size(); ++i) {
            if (sides[i].party == Party::MODEL && !same(*core, i)) {
                flags.emplace_back(std::string{PartyName(sides[*core].party)} + "-vs-model");
                break;
            }
        }
    }
    if (!co && !cp) flags.emplace_back("models");
    std::string out;
    for (const std::string& f : flags) out += (out.empty() ? "" : ",") + f;
    return out;
}

} // namespace

Outcome& Outcome::Add(std::string name, Value value)
{
    const FieldClass cls{DefaultFieldClass(name)};
    m_fields.push_back({std::move(name), std::move(value), cls});
    return *this;
}

Outcome& Outcome::Add(std::string name, std::span<const std::byte> bytes)
{
    const auto* p{reinterpret_cast<const uint8_t*>(bytes.data())};
    return Add(std::move(name), Bytes(p, p + bytes.size()));
}

Outcome& Outcome::As(FieldClass cls)
{
    if (!m_fields.empty()) m_fields.back().cls = cls;
    return *this;
}

const char* FieldClassName(FieldClass c)
{
    switch (c) {
    case FieldClass::VERDICT: return "verdict";
    case FieldClass::DATA: return "data";
    case FieldClass::DIAGNOSTIC: return "diagnostic";
    case FieldClass::INTERNAL: return "internal";
    }
    return "data";
}

FieldClass DefaultFieldClass(std::string_view name)
{
    for (const std::string_view v : {"ok", "accepted", "valid", "verdict"}) {
        if (name == v) return FieldClass::VERDICT;
    }
    for (const std::string_view d : {"error", "reason", "debug", "terminate_error", "core_outcome"}) {
        if (name == d) return FieldClass::DIAGNOSTIC;
    }
    return FieldClass::DATA;
}

bool InputHasFindings()
{
    for (const Finding& f : State().findings) {
        if (Counts(f.kind)) return true;
    }
    return false;
}

void OutsideContract(std::string_view why)
{
    InputState& s{State()};
    if (!s.outside_contract.empty()) return;
    s.outside_contract = why.empty() ? std::string{"(no reason given)"} : std::string{why};
    // EQUIFUZZ_LOG_CONTRACT=1: one line per such input, to count them over a corpus.
    static const bool log{EnvFlag("EQUIFUZZ_LOG_CONTRACT")};
    if (log) std::fprintf(stderr, "equifuzz: outside the contract: %s: %s\n", s.target, s.outside_contract.c_str());
    // A check that ran before the mark: its findings become notes now.
    for (Finding& f : s.findings) f = Tiered(std::move(f));
}

bool IsOutsideContract() { return !State().outside_contract.empty(); }

bool BeyondContract()
{
    static const bool beyond{EnvFlag("EQUIFUZZ_BEYOND_CONTRACT")};
    return beyond;
}

Label SideName(const char* label, Role role, const char* what)
{
    static std::map<std::pair<const char*, const char*>, std::string> names;
    auto [it, added]{names.try_emplace({label, what})};
    if (added) it->second = std::string{label} + " " + what;
    return {it->second, PartyOf(role)};
}

const char* PartyName(Party party)
{
    switch (party) {
    case Party::MODEL: return "model";
    case Party::CORE_ORIGINAL: return "core-original";
    case Party::CORE_OPTIMIZED: return "core-optimized";
    }
    return "model";
}

void KeepAlive(std::span<const std::byte> bytes)
{
    [[maybe_unused]] static volatile std::byte sink;
    for (const std::byte b : bytes) sink = b;
}

namespace detail {

void ReportMismatch(const DescribeFn& describe, std::span<const SideResult> sides)
{
    std::vector<Label> labels;
    std::vector<Outcome> outcomes;
    for (const SideResult& s : sides) {
        labels.push_back(s.label);
        outcomes.push_back(s.ToOutcome());
    }
    ReportMismatch(describe, labels, outcomes);
}

namespace {

//! Where the sides' outcomes first differ, past the fields EQUIFUZZ_ALLOW names and the internal
//! ones: the first counted difference, and the first allowed and the first internal field that
//! differ (notes), each with the side that differs from the first side.
struct Differences {
    std::optional<size_t> bad_field, allowed_field, internal_field;
    size_t bad{0}, allowed_side{0}, internal_side{0};
};

Differences FindDifferences(std::span<const Outcome> outcomes)
{
    // Past the first field present on one side only, the rest is not aligned: it counts as a
    // difference unless that field is internal (a step one side interrupted reports more
    // internals), in which case the comparison stops there.
    Differences d;
    const Outcome& first{outcomes.front()};
    for (size_t k = 0; k < outcomes.size(); ++k) {
        const auto& fa{first.Fields()};
        const auto& fb{outcomes[k].Fields()};
        for (size_t i = 0; i < std::max(fa.size(), fb.size()); ++i) {
            const bool aligned{i < fa.size() && i < fb.size() && fa[i].name == fb[i].name};
            if (aligned && fa[i].value == fb[i].value) continue;
            const bool allowed{aligned && IsAllowed(fa[i].name)};
            const bool internal{!allowed && (aligned ? IsInternal(fa[i], fb[i])
                                                     : LookPastInternal() && ((i < fa.size() && fa[i].cls == FieldClass::INTERNAL) ||
                                                                     (i < fb.size() && fb[i].cls == FieldClass::INTERNAL)))};
            std::optional<size_t>& slot{allowed ? d.allowed_field : internal ? d.internal_field : d.bad_field};
            if (!slot || i < *slot) {
                slot = i;
                (allowed ? d.allowed_side : internal ? d.internal_side : d.bad) = k;
            }
            if (!aligned) break;
        }
    }
    return d;
}

//! Only allowed or internal fields differ: notes, and the input goes on.
void ReportNotes(const DescribeFn& describe, std::span<const Label> sides, std::span<const std::string_view> names,
                 std::span<const Outcome> outcomes, const Differences& d)
{
    const Outcome& first{outcomes.front()};
    const std::string_view first_name{names.front()};
    if (d.allowed_field) {
        const std::string signature{"allowed:" + first.Fields()[*d.allowed_field].name + ":" + SideTag(first_name) + "|" + SideTag(names[d.allowed_side])};
        const bool added{Record({signature, "allowed", first.Fields()[*d.allowed_field].cls, MismatchRoles(sides, outcomes), first.Fields()[*d.allowed_field].name})};
        if (ShouldPrint(signature, added)) {
            State().findings.back().detail = FieldDetail(*d.allowed_field, first_name, first, names[d.allowed_side], outcomes[d.allowed_side], describe());
            std::fprintf(stderr, "equifuzz: allowed difference (EQUIFUZZ_ALLOW) in %s: field '%s' differs between %.*s and %.*s\n", State().target,
                         first.Fields()[*d.allowed_field].name.c_str(), int(first_name.size()), first_name.data(),
                         int(names[d.allowed_side].size()), names[d.allowed_side].data());
        }
    }
    if (d.internal_field) {
        const auto& fo{outcomes[d.internal_side].Fields()};
        const Field& f{*d.internal_field < first.Fields().size() ? first.Fields()[*d.internal_field] : fo[*d.internal_field]};
        const std::string signature{"internal:" + f.name + ":" + SideTag(first_name) + "|" + SideTag(names[d.internal_side])};
        const bool added{Record({signature, "internal", FieldClass::INTERNAL, MismatchRoles(sides, outcomes, /*internal=*/true), f.name})};
        if (ShouldPrint(signature, added)) {
            State().findings.back().detail = FieldDetail(*d.internal_field, first_name, first, names[d.internal_side], outcomes[d.internal_side], describe());
            std::fprintf(stderr, "equifuzz: internal state differs in %s: field '%s' differs between %.*s and %.*s (not a promise; "
                                 "EQUIFUZZ_STRICT=1 counts it)\n",
                         State().target, f.name.c_str(), int(first_name.size()), first_name.data(),
                         int(names[d.internal_side].size()), names[d.internal_side].data());
        }
    }
}

//! The typed results differ in something their Outcomes do not show: a ToOutcome() that leaves
//! out a compared member. Said so, rather than two equal columns printed.
void ReportUnreported(const DescribeFn& describe, std::span<const Label> sides, std::span<const std::string_view> names,
                      std::span<const Outcome> outcomes)
{
    const std::string_view first_name{names.front()};
    const Finding finding{Tiered({"unreported-difference:" + SideTag(first_name) + "|" + SideTag(names.back()), "mismatch",
                                  FieldClass::DATA, MismatchRoles(sides, outcomes), "unreported-difference"})};
    const std::string signature{finding.signature};
    const bool added{Record(finding)};
    if (ShouldPrint(signature, added)) {
        const Description input{describe()};
        State().findings.back().detail = "the sides' results differ in a member their reports leave out; input: " + FieldsLine(input);
        PrintHeader("MISMATCH", input);
        std::fprintf(stderr, "the sides' results differ, but their reports are equal: a ToOutcome() leaves out a compared member\n");
        PrintSignature(signature);
    }
}

} // namespace

void ReportMismatch(const DescribeFn& describe, std::span<const Label> sides, std::span<const Outcome> outcomes)
{
    std::vector<std::string_view> names;
    for (const Label& l : sides) names.push_back(l.name);
    const Differences d{FindDifferences(outcomes)};
    if (!d.bad_field && (d.allowed_field || d.internal_field)) return ReportNotes(describe, sides, names, outcomes, d);
    if (!d.bad_field) return ReportUnreported(describe, sides, names, outcomes);
    const size_t i{*d.bad_field};
    const Outcome& first{outcomes.front()};
    const Outcome& other{outcomes[d.bad]};
    const std::string_view first_name{names.front()};
    const std::string_view other_name{names[d.bad]};
    const auto& fa{first.Fields()};
    const auto& fb{other.Fields()};
    // The signature names the field and the two sides, so that differences between other sides
    // de-duplicate apart (script_eval:final_stack:520|G).
    const std::string& field{i < fa.size() ? fa[i].name : fb[i].name};
    const FieldClass cls{i < fa.size() ? fa[i].cls : fb[i].cls};
    const Finding finding{Tiered({field + ":" + SideTag(first_name) + "|" + SideTag(other_name), "mismatch", cls, MismatchRoles(sides, outcomes), field})};
    if (!ShouldPrint(finding.signature, Record(finding))) return;
    const Description input{describe()};
    State().findings.back().detail = FieldDetail(i, first_name, first, other_name, other, input);

    PrintHeader("MISMATCH", input);
    const std::optional<size_t> mark{PrintOutcomeTable(names, outcomes, i, d.bad)};
    const std::string field_name{PrintFirstDifference(first_name, first, other_name, other, i, mark)};
    std::fprintf(stderr, "class: %s (the field's; verdict, data or diagnostic)\n", FieldClassName(cls));
    PrintContract();
    PrintSignature(Tiered({field_name + ":" + SideTag(first_name) + "|" + SideTag(other_name), "mismatch", FieldClass::DATA, "", ""}).signature);
}

namespace {
struct FieldList {
    std::string path;
    std::map<std::string, std::string, std::less<>> names;  //!< field -> its class; property -> "property"
};

FieldList* TheFieldList()
{
    static FieldList* list{[]() -> FieldList* {
        const char* env{std::getenv("EQUIFUZZ_LIST_FIELDS")};
        if (!env || !*env) return nullptr;
        std::atexit([] {
            FieldList& l{*TheFieldList()};
            if (FILE* f{std::fopen(l.path.c_str(), "a")}) {
                for (const auto& [name, what] : l.names) std::fprintf(f, "%s\t%s\n", name.c_str(), what.c_str());
                std::fclose(f);
            }
        });
        return new FieldList{env, {}};
    }()};
    return list;
}
} // namespace

bool ListingFields()
{
    static const bool listing{TheFieldList() != nullptr};
    return listing;
}

void NoteFields(const Outcome& outcome)
{
    for (const Field& f : outcome.Fields()) {
        if (!TheFieldList()->names.contains(f.name)) TheFieldList()->names.emplace(f.name, FieldClassName(f.cls));
    }
}

void NoteProperty(std::string_view property)
{
    if (!TheFieldList()->names.contains(property)) TheFieldList()->names.emplace(property, "property");
}

void ReportViolation(std::string_view property, std::optional<Label> of, const DescribeFn& describe, const Outcome& seen)
{
    const std::string_view side{of ? of->name : std::string_view{}};
    const char* role{of ? PartyName(of->party) : "model"};
    const std::string signature{side.empty() ? std::string{property} : std::string{property} + ":" + std::string{side}};
    if (IsAllowed(property)) {
        const bool added{Record({"allowed:" + signature, "allowed", FieldClass::DATA, role, std::string{property}})};
        if (ShouldPrint("allowed:" + signature, added)) {
            State().findings.back().detail = ViolationDetail(side, seen, describe());
            std::fprintf(stderr, "equifuzz: allowed violation (EQUIFUZZ_ALLOW) in %s: %s\n", State().target, signature.c_str());
        }
        return;
    }
    const Finding finding{Tiered({signature, "violation", FieldClass::DATA, role, std::string{property}})};
    if (!ShouldPrint(finding.signature, Record(finding))) return;
    const Description input{describe()};
    State().findings.back().detail = ViolationDetail(side, seen, input);
    PrintHeader("PROPERTY VIOLATED", input);
    std::fprintf(stderr, "property: %.*s\n", int(signature.size()), signature.data());
    for (const Field& f : seen.Fields()) {
        std::fprintf(stderr, "  %-18s %s\n", f.name.c_str(), RenderValue(f.value, 120, std::nullopt).c_str());
    }
    PrintContract();
    PrintSignature(finding.signature);
}

} // namespace detail

namespace detail {
void BeginInput(const char* target, const uint8_t* data, size_t size)
{
    InputState& s{State()};
    s.target = target;
    s.data = data;
    s.size = size;
    s.findings.clear();
    s.outside_contract.clear();
    // Where the input's bytes are, for the choices' trace (choices.h) to say which of them it read.
    if (TraceChoices()) std::fprintf(stderr, "equifuzz-input\t%#zx\t%zu\n", reinterpret_cast<uintptr_t>(data), size);
}

void EndInput()
{
    InputState& s{State()};
    if (s.findings.empty()) return;
    bool matters{false};
    for (const Finding& f : s.findings) {
        if (OnlySignature().empty()) {
            matters |= Counts(f.kind);
        } else {
            matters |= OnlySignature() == std::string{s.target} + ":" + f.signature;
        }
    }
    if (FindingsDir().empty()) {
        // The input's findings for the tools: all of them when the run stops on it, else those
        // whose report was printed (the notes: allowed, internal, outside the contract).
        for (size_t i = 0; i < s.findings.size(); ++i) {
            if (matters || !s.findings[i].detail.empty()) PrintFinding(stderr, s.target, s.findings[i], i, matters);
        }
        std::fflush(stderr);
        if (matters) std::abort();
        s.findings.clear();
        return;
    }
    RecordFindings();
}
void SetInputOrigin(std::string origin) { State().origin = std::move(origin); }
const char* CurrentTarget() { return State().target; }
std::vector<std::string> InputFindings()
{
    std::vector<std::string> out;
    for (const Finding& f : State().findings) out.push_back(std::string{f.kind} + " " + f.signature + " roles=" + f.roles);
    return out;
}
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

// ThreadSanitizer's suppressions for every binary built with it (the tsan preset; TSAN_OPTIONS'
// suppressions= adds to them). The preset builds with libc++, whose atomic wait the race
// detector sees through (libstdc++ 12 routes every atomic_flag wait and notify through one shared
// counter whose sequentially consistent updates order them, so a relaxed store before a notify
// looks synchronized). libc++'s shared library itself is not instrumented: a future's shared
// state is freed by a reference count the detector does not see, so the last owner's delete
// (a worker's promise, the main thread's future) looks like a race with the other's last use of
// it. Only frames of libc++'s promise and future code are suppressed; a race in what they guard
// (the coin a worker fetched, the queue) has no such frame.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EQUIFUZZ_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(EQUIFUZZ_TSAN)
// The first race ends the run, as the other sanitizers' first report does (-fno-sanitize-recover):
// libFuzzer then writes the input that was running.
extern "C" __attribute__((used, visibility("default"))) const char* __tsan_default_options()
{
    return "halt_on_error=1";
}
extern "C" __attribute__((used, visibility("default"))) const char* __tsan_default_suppressions()
{
    return "race:std::__1::promise\n"
           "race:std::__1::future\n"
           "race:std::__1::__assoc_sub_state\n";
}
#endif
