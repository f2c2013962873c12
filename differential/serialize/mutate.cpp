// The serialization targets' structured mutation: a CompactSize length followed by exactly that
// many bytes, at the lengths where the prefix changes width.
#include "pair.h"

#include <array>

namespace equifuzz::serialize {

bool InsertSizedBytes(Mutation& m)
{
    // Long inputs (the seeds' real blocks) are left to libFuzzer's own mutations.
    if (m.bytes.size() > 4096) return false;
    static constexpr std::array<size_t, 8> LENGTHS{0, 1, 2, 252, 253, 254, 255, 256};
    static constexpr std::array<size_t, 4> LONG{0xfffe, 0xffff, 0x10000, 0x10001};
    // 64 KiB strings only now and then: every input that holds one costs every later run its read.
    const size_t length{m.OneIn(32) ? m.Pick(LONG) : m.OneIn(2) ? m.Pick(LENGTHS) : m.Between(0, 300)};
    Bytes piece;
    // The minimal prefix, or (one time in eight) a wider, non-canonical one.
    const bool wide{m.OneIn(8)};
    if (length < 253 && !wide) {
        piece.push_back(static_cast<uint8_t>(length));
    } else if (length <= 0xffff && !(wide && length >= 253)) {
        piece = {0xfd, static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8)};
    } else {
        piece = {0xfe, static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length >> 16), 0};
    }
    const Bytes payload{m.Filler(length)};
    piece.insert(piece.end(), payload.begin(), payload.end());
    // Never before the first byte: it chooses the kind.
    return m.Insert(1 + m.Below(m.bytes.size()), piece);
}

} // namespace equifuzz::serialize
