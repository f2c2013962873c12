// The xor pair's Bitcoin Core sides: Core's own obfuscation code, compiled from a Core tree
// (cmake/CoreObjects.cmake builds this file once per tree, its symbols kept apart).
//
// A tree with util/obfuscation.h (#31144, kernel 0.1.1 on) is driven through `Obfuscation`:
// operator()(span, key_offset), its Serialize/Unserialize and HexKey(). An older tree is driven
// through `util::Xor(span, key, key_offset)` with the key as the byte vector the block files
// and the database stored, read and written with DataStream's `>>` and `<<`; at a key offset that is
// a multiple of the key's length, through DataStream::Xor, where the tree has it.
// Chunked application is what AutoFile does: each write obfuscated at the running position.
#include "../side.h"

#include <equifuzz/core_shim.h>

#include <streams.h>
#include <util/strencodings.h>
#ifdef EQUIFUZZ_CORE_HAS_OBFUSCATION
#include <util/obfuscation.h>
#endif

#include <algorithm>
#include <ios>
#include <string>
#include <vector>

namespace equifuzz::xorpair {
namespace {

Bytes ToBytes(const DataStream& s)
{
    const auto* p{reinterpret_cast<const uint8_t*>(s.data())};
    return {p, p + s.size()};
}

#ifdef EQUIFUZZ_CORE_HAS_OBFUSCATION
Obfuscation MakeObfuscation(const Key& key)
{
    return Obfuscation{std::span<const std::byte, KEY_SIZE>{key}};
}

void Apply(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    MakeObfuscation(key)(data, key_offset);
}

void ApplyChunked(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    const Obfuscation obfuscation{MakeObfuscation(key)};
    for (const size_t len : chunks) {
        obfuscation(data.first(len), key_offset);
        data = data.subspan(len);
        key_offset += len;
    }
}

Bytes SerializeKey(const Key& key)
{
    DataStream s;
    s << MakeObfuscation(key);
    return ToBytes(s);
}

KeyParse ParseKey(std::span<const uint8_t> serialized)
{
    KeyParse out;
    DataStream s{serialized};
    try {
        Obfuscation obfuscation;
        s >> obfuscation;
        out.consumed = serialized.size() - s.size();
        // Obfuscation has no key accessor: its own serialization is CompactSize(8) + the key.
        DataStream back;
        back << obfuscation;
        out.key.assign(reinterpret_cast<const uint8_t*>(back.data()) + 1, reinterpret_cast<const uint8_t*>(back.data()) + back.size());
    } catch (const std::exception& e) {
        out.error = CoreMessage(e);
    }
    return out;
}

std::string HexKey(const Key& key)
{
    return MakeObfuscation(key).HexKey();
}

constexpr bool KEEPS_ANY_KEY_LENGTH{false};
#define EQUIFUZZ_CORE_API "Obfuscation"
#else
std::vector<std::byte> KeyVector(const Key& key) { return {key.begin(), key.end()}; }

//! DataStream::Xor(key): the stream's whole content obfuscated from key offset 0 (what the
//! database wrapper did to its values), where the tree has it.
template <typename Stream>
concept XorsItsContent = requires(Stream s, const std::vector<unsigned char>& key) { s.Xor(key); };

void Apply(const Key& key, std::span<std::byte> data, uint64_t key_offset)
{
    if constexpr (XorsItsContent<DataStream>) {
        if (key_offset % KEY_SIZE == 0) {
            // The same bytes through the stream's own Xor (offset 0 and its multiples agree).
            DataStream s{std::span<const std::byte>{data}};
            const auto* k{reinterpret_cast<const unsigned char*>(key.data())};
            s.Xor(std::vector<unsigned char>(k, k + key.size()));
            std::copy(s.begin(), s.end(), data.begin());
            return;
        }
    }
    util::Xor(data, KeyVector(key), key_offset);
}

void ApplyChunked(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks)
{
    const auto key_vector{KeyVector(key)};
    for (const size_t len : chunks) {
        util::Xor(data.first(len), key_vector, key_offset);
        data = data.subspan(len);
        key_offset += len;
    }
}

Bytes SerializeKey(const Key& key)
{
    DataStream s;
    s << std::vector<unsigned char>(reinterpret_cast<const unsigned char*>(key.data()), reinterpret_cast<const unsigned char*>(key.data()) + key.size());
    return ToBytes(s);
}

KeyParse ParseKey(std::span<const uint8_t> serialized)
{
    KeyParse out;
    DataStream s{serialized};
    try {
        std::vector<unsigned char> key;
        s >> key;
        out.consumed = serialized.size() - s.size();
        out.key.assign(key.begin(), key.end());
    } catch (const std::exception& e) {
        out.error = CoreMessage(e);
    }
    return out;
}

std::string HexKey(const Key& key)
{
    return HexStr(std::span<const std::byte>{key});
}

constexpr bool KEEPS_ANY_KEY_LENGTH{true};
#define EQUIFUZZ_CORE_API "util::Xor"
#endif

const Side CORE{"Bitcoin Core " EQUIFUZZ_CORE_API " (" EQUIFUZZ_CORE_TREE ")", Apply, ApplyChunked, SerializeKey, ParseKey, HexKey, KEEPS_ANY_KEY_LENGTH};

} // namespace
} // namespace equifuzz::xorpair

EQUIFUZZ_EXPORT_SIDE(equifuzz::xorpair, equifuzz::xorpair::CORE)
