// Block/undo file pair: the interface every side offers (spec 2.4, 2.5, 2.7 and 4).
//
// The original streams every serialized field straight into an obfuscating AutoFile: each write
// is copied in 4096-byte chunks, XORed at the file position and written (AutoFile::write). The
// optimized side is #31551: a BufferedWriter collects the bytes and obfuscates them once per
// flush through AutoFile::write_buffer at the file position; a BufferedReader serves reads from
// a read-ahead buffer, reads what the buffer lacks directly, then refills. Both run against a
// real temporary file behind a file object that can fail after a chosen number of bytes.
#pragma once

#include <common/transaction.h>
#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace equifuzz::blockfile {

inline constexpr size_t KEY_SIZE{8};
using Key = std::array<uint8_t, KEY_SIZE>;

//! Mainnet network magic, the first four bytes of every blk/rev record.
inline constexpr std::array<uint8_t, 4> MAGIC{0xf9, 0xbe, 0xb4, 0xd9};
//! magic + LE32 size (STORAGE_HEADER_BYTES).
inline constexpr size_t HEADER_BYTES{8};
//! Copy chunk of AutoFile::write when obfuscating.
inline constexpr size_t WRITE_CHUNK{4096};
//! BufferedWriter / BufferedReader default size.
inline constexpr size_t DEFAULT_BUFFER{1 << 16};
inline constexpr uint64_t NO_LIMIT{std::numeric_limits<uint64_t>::max()};

//! How the file object fails (spec 2.7). Writes: once `fail_after` bytes have reached the file,
//! the call that would pass that mark fails; it lands the bytes up to the mark (`short_write`)
//! or none of its bytes. A `sticky` fault fails every later call too (a full disk); otherwise
//! only that one call fails (a transient error, after which a retry succeeds).
struct FaultPlan {
    uint64_t fail_after{NO_LIMIT};
    bool short_write{true};
    bool sticky{true};
    //! Reads: after this many bytes every read returns short with the error flag set.
    uint64_t read_fail_after{NO_LIMIT};
};

//! One step of a write schedule.
struct WriteOp {
    enum class Kind : uint8_t { WRITE, SEEK, FLUSH, BLOCK, UNDO };
    Kind kind{Kind::WRITE};
    Bytes data;                 //!< WRITE: the bytes; BLOCK/UNDO: the record body
    std::vector<size_t> chunks; //!< BLOCK/UNDO: the body handed over as these field writes
    uint64_t pos{0};            //!< SEEK: absolute file position
    Hash256 prev_hash{};        //!< UNDO: the previous block's hash, first in the checksum
};

struct WriteJob {
    Key key{};
    uint64_t start{0};          //!< the file is opened at this position (FlatFileSeq::Open)
    size_t buffer_size{DEFAULT_BUFFER};
    std::vector<WriteOp> ops;
    FaultPlan faults{};
    //! Benchmarks: with no faults planned, Core's sides work on the given FILE itself, with stdio's
    //! buffering, instead of through the fault layer (an unbuffered stream). Our sides always do.
    bool direct{false};
};

struct WriteResult {
    std::string error;              //!< the message of the exception that stopped the schedule
    std::vector<uint64_t> positions;//!< logical position after each completed op (bytes handed over)
    bool terminated{false};         //!< the writer's destructor threw: std::terminate in C++
    std::string terminate_error;    //!< what it threw
    bool operator==(const WriteResult&) const = default;
};

struct ReadJob {
    Key key{};
    uint64_t offset{0};
    std::vector<size_t> chunks;     //!< read calls, in order
    size_t buffer_size{DEFAULT_BUFFER};
    FaultPlan faults{};
};

struct ReadResult {
    Bytes data;                     //!< bytes of every read call that succeeded, concatenated
    uint64_t reads_ok{0};
    std::string error;
    bool operator==(const ReadResult&) const = default;
};

//! Reading `count` consecutive records (blk or rev layout) starting at `offset` (a record start).
struct RecordsJob {
    Key key{};
    uint64_t offset{0};
    size_t count{0};
    bool undo{false};
    std::vector<Hash256> prev_hashes; //!< undo: one per record
    size_t buffer_size{DEFAULT_BUFFER};
    bool direct{false}; //!< as WriteJob::direct
};

struct RecordsResult {
    std::vector<Bytes> magics;
    std::vector<Bytes> bodies;
    std::string error;
    bool operator==(const RecordsResult&) const = default;
};

//! What a side must offer. Every function works on the FILE it is given and keeps no state.
struct Side {
    const char* name;
    WriteResult (*write)(std::FILE* file, const WriteJob& job);
    ReadResult (*read)(std::FILE* file, const ReadJob& job);
    RecordsResult (*read_records)(std::FILE* file, const RecordsJob& job);
    //! The writer's shape under a failed flush (spec 2.7). true: master's before upstream's fix
    //! (a failed flush keeps its obfuscated bytes pending, the next flush or the destructor writes
    //! them again); false: the bytes are forgotten before they are written, and the last flush is
    //! explicit. blockfile_faults holds a Core side to our model of its own shape.
    bool retries_failed_flush;
};

EQUIFUZZ_DECLARE_SIDES();
//! Our #31551 model in master's shape (spec 2.7): a failed flush keeps its obfuscated bytes and
//! the destructor writes them again. Bitcoin Core's BufferedWriter is compared with it under
//! write faults (adapters/master_retry.cpp, compiled into every build).
const Side& master_retry_side();

//! The exact messages (spec 2.4).
inline constexpr const char* READ_EOF{"AutoFile::read: end of file"};
inline constexpr const char* READ_FAILED{"AutoFile::read: fread failed"};
inline constexpr const char* WRITE_FAILED{"AutoFile::write: write failed"};
inline constexpr const char* WRITE_BUFFER_FAILED{"AutoFile::write_buffer: write failed"};
//! Ours: an undo record whose stored checksum differs from SHA256d(prev hash || undo bytes).
inline constexpr const char* UNDO_CHECKSUM_MISMATCH{"ReadBlockUndo: checksum mismatch"};

} // namespace equifuzz::blockfile
