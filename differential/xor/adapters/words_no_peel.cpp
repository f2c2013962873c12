// An adapter: another implementation of the optimized side, shaped like the intermediate state
// of #31144 (the key as a 64-bit word, but no alignment peel and no 64-byte unrolling; the
// rotation is computed per call instead of looked up). It shows how to plug your own routine
// into the targets:
//
//     cmake --preset libfuzzer -DEQUIFUZZ_XOR_OPTIMIZED=$PWD/differential/xor/adapters/words_no_peel.cpp
//
// An adapter fills the pair's Side table (differential/xor/side.h) and exports it with
// EQUIFUZZ_EXPORT_SIDE; the build decides which role it plays.
#include "../side.h"

#include <common/compact_size.h>

#include <bit>
#include <cstring>

namespace {

using namespace equifuzz;
using equifuzz::xorpair::Key;
using equifuzz::xorpair::KeyParse;
using equifuzz::xorpair::KEY_SIZE;
using equifuzz::xorpair::KEY_SIZE_ERROR;

uint64_t KeyWordAt(const Key& key, uint64_t key_offset)
{
    // Memory order of the result must be key[o], key[o+1], ...; build it byte by byte so the
    // host's endianness does not matter.
    std::byte rotated[KEY_SIZE];
    for (size_t i = 0; i < KEY_SIZE; ++i) rotated[i] = key[(key_offset + i) % KEY_SIZE];
    uint64_t word;
    std::memcpy(&word, rotated, KEY_SIZE);
    return word;
}

void Apply(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    const uint64_t word{KeyWordAt(key, key_offset)};
    if (word == 0) return;
    size_t i{0};
    for (; i + KEY_SIZE <= data.size(); i += KEY_SIZE) {
        uint64_t v;
        std::memcpy(&v, data.data() + i, KEY_SIZE);
        v ^= word;
        std::memcpy(data.data() + i, &v, KEY_SIZE);
    }
    std::byte k[KEY_SIZE];
    std::memcpy(k, &word, KEY_SIZE);
    for (size_t t = 0; i < data.size(); ++i, ++t) data[i] ^= k[t];
}

void ApplyChunked(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    for (const size_t len : chunks) {
        Apply(key, data.first(len), key_offset);
        data = data.subspan(len);
        key_offset += len;
    }
}

Bytes SerializeKey(const Key& key)
{
    return SerializeByteVector({reinterpret_cast<const uint8_t*>(key.data()), key.size()});
}

KeyParse ParseKey(std::span<const uint8_t> serialized)
{
    KeyParse out;
    try {
        ByteReader r{serialized};
        const uint64_t n{ReadCompactSizeFrom(r)};
        const auto bytes{r.Take(static_cast<size_t>(n))};
        if (n != KEY_SIZE) throw StreamError{KEY_SIZE_ERROR};
        out.key.assign(bytes.begin(), bytes.end());
        out.consumed = r.Consumed();
    } catch (const StreamError& e) {
        out.error = e.what();
    }
    return out;
}

std::string HexKey(const Key& key) { return Hex(std::span<const std::byte>{key}); }

const equifuzz::xorpair::Side WORDS_NO_PEEL{"64-bit words, no peel", Apply, ApplyChunked, SerializeKey, ParseKey, HexKey};

} // namespace

EQUIFUZZ_EXPORT_SIDE(equifuzz::xorpair, WORDS_NO_PEEL)
