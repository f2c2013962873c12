// Reading a CompactSize-prefixed byte vector, as a stream does when it unserializes one.
// Shared by sides that only *use* the encoding (the obfuscation key); the serialization pair
// has its own two implementations and fuzzes them against each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace equifuzz {

//! MAX_SIZE: the largest CompactSize a range-checked read accepts.
inline constexpr uint64_t MAX_COMPACT_SIZE{0x02000000};

//! Thrown with the exact message the stream would give.
struct StreamError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

//! A read cursor over bytes that fails like a DataStream ("DataStream::read(): end of data").
class ByteReader
{
public:
    explicit ByteReader(std::span<const uint8_t> bytes) : m_bytes{bytes} {}
    uint8_t Byte() { return Take(1)[0]; }
    std::span<const uint8_t> Take(size_t n)
    {
        if (n > m_bytes.size() - m_pos) throw StreamError{"DataStream::read(): end of data"};
        const auto out{m_bytes.subspan(m_pos, n)};
        m_pos += n;
        return out;
    }
    uint64_t LittleEndian(size_t width)
    {
        uint64_t v{0};
        const auto b{Take(width)};
        for (size_t i = 0; i < width; ++i) v |= uint64_t{b[i]} << (8 * i);
        return v;
    }
    size_t Consumed() const { return m_pos; }

private:
    std::span<const uint8_t> m_bytes;
    size_t m_pos{0};
};

//! CompactSize decoding: prefix, payload, canonical check, then the range check.
inline uint64_t ReadCompactSizeFrom(ByteReader& r, bool range_check = true)
{
    const uint8_t prefix{r.Byte()};
    uint64_t v{prefix};
    uint64_t minimum{0};
    if (prefix == 253) {
        v = r.LittleEndian(2);
        minimum = 253;
    } else if (prefix == 254) {
        v = r.LittleEndian(4);
        minimum = 0x10000;
    } else if (prefix == 255) {
        v = r.LittleEndian(8);
        minimum = 0x100000000;
    }
    if (v < minimum) throw StreamError{"non-canonical ReadCompactSize()"};
    if (range_check && v > MAX_COMPACT_SIZE) throw StreamError{"ReadCompactSize(): size too large"};
    return v;
}

//! Appends the low `width` bytes of v, little-endian.
inline void AppendLE(std::vector<uint8_t>& out, uint64_t v, size_t width)
{
    for (size_t i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

//! Appends n as a CompactSize: one byte below 253, else 253/254/255 and 2/4/8 bytes LE. The one
//! writer for code that only uses the encoding (transactions, sighashes, tapleaf hashes, element
//! vectors); the serialization pair's own sides write it their own ways, to be fuzzed.
inline void AppendCompactSize(std::vector<uint8_t>& out, uint64_t n)
{
    if (n < 253) {
        out.push_back(static_cast<uint8_t>(n));
    } else if (n <= 0xffff) {
        out.push_back(253);
        AppendLE(out, n, 2);
    } else if (n <= 0xffffffff) {
        out.push_back(254);
        AppendLE(out, n, 4);
    } else {
        out.push_back(255);
        AppendLE(out, n, 8);
    }
}

//! How many bytes AppendCompactSize writes for n.
inline constexpr size_t CompactSizeLength(uint64_t n)
{
    return n < 253 ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

//! Appends a byte vector as serialized: CompactSize length, then the bytes.
inline void AppendByteVector(std::vector<uint8_t>& out, std::span<const uint8_t> bytes)
{
    AppendCompactSize(out, bytes.size());
    out.insert(out.end(), bytes.begin(), bytes.end());
}

//! Serialized form of a byte vector: CompactSize length, then the bytes.
inline std::vector<uint8_t> SerializeByteVector(std::span<const uint8_t> bytes)
{
    std::vector<uint8_t> out;
    out.reserve(CompactSizeLength(bytes.size()) + bytes.size()); // one allocation
    AppendByteVector(out, bytes);
    return out;
}

} // namespace equifuzz
