// The prevector pair's list of sides, its decoders (fuzz bytes to a program of operations on two
// containers, a script to build) and their descriptions; every choice among named values is read
// through choices.json, and each range from pair_parts.h, which the encoder (encode.cpp) reads too.
#include "pair.h"
#include "pair_parts.h"

#include <prevector/program.h>
#include <prevector/script.h>

#include <algorithm>
#include <string>
#include <utility>

EQUIFUZZ_DEFINE_SIDES(equifuzz::prevec)

namespace equifuzz::prevec {

using namespace parts;

namespace {

//! Raw parameters that land on the inline boundaries of both sides and their growth steps
//! (28/29, 36/37, 43/44, 55/56, ...) far more often than a uniform pick would.
uint32_t ConsumeParam(FuzzedDataProvider& fdp)
{
    // The actions in ParamForm's order (pair_parts.h).
    static_assert(static_cast<size_t>(ParamForm::LAST) == 3);
    return CallOneOf(
        fdp,
        [&] {
            static constexpr uint32_t anchors[]{0, 12, 26, 28, 34, 36, 43, 55, 66, 84, 100, 127};
            const uint32_t base{fdp.PickValueInArray(anchors)};
            const uint32_t delta{fdp.ConsumeIntegralInRange<uint32_t>(0, 4)};
            return base + delta >= 2 ? base + delta - 2 : 0;
        },
        [&] { return fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_SMALL_PARAM); }, [&] { return uint32_t{fdp.ConsumeIntegral<uint8_t>()}; },
        [&] { return uint32_t{fdp.ConsumeIntegral<uint16_t>()}; });
}

} // namespace

std::string OpText(const Op& op)
{
    std::string s{ChoiceName(op.kind)};
    s += "(" + std::to_string(op.x);
    if (UsesY(op.kind) || op.kind == OpKind::InsertSelfRange) s += "," + std::to_string(op.y);
    if (op.kind == OpKind::InsertSelfRange) s += "," + std::to_string(op.z);
    if (UsesValues(op.kind)) s += ",#" + std::to_string(op.values.size());
    s += ")";
    return s;
}


OpProgram DecodeProgram(FuzzedDataProvider& fdp)
{
    OpProgram program;
    while (fdp.remaining_bytes() > 0 && program.size() < MAX_OPS) {
        Op op;
        op.kind = ConsumeChoice<OpKind>(fdp);
        op.x = ConsumeParam(fdp);
        if (UsesY(op.kind)) op.y = ConsumeParam(fdp);
        if (UsesZ(op.kind)) op.z = ConsumeParam(fdp);
        op.value = fdp.ConsumeIntegral<uint8_t>();
        if (UsesValues(op.kind)) {
            const size_t count{ConsumeParam(fdp) % MAX_RANGE_VALUES};
            const uint64_t step{fdp.ConsumeIntegralInRange<uint64_t>(0, MAX_STEP)};
            op.values.reserve(count);
            for (size_t i = 0; i < count; ++i) op.values.push_back(op.value + step * i);
        }
        program.push_back(std::move(op));
    }
    return program;
}

Description Describe(const OpProgram& program)
{
    std::string ops;
    for (const Op& op : program) ops += (ops.empty() ? "" : " ") + OpText(op);
    return Description{}.Add("op_count", program.size()).Add("ops", ops);
}

ScriptInput DecodeScript(FuzzedDataProvider& fdp)
{
    ScriptInput in;
    in.kind = ConsumeChoice<ScriptKind>(fdp);
    const auto length = [&]() -> uint32_t {
        if (fdp.ConsumeBool()) return fdp.ConsumeIntegral<uint16_t>();
        static constexpr uint32_t anchors[]{0, 20, 26, 28, 32, 34, 36, 38, 75, 80, 255, 256, 300};
        const uint32_t base{fdp.PickValueInArray(anchors)};
        const uint32_t delta{fdp.ConsumeIntegralInRange<uint32_t>(0, 4)};
        return base + delta >= 2 ? base + delta - 2 : 0;
    };
    in.length = length();
    if (in.kind == ScriptKind::Pushes) {
        const size_t count{fdp.ConsumeIntegralInRange<size_t>(0, MAX_PUSHES)};
        for (size_t i = 0; i < count; ++i) in.pushes.push_back(length());
    }
    in.data = fdp.ConsumeRemainingBytes<uint8_t>();
    if (in.data.size() > MAX_DATA) in.data.resize(MAX_DATA);
    return in;
}

Description Describe(const ScriptInput& in)
{
    Description d;
    d.Add("kind", std::string{ChoiceName(in.kind)}).Add("length", in.length);
    std::string pushes;
    for (const uint32_t p : in.pushes) pushes += (pushes.empty() ? "" : ",") + std::to_string(p % 300);
    d.Add("pushes", pushes).Add("data", in.data);
    return d;
}

} // namespace equifuzz::prevec
