// Script pair: the cost of large elements. `<element> SHA256 DROP 1` and
// `<element> DUP SHA256 DROP 1` for element sizes 1, 64, 65, 100, 520 and 8000 bytes:
//   520 side and Variant G: the element is a push in a legacy script (sizes over 520 only for G);
//   Variant T: the element is a tapscript witness item (T keeps pushes at 520), so an OP_DUP of
//   an 8000-byte item stops at once with DUP_ELEMENT_SIZE.
// Counter `ok` is 1 when the script succeeded (T with DUP on 8000 bytes: 0).
#include <script/crypto.h>
#include <script/pair.h>

#include <benchmark/benchmark.h>

using namespace equifuzz;
using namespace equifuzz::script;

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
    if (dup) in.script.push_back(0x76);
    in.script.insert(in.script.end(), {0xa8, 0x75, 0x51});
    if (dup && as_witness_item) in.script.insert(in.script.end() - 1, 0x75); // keep the clean stack
    return in;
}

void Run(benchmark::State& state, const Side& side, bool dup, bool as_witness_item)
{
    const FakeChecker checker;
    const EvalInput in{MakeInput(static_cast<size_t>(state.range(0)), dup, as_witness_item)};
    bool ok{false};
    for (auto _ : state) {
        const EvalResult r{side.eval(in, checker)};
        ok = r.ok;
        benchmark::DoNotOptimize(r.stack.data());
    }
    state.counters["ok"] = ok ? 1 : 0;
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}

void Sha_520(benchmark::State& s) { Run(s, original_side(), false, false); }
void DupSha_520(benchmark::State& s) { Run(s, original_side(), true, false); }
void Sha_G(benchmark::State& s) { Run(s, optimized_side(), false, false); }
void DupSha_G(benchmark::State& s) { Run(s, optimized_side(), true, false); }
void Sha_T_tapscript(benchmark::State& s) { Run(s, variant_t_side(), false, true); }
void DupSha_T_tapscript(benchmark::State& s) { Run(s, variant_t_side(), true, true); }

} // namespace

BENCHMARK(Sha_520)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000); // 8000: PUSH_SIZE, ok = 0
BENCHMARK(DupSha_520)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000);
BENCHMARK(Sha_G)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000);
BENCHMARK(DupSha_G)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000);
BENCHMARK(Sha_T_tapscript)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000);
BENCHMARK(DupSha_T_tapscript)->Arg(1)->Arg(64)->Arg(65)->Arg(100)->Arg(520)->Arg(8000);

BENCHMARK_MAIN();
