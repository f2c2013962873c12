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

//! The capacity model of one container for inline size n (spec 1a, "change_capacity").
struct ModelVec {
    uint32_t size{0};
    uint32_t capacity{0};
    bool direct{true};
};

class CapacityModel
{
public:
    explicit CapacityModel(unsigned n) : m_n{n} {}
    ModelVec Empty() const { return {0, m_n, true}; }
    //! change_capacity(c): inline with capacity N when c <= N, else a heap block of exactly c.
    void Change(ModelVec& v, uint32_t c) const
    {
        if (c <= m_n) {
            v.direct = true;
            v.capacity = m_n;
        } else {
            v.direct = false;
            v.capacity = c;
        }
    }
    //! push/insert: 1.5 times the needed size, only when the capacity is short.
    void Grow(ModelVec& v, uint32_t needed) const
    {
        if (v.capacity < needed) Change(v, needed + needed / 2);
    }
    //! Constructors and the copy constructor: from the size, exactly.
    ModelVec Fresh(uint32_t size) const
    {
        ModelVec v{Empty()};
        Change(v, size);
        v.size = size;
        return v;
    }
    //! assign: clear (capacity kept), exact growth only when short.
    void Assign(ModelVec& v, uint32_t n) const
    {
        v.size = 0;
        if (v.capacity < n) Change(v, n);
        v.size = n;
    }

private:
    unsigned m_n;
};

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

Bytes ConcatenateItems(const std::vector<ScriptItem>& items)
{
    Bytes out;
    for (const ScriptItem& item : items) {
        if (!item.is_push) {
            out.push_back(item.opcode);
            continue;
        }
        const size_t n{item.data.size()};
        if (n < 0x4c) {
            out.push_back(static_cast<uint8_t>(n));
        } else if (n <= 0xff) {
            out.push_back(0x4c);
            out.push_back(static_cast<uint8_t>(n));
        } else if (n <= 0xffff) {
            out.push_back(0x4d);
            out.push_back(static_cast<uint8_t>(n));
            out.push_back(static_cast<uint8_t>(n >> 8));
        } else {
            out.push_back(0x4e);
            for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
        }
        out.insert(out.end(), item.data.begin(), item.data.end());
    }
    return out;
}

} // namespace


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

Outcome OpsResult::ToOutcome() const
{
    Outcome o;
    o.Add("trace", trace).Add("final_a", final_a).Add("final_b", final_b).Add("serialized_a", serialized_a);
    o.Add("self_check", inconsistency);
    return o;
}

OpsResult RunOracle(const OpProgram& program, TraceDigest digest) { return RunProgram<std::vector<uint8_t>, false>(program, digest); }
OpsResult RunOracleWide(const OpProgram& program, TraceDigest digest) { return RunProgram<std::vector<Wide>, false>(program, digest); }

std::vector<StorageState> ModelStorage(const OpProgram& program, unsigned n, size_t element_size)
{
    const CapacityModel model{n};
    ModelVec a{model.Empty()};
    ModelVec b{model.Empty()};
    std::vector<StorageState> states;
    states.reserve(program.size());
    for (const Op& op : program) {
        const Resolved r{Resolve(op, a.size, b.size)};
        if (!r.skip) {
            switch (op.kind) {
            case OpKind::PushBack:
            case OpKind::InsertOne:
            case OpKind::InsertSelfElement: model.Grow(a, a.size + 1); a.size += 1; break;
            case OpKind::PopBack:
            case OpKind::EraseOne: a.size -= 1; break;
            case OpKind::InsertCount:
            case OpKind::InsertRange:
            case OpKind::InsertSelfRange: model.Grow(a, a.size + r.n); a.size += r.n; break;
            case OpKind::EraseRange: a.size -= r.last - r.first; break;
            case OpKind::Resize:
                if (r.n > a.size && r.n > a.capacity) model.Change(a, r.n);
                a.size = r.n;
                break;
            case OpKind::ResizeUninit:
                if (a.capacity < r.n) model.Change(a, r.n);
                a.size = r.n;
                break;
            case OpKind::Reserve:
                if (r.n > a.capacity) model.Change(a, r.n);
                break;
            case OpKind::ShrinkToFit: model.Change(a, a.size); break;
            case OpKind::AssignCount:
            case OpKind::AssignRange: model.Assign(a, r.n); break;
            case OpKind::Clear: a.size = 0; break;
            case OpKind::Swap:
            case OpKind::MoveConstruct: std::swap(a, b); break;
            case OpKind::CopyAssignBA: model.Assign(a, b.size); break;
            case OpKind::CopyAssignAB: model.Assign(b, a.size); break;
            case OpKind::CopyConstruct: a = model.Fresh(b.size); break;
            case OpKind::MoveAssignBA:
                a = b;
                b = model.Empty();
                break;
            case OpKind::ConstructCount:
            case OpKind::ConstructRange: b = model.Fresh(r.n); break;
            case OpKind::Reserialize: b = model.Fresh(a.size); break;
            case OpKind::SelfCopyAssign:
            case OpKind::SetElement:
            case OpKind::Relations: break;
            }
        }
        const auto memory = [&](const ModelVec& v) -> uint64_t { return v.direct ? 0 : uint64_t{v.capacity} * element_size; };
        states.push_back({a.capacity, b.capacity, a.direct, b.direct, memory(a), memory(b)});
    }
    return states;
}

Outcome StorageMismatch(const std::vector<StorageState>& seen, const std::vector<StorageState>& model, const OpProgram& program)
{
    Outcome o;
    size_t i{0};
    while (i < seen.size() && i < model.size() && seen[i] == model[i]) ++i;
    o.Add("first_differing_op", i);
    if (i < program.size()) o.Add("op", OpText(program[i]));
    const auto add = [&](const char* who, const std::vector<StorageState>& v) {
        if (i >= v.size()) return;
        const StorageState& s{v[i]};
        const std::string p{who};
        o.Add(p + "_capacity_a", s.capacity_a).Add(p + "_direct_a", s.direct_a).Add(p + "_memory_a", s.memory_a);
        o.Add(p + "_capacity_b", s.capacity_b).Add(p + "_direct_b", s.direct_b).Add(p + "_memory_b", s.memory_b);
    };
    add("seen", seen);
    add("model", model);
    return o;
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

Outcome ScriptFacts::ToOutcome() const
{
    Outcome o;
    o.Add("bytes", bytes).Add("serialized", serialized).Add("size", bytes.size());
    o.Add("is_p2sh", is_p2sh).Add("is_p2wsh", is_p2wsh).Add("is_unspendable", is_unspendable).Add("is_push_only", is_push_only);
    o.Add("witness_version", witness_version).Add("witness_program", witness_program).Add("unserialized_equal", read_equal);
    return o;
}

ScriptFacts BuildScriptOracle(const ScriptInput& in)
{
    const Bytes bytes{in.kind == ScriptKind::Raw ? Material(in.data, 0, RawLength(in)) : ConcatenateItems(ScriptItems(in))};
    ScriptFacts f;
    ScriptQueries(bytes, f);
    std::vector<uint8_t> read;
    UnserializeElements<std::vector<uint8_t>, false>(read, f.serialized);
    f.read_equal = read == bytes;
    return f;
}

bool ExpectInline(size_t size, unsigned n) { return size <= n; }

namespace {

bool AllAgree(const ProgramRuns& runs)
{
    return std::all_of(runs.sides.begin(), runs.sides.end(), [&](const OpsResult& r) { return r.Agreed() == runs.oracle.Agreed(); });
}

void CompareRuns(const DescribeFn& desc, const ProgramRuns& runs)
{
    std::vector<Labeled<AgreedPart<OpsResult>>> results{{Model("std::vector"), {&runs.oracle}}};
    for (size_t i = 0; i < runs.sides.size(); ++i) results.push_back({LabelOf(Sides()[i]), {&runs.sides[i]}});
    Compare(desc, results);
}

} // namespace

void CompareWithOracle(const DescribeFn& desc, const ProgramRuns& runs, const std::function<ProgramRuns(TraceDigest)>& run_all)
{
    if (AllAgree(runs)) [[likely]] return;
    CompareRuns(desc, run_all(TraceDigest::Fnv1a));
    // Run again, every side agreed: what differed the first time is what the report shows.
    CompareRuns(desc, runs);
}

void CheckStorage(const DescribeFn& desc, const OpProgram& program, const OpsResult& oracle, std::span<const OpsResult> runs,
                  size_t element_size)
{
    for (size_t i = 0; i < runs.size(); ++i) {
        // Named variables, not a structured binding: lambdas below capture them, which clang
        // accepts only from 16 on (AFL++'s clang is 14).
        const Label label{LabelOf(Sides()[i])};
        const Side* const side{Sides()[i].side};
        const OpsResult& run{runs[i]};
        const auto model{ModelStorage(program, side->inline_size, element_size)};
        RequireOf(label, run.storage == model, "storage-matches-capacity-model", desc,
                  [&] { return StorageMismatch(run.storage, model, program).Add("side", side->name); });
        // Size first, then lexicographic: not std::vector's order, by design.
        RequireOf(label, run.less == oracle.size_first_less, "operator<-is-size-first", desc, [&] {
            return Outcome{}.Add("less", Bytes(run.less.begin(), run.less.end()))
                .Add("size_first", Bytes(oracle.size_first_less.begin(), oracle.size_first_less.end()));
        });
#if defined(__x86_64__)
        // sizeof(CScriptBase) on x86-64: 32 for N=28, 40 for N=36 (alignment makes 33..36 all 40).
        const size_t expected_sizeof{side->inline_size == 28 ? 32u : side->inline_size == 36 ? 40u : side->sizeof_bytes_container};
        RequireOf(label, side->sizeof_bytes_container == expected_sizeof, "sizeof-32-and-40", desc,
                  [&] { return Outcome{}.Add("inline_size", side->inline_size).Add("sizeof", side->sizeof_bytes_container); });
#endif
    }
#if defined(__x86_64__)
    Require(original_side().inline_size == 28 && optimized_side().inline_size == 36, "original-28-optimized-36", desc,
            [] { return Outcome{}.Add("original", original_side().inline_size).Add("optimized", optimized_side().inline_size); });
#endif
}

} // namespace equifuzz::prevec
