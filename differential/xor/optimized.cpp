// Optimized side: the Obfuscation class after #31144 (spec 2.2). The key is one 64-bit word in
// native byte order with its eight byte-rotations precomputed, so the rotation for any offset is
// a table lookup; the data is processed as an alignment peel, 64-byte blocks, 8-byte words and a
// tail; an all-zero key returns at once.
#include "side.h"

#include <common/compact_size.h>

#include <bit>
#include <cstring>

namespace equifuzz::xorpair {
namespace {

class Obfuscation
{
public:
    explicit Obfuscation(const Key& key)
    {
        uint64_t k;
        std::memcpy(&k, key.data(), KEY_SIZE);
        // The in-memory bytes of m_rotations[j] must read key[j], key[j+1], ...: on a
        // little-endian host that is a right rotation, on a big-endian one a left rotation.
        for (unsigned j = 0; j < KEY_SIZE; ++j) {
            m_rotations[j] = std::endian::native == std::endian::little ? std::rotr(k, 8 * j) : std::rotl(k, 8 * j);
        }
    }

    explicit operator bool() const { return m_rotations[0] != 0; }

    void operator()(std::span<std::byte> target, uint64_t key_offset) const
    {
        if (!*this) return;
        uint64_t rot{m_rotations[key_offset % KEY_SIZE]};
        if (target.size() > KEY_SIZE) {
            // Peel the unaligned head so the word loop below works on aligned addresses.
            const size_t misalign{reinterpret_cast<uintptr_t>(target.data()) % KEY_SIZE};
            if (misalign != 0) {
                const size_t head{KEY_SIZE - misalign};
                XorBytes(target.first(head), rot);
                target = target.subspan(head);
                rot = m_rotations[(key_offset + head) % KEY_SIZE];
            }
            for (; target.size() >= 8 * KEY_SIZE; target = target.subspan(8 * KEY_SIZE)) {
                for (size_t i = 0; i < 8; ++i) XorWord(target.subspan(i * KEY_SIZE, KEY_SIZE), rot);
            }
            for (; target.size() >= KEY_SIZE; target = target.subspan(KEY_SIZE)) {
                XorWord(target.first(KEY_SIZE), rot);
            }
        }
        XorBytes(target, rot);
    }

private:
    static void XorWord(std::span<std::byte> word, uint64_t rot)
    {
        uint64_t v;
        std::memcpy(&v, word.data(), KEY_SIZE);
        v ^= rot;
        std::memcpy(word.data(), &v, KEY_SIZE);
    }

    //! XORs up to 8 bytes with the first bytes of `rot` as laid out in memory.
    static void XorBytes(std::span<std::byte> bytes, uint64_t rot)
    {
        std::byte k[KEY_SIZE];
        std::memcpy(k, &rot, KEY_SIZE);
        for (size_t i = 0; i < bytes.size(); ++i) bytes[i] ^= k[i];
    }

    uint64_t m_rotations[KEY_SIZE];
};

void Apply(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    Obfuscation{key}(data, key_offset);
}

void ApplyChunked(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    // AutoFile::write_buffer: each buffer is obfuscated in place at m_position, which advances.
    const Obfuscation obfuscation{key};
    uint64_t position{key_offset};
    for (const size_t len : chunks) {
        obfuscation(data.first(len), position);
        data = data.subspan(len);
        position += len;
    }
}

Bytes SerializeKey(const Key& key)
{
    const auto* p{reinterpret_cast<const uint8_t*>(key.data())};
    return SerializeByteVector({p, key.size()});
}

KeyParse ParseKey(std::span<const uint8_t> serialized)
{
    // Unserialize reads a byte vector, then insists on exactly eight bytes.
    KeyParse out;
    try {
        ByteReader r{serialized};
        const uint64_t n{ReadCompactSizeFrom(r)};
        const auto bytes{r.Take(static_cast<size_t>(n))};
        if (bytes.size() != KEY_SIZE) throw StreamError{KEY_SIZE_ERROR};
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

const Side OPTIMIZED{"64-bit Obfuscation", Apply, ApplyChunked, SerializeKey, ParseKey, HexKey};

} // namespace
} // namespace equifuzz::xorpair

EQUIFUZZ_EXPORT_SIDE(equifuzz::xorpair, equifuzz::xorpair::OPTIMIZED)
