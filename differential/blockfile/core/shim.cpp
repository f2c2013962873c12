// The blockfile pair's Bitcoin Core sides: Core's own AutoFile (streams.cpp), and in a tree with
// #31551 its BufferedWriter / BufferedReader, compiled from a Core tree (cmake/CoreTrees.cmake
// builds this file once per side, its symbols kept apart). One shim serves every tree from before
// #31551 (AutoFile written field by field, util::Xor) through #31551 (BufferedWriter over
// write_buffer) to #31144 and later (AutoFile keyed by an Obfuscation).
//
// Faults reach Core's own write path through the FILE it is given: a glibc fopencookie stream,
// unbuffered, over an in-memory image of the pair's temporary file (put back on the file when a
// write job ends). Its write function lands up to the fault plan's budget and returns how many
// bytes landed, never -1: glibc turns a -1 into SIZE_MAX, then writes bytes past the caller's
// buffer and reports full success (glibc 2.36 libio: new_do_write, _IO_new_file_xsputn).
// Unbuffered, each fwrite reaches the write function once, with the caller's own bytes (checked
// for sizes 0 to 100000), so a fault hits exactly the call our FaultyFile fails. Reads come one
// byte per call on such a stream; a read fault returns -1 (ferror: "fread failed"), the end of the
// real file returns 0 (feof: "end of file").
//
// BufferedWriter's destructor is flush(), and in these trees a failed flush keeps its (already
// obfuscated) bytes pending, so the destructor writes them again, or throws from a noexcept
// destructor: std::terminate (spec 2.7; confirmed on Core's code, FINDINGS.md). The shim
// calls that flush itself before the writer is destroyed, catching what would escape the
// destructor; after such a throw Core's process would be gone, so the stream goes dead (nothing
// more reaches the file) and the destructor's own flush finds nothing to do.
#include "../side.h"

#include <equifuzz/core_shim.h>

#include <hash.h>
#include <serialize.h>
#include <streams.h>
#include <uint256.h>
#include <util/fs_helpers.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>


namespace equifuzz::blockfile {
namespace {

// ---- the fault layer: an unbuffered fopencookie stream over an image of the real file ----
//! The cookie's file is an in-memory image of the real temporary file: loaded from it when the
//! stream opens and (for writes) put back when it closes. Core's code sees the same FILE calls and
//! the same answers as over the file itself; the image only spares the ~500 system calls a field-
//! by-field AutoFile makes per input on an unbuffered stream (most of blockfile_write's time).
struct Cookie {
    Cookie(std::FILE* real_file, const FaultPlan& fault_plan) : real{real_file}, plan{fault_plan}
    {
        struct stat st {};
        if (fstat(fileno(real), &st) != 0) throw std::runtime_error{"equifuzz: fstat of the scratch file failed"};
        image.resize(static_cast<size_t>(st.st_size));
        if (!image.empty() && pread(fileno(real), image.data(), image.size(), 0) != static_cast<ssize_t>(image.size())) {
            throw std::runtime_error{"equifuzz: reading the scratch file failed"};
        }
    }
    //! Puts the image back on the real file (its size never shrinks: it only grows by writes).
    void WriteBack() const
    {
        std::fflush(real);
        if (!image.empty() && pwrite(fileno(real), image.data(), image.size(), 0) != static_cast<ssize_t>(image.size())) {
            throw std::runtime_error{"equifuzz: writing the scratch file failed"};
        }
    }
    std::FILE* real;
    FaultPlan plan;
    Bytes image;
    uint64_t pos{0};
    uint64_t written{0};
    uint64_t read{0};
    bool write_failed{false};
    bool dead{false}; //!< the process would have terminated: nothing more lands
};

//! A write at `pos`: a write past the end leaves zeros before it, as on a file.
size_t PutAt(Cookie& k, const char* buf, size_t n)
{
    if (k.pos + n > k.image.size()) k.image.resize(static_cast<size_t>(k.pos + n), 0);
    std::memcpy(k.image.data() + k.pos, buf, n);
    return n;
}

//! A read at `pos`: short at the end of the file.
size_t GetAt(const Cookie& k, char* buf, size_t n)
{
    if (k.pos >= k.image.size()) return 0;
    const size_t got{static_cast<size_t>(std::min<uint64_t>(n, k.image.size() - k.pos))};
    std::memcpy(buf, k.image.data() + k.pos, got);
    return got;
}

ssize_t CookieWrite(void* c, const char* buf, size_t n)
{
    auto& k{*static_cast<Cookie*>(c)};
    if (k.dead) return static_cast<ssize_t>(n);
    size_t land{n};
    if (!(k.write_failed && !k.plan.sticky)) {
        const uint64_t left{k.plan.fail_after > k.written ? k.plan.fail_after - k.written : 0};
        if (n > left) {
            k.write_failed = true;
            land = k.plan.short_write ? static_cast<size_t>(left) : 0;
        }
    }
    if (land > 0) land = PutAt(k, buf, land);
    k.pos += land;
    k.written += land;
    return static_cast<ssize_t>(land);
}

ssize_t CookieRead(void* c, char* buf, size_t n)
{
    auto& k{*static_cast<Cookie*>(c)};
    if (k.read >= k.plan.read_fail_after) return -1;
    const size_t want{static_cast<size_t>(std::min<uint64_t>(n, k.plan.read_fail_after - k.read))};
    const size_t got{GetAt(k, buf, want)};
    k.pos += got;
    k.read += got;
    return static_cast<ssize_t>(got);
}

int CookieSeek(void* c, off64_t* offset, int whence)
{
    auto& k{*static_cast<Cookie*>(c)};
    int64_t base{0};
    if (whence == SEEK_CUR) base = static_cast<int64_t>(k.pos);
    if (whence == SEEK_END) base = static_cast<int64_t>(k.image.size());
    if (base + *offset < 0) return -1;
    k.pos = static_cast<uint64_t>(base + *offset);
    *offset = static_cast<off64_t>(k.pos);
    return 0;
}

int CookieClose(void*) { return 0; }

//! An unbuffered stream at `start` whose writes and reads obey `cookie.plan`.
std::FILE* OpenFaulty(Cookie& cookie, uint64_t start)
{
    std::FILE* f{fopencookie(&cookie, "r+", cookie_io_functions_t{CookieRead, CookieWrite, CookieSeek, CookieClose})};
    if (!f) throw std::runtime_error{"equifuzz: fopencookie failed"};
    std::setvbuf(f, nullptr, _IONBF, 0);
    std::fseek(f, static_cast<long>(start), SEEK_SET);
    return f;
}

// ---- Core's objects ----
// The block files' key as Core reads it from xor.dat: 8 bytes, zero or not. Since #31144 AutoFile
// takes it as an Obfuscation; before, as the bytes themselves.
#ifdef EQUIFUZZ_CORE_HAS_OBFUSCATION
Obfuscation CoreKey(const Key& key)
{
    static_assert(KEY_SIZE == Obfuscation::KEY_SIZE);
    return Obfuscation{std::span<const std::byte, Obfuscation::KEY_SIZE>{reinterpret_cast<const std::byte*>(key.data()), KEY_SIZE}};
}
#else
std::vector<std::byte> CoreKey(const Key& key)
{
    return std::vector<std::byte>{reinterpret_cast<const std::byte*>(key.data()), reinterpret_cast<const std::byte*>(key.data()) + key.size()};
}
#endif

//! Core's AutoFile over a FILE the caller owns: released, never closed, when the job ends.
#ifdef EQUIFUZZ_CORE_HAS_OBFUSCATION
//! Since #31144 ~AutoFile logs a failed fclose through Core's logging, which this side does not
//! link (it would bring the logger, its clock and thread names). Released, the destructor has
//! nothing left to do: fclose of no file, and members that are all trivially destructible. So the
//! AutoFile lives in storage of its own and its destructor is not run.
class CoreFile
{
public:
    CoreFile(std::FILE* f, const Key& key) { new (m_storage) AutoFile{f, CoreKey(key)}; }
    ~CoreFile()
    {
        static_assert(std::is_trivially_destructible_v<Obfuscation> && std::is_trivially_destructible_v<std::optional<int64_t>>);
        (void)Get().release();
    }
    CoreFile(const CoreFile&) = delete;
    CoreFile& operator=(const CoreFile&) = delete;
    AutoFile& Get() { return *std::launder(reinterpret_cast<AutoFile*>(m_storage)); }

private:
    alignas(AutoFile) std::byte m_storage[sizeof(AutoFile)];
};
#else
class CoreFile
{
public:
    CoreFile(std::FILE* f, const Key& key) : m_file{f, CoreKey(key)} {}
    ~CoreFile() { (void)m_file.release(); }
    AutoFile& Get() { return m_file; }

private:
    AutoFile m_file;
};
#endif

std::span<const std::byte> AsBytes(std::span<const uint8_t> b) { return std::as_bytes(b); }

uint256 ToUint256(const Hash256& h)
{
    uint256 out;
    std::copy(h.begin(), h.end(), out.begin());
    return out;
}

//! Hands `op` to `out` the way WriteBlock/WriteBlockUndo do: magic and size, then the record's
//! fields, then (undo) the checksum from Core's HashWriter over the previous hash and the record.
template <typename Stream>
void WriteRecord(Stream& out, const WriteOp& op)
{
    out.write(AsBytes(MAGIC));
    out << static_cast<uint32_t>(op.data.size());
    size_t done{0};
    for (const size_t len : op.chunks) {
        out.write(AsBytes(std::span<const uint8_t>{op.data}.subspan(done, len)));
        done += len;
    }
    if (op.kind == WriteOp::Kind::UNDO) {
        HashWriter hasher{};
        hasher << ToUint256(op.prev_hash);
        hasher.write(AsBytes(op.data));
        out << hasher.GetHash();
    }
}

uint64_t OpBytes(const WriteOp& op)
{
    if (op.kind == WriteOp::Kind::WRITE) return op.data.size();
    if (op.kind == WriteOp::Kind::BLOCK) return HEADER_BYTES + op.data.size();
    if (op.kind == WriteOp::Kind::UNDO) return HEADER_BYTES + op.data.size() + 32;
    return 0;
}

#ifndef EQUIFUZZ_CORE_HAS_BUFFERED_WRITER
//! Before #31551: every field straight into the obfuscating AutoFile.
WriteResult WriteJobOnce(std::FILE* f, Cookie*, const WriteJob& job)
{
    WriteResult out;
    CoreFile held{f, job.key};
    AutoFile& file{held.Get()};
    try {
        for (const WriteOp& op : job.ops) {
            switch (op.kind) {
            case WriteOp::Kind::WRITE: file.write(AsBytes(op.data)); break;
            case WriteOp::Kind::SEEK: file.seek(static_cast<int64_t>(op.pos), SEEK_SET); break;
            case WriteOp::Kind::FLUSH: break; // nothing is buffered
            case WriteOp::Kind::BLOCK:
            case WriteOp::Kind::UNDO: WriteRecord(file, op); break;
            }
            out.positions.push_back(static_cast<uint64_t>(file.tell()));
        }
    } catch (const std::exception& e) {
        out.error = CoreMessage(e);
    }
    (void)file.release(); // the stream is closed by the caller
    return out;
}
#else
//! #31551: a BufferedWriter over the AutoFile, flushed by its destructor as WriteBlock leaves it.
WriteResult WriteJobOnce(std::FILE* f, Cookie* cookie, const WriteJob& job)
{
    WriteResult out;
    CoreFile held{f, job.key};
    AutoFile& file{held.Get()};
    std::optional<BufferedWriter<AutoFile>> writer;
    writer.emplace(file, job.buffer_size);
    try {
        uint64_t handed{job.start}; // bytes handed to the writer, as a file position
        for (const WriteOp& op : job.ops) {
            switch (op.kind) {
            case WriteOp::Kind::WRITE: writer->write(AsBytes(op.data)); break;
            case WriteOp::Kind::SEEK:
                writer->flush();
                file.seek(static_cast<int64_t>(op.pos), SEEK_SET);
                handed = op.pos;
                break;
            case WriteOp::Kind::FLUSH: writer->flush(); break;
            case WriteOp::Kind::BLOCK:
            case WriteOp::Kind::UNDO: WriteRecord(*writer, op); break;
            }
            handed += OpBytes(op);
            out.positions.push_back(handed);
        }
#ifdef EQUIFUZZ_CORE_HAS_EXPLICIT_FLUSH
        // WriteBlock / WriteBlockUndo flush explicitly (upstream's fix): a failure is theirs to
        // report, and the destructor has nothing left to write.
        writer->flush();
#endif
    } catch (const std::exception& e) {
        out.error = CoreMessage(e);
    }
    // ~BufferedWriter() { flush(); }: its flush, run here (during unwinding when an op threw).
    try {
        writer->flush();
    } catch (const std::exception& e) {
        out.terminated = true; // thrown from a noexcept destructor: std::terminate
        out.terminate_error = CoreMessage(e);
        if (cookie) cookie->dead = true;
    }
    writer.reset();
    (void)file.release();
    return out;
}
#endif

//! A job without faults that asks for it (benchmarks) runs on the given FILE itself, with stdio's
//! buffering, as Core runs on the FILE fopen gives it; the fault layer needs an unbuffered stream.
bool Direct(bool direct, const FaultPlan& plan) { return direct && plan.fail_after == NO_LIMIT && plan.read_fail_after == NO_LIMIT; }

WriteResult Write(std::FILE* real, const WriteJob& job)
{
    if (Direct(job.direct, job.faults)) {
        std::fseek(real, static_cast<long>(job.start), SEEK_SET);
        WriteResult out{WriteJobOnce(real, nullptr, job)};
        std::fflush(real);
        return out;
    }
    Cookie cookie{real, job.faults};
    std::FILE* f{OpenFaulty(cookie, job.start)};
    WriteResult out{WriteJobOnce(f, &cookie, job)};
    std::fclose(f);
    cookie.WriteBack();
    return out;
}

// ---- reads ----
#ifdef EQUIFUZZ_CORE_HAS_BUFFERED_WRITER
//! #31551: a BufferedReader owning the AutoFile (ReadBlockUndo's shape).
template <typename F>
auto WithReader(std::FILE* f, const Key& key, size_t buffer_size, F&& use)
{
    CoreFile held{f, key};
    AutoFile& file{held.Get()};
    BufferedReader reader{std::move(file), buffer_size};
    return use(reader);
}
#else
//! Before #31551: straight from the AutoFile.
template <typename F>
auto WithReader(std::FILE* f, const Key& key, size_t, F&& use)
{
    CoreFile held{f, key};
    return use(held.Get());
}
#endif

ReadResult Read(std::FILE* real, const ReadJob& job)
{
    Cookie cookie{real, job.faults};
    std::FILE* f{OpenFaulty(cookie, job.offset)};
    ReadResult out{WithReader(f, job.key, job.buffer_size, [&](auto& in) {
        ReadResult r;
        try {
            for (const size_t len : job.chunks) {
                Bytes buf(len);
                in.read(std::as_writable_bytes(std::span{buf}));
                r.data.insert(r.data.end(), buf.begin(), buf.end());
                ++r.reads_ok;
            }
        } catch (const std::exception& e) {
            r.error = CoreMessage(e);
        }
        return r;
    })};
    std::fclose(f);
    return out;
}

RecordsResult ReadRecords(std::FILE* real, const RecordsJob& job)
{
    const bool direct{Direct(job.direct, {})};
    std::optional<Cookie> cookie;
    std::FILE* f{real};
    if (direct) {
        std::fseek(real, static_cast<long>(job.offset), SEEK_SET);
    } else {
        cookie.emplace(real, FaultPlan{});
        f = OpenFaulty(*cookie, job.offset);
    }
    RecordsResult out{WithReader(f, job.key, job.buffer_size, [&](auto& in) {
        RecordsResult r;
        try {
            for (size_t i = 0; i < job.count; ++i) {
                std::array<uint8_t, 4> magic;
                uint32_t size;
                in.read(std::as_writable_bytes(std::span{magic}));
                in >> size;
                Bytes body(size);
                if (job.undo) {
                    // ReadBlockUndo: a HashVerifier over the stream, fed the previous block's hash.
                    HashVerifier verifier{in};
                    verifier << ToUint256(job.prev_hashes.at(i));
                    verifier.read(std::as_writable_bytes(std::span{body}));
                    uint256 stored;
                    in >> stored;
                    if (stored != verifier.GetHash()) throw std::runtime_error{UNDO_CHECKSUM_MISMATCH};
                } else {
                    in.read(std::as_writable_bytes(std::span{body}));
                }
                r.magics.emplace_back(magic.begin(), magic.end());
                r.bodies.push_back(std::move(body));
            }
        } catch (const std::exception& e) {
            r.error = CoreMessage(e);
        }
        return r;
    })};
    if (!direct) std::fclose(f);
    return out;
}

const Side CORE{"Bitcoin Core AutoFile"
#ifdef EQUIFUZZ_CORE_HAS_BUFFERED_WRITER
                " + BufferedWriter/BufferedReader"
#endif
                " (" EQUIFUZZ_CORE_TREE ")",
                Write, Read, ReadRecords,
#ifdef EQUIFUZZ_CORE_HAS_FLUSH_FORGETS_PENDING
                /*retries_failed_flush=*/false
#else
                /*retries_failed_flush=*/true
#endif
};

} // namespace
} // namespace equifuzz::blockfile

EQUIFUZZ_EXPORT_SIDE(equifuzz::blockfile, equifuzz::blockfile::CORE)

// streams.cpp's AutoFile::Commit and Truncate refer to these (util/fs_helpers.cpp, which would
// bring the filesystem, random and logging code with it). The pair never calls Commit or Truncate.
bool FileCommit(FILE*) { std::abort(); }
bool TruncateFile(FILE*, unsigned int) { std::abort(); }
