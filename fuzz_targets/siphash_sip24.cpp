// siphash_sip24: SipHash-2-4 three ways on the outpoint shape, and two streaming hashers.
// The generic streaming CSipHasher (each side's own) is fed h || LE32(n) under an arbitrary
// chunk schedule, with aligned 8-byte chunks optionally as Write(uint64) and a Finalize after
// byte 32 that must not disturb the stream; its outputs must equal, bit for bit, the specialized
// SipHashUint256[Extra] (original) and the PresaltedSipHasher (optimized), for any key. The salted
// outpoint hasher in its SipHash-2-4 setting must give the same. Separately, an arbitrary stream of
// byte runs, words and finalizes goes through both CSipHashers; every Finalize must equal a
// one-shot hash of the bytes written so far. Bitcoin Core's own CSipHasher and uint256 hashers
// (kernel 0.1.1's SipHashUint256Extra, 0.4.1's PresaltedSipHasher) join every comparison.
#include <equifuzz/harness.h>
#include <siphash/pair.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::siphash;

namespace {

//! `outpoint` is OutpointStream(in), made once per input and handed to every side.
ShapeOutcome ViaStream(const Side& side, const Sip24Input& in, std::span<const Sip24Op> outpoint)
{
    const std::vector<uint64_t> f{side.sip24_stream(in.key, outpoint)};
    return {f.at(0), f.at(1)};
}

ShapeOutcome ViaShape(const Side& side, const Sip24Input& in)
{
    return {side.sip24_uint256(in.key, in.h), side.sip24_uint256_extra(in.key, in.h, in.n)};
}

} // namespace

EQUIFUZZ_TARGET(siphash_sip24)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const Sip24Input in{DecodeSip24(fdp)};
    const auto desc{[&] { return Describe(in); }};

    const std::vector<Sip24Op> outpoint{OutpointStream(in)};
    const ShapeOutcome presalted{ViaShape(optimized_side(), in)};
    Compare(desc, {{Model("original CSipHasher"), ViaStream(original_side(), in, outpoint)},
                   {Model("optimized CSipHasher"), ViaStream(optimized_side(), in, outpoint)},
                   {Model("SipHashUint256[Extra]"), ViaShape(original_side(), in)},
                   {Model("PresaltedSipHasher"), presalted}});
    // Bitcoin Core's own CSipHasher and SipHashUint256Extra / PresaltedSipHasher, when built.
    for (const auto& [label, side, role] : Sides()) {
        if (!IsCore(role)) continue;
        Compare(desc, {{Model("PresaltedSipHasher"), presalted},
                       {SideName(label, role, "CSipHasher"), ViaStream(*side, in, outpoint)},
                       {SideName(label, role, "uint256 hasher"), ViaShape(*side, in)}});
    }
    for (const Side* side : {&original_side(), &optimized_side()}) {
        const uint64_t salted{side->outpoint_hasher(Family::SIP24, in.key, in.h, in.n)};
        RequireOf(Model(side->name), salted == presalted.hash_uint256_extra, "salted-outpoint-hasher-sip24-equals-presalted", desc,
                  [&] { return Outcome{}.Add("salted", salted).Add("presalted", presalted.hash_uint256_extra); });
    }

    // The arbitrary stream.
    const auto streams{EachSide(Sides(), [&](const Side& side) { return StreamOutcome{side.sip24_stream(in.key, in.ops)}; })};
    Compare(desc, streams);
    const auto sides{Sides()};
    const auto ours{std::ranges::find(sides, Role::ORIGINAL, &LabeledSide<Side>::role)};
    const StreamOutcome& original{streams[static_cast<size_t>(ours - sides.begin())].result};

    // Each Finalize equals a one-shot hash of the prefix written so far (Finalize is const).
    std::vector<uint64_t> expected;
    expected.reserve(original.finalizes.size());
    size_t written{0};
    const Bytes all{StreamBytes(in.ops)};
    const auto oneshot = [&](size_t len) {
        const Sip24Op op{Sip24Op::BYTES, Bytes(all.begin(), all.begin() + len), 0};
        return original_side().sip24_stream(in.key, std::span{&op, 1}).back();
    };
    for (const Sip24Op& op : in.ops) {
        if (op.kind == Sip24Op::FINALIZE) expected.push_back(oneshot(written));
        if (op.kind == Sip24Op::BYTES) written += op.bytes.size();
        if (op.kind == Sip24Op::WORD) written += 8;
    }
    expected.push_back(oneshot(written));
    Require(original.finalizes == expected, "finalize-equals-oneshot-of-prefix", desc, original);
    for (const auto& [label, side, role] : Sides()) {
        const uint64_t one_buffer{side->sip24_bytes(in.key, all)};
        RequireOf(LabelOf(label, role), one_buffer == expected.back(), "one-buffer-write-equals-stream", desc,
                  [&] { return Outcome{}.Add("one_buffer", one_buffer).Add("stream", expected.back()); });
    }
}
