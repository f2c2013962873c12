// Optimized side: #31551's batched block/undo I/O (spec 2.4, 4 "After #31551").
// A BufferedWriter collects serialized bytes and hands each full (or final) buffer to
// AutoFile::write_buffer, which XORs it in place at the file position and writes it in one call.
// A BufferedReader serves reads from a read-ahead buffer; what the buffer lacks is read directly
// from the file (AutoFile::read, which throws on a short read), then the buffer is refilled with
// detail_fread (which may come back short). The undo checksum is computed before writing.
#include <blockfile/file.h>

#include <cstring>
#include <stdexcept>

// Master's flush retry (spec 2.7): when 1, flush() forgets its pending bytes only after
// write_buffer succeeded, so a failed write leaves already-XORed bytes pending and the
// destructor's flush XORs them a second time (plaintext). The default forgets them before
// writing, so nothing is ever obfuscated twice. adapters/master_retry.cpp builds the master shape.
#ifndef EQUIFUZZ_BLOCKFILE_MASTER_RETRY
#define EQUIFUZZ_BLOCKFILE_MASTER_RETRY 0
#endif

namespace equifuzz::blockfile {
namespace {

constexpr bool MASTER_RETRY{EQUIFUZZ_BLOCKFILE_MASTER_RETRY != 0};

class AutoFile : public AutoFileReader
{
public:
    using AutoFileReader::AutoFileReader;

    //! Obfuscates `src` in place at the file position, then writes it in one call.
    void write_buffer(std::span<uint8_t> src)
    {
        if (m_obfuscate) Obfuscate(src, m_key, m_position);
        if (m_file.Write(src.data(), src.size()) != src.size()) throw std::runtime_error{WRITE_BUFFER_FAILED};
        m_position += src.size();
    }
};

class BufferedWriter
{
public:
    BufferedWriter(AutoFile& file, size_t size) : m_file{file}, m_buf(size) {}

    //! Copies what fits and flushes as soon as the buffer is full (Core's order: a write that
    //! fills the buffer exactly writes it out at once, not on the next write).
    void write(std::span<const uint8_t> src)
    {
        while (const size_t n{std::min(m_buf.size() - m_used, src.size())}) {
            std::memcpy(m_buf.data() + m_used, src.data(), n);
            m_used += n;
            if (m_used == m_buf.size()) flush();
            src = src.subspan(n);
        }
    }

    void flush()
    {
        if (m_used == 0) return;
        if constexpr (MASTER_RETRY) {
            m_file.write_buffer({m_buf.data(), m_used});
            m_used = 0;
        } else {
            const size_t n{m_used};
            m_used = 0;
            m_file.write_buffer({m_buf.data(), n});
        }
    }

    //! The bytes handed over so far, as a file position.
    uint64_t position() const { return m_file.position() + m_used; }

    //! ~BufferedWriter(): flushes what is pending. Returns the message if that flush threw (a
    //! destructor is noexcept, so C++ would call std::terminate), else an empty string.
    std::string Destroy() noexcept
    {
        try {
            flush();
        } catch (const std::exception& e) {
            return e.what();
        }
        return {};
    }

private:
    AutoFile& m_file;
    std::vector<uint8_t> m_buf;
    size_t m_used{0};
};

class BufferedReader
{
public:
    BufferedReader(AutoFile& file, size_t size) : m_file{file}, m_capacity{size} {}

    void read(std::span<uint8_t> dst)
    {
        const size_t n{std::min(m_buf.size() - m_pos, dst.size())};
        if (n > 0) std::memcpy(dst.data(), m_buf.data() + m_pos, n);
        m_pos += n;
        dst = dst.subspan(n);
        if (!dst.empty()) {
            m_file.read(dst);
            m_buf.resize(m_capacity);
            m_buf.resize(m_file.detail_fread(m_buf));
            m_pos = 0;
        }
    }

private:
    AutoFile& m_file;
    size_t m_capacity;
    std::vector<uint8_t> m_buf; //!< starts empty
    size_t m_pos{0};
};

void WriteFields(BufferedWriter& out, const WriteOp& op)
{
    size_t done{0};
    for (const size_t len : op.chunks) {
        out.write(std::span<const uint8_t>{op.data}.subspan(done, len));
        done += len;
    }
}

void WriteHeader(BufferedWriter& out, size_t size)
{
    out.write(MAGIC);
    Bytes le;
    PutLE32(le, static_cast<uint32_t>(size));
    out.write(le);
}

WriteResult Write(std::FILE* f, const WriteJob& job)
{
    WriteResult out;
    FaultyFile raw{f, job.faults};
    raw.Seek(job.start);
    AutoFile file{raw, job.key, job.start};
    BufferedWriter writer{file, job.buffer_size};
    try {
        for (const WriteOp& op : job.ops) {
            switch (op.kind) {
            case WriteOp::Kind::WRITE: writer.write(op.data); break;
            case WriteOp::Kind::SEEK:
                writer.flush();
                file.seek(op.pos);
                break;
            case WriteOp::Kind::FLUSH: writer.flush(); break;
            case WriteOp::Kind::BLOCK:
                WriteHeader(writer, op.data.size());
                WriteFields(writer, op);
                break;
            case WriteOp::Kind::UNDO: {
                // The checksum first, with a separate hasher over prev hash || undo bytes.
                Bytes hashed{op.prev_hash.begin(), op.prev_hash.end()};
                hashed.insert(hashed.end(), op.data.begin(), op.data.end());
                const Hash256 checksum{DoubleSha256(hashed)};
                WriteHeader(writer, op.data.size());
                WriteFields(writer, op);
                writer.write(checksum);
                break;
            }
            }
            out.positions.push_back(writer.position());
        }
        // Master relies on the destructor for the last flush; the fixed shape flushes explicitly
        // so a failure is reported as an error instead of escaping a destructor.
        if constexpr (!MASTER_RETRY) writer.flush();
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.terminate_error = writer.Destroy();
    out.terminated = !out.terminate_error.empty();
    return out;
}

ReadResult Read(std::FILE* f, const ReadJob& job)
{
    ReadResult out;
    FaultyFile raw{f, job.faults};
    raw.Seek(job.offset);
    AutoFile file{raw, job.key, job.offset};
    BufferedReader reader{file, job.buffer_size};
    try {
        for (const size_t len : job.chunks) {
            Bytes buf(len);
            reader.read(buf);
            out.data.insert(out.data.end(), buf.begin(), buf.end());
            ++out.reads_ok;
        }
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

RecordsResult ReadRecords(std::FILE* f, const RecordsJob& job)
{
    RecordsResult out;
    FaultyFile raw{f, {}};
    raw.Seek(job.offset);
    AutoFile file{raw, job.key, job.offset};
    BufferedReader reader{file, job.buffer_size};
    try {
        for (size_t i = 0; i < job.count; ++i) {
            Bytes header(HEADER_BYTES);
            reader.read(header);
            Bytes body(GetLE32(std::span<const uint8_t>{header}.subspan(4)));
            reader.read(body);
            if (job.undo) {
                Bytes stored(32);
                reader.read(stored);
                Bytes hashed{job.prev_hashes.at(i).begin(), job.prev_hashes.at(i).end()};
                hashed.insert(hashed.end(), body.begin(), body.end());
                const Hash256 expected{DoubleSha256(hashed)};
                if (!std::equal(expected.begin(), expected.end(), stored.begin())) throw std::runtime_error{UNDO_CHECKSUM_MISMATCH};
            }
            out.magics.emplace_back(header.begin(), header.begin() + 4);
            out.bodies.push_back(std::move(body));
        }
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

const Side OPTIMIZED{"BufferedWriter/BufferedReader (#31551)", Write, Read, ReadRecords, MASTER_RETRY};

} // namespace
} // namespace equifuzz::blockfile

EQUIFUZZ_EXPORT_SIDE(equifuzz::blockfile, equifuzz::blockfile::OPTIMIZED)
