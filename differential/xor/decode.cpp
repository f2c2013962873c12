// The xor pair's list of sides, its decoders (fuzz bytes to an application of a key, a serialized
// key) and their descriptions.
#include "pair.h"

#include <common/compact_size.h>

#include <algorithm>

EQUIFUZZ_DEFINE_SIDES(equifuzz::xorpair)

namespace equifuzz::xorpair {
namespace {

Key ConsumeKey(FuzzedDataProvider& fdp)
{
    Key key{};
    CallOneOf(
        fdp, [] {}, // the zero key: the optimized side's short-circuit
        [&] { key.fill(std::byte{fdp.ConsumeIntegral<uint8_t>()}); },
        [&] { key[fdp.ConsumeIntegralInRange<size_t>(0, KEY_SIZE - 1)] = std::byte{fdp.ConsumeIntegral<uint8_t>()}; },
        [&] {
            for (auto& b : key) b = std::byte{fdp.ConsumeIntegral<uint8_t>()};
        });
    return key;
}

} // namespace

ApplyInput DecodeApply(FuzzedDataProvider& fdp)
{
    ApplyInput in;
    in.key = ConsumeKey(fdp);
    // Offsets are file positions: mostly small, sometimes anywhere in 64 bits (only mod 8 matters).
    in.key_offset = fdp.ConsumeBool() ? fdp.ConsumeIntegral<uint64_t>() : fdp.ConsumeIntegralInRange<uint64_t>(0, 64);
    in.align = fdp.ConsumeIntegralInRange<size_t>(0, 7);
    const size_t length{ConsumeLengthNearMultiple(fdp, 8, 600)};
    const size_t max_chunks{fdp.ConsumeIntegralInRange<size_t>(1, 12)};
    in.data = ConsumeBytesPadded(fdp, length);
    in.chunks = ConsumeChunks(fdp, in.data.size(), max_chunks);
    return in;
}

Description Describe(const ApplyInput& in)
{
    Description d;
    d.Add("key", std::span<const std::byte>{in.key}).Add("key_offset", in.key_offset).Add("offset_mod_8", in.key_offset % 8);
    d.Add("align_mod_8", in.align).Add("length", in.data.size()).Add("data", in.data);
    std::string chunks;
    for (const size_t c : in.chunks) chunks += (chunks.empty() ? "" : ",") + std::to_string(c);
    d.Add("chunks", chunks);
    return d;
}

KeyInput DecodeKey(FuzzedDataProvider& fdp)
{
    KeyInput in;
    const auto key_bytes = [&](size_t n) { return ConsumeBytesPadded(fdp, n); };
    in.serialized = CallOneOf(
        fdp,
        [&] { // canonical: 08 + 8 bytes, maybe followed by more bytes
            return SerializeByteVector(key_bytes(KEY_SIZE));
        },
        [&] { // a vector of another length
            return SerializeByteVector(key_bytes(fdp.ConsumeIntegralInRange<size_t>(0, 40)));
        },
        [&] { // a length prefix that claims more than is there
            const size_t claimed{fdp.ConsumeIntegralInRange<size_t>(0, 300)};
            const size_t present{fdp.ConsumeIntegralInRange<size_t>(0, claimed)};
            Bytes s{SerializeByteVector(key_bytes(claimed))};
            s.resize(s.size() - (claimed - present));
            return s;
        },
        [&] { // non-canonical or oversized CompactSize prefixes
            const uint8_t prefix{static_cast<uint8_t>(fdp.PickValueInArray({253, 254, 255}))};
            Bytes s{prefix};
            const uint64_t value{fdp.ConsumeBool() ? uint64_t{KEY_SIZE} : fdp.ConsumeIntegral<uint64_t>()};
            AppendLE(s, value, prefix == 253 ? 2u : prefix == 254 ? 4u : 8u);
            const Bytes rest{key_bytes(KEY_SIZE)};
            s.insert(s.end(), rest.begin(), rest.end());
            return s;
        },
        [&] { // anything
            return fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 64));
        });
    // Trailing bytes after the key must be left unread.
    const Bytes tail{fdp.ConsumeRemainingBytes<uint8_t>()};
    in.serialized.insert(in.serialized.end(), tail.begin(), tail.begin() + std::min<size_t>(tail.size(), 8));
    return in;
}

Description Describe(const KeyInput& in)
{
    return Description{}.Add("serialized_key", in.serialized);
}

} // namespace equifuzz::xorpair
