// Original side: util::Xor before #31144 (spec 2.1). The key is a byte vector of any length;
// every byte of the data is XORed with the key byte at a running index that wraps at the key's
// length. An all-zero key is not special: the loop runs and leaves the data unchanged.
#include "side.h"

#include <common/compact_size.h>

#include <vector>

namespace equifuzz::xorpair {
namespace {

void XorWithVector(std::span<std::byte> data, std::span<const std::byte> key, uint64_t key_offset)
{
    if (key.empty()) return;
    size_t j{static_cast<size_t>(key_offset % key.size())};
    for (std::byte& b : data) {
        b ^= key[j];
        if (++j == key.size()) j = 0;
    }
}

void Apply(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    XorWithVector(data, key, key_offset);
}

void ApplyChunked(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    // The old AutoFile::write: each write is obfuscated at the file position, which then advances.
    uint64_t position{key_offset};
    size_t done{0};
    for (const size_t len : chunks) {
        XorWithVector(data.subspan(done, len), key, position);
        position += len;
        done += len;
    }
}

Bytes SerializeKey(const Key& key)
{
    const auto* p{reinterpret_cast<const uint8_t*>(key.data())};
    return SerializeByteVector({p, key.size()});
}

KeyParse ParseKey(std::span<const uint8_t> serialized)
{
    // The old code kept whatever vector the database held.
    KeyParse out;
    try {
        ByteReader r{serialized};
        const uint64_t n{ReadCompactSizeFrom(r)};
        const auto bytes{r.Take(static_cast<size_t>(n))};
        out.key.assign(bytes.begin(), bytes.end());
        out.consumed = r.Consumed();
    } catch (const StreamError& e) {
        out.error = e.what();
    }
    return out;
}

std::string HexKey(const Key& key)
{
    return Hex(std::span<const std::byte>{key});
}

const Side ORIGINAL{"byte-wise util::Xor", Apply, ApplyChunked, SerializeKey, ParseKey, HexKey, /*keeps_any_key_length=*/true};

} // namespace
} // namespace equifuzz::xorpair

EQUIFUZZ_EXPORT_SIDE(equifuzz::xorpair, equifuzz::xorpair::ORIGINAL)
