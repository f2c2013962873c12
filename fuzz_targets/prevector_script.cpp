// prevector_script: the standard output scripts (P2A, P2WPKH, P2SH, P2PKH, P2WSH, P2TR, P2PK
// compressed and uncompressed, OP_RETURN with n bytes, the witness commitment, bare multisig
// 1-of-1/1-of-2/2-of-3), raw byte strings and free-form pushes, built on a CScript-like type over
// prevector<28> and prevector<36>, and by plain concatenation as the oracle. Bytes, serialization
// and the script queries must be identical. Storage is checked against each side's own N: a
// script built by appends is inline iff its size <= N; range construction, the copy constructor
// and unserialization give capacity N when inline and exactly the size on the heap.
#include <equifuzz/harness.h>
#include <prevector/pair.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::prevec;

EQUIFUZZ_TARGET(prevector_script)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const ScriptInput in{DecodeScript(fdp)};
    const auto desc{[&] { return Describe(in); }};

    // Our two sides, and Core's CScriptBase before and after #32279 when built.
    const ScriptFacts oracle{BuildScriptOracle(in)};
    std::vector<ScriptFacts> facts;
    facts.reserve(Sides().size());
    for (const auto& [label, side, role] : Sides()) facts.push_back(side->build_script(in));
    std::vector<Labeled<AgreedPart<ScriptFacts>>> results;
    results.reserve(1 + facts.size());
    results.push_back({Model("concatenation"), {&oracle}});
    for (size_t i = 0; i < facts.size(); ++i) results.push_back({LabelOf(Sides()[i]), {&facts[i]}});
    Compare(desc, results);

    for (size_t i = 0; i < Sides().size(); ++i) {
        const Side* side{Sides()[i].side};
        const ScriptFacts& f{facts[i]};
        const size_t size{f.bytes.size()};
        const unsigned n{side->inline_size};
        const bool inline_expected{ExpectInline(size, n)};
        const uint32_t exact{inline_expected ? n : static_cast<uint32_t>(size)};
        const auto detail = [&] {
            Outcome o;
            o.Add("side", side->name).Add("size", size).Add("inline_size", n);
            o.Add("built_capacity", f.built_capacity).Add("built_direct", f.built_direct).Add("built_memory", f.built_memory);
            o.Add("range_capacity", f.range_capacity).Add("range_direct", f.range_direct);
            o.Add("copy_capacity", f.copy_capacity).Add("copy_direct", f.copy_direct);
            o.Add("read_capacity", f.read_capacity).Add("read_direct", f.read_direct).Add("dynamic_usage", f.dynamic_usage);
            return o;
        };
        RequireOf(LabelOf(Sides()[i]), f.built_direct == inline_expected && (f.built_direct ? f.built_capacity == n && f.built_memory == 0
                                                                      : f.built_capacity >= size && f.built_memory == f.built_capacity),
                "built-script-inline-iff-size-le-N", desc, detail);
        RequireOf(LabelOf(Sides()[i]), f.range_direct == inline_expected && f.range_capacity == exact, "range-constructed-capacity-exact", desc, detail);
        RequireOf(LabelOf(Sides()[i]), f.copy_direct == inline_expected && f.copy_capacity == exact, "copy-constructed-capacity-exact", desc, detail);
        RequireOf(LabelOf(Sides()[i]), f.read_direct == inline_expected && f.read_capacity == exact, "unserialized-capacity-exact", desc, detail);
        const uint64_t usage{f.built_memory == 0 ? 0 : ((f.built_memory + 31) >> 4) << 4};
        RequireOf(LabelOf(Sides()[i]), f.dynamic_usage == usage, "dynamic-usage-malloc-model", desc, detail);
    }
}
