// blockfile_records' structured mutation: the records input decoded into its choices, changed
// where the readers' bugs live (the last record's checksum, the previous-block hash, a size
// field, a torn record, bodies around the 4096-byte copy chunk, buffers the size of a record),
// and written back as the bytes DecodeRecords reads (EncodeRecords).
#include "pair.h"

#include <algorithm>
#include <array>

namespace equifuzz::blockfile {
namespace {

constexpr size_t MAX_OFFSET{17};
constexpr size_t MAX_RECORDS{4};
constexpr size_t SMALL_LENGTH{300};
constexpr size_t CHECKSUM_BYTES{32};

// Mirrors of the decoder's helpers, in the order they read.
void EncodeKey(FdpEncoder& e, const Key& key)
{
    if (std::all_of(key.begin(), key.end(), [](uint8_t b) { return b == 0; })) {
        EncodeChoice(e, KeyForm::ZERO);
        return;
    }
    EncodeChoice(e, KeyForm::EVERY_BYTE);
    for (const uint8_t b : key) e.Integral<uint8_t>(b);
}

void EncodeBufferSize(FdpEncoder& e, size_t size)
{
    if (size == DEFAULT_BUFFER) {
        EncodeChoice(e, BufferSize::DEFAULT);
    } else if (size >= WRITE_CHUNK - 8 && size <= WRITE_CHUNK + 8) {
        EncodeChoice(e, BufferSize::AROUND_CHUNK);
        e.Integral(size, WRITE_CHUNK - 8, WRITE_CHUNK + 8);
    } else if (size <= 16) {
        EncodeChoice(e, BufferSize::TINY);
        e.Integral(size, 1, 16);
    } else {
        EncodeChoice(e, BufferSize::SMALL);
        e.Integral(size, 1, 600);
    }
}

void EncodeDataLength(FdpEncoder& e, size_t length)
{
    if (length > SMALL_LENGTH) { // across the copy chunk
        EncodeChoice(e, DataLength::ACROSS_CHUNK);
        e.Integral(length, WRITE_CHUNK - 16, 2 * WRITE_CHUNK + 16);
        return;
    }
    EncodeChoice(e, DataLength::NEAR_MULTIPLE);
    e.Bool(true); // ConsumeLengthNearMultiple: any length up to its maximum
    e.Integral(length, 0, SMALL_LENGTH);
}

size_t RecordSize(const RecordsChoices& c, size_t i)
{
    return HEADER_BYTES + c.bodies[i].size() + (c.undo ? CHECKSUM_BYTES : 0);
}

//! Where record `i` starts in the plain file.
size_t RecordStart(const RecordsChoices& c, size_t i)
{
    size_t at{c.prefix.size()};
    for (size_t k = 0; k < i; ++k) at += RecordSize(c, k);
    return at;
}

Hash256 RandomHash(Mutation& m)
{
    Hash256 h{};
    const Bytes bytes{m.Filler(h.size())};
    std::copy(bytes.begin(), bytes.end(), h.begin());
    return h;
}

//! A body length that matters to the readers: empty, one byte, around the key's 8, the copy chunk.
size_t NewLength(Mutation& m)
{
    static constexpr std::array<size_t, 12> LENGTHS{0, 1, 7, 8, 9, 31, 32, 33, WRITE_CHUNK - 1, WRITE_CHUNK, WRITE_CHUNK + 1, 2 * WRITE_CHUNK};
    return m.OneIn(2) ? m.Pick(LENGTHS) : m.Below(SMALL_LENGTH + 1);
}

void Spoil(Mutation& m, RecordsChoices& c)
{
    const size_t last{c.bodies.size() - 1};
    RecordsInput::Spoil& s{c.spoil};
    s.which = m.OneIn(2) ? last : m.Below(c.bodies.size());
    const size_t at{RecordStart(c, s.which)};
    const size_t end{at + RecordSize(c, s.which)};
    static constexpr std::array<Spoiler, 5> SPOILERS{Spoiler::BYTE_CHANGED, Spoiler::SIZE_FIELD_OFF, Spoiler::FILE_CUT,
                                                     Spoiler::ONE_MORE_RECORD, Spoiler::PREV_HASH_DIFFERS};
    s.kind = m.OneIn(4) ? PickChoice<Spoiler>(m) : m.Pick(SPOILERS);
    switch (s.kind) {
    case Spoiler::BYTE_CHANGED: // often in the checksum, else anywhere in the record
        s.value = c.undo && m.OneIn(2) ? m.Between(end - CHECKSUM_BYTES, end - 1) : m.Between(at, end - 1);
        s.flip = static_cast<uint8_t>(m.Between(1, 255));
        break;
    case Spoiler::SIZE_FIELD_OFF: s.value = m.Below(33); break; // the change (+16)
    case Spoiler::FILE_CUT: s.value = m.OneIn(2) ? end - 1 : m.Between(at, end - 1); break;
    case Spoiler::PREV_HASH_DIFFERS: s.value = m.Below(CHECKSUM_BYTES); break; // the hash byte that differs
    case Spoiler::ONE_MORE_RECORD:
    case Spoiler::NONE: break;
    }
}

bool Change(Mutation& m, RecordsChoices& c)
{
    switch (m.Below(10)) {
    case 0:
    case 1:
    case 2: // a spoiler, often on the last record
        Spoil(m, c);
        return true;
    case 3: // rev records (with checksums) or blk records
        c.undo = !c.undo;
        c.prev_hashes.clear();
        if (c.undo) {
            for (size_t i = 0; i < c.bodies.size(); ++i) c.prev_hashes.push_back(RandomHash(m));
        }
        return true;
    case 4: // one more record: a copy of another or a new length
        if (c.bodies.size() >= MAX_RECORDS) return false;
        c.bodies.push_back(m.OneIn(2) ? c.bodies[m.Below(c.bodies.size())] : m.Filler(NewLength(m)));
        if (c.undo) c.prev_hashes.push_back(m.OneIn(2) ? c.prev_hashes.back() : RandomHash(m));
        return true;
    case 5: { // one record fewer
        if (c.bodies.size() <= 1) return false;
        const size_t i{m.Below(c.bodies.size())};
        c.bodies.erase(c.bodies.begin() + static_cast<std::ptrdiff_t>(i));
        if (c.undo) c.prev_hashes.erase(c.prev_hashes.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
    }
    case 6: { // a body's length
        Bytes& body{c.bodies[m.Below(c.bodies.size())]};
        const size_t length{NewLength(m)};
        const Bytes more{m.Filler(length > body.size() ? length - body.size() : 0)};
        body.resize(std::min(length, body.size()));
        body.insert(body.end(), more.begin(), more.end());
        return true;
    }
    case 7: { // a buffer a record long, a little less or more, tiny, the copy chunk or the default
        const size_t record{RecordSize(c, m.Below(c.bodies.size()))};
        static constexpr std::array<size_t, 6> SIZES{1, 2, 8, 9, WRITE_CHUNK, DEFAULT_BUFFER};
        c.buffer_size = m.OneIn(2) ? m.Pick(SIZES) : std::max<size_t>(1, record + m.Between(0, 2) - 1);
        return true;
    }
    case 8: { // the key: none, one byte, or eight
        c.key.fill(0);
        if (m.OneIn(3)) break;
        if (m.OneIn(2)) {
            c.key[m.Below(KEY_SIZE)] = static_cast<uint8_t>(m.Between(1, 255));
        } else {
            for (uint8_t& b : c.key) b = m.Byte();
        }
        return true;
    }
    default: // the other data before the first record
        c.prefix = m.Filler(m.Below(MAX_OFFSET + 1));
        return true;
    }
    return true;
}

} // namespace

RecordsChoices ChoicesOf(const RecordsInput& in)
{
    RecordsChoices c;
    c.key = in.job.key;
    c.buffer_size = in.job.buffer_size;
    c.undo = in.job.undo;
    c.prefix.assign(in.plain.begin(), in.plain.begin() + static_cast<std::ptrdiff_t>(in.job.offset));
    c.bodies = in.bodies;
    if (c.undo) {
        c.prev_hashes.assign(in.job.prev_hashes.begin(), in.job.prev_hashes.begin() + static_cast<std::ptrdiff_t>(in.bodies.size()));
        // The job's hash differs from the one written by one bit when that was the spoiler.
        if (in.spoil.kind == Spoiler::PREV_HASH_DIFFERS) c.prev_hashes.at(in.spoil.which).at(in.spoil.value) ^= 1;
    }
    c.spoil = in.spoil;
    return c;
}

Bytes EncodeRecords(const RecordsChoices& c)
{
    FdpEncoder e;
    EncodeKey(e, c.key);
    EncodeBufferSize(e, c.buffer_size);
    e.Bool(c.undo);
    const size_t offset{std::min(c.prefix.size(), MAX_OFFSET)};
    e.Integral(offset, 0, MAX_OFFSET);
    e.Bytes(std::span{c.prefix}.first(offset));
    const size_t records{std::clamp<size_t>(c.bodies.size(), 1, MAX_RECORDS)};
    e.Integral(records, 1, MAX_RECORDS);
    RecordsChoices written{c}; // what the decoder will read: within its ranges
    written.prefix.resize(offset);
    written.bodies.resize(records);
    for (Bytes& body : written.bodies) {
        if (body.size() > 2 * WRITE_CHUNK + 16) body.resize(2 * WRITE_CHUNK + 16);
        if (body.size() > SMALL_LENGTH && body.size() < WRITE_CHUNK - 16) body.resize(SMALL_LENGTH);
    }
    written.prev_hashes.resize(written.undo ? records : 0);
    for (size_t i = 0; i < records; ++i) {
        EncodeDataLength(e, written.bodies[i].size());
        e.Bytes(written.bodies[i]);
        if (written.undo) e.Bytes(written.prev_hashes[i]);
    }
    const RecordsInput::Spoil& s{c.spoil};
    const size_t which{std::min(s.which, records - 1)};
    e.Integral(which, 0, records - 1);
    EncodeChoice(e, s.kind);
    const size_t at{RecordStart(written, which)};
    const size_t end{RecordStart(written, records)};
    switch (s.kind) {
    case Spoiler::BYTE_CHANGED:
        e.Integral(s.value, at, (which + 1 < records ? RecordStart(written, which + 1) : end) - 1);
        e.Integral(s.flip, 1, 255);
        break;
    case Spoiler::SIZE_FIELD_OFF: e.Integral(s.value, 0, 32); break;
    case Spoiler::FILE_CUT: e.Integral(s.value, at, end - 1); break;
    case Spoiler::PREV_HASH_DIFFERS:
        if (written.undo) e.Integral(s.value, 0, CHECKSUM_BYTES - 1);
        break;
    case Spoiler::ONE_MORE_RECORD:
    case Spoiler::NONE: break;
    }
    return e.Finish();
}

bool MutateRecords(Mutation& m)
{
    return DecodeChangeEncode(
        m, [](FuzzedDataProvider& fdp) { return ChoicesOf(DecodeRecords(fdp)); }, [&](RecordsChoices& c) { return Change(m, c); },
        [](const RecordsChoices& c) { return EncodeRecords(c); });
}

} // namespace equifuzz::blockfile
