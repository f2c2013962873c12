// What the prevector pair compares its sides with: std::vector running the same program (the
// oracle), the capacity model of an inline size (when a container is inline, its capacity and
// heap memory after each operation) and a script built as plain bytes.
#include "pair.h"

#include <prevector/program.h>
#include <prevector/script.h>

#include <string>
#include <utility>

namespace equifuzz::prevec {
namespace {

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

} // namespace equifuzz::prevec
