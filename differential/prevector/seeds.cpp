// The prevector targets' seeds, written by the pair's encoder (EncodeProgram, EncodeScript;
// common/seeds.h).
//
// prevector_ops and prevector_ops_wide: op programs around the inline boundaries and growth steps
// of both sides (28/29, 36/37, 43/44, 55/56): push_back through both growth sequences,
// shrink_to_fit and reserve at N and N+1, copy construction (exact from the size) against copy
// assignment (the capacity kept), range construction and assignment, counted inserts, a vector
// serialized and read back; empty ranges, self insertion, moves and swaps between inline and heap
// vectors, size-first ordering; and random programs.
//
// prevector_script: every script kind, the lengths around the boundaries for OP_RETURN and raw
// scripts, push lists around the push opcodes' edges (75/76, 255/256), over random material.
#include "pair.h"
#include "pair_parts.h"

#include <common/seeds.h>

#include <equifuzz/choices.h>

#include <initializer_list>

namespace equifuzz::prevec {
namespace {

using K = OpKind;

//! An operation: raw parameters x, y, z, its value, and for a range operation `count` values
//! from `value` in steps of `step`.
Op O(K kind, uint32_t x = 0, uint32_t y = 0, uint32_t z = 0, uint8_t value = 0, size_t count = 0, uint64_t step = 1)
{
    Op op;
    op.kind = kind;
    op.x = x;
    op.y = y;
    op.z = z;
    op.value = value;
    if (parts::UsesValues(kind)) {
        for (size_t i = 0; i < count; ++i) op.values.push_back(value + step * i);
    }
    return op;
}

//! `n` push_backs of value, value + 1, ...
OpProgram Pushes(size_t n, uint8_t value = 1)
{
    OpProgram p;
    for (size_t i = 0; i < n; ++i) p.push_back(O(K::PushBack, 0, 0, 0, static_cast<uint8_t>(value + i)));
    return p;
}

OpProgram Then(OpProgram p, std::initializer_list<Op> ops)
{
    p.insert(p.end(), ops);
    return p;
}

OpProgram Join(OpProgram p, const OpProgram& more)
{
    p.insert(p.end(), more.begin(), more.end());
    return p;
}

std::vector<OpProgram> Programs()
{
    std::vector<OpProgram> out;
    // Push-back steps through both sides' growth sequences.
    for (size_t n : {27, 28, 29, 35, 36, 37, 44, 56, 67, 85}) out.push_back(Pushes(n));
    for (uint32_t n : {27, 28, 29, 35, 36, 37, 38}) {
        // shrink_to_fit at N and N+1, after growing past it and erasing back.
        out.push_back(Then(Pushes(60), {O(K::Resize, n), O(K::ShrinkToFit), O(K::Relations)}));
        // reserve at N and N+1 on an empty / small vector, then clear keeps the heap.
        out.push_back(Then(Join({O(K::Reserve, n)}, Pushes(3)), {O(K::Clear), O(K::ShrinkToFit)}));
        // copy constructor (exact from size) versus copy assignment (keeps capacity).
        out.push_back(Then(Pushes(60), {O(K::CopyAssignAB), O(K::Resize, n), O(K::CopyConstruct), O(K::ConstructCount, n, 0, 0, 9),
                                         O(K::CopyAssignBA)}));
        // range construction and assign of n elements.
        out.push_back({O(K::ConstructRange, 0, 0, 0, 3, n, 1), O(K::AssignRange, 0, 0, 0, 5, n, 2), O(K::Swap), O(K::Relations)});
        out.push_back({O(K::AssignCount, n, 0, 0, 7), O(K::InsertCount, 0, 0, 0, 1), O(K::InsertCount, 5, 2), O(K::Relations)});
        out.push_back(Then(Join({O(K::Reserialize)}, Pushes(n)), {O(K::Reserialize), O(K::Relations)}));
    }
    // Empty ranges, self insertion, moves, swaps between inline and heap vectors.
    out.push_back(Then(Pushes(30), {O(K::EraseRange, 5, 0), O(K::EraseRange, 30, 0), O(K::EraseOne, 0), O(K::PopBack)}));
    out.push_back(Then(Pushes(20), {O(K::InsertSelfRange, 3, 0, 20), O(K::InsertSelfRange, 0, 10, 40), O(K::InsertSelfElement, 4, 7)}));
    out.push_back(Then(Pushes(36), {O(K::InsertSelfRange, 36, 0, 36), O(K::ShrinkToFit), O(K::InsertSelfRange, 1, 2, 30)}));
    out.push_back(Then(Pushes(40), {O(K::ConstructCount, 10, 0, 0, 2), O(K::Swap), O(K::MoveAssignBA), O(K::MoveConstruct), O(K::Relations)}));
    out.push_back(Then(Join(Then(Pushes(33), {O(K::Swap)}), Pushes(5)),
                       {O(K::Swap), O(K::SelfCopyAssign), O(K::SetElement, 2, 1, 0, 99), O(K::SetElement, 0, 2, 0, 98), O(K::Relations)}));
    out.push_back({O(K::ResizeUninit, 37, 0, 0, 4), O(K::ResizeUninit, 20), O(K::ResizeUninit, 29), O(K::Resize, 0)});
    // A vector and a shorter, lexicographically greater one: size-first ordering.
    out.push_back({O(K::PushBack, 0, 0, 0, 1), O(K::PushBack, 0, 0, 0, 1), O(K::ConstructCount, 1, 0, 0, 2), O(K::Relations)});
    // Random programs.
    seeds::Stream r{"prevector_ops"};
    for (int i = 0; i < 40; ++i) {
        OpProgram p;
        for (uint64_t k = r.InRange(5, 59); k > 0; --k) {
            const K kind{ChoiceList<K>::list[r.Below(ChoiceList<K>::list.size())].value};
            const uint32_t x{r.Chance(90) ? r.Pick<uint32_t>({0, 1, 2, 27, 28, 29, 35, 36, 37, 43, 55}) : static_cast<uint32_t>(r.Below(600))};
            p.push_back(O(kind, x, static_cast<uint32_t>(r.Below(60)), static_cast<uint32_t>(r.Below(60)), static_cast<uint8_t>(r.Below(256)),
                          r.Below(80), r.Below(4)));
        }
        out.push_back(p);
    }
    return out;
}

std::vector<ScriptInput> Scripts(seeds::Stream& r)
{
    const Bytes data{r.Take(200)};
    const auto input{[&](ScriptKind kind, uint32_t length, std::vector<uint32_t> pushes, const Bytes& material) {
        ScriptInput in;
        in.kind = kind;
        in.length = length;
        in.pushes = std::move(pushes);
        in.data = material;
        return in;
    }};
    std::vector<ScriptInput> out;
    for (const auto& choice : ChoiceList<ScriptKind>::list) {
        const ScriptKind kind{choice.value};
        if (kind == ScriptKind::OpReturn || kind == ScriptKind::Raw) {
            for (uint32_t n : {0, 1, 20, 26, 27, 28, 29, 32, 34, 35, 36, 37, 38, 75, 76, 80, 255, 256, 300, 520}) out.push_back(input(kind, n, {}, data));
        } else if (kind == ScriptKind::Pushes) {
            for (const std::vector<uint32_t>& lengths : std::vector<std::vector<uint32_t>>{
                     {}, {20}, {32}, {33}, {75, 76}, {0, 1, 2}, {255, 256}, {26, 8}, {34, 2, 1}}) {
                out.push_back(input(kind, 0, lengths, data));
            }
        } else {
            out.push_back(input(kind, 0, {}, data));
            out.push_back(input(kind, 0, {}, {}));
        }
    }
    return out;
}

} // namespace
} // namespace equifuzz::prevec

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace prevec;
    for (const OpProgram& p : Programs()) {
        const Bytes bytes{EncodeProgram(p)};
        w.Add("prevector_ops", bytes);
        w.Add("prevector_ops_wide", bytes);
    }
    Stream r{"prevector_script"};
    for (const ScriptInput& in : Scripts(r)) w.Add("prevector_script", EncodeScript(in));
}

} // namespace equifuzz::seeds
