// The decoders' mirror: an op program or a script input written as the bytes DecodeProgram and
// DecodeScript (decode.cpp) read back, for the seed program (seeds.cpp). Each call is the encoder's
// twin of the provider's call in the decoder, each range from pair_parts.h and each named choice
// through choices.json (unit test: a decoded input written and decoded again is the same).
#include "pair.h"
#include "pair_parts.h"

#include <equifuzz/choices.h>
#include <equifuzz/mutator.h>

#include <algorithm>

namespace equifuzz::prevec {

using namespace parts;

namespace {

//! ConsumeParam's twin: the small form below 16, one byte below 256, else two.
void EncodeParam(FdpEncoder& e, uint32_t v)
{
    const auto form{[&](ParamForm f) { e.Integral(static_cast<size_t>(f), 0, static_cast<size_t>(ParamForm::LAST)); }};
    if (v <= MAX_SMALL_PARAM) {
        form(ParamForm::SMALL);
        e.Integral(v, 0, MAX_SMALL_PARAM);
    } else if (v <= 0xff) {
        form(ParamForm::BYTE);
        e.Integral<uint8_t>(static_cast<uint8_t>(v));
    } else {
        form(ParamForm::WORD);
        e.Integral<uint16_t>(static_cast<uint16_t>(v));
    }
}

//! DecodeScript's lengths: always the 16-bit form.
void EncodeLength(FdpEncoder& e, uint32_t n)
{
    e.Bool(true);
    e.Integral<uint16_t>(static_cast<uint16_t>(n));
}

} // namespace

Bytes EncodeProgram(const OpProgram& program)
{
    FdpEncoder e;
    for (size_t i = 0; i < program.size() && i < MAX_OPS; ++i) {
        const Op& op{program[i]};
        EncodeChoice(e, op.kind);
        EncodeParam(e, op.x);
        if (UsesY(op.kind)) EncodeParam(e, op.y);
        if (UsesZ(op.kind)) EncodeParam(e, op.z);
        e.Integral<uint8_t>(static_cast<uint8_t>(op.value));
        if (UsesValues(op.kind)) {
            const size_t count{std::min(op.values.size(), MAX_RANGE_VALUES - 1)};
            const uint64_t step{op.values.size() >= 2 ? std::min(op.values[1] - op.values[0], MAX_STEP) : 0};
            EncodeParam(e, static_cast<uint32_t>(count));
            e.Integral(step, 0, MAX_STEP);
        }
    }
    return e.Finish();
}

Bytes EncodeScript(const ScriptInput& in)
{
    FdpEncoder e;
    EncodeChoice(e, in.kind);
    EncodeLength(e, in.length);
    if (in.kind == ScriptKind::Pushes) {
        const size_t count{std::min(in.pushes.size(), MAX_PUSHES)};
        e.Integral(count, 0, MAX_PUSHES);
        for (size_t i = 0; i < count; ++i) EncodeLength(e, in.pushes[i]);
    }
    e.Bytes(std::span{in.data}.first(std::min(in.data.size(), MAX_DATA)));
    return e.Finish();
}

} // namespace equifuzz::prevec
