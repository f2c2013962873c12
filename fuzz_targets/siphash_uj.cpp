// siphash_uj: SipHash-1-3-UJ three ways. The outpoint shape (jumbo txid, then the index as one
// plain normal block, no length tag) from the generic streaming SipHasher13UJ (both sides), from
// the optimized side's narrow fixed-width Hash(h, n), and from the proposal's jumboblock sketch
// under the spec's relabelling (m = (d1, d2, d3, d0), plain n, the UJ finalizer) must agree bit for
// bit, for any key. Then an arbitrary stream of normal and jumbo blocks, finalizes and const Hash
// calls (Hash after earlier writes included) through both sides and the sketch. Properties of one
// side: a normal block d equals the jumbo block (d, 0, 0, 0); the salted outpoint hasher in its
// UJ setting equals the fixed-width Hash. And the normal shape (h's four words as normal blocks,
// then a fifth), streamed against the fixed-width HashNormal. Bitcoin Core's own SipHasher13UJ
// joins these comparisons when a Core tree has it (#35215: a reviewer's checkout; no registry
// tree has it).
#include <equifuzz/harness.h>
#include <siphash/pair.h>

#include <array>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::siphash;

namespace {

UJShapeOutcome ViaStream(const Side& side, const UJInput& in)
{
    const std::array<UJOp, 3> ops{{{UJOp::JUMBO, 0, in.h, 0}, {UJOp::FINALIZE, 0, {}, 0}, {UJOp::NORMAL, in.n, {}, 0}}};
    const std::vector<uint64_t> f{side.uj_stream(in.key, ops)};
    return {f.at(1), f.at(0)};
}

UJShapeOutcome ViaFixedWidth(const Side& side, const UJInput& in)
{
    const std::array<UJOp, 1> ops{{{UJOp::HASH_JUMBO, 0, in.h, 0}}};
    return {side.uj_outpoint(in.key, in.h, in.n), side.uj_stream(in.key, ops).at(0)};
}

//! The normal shape, `extra` the input's word for normal blocks taken as jumbo ones (any 64 bits).
UJNormalOutcome Normal(const Side& side, const UJInput& in)
{
    const auto [normal, normal_extra]{side.uj_normal(in.key, in.h, in.normal_as_jumbo)};
    return {normal, normal_extra};
}

UJShapeOutcome ViaSketch(const UJInput& in)
{
    const std::array<UJOp, 1> ops{{{UJOp::JUMBO, 0, in.h, 0}}};
    return {SketchOutpoint(SKETCH_AS_MERGED, in.key, in.h, in.n), SketchStream(SKETCH_AS_MERGED, in.key, ops).back()};
}

} // namespace

EQUIFUZZ_TARGET(siphash_uj)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const UJInput in{DecodeUJ(fdp)};
    const auto desc{[&] { return Describe(in); }};

    const UJShapeOutcome fixed{ViaFixedWidth(optimized_side(), in)};
    Compare(desc, {{Model("original SipHasher13UJ"), ViaStream(original_side(), in)},
                   {Model("optimized SipHasher13UJ"), ViaStream(optimized_side(), in)},
                   {Model("fixed-width Hash(h,n)"), fixed},
                   {Model("jumboblock sketch, relabelled"), ViaSketch(in)}});
    // Bitcoin Core's SipHasher13UJ, when a tree has it: its fixed-width Hash(h, n) on a fresh
    // hasher and its generic stream give the same outpoint hash as ours.
    for (const auto& [label, side, role] : Sides().subspan(2)) {
        if (side->uj_stream == nullptr) continue;
        Compare(desc, {{Model("fixed-width Hash(h,n)"), fixed},
                       {SideName(label, role, "generic"), ViaStream(*side, in)},
                       {SideName(label, role, "fixed-width"), ViaFixedWidth(*side, in)}});
    }
    for (const Side* side : {&original_side(), &optimized_side()}) {
        const uint64_t salted{side->outpoint_hasher(Family::SIP13UJ, in.key, in.h, in.n)};
        RequireOf(Model(side->name), salted == fixed.outpoint, "salted-outpoint-hasher-uj-equals-fixed-width", desc,
                  [&] { return Outcome{}.Add("salted", salted).Add("fixed_width", fixed.outpoint); });
    }

    // The normal shape (plain unpadded SipHash-1-3 of h's four words, then of h and a fifth
    // word): streamed by our original, fixed-width HashNormal on our optimized side, and on Core's
    // sides HashNormal where the tree has it, else Core's own stream of the same blocks.
    std::vector<Labeled<UJNormalOutcome>> normals;
    normals.reserve(Sides().size());
    normals.push_back({Model("original SipHasher13UJ"), Normal(original_side(), in)});
    normals.push_back({Model("optimized SipHasher13UJ"), Normal(optimized_side(), in)});
    for (const auto& [label, side, role] : Sides().subspan(2)) {
        if (side->uj_normal != nullptr) normals.push_back({SideName(label, role, "SipHasher13UJ normal"), Normal(*side, in)});
    }
    Compare(desc, normals);

    std::vector<Labeled<StreamOutcome>> streams;
    streams.reserve(1 + Sides().size());
    streams.push_back({Model("original SipHasher13UJ"), {original_side().uj_stream(in.key, in.ops)}});
    streams.push_back({Model("optimized SipHasher13UJ"), {optimized_side().uj_stream(in.key, in.ops)}});
    streams.push_back({Model("jumboblock sketch, relabelled"), {SketchStream(SKETCH_AS_MERGED, in.key, in.ops)}});
    for (const auto& [label, side, role] : Sides().subspan(2)) {
        if (side->uj_stream != nullptr) streams.push_back({SideName(label, role, "SipHasher13UJ"), {side->uj_stream(in.key, in.ops)}});
    }
    Compare(desc, streams);

    const StreamOutcome padded{optimized_side().uj_stream(in.key, NormalsAsJumbo(in.ops, in.normal_as_jumbo))};
    Require(padded == streams[1].result, "normal-block-equals-zero-padded-jumbo", desc, padded);
}
