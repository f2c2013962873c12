// Optimized sides: the same interpreter with the limit raised (spec 2b).
//   Variant G: 8000 bytes for every push and every initial witness item, every sigversion.
//   Variant T: the BIP-360 text: tapscript initial witness items up to 8000 bytes, pushes stay at
//              520, and an executed OP_DUP of an item over 520 bytes fails (tapscript only) with
//              DUP_ELEMENT_SIZE. Legacy and witness v0 keep 520 everywhere.
// Both live in this file so one mutant patch reaches both (the optimized role).
#include <script/interpreter.inc>
#include <script/side.h>

namespace equifuzz::script {
namespace {

constexpr Config CONFIG_G{"G: 8000 everywhere", LARGE_ELEMENT_SIZE, LARGE_ELEMENT_SIZE, LARGE_ELEMENT_SIZE, false};
constexpr Config CONFIG_T{"T: BIP-360 tapscript", MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_ELEMENT_SIZE, LARGE_ELEMENT_SIZE, true};

VerifyResult VerifyG(const SpendInput& in, const Checker& checker) { return interp::VerifyScript(CONFIG_G, in, checker); }
EvalResult EvaluateG(const EvalInput& in, const Checker& checker) { return interp::Eval(CONFIG_G, in, checker); }
VerifyResult VerifyT(const SpendInput& in, const Checker& checker) { return interp::VerifyScript(CONFIG_T, in, checker); }
EvalResult EvaluateT(const EvalInput& in, const Checker& checker) { return interp::Eval(CONFIG_T, in, checker); }

const Side VARIANT_G{"G", CONFIG_G, VerifyG, EvaluateG, nullptr};
const Side VARIANT_T{"T", CONFIG_T, VerifyT, EvaluateT, nullptr};

} // namespace

const Side& variant_t_side() { return VARIANT_T; }

} // namespace equifuzz::script

EQUIFUZZ_EXPORT_SIDE(equifuzz::script, equifuzz::script::VARIANT_G)
