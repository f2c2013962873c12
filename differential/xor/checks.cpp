// The xor pair's runs: a side applied to an input (in a buffer placed against the heap block's end),
// the definition it must equal, the key round trip, and their report fields.
#include "pair.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace equifuzz::xorpair {
namespace {

//! A buffer whose data starts at a chosen residue modulo 8 and ends exactly at the heap block's
//! end, so AddressSanitizer sees a read or write past the data.
class PlacedBuffer
{
public:
    PlacedBuffer(const Bytes& data, size_t align)
        : m_storage(std::make_unique<std::byte[]>(align % 8 + data.size())), m_size{data.size()}
    {
        // new[] returns storage aligned to at least 16 bytes, so the data lands at residue `align`.
        m_data = m_storage.get() + align % 8;
        if (m_size > 0) std::memcpy(m_data, data.data(), m_size);
    }
    std::span<std::byte> Span() { return {m_data, m_size}; }
    bool Holds(std::span<const uint8_t> bytes) const
    {
        return bytes.size() == m_size && (m_size == 0 || std::memcmp(m_data, bytes.data(), m_size) == 0);
    }
    Bytes ToBytes() const { return {reinterpret_cast<const uint8_t*>(m_data), reinterpret_cast<const uint8_t*>(m_data) + m_size}; }
    //! Puts `data` back (same size): the next application starts from the input again.
    void Reset(const Bytes& data)
    {
        if (m_size > 0) std::memcpy(m_data, data.data(), m_size);
    }

private:
    std::unique_ptr<std::byte[]> m_storage;
    std::byte* m_data{nullptr};
    size_t m_size{0};
};

} // namespace

EQUIFUZZ_NO_COVERAGE Bytes Definition(const ApplyInput& in)
{
    Bytes out{in.data};
    for (size_t i = 0; i < out.size(); ++i) out[i] ^= static_cast<uint8_t>(in.key[(in.key_offset + i) % KEY_SIZE]);
    return out;
}

bool KeyRoundTrip::GivesBack(const Key& key) const
{
    const std::span key_bytes{reinterpret_cast<const uint8_t*>(key.data()), key.size()};
    return reparsed.error.empty() && std::ranges::equal(reparsed.key, key_bytes);
}

KeyRoundTrip RunKeyRoundTrip(const Side& side, const Key& key)
{
    KeyRoundTrip out;
    out.serialized = side.serialize_key(key);
    out.hex = side.hex_key(key);
    out.reparsed = side.parse_key(out.serialized);
    return out;
}

bool AppliesAsDefined(const Side& side, const ApplyInput& in, std::span<const uint8_t> expected, const KeyRoundTrip& key)
{
    // What the full check requires of RunApply's outcome, checked in place: the one-shot equal to
    // the definition (so to every other side's), a second application giving the input back, the
    // chunked application (from the input, which the buffer now holds again) equal to the
    // one-shot, and the key round trip equal to the original side's.
    PlacedBuffer buffer{in.data, in.align};
    side.apply(in.key, buffer.Span(), in.key_offset);
    if (!buffer.Holds(expected)) return false;
    side.apply(in.key, buffer.Span(), in.key_offset);
    if (!buffer.Holds(in.data)) return false;
    side.apply_chunked(in.key, buffer.Span(), in.key_offset, in.chunks);
    if (!buffer.Holds(expected)) return false;
    return RunKeyRoundTrip(side, in.key) == key;
}

ApplyOutcome RunApply(const Side& side, const ApplyInput& in)
{
    ApplyOutcome out;
    // One placed buffer for the three applications (one heap block per side and input).
    PlacedBuffer buffer{in.data, in.align};
    side.apply(in.key, buffer.Span(), in.key_offset);
    out.oneshot = buffer.ToBytes();
    side.apply(in.key, buffer.Span(), in.key_offset);
    out.twice = buffer.ToBytes();

    buffer.Reset(in.data);
    side.apply_chunked(in.key, buffer.Span(), in.key_offset, in.chunks);
    out.chunked = buffer.ToBytes();

    out.key = RunKeyRoundTrip(side, in.key);
    return out;
}

Outcome ApplyOutcome::ToOutcome() const
{
    Outcome o;
    o.Add("oneshot", oneshot).Add("chunked", chunked).Add("twice", twice);
    o.Add("key_serialized", key.serialized).Add("key_hex", key.hex);
    o.Add("key_reparse_error", key.reparsed.error).Add("key_reparsed", key.reparsed.key).Add("key_reparse_consumed", key.reparsed.consumed);
    return o;
}

KeyOutcome RunKey(const Side& side, const KeyInput& in)
{
    KeyOutcome out;
    out.parse = side.parse_key(in.serialized);
    if (out.parse.error.empty() && out.parse.key.size() == KEY_SIZE) {
        Key key;
        std::memcpy(key.data(), out.parse.key.data(), KEY_SIZE);
        out.reserialized = side.serialize_key(key);
        out.key_hex = side.hex_key(key);
    }
    return out;
}

Outcome KeyOutcome::ToOutcome() const
{
    Outcome o;
    // The error decides acceptance here (empty: the key was read); what a rejected read consumed
    // is a diagnostic.
    o.Add("error", parse.error).As(FieldClass::VERDICT).Add("key", parse.key);
    o.Add("consumed", parse.consumed).As(parse.error.empty() ? FieldClass::DATA : FieldClass::DIAGNOSTIC);
    o.Add("reserialized", reserialized).Add("key_hex", key_hex);
    return o;
}

} // namespace equifuzz::xorpair
