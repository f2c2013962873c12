// Original side: the interpreter at Bitcoin Core's limit, 520 bytes for every push and every
// initial witness item, in every sigversion (spec 2a).
#include <script/interpreter.inc>
#include <script/side.h>

namespace equifuzz::script {
namespace {

constexpr Config CONFIG_520{"520 everywhere", MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_ELEMENT_SIZE, false};

VerifyResult Verify(const SpendInput& in, const Checker& checker) { return interp::VerifyScript(CONFIG_520, in, checker); }
EvalResult Evaluate(const EvalInput& in, const Checker& checker) { return interp::Eval(CONFIG_520, in, checker); }

const Side ORIGINAL{"520", CONFIG_520, Verify, Evaluate, nullptr};

} // namespace
} // namespace equifuzz::script

EQUIFUZZ_EXPORT_SIDE(equifuzz::script, equifuzz::script::ORIGINAL)
