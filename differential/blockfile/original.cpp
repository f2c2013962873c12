// Original side: blocks and undo data streamed field by field into an obfuscating AutoFile
// (spec 2.4, 4 "Original"). Every write is copied into 4096-byte chunks, each XORed at the
// current file position and written at once; reads go straight to the file and are XORed at the
// position they were read from. The undo checksum is computed while the data is written.
#include <blockfile/file.h>

#include <cstring>
#include <stdexcept>

namespace equifuzz::blockfile {
namespace {

class AutoFile : public AutoFileReader
{
public:
    using AutoFileReader::AutoFileReader;

    void write(std::span<const uint8_t> src)
    {
        if (!m_obfuscate) {
            if (m_file.Write(src.data(), src.size()) != src.size()) throw std::runtime_error{WRITE_FAILED};
            m_position += src.size();
            return;
        }
        // Never obfuscate the caller's bytes: copy a chunk, XOR the copy at the position, write it.
        uint8_t chunk[WRITE_CHUNK];
        while (!src.empty()) {
            const size_t n{std::min(src.size(), WRITE_CHUNK)};
            std::memcpy(chunk, src.data(), n);
            Obfuscate({chunk, n}, m_key, m_position);
            if (m_file.Write(chunk, n) != n) throw std::runtime_error{WRITE_BUFFER_FAILED};
            m_position += n;
            src = src.subspan(n);
        }
    }
};

void WriteFields(AutoFile& file, const WriteOp& op, Bytes* hashed)
{
    size_t done{0};
    for (const size_t len : op.chunks) {
        const auto field{std::span<const uint8_t>{op.data}.subspan(done, len)};
        file.write(field);
        if (hashed) hashed->insert(hashed->end(), field.begin(), field.end());
        done += len;
    }
}

void WriteHeader(AutoFile& file, size_t size)
{
    file.write(MAGIC);
    Bytes le;
    PutLE32(le, static_cast<uint32_t>(size));
    file.write(le);
}

WriteResult Write(std::FILE* f, const WriteJob& job)
{
    WriteResult out;
    FaultyFile raw{f, job.faults};
    raw.Seek(job.start);
    AutoFile file{raw, job.key, job.start};
    try {
        for (const WriteOp& op : job.ops) {
            switch (op.kind) {
            case WriteOp::Kind::WRITE: file.write(op.data); break;
            case WriteOp::Kind::SEEK: file.seek(op.pos); break;
            case WriteOp::Kind::FLUSH: break; // nothing is buffered
            case WriteOp::Kind::BLOCK:
                WriteHeader(file, op.data.size());
                WriteFields(file, op, nullptr);
                break;
            case WriteOp::Kind::UNDO: {
                // A HashWriter sees the previous block hash, then every undo byte as it is written.
                Bytes hashed{op.prev_hash.begin(), op.prev_hash.end()};
                WriteHeader(file, op.data.size());
                WriteFields(file, op, &hashed);
                file.write(DoubleSha256(hashed));
                break;
            }
            }
            out.positions.push_back(file.position());
        }
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

ReadResult Read(std::FILE* f, const ReadJob& job)
{
    ReadResult out;
    FaultyFile raw{f, job.faults};
    raw.Seek(job.offset);
    AutoFile file{raw, job.key, job.offset};
    try {
        for (const size_t len : job.chunks) {
            Bytes buf(len);
            file.read(buf);
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
    try {
        for (size_t i = 0; i < job.count; ++i) {
            Bytes header(HEADER_BYTES);
            file.read(header);
            Bytes body(GetLE32(std::span<const uint8_t>{header}.subspan(4)));
            file.read(body);
            if (job.undo) {
                // HashVerifier: the checksum covers the previous block hash, then the undo bytes.
                Bytes stored(32);
                file.read(stored);
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

const Side ORIGINAL{"AutoFile field by field", Write, Read, ReadRecords, /*retries_failed_flush=*/false};

} // namespace
} // namespace equifuzz::blockfile

EQUIFUZZ_EXPORT_SIDE(equifuzz::blockfile, equifuzz::blockfile::ORIGINAL)
