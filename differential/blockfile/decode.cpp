// The blockfile pair's list of sides, its decoders (fuzz bytes to a write job, a file to read, records)
// and their descriptions; every choice among named values is read through choices.json
// (ConsumeChoice), and mutate.cpp writes the same choices back.
#include "pair.h"
#include "file.h"

#include <algorithm>

EQUIFUZZ_DEFINE_SIDES(equifuzz::blockfile)

namespace equifuzz::blockfile {

namespace {

Key ConsumeKey(FuzzedDataProvider& fdp)
{
    Key key{};
    switch (ConsumeChoice<KeyForm>(fdp)) {
    case KeyForm::ZERO: break; // no obfuscation at all
    case KeyForm::ONE_BYTE: key[fdp.ConsumeIntegralInRange<size_t>(0, KEY_SIZE - 1)] = fdp.ConsumeIntegralInRange<uint8_t>(1, 255); break;
    case KeyForm::EVERY_BYTE:
        for (auto& b : key) b = fdp.ConsumeIntegral<uint8_t>();
    }
    return key;
}

size_t ConsumeBufferSize(FuzzedDataProvider& fdp)
{
    switch (ConsumeChoice<BufferSize>(fdp)) {
    case BufferSize::TINY: return fdp.ConsumeIntegralInRange<size_t>(1, 16);
    case BufferSize::SMALL: return fdp.ConsumeIntegralInRange<size_t>(1, 600);
    case BufferSize::AROUND_CHUNK: return fdp.ConsumeIntegralInRange<size_t>(WRITE_CHUNK - 8, WRITE_CHUNK + 8);
    case BufferSize::DEFAULT: return DEFAULT_BUFFER;
    }
    return DEFAULT_BUFFER;
}

size_t ConsumeDataLength(FuzzedDataProvider& fdp)
{
    // Mostly small fields; sometimes across the 4096-byte copy chunk of AutoFile::write.
    if (ConsumeChoice<DataLength>(fdp) == DataLength::ACROSS_CHUNK) {
        return fdp.ConsumeIntegralInRange<size_t>(WRITE_CHUNK - 16, 2 * WRITE_CHUNK + 16);
    }
    return ConsumeLengthNearMultiple(fdp, 8, 300);
}

constexpr size_t MAX_OPS{16};
constexpr uint64_t MAX_TOTAL{40000};

} // namespace

WriteJob DecodeWrite(FuzzedDataProvider& fdp, bool allow_seek, bool with_faults)
{
    WriteJob job;
    job.key = ConsumeKey(fdp);
    job.start = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint64_t>(0, 17) : fdp.ConsumeIntegralInRange<uint64_t>(0, 70000);
    job.buffer_size = ConsumeBufferSize(fdp);
    if (with_faults) {
        job.faults.fail_after = fdp.ConsumeIntegralInRange<uint64_t>(0, 20000);
        job.faults.short_write = fdp.ConsumeBool();
        job.faults.sticky = fdp.ConsumeBool();
    }
    const size_t count{fdp.ConsumeIntegralInRange<size_t>(1, MAX_OPS)};
    uint64_t pos{job.start}, extent{job.start}, total{0};
    for (size_t i = 0; i < count && total < MAX_TOTAL; ++i) {
        WriteOp op;
        const WriteOpKind kind{ConsumeChoice<WriteOpKind>(fdp, allow_seek ? WriteOpKind::SEEK : WriteOpKind::UNDO)};
        if (kind == WriteOpKind::WRITE) {
            op.kind = WriteOp::Kind::WRITE;
            op.data = ConsumeBytesPadded(fdp, ConsumeDataLength(fdp));
        } else if (kind == WriteOpKind::FLUSH) {
            op.kind = WriteOp::Kind::FLUSH;
        } else if (kind == WriteOpKind::BLOCK || kind == WriteOpKind::UNDO) {
            op.kind = kind == WriteOpKind::UNDO ? WriteOp::Kind::UNDO : WriteOp::Kind::BLOCK;
            op.data = ConsumeBytesPadded(fdp, ConsumeDataLength(fdp));
            op.chunks = ConsumeChunks(fdp, op.data.size(), 12);
            if (op.kind == WriteOp::Kind::UNDO) {
                const Bytes h{ConsumeBytesPadded(fdp, 32)};
                std::copy(h.begin(), h.end(), op.prev_hash.begin());
            }
        } else {
            op.kind = WriteOp::Kind::SEEK;
            op.pos = fdp.ConsumeIntegralInRange<uint64_t>(0, extent + 16);
        }
        if (op.kind == WriteOp::Kind::SEEK) {
            pos = op.pos;
        } else {
            const uint64_t n{OpStream(op).size()};
            pos += n;
            total += n;
        }
        extent = std::max(extent, pos);
        job.ops.push_back(std::move(op));
    }
    return job;
}

Description Describe(const WriteJob& job)
{
    Description d;
    d.Add("key", Bytes(job.key.begin(), job.key.end())).Add("start", job.start).Add("start_mod_8", job.start % 8);
    d.Add("buffer_size", uint64_t{job.buffer_size});
    if (job.faults.fail_after != NO_LIMIT) {
        d.Add("fail_after", job.faults.fail_after).Add("short_write", job.faults.short_write).Add("sticky", job.faults.sticky);
    }
    std::string ops;
    Bytes stream;
    for (const WriteOp& op : job.ops) {
        if (!ops.empty()) ops += ' ';
        switch (op.kind) {
        case WriteOp::Kind::WRITE: ops += "write:" + std::to_string(op.data.size()); break;
        case WriteOp::Kind::SEEK: ops += "seek:" + std::to_string(op.pos); break;
        case WriteOp::Kind::FLUSH: ops += "flush"; break;
        case WriteOp::Kind::BLOCK:
        case WriteOp::Kind::UNDO: {
            ops += op.kind == WriteOp::Kind::BLOCK ? "block:" : "undo:";
            ops += std::to_string(op.data.size()) + "[";
            for (size_t i = 0; i < op.chunks.size(); ++i) ops += (i ? "," : "") + std::to_string(op.chunks[i]);
            ops += "]";
            break;
        }
        }
        const Bytes s{OpStream(op)};
        stream.insert(stream.end(), s.begin(), s.end());
    }
    d.Add("ops", ops).Add("stream_size", uint64_t{stream.size()}).Add("stream", stream);
    return d;
}

ReadInput DecodeRead(FuzzedDataProvider& fdp)
{
    ReadInput in;
    in.job.key = ConsumeKey(fdp);
    in.job.buffer_size = ConsumeBufferSize(fdp);
    const size_t length{fdp.ConsumeBool() ? ConsumeLengthNearMultiple(fdp, 8, 600) : fdp.ConsumeIntegralInRange<size_t>(0, 3 * WRITE_CHUNK)};
    // Truncated files: the last bytes of the record missing.
    in.file_size = fdp.ConsumeIntegralInRange<int>(0, 3) == 0 ? fdp.ConsumeIntegralInRange<uint64_t>(0, length) : length;
    in.job.offset = fdp.ConsumeIntegralInRange<uint64_t>(0, length + 2);
    if (fdp.ConsumeIntegralInRange<int>(0, 3) == 0) in.job.faults.read_fail_after = fdp.ConsumeIntegralInRange<uint64_t>(0, length);
    const size_t count{fdp.ConsumeIntegralInRange<size_t>(1, 24)};
    for (size_t i = 0; i < count; ++i) {
        in.job.chunks.push_back(CallOneOf(
            fdp, [&] { return fdp.ConsumeIntegralInRange<size_t>(0, 9); }, [&] { return fdp.ConsumeIntegralInRange<size_t>(0, 80); },
            [&] { return ConsumeLengthNearMultiple(fdp, 8, 700); }, [&] { return fdp.ConsumeIntegralInRange<size_t>(0, 2 * WRITE_CHUNK); }));
    }
    in.plain = ConsumeBytesPadded(fdp, length);
    return in;
}

Description Describe(const ReadInput& in)
{
    Description d;
    d.Add("key", Bytes(in.job.key.begin(), in.job.key.end())).Add("buffer_size", uint64_t{in.job.buffer_size});
    d.Add("plain_size", uint64_t{in.plain.size()}).Add("file_size", in.file_size).Add("offset", in.job.offset);
    if (in.job.faults.read_fail_after != NO_LIMIT) d.Add("read_fail_after", in.job.faults.read_fail_after);
    std::string chunks;
    for (const size_t c : in.job.chunks) chunks += (chunks.empty() ? "" : ",") + std::to_string(c);
    d.Add("chunks", chunks).Add("plain", in.plain);
    return d;
}

Bytes ObfuscatedFile(const ReadInput& in)
{
    Bytes disk{in.plain.begin(), in.plain.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(in.file_size, in.plain.size()))};
    Obfuscate(disk, in.job.key, 0);
    return disk;
}

RecordsInput DecodeRecords(FuzzedDataProvider& fdp)
{
    RecordsInput in;
    in.job.key = ConsumeKey(fdp);
    in.job.buffer_size = ConsumeBufferSize(fdp);
    in.job.undo = fdp.ConsumeBool();
    in.job.offset = fdp.ConsumeIntegralInRange<uint64_t>(0, 17);
    in.plain = ConsumeBytesPadded(fdp, static_cast<size_t>(in.job.offset));
    const size_t records{fdp.ConsumeIntegralInRange<size_t>(1, 4)};
    std::vector<size_t> starts;
    for (size_t i = 0; i < records; ++i) {
        WriteOp op;
        op.kind = in.job.undo ? WriteOp::Kind::UNDO : WriteOp::Kind::BLOCK;
        op.data = ConsumeBytesPadded(fdp, ConsumeDataLength(fdp));
        if (in.job.undo) {
            const Bytes h{ConsumeBytesPadded(fdp, 32)};
            std::copy(h.begin(), h.end(), op.prev_hash.begin());
            in.job.prev_hashes.push_back(op.prev_hash);
        }
        starts.push_back(in.plain.size());
        const Bytes stream{OpStream(op)};
        in.plain.insert(in.plain.end(), stream.begin(), stream.end());
        in.bodies.push_back(std::move(op.data));
    }
    in.job.count = records;
    in.file_size = in.plain.size();
    // What can go wrong on disk or in the caller. A size field changes only in the last record and
    // only by a little: a reader allocates what a size field says, which could otherwise be 4 GB.
    const size_t which{fdp.ConsumeIntegralInRange<size_t>(0, records - 1)};
    const size_t at{starts[which]};
    in.spoil.which = which;
    in.spoil.kind = ConsumeChoice<Spoiler>(fdp);
    switch (in.spoil.kind) {
    case Spoiler::BYTE_CHANGED: // its magic, body or checksum
    {
        const size_t end{which + 1 < records ? starts[which + 1] : in.plain.size()};
        size_t pos{fdp.ConsumeIntegralInRange<size_t>(at, end - 1)};
        in.spoil.value = pos;
        if (pos >= at + 4 && pos < at + HEADER_BYTES) pos = at; // size fields: only SIZE_FIELD_OFF changes them
        in.spoil.flip = fdp.ConsumeIntegralInRange<uint8_t>(1, 255);
        in.plain[pos] ^= in.spoil.flip;
        in.spoiler = "byte " + std::to_string(pos) + " changed";
        break;
    }
    case Spoiler::SIZE_FIELD_OFF:
    {
        const size_t last{starts.back()};
        const uint32_t size{static_cast<uint32_t>(in.bodies.back().size())};
        const int delta{fdp.ConsumeIntegralInRange<int>(-16, 16)};
        in.spoil.value = static_cast<uint64_t>(delta + 16);
        const uint32_t changed{delta < 0 && static_cast<uint32_t>(-delta) > size ? 0 : static_cast<uint32_t>(static_cast<int64_t>(size) + delta)};
        for (int i = 0; i < 4; ++i) in.plain[last + 4 + i] = static_cast<uint8_t>(changed >> (8 * i));
        in.spoiler = "last size field " + std::to_string(size) + " -> " + std::to_string(changed);
        break;
    }
    case Spoiler::FILE_CUT:
        in.file_size = fdp.ConsumeIntegralInRange<uint64_t>(at, in.plain.size() - 1);
        in.spoil.value = in.file_size;
        in.spoiler = "file cut at " + std::to_string(in.file_size);
        break;
    case Spoiler::ONE_MORE_RECORD:
        in.job.count = records + 1;
        if (in.job.undo) in.job.prev_hashes.emplace_back();
        in.spoiler = "one record more asked for";
        break;
    case Spoiler::PREV_HASH_DIFFERS:
        if (in.job.undo) {
            in.spoil.value = fdp.ConsumeIntegralInRange<size_t>(0, 31);
            in.job.prev_hashes[which][in.spoil.value] ^= 1;
            in.spoiler = "prev hash of record " + std::to_string(which) + " differs";
        }
        break;
    case Spoiler::NONE: break;
    }
    return in;
}

Description Describe(const RecordsInput& in)
{
    Description d;
    d.Add("key", Bytes(in.job.key.begin(), in.job.key.end())).Add("buffer_size", uint64_t{in.job.buffer_size});
    d.Add("undo", in.job.undo).Add("offset", in.job.offset).Add("count", uint64_t{in.job.count});
    d.Add("file_size", in.file_size).Add("spoiler", in.spoiler.empty() ? std::string{"none"} : in.spoiler);
    for (size_t i = 0; i < in.bodies.size(); ++i) d.Add("body_" + std::to_string(i), in.bodies[i]);
    for (size_t i = 0; i < in.job.prev_hashes.size(); ++i) {
        d.Add("prev_hash_" + std::to_string(i), Bytes(in.job.prev_hashes[i].begin(), in.job.prev_hashes[i].end()));
    }
    return d;
}

Bytes ObfuscatedFile(const RecordsInput& in)
{
    Bytes disk{in.plain.begin(), in.plain.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(in.file_size, in.plain.size()))};
    Obfuscate(disk, in.job.key, 0);
    return disk;
}

} // namespace equifuzz::blockfile
