// Script pair: evaluations that stress large elements (spec 2, "Resources"): hashing an element,
// and copying it until the stack holds 1000 items (MAX_STACK_SIZE). Each scenario is one
// tapscript witness-script evaluation (tapscript has no 201-opcode or 10,000-byte script limit, so
// the stack limit is what binds), with the element as an initial witness item: `element` bytes on
// Variant G and Variant T, at most 520 on the 520 side. Used by the ASan unit test
// (tests/unit/script_tests.cpp) and the peak-memory program (bench/script_quality.cpp).
#pragma once

#include "side.h"

#include <string>
#include <vector>

namespace equifuzz::script {

struct StressScenario {
    std::string name;    //!< e.g. "DUP x999"
    std::string summary; //!< what it does, for tables
    EvalInput input;
};

//! The scenarios at one element size (1..8000 bytes).
std::vector<StressScenario> StressScenarios(size_t element);

} // namespace equifuzz::script
