// What the harness's files share and nothing else sees (harness.h is the pairs' interface):
// the current input's state and findings (harness.cpp), the environment's settings
// (settings.cpp), how values and reports are rendered (render.cpp), and how findings are
// written for the tools (record.cpp).
#ifndef EQUIFUZZ_HARNESS_INTERNAL_H
#define EQUIFUZZ_HARNESS_INTERNAL_H

#include <equifuzz/harness.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace equifuzz::internal {

inline constexpr char HEX_DIGITS[] = "0123456789abcdef";

//! One failed check of the current input (harness.h: the input goes on after it).
struct Finding {
    std::string signature; //!< without the target: "<field>:<side>|<side>", "<property>:<side>"
    //! "mismatch", "violation", "allowed" (a difference EQUIFUZZ_ALLOW names), "internal" (only
    //! FieldClass::INTERNAL fields differ) or "outside-contract" (the input broke a caller contract)
    const char* kind;
    FieldClass cls;
    std::string roles; //!< which sides differed, by role (the `finding:` line, below)
    std::string name;  //!< the field or the property
    //! What a report shows of it: the differing field with each side's value, or the side's
    //! results a property saw, and the decoded input; abbreviated, one line. Filled only when
    //! the finding is printed (the first input of its signature).
    std::string detail{};
};

struct InputState {
    const char* target{"(unknown target)"};
    const uint8_t* data{nullptr};
    size_t size{0};
    std::string origin{"fuzzer input"};
    std::vector<Finding> findings;
    std::string outside_contract;  //!< why the input is outside the caller contract (OutsideContract)
};

//! The input running now (harness.cpp).
InputState& State();

// settings.cpp: what the environment asks of the harness, read once.
//! EQUIFUZZ_ALLOW's names and patterns.
const std::set<std::string, std::less<>>& Allowed();
//! Whether the environment variable `name` is set to "1".
bool EnvFlag(const char* name);
//! EQUIFUZZ_STRICT=1.
bool Strict();
//! EQUIFUZZ_FINDINGS_DIR ("" when the run aborts on a finding).
const std::string& FindingsDir();
//! EQUIFUZZ_ONLY_SIGNATURE ("" for any).
const std::string& OnlySignature();

// render.cpp: values and reports as people read them.
std::string RenderValue(const Value& v, size_t max_chars, std::optional<size_t> mark);
const char* KindName(const Value& v);
std::optional<size_t> FirstByteDifference(const Value& a, const Value& b);
void PrintHeader(const char* what, const Description& input);
std::string FieldsLine(const Outcome& fields);
std::string ViolationDetail(std::string_view side, const Outcome& seen, const Description& input);
std::string FieldDetail(size_t i, std::string_view a_name, const Outcome& a, std::string_view b_name, const Outcome& b,
                        const Description& input);
std::string SideTag(std::string_view name);
//! A mismatch's outcomes as a table, one column per side, the first difference (field `bad_field`,
//! between the first side and side `bad`) marked; returns the byte it marks in that field, if any.
std::optional<size_t> PrintOutcomeTable(std::span<const std::string_view> names, std::span<const Outcome> outcomes, size_t bad_field, size_t bad);
//! The "first difference" lines of a mismatch, the two values in full; returns the field's name.
std::string PrintFirstDifference(std::string_view first_name, const Outcome& first, std::string_view other_name, const Outcome& other,
                                 size_t bad_field, std::optional<size_t> mark);

// record.cpp: findings as the tools read them.
void PrintFinding(FILE* out, const char* target, const Finding& f, size_t index, bool stop);
//! Whether an earlier input of this process recorded `signature` (EQUIFUZZ_FINDINGS_DIR).
bool RecordedBefore(const std::string& signature);
//! Records the current input's findings and clears them.
void RecordFindings();

} // namespace equifuzz::internal

#endif // EQUIFUZZ_HARNESS_INTERNAL_H
