// Script pair: the cost of large elements. `<element> SHA256 DROP 1` and `<element> DUP SHA256
// DROP 1` for element sizes 1, 64, 65, 100, 520 and 8000 bytes, through every side's EvalScript:
//   original (520) and core-original (Core's interpreter as it is): an 8000-byte push stops at
//   once with PUSH_SIZE (the case reports ok = 0 in its name);
//   optimized (Variant G) and core-optimized (Core at MAX_SCRIPT_ELEMENT_SIZE 8000) run it;
//   variant-t (BIP-360's Variant T): the element is a tapscript witness item, so DUP of an
//   8000-byte item stops with DUP_ELEMENT_SIZE.
// Our sides hash with OpenSSL; Core's sides with Core's own SHA-256 compiled here without its
// assembly back ends (DISABLE_OPTIMIZED_SHA256), so compare ours with ours and Core with Core.
#include "common/bench.h"

#include <script/crypto.h>
#include <script/pair.h>

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

using namespace equifuzz;
using namespace equifuzz::script;
using equifuzz::bench::Add;
using equifuzz::bench::CaseOptions;
using equifuzz::bench::Operation;

namespace {

EvalInput MakeInput(size_t size, bool dup, bool as_witness_item)
{
    EvalInput in;
    const Bytes element(size, 0x5a);
    if (as_witness_item) {
        in.stack.push_back(element);
        in.sigversion = SigVersion::TAPSCRIPT;
        in.as_witness_script = true;
    } else {
        AppendPush(in.script, element);
    }
    if (dup) in.script.push_back(0x76);                        // OP_DUP
    in.script.insert(in.script.end(), {0xa8, 0x75, 0x51});     // OP_SHA256 OP_DROP OP_1
    if (dup && as_witness_item) in.script.insert(in.script.end() - 1, 0x75); // keep the clean stack
    return in;
}

void AddSide(const std::string& name, const std::string& label, const Side& side, size_t size, bool dup, bool as_witness_item)
{
    auto in{std::make_shared<const EvalInput>(MakeInput(size, dup, as_witness_item))};
    Add("script", name, label, [&side, in]() -> Operation {
        return [&side, in, checker = std::make_shared<const FakeChecker>()] {
            const EvalResult r{side.eval(*in, *checker)};
            benchmark::DoNotOptimize(r.stack.data());
        };
    }, {.bytes_per_op = static_cast<int64_t>(size), .items_per_op = 1, .instruction_runs = 20});
}

void Register()
{
    for (const bool dup : {false, true}) {
        for (const size_t size : {size_t{1}, size_t{64}, size_t{65}, size_t{100}, size_t{520}, size_t{8000}}) {
            std::string name{std::string{dup ? "DUP SHA256" : "SHA256"} + " of a " + std::to_string(size) + "-byte element"};
            if (size > 520) name += " (the 520 sides stop at PUSH_SIZE: a cost, not a speedup)";
            for (const auto& [label, side, role] : Sides()) AddSide(name, label, *side, size, dup, false);
            AddSide(name, "variant-t", variant_t_side(), size, dup, true);
        }
    }
}

} // namespace

EQUIFUZZ_BENCH_MAIN(Register)
