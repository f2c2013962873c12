// Block/undo file pair: decoders (fuzz bytes -> typed input), the model of what must be on disk,
// and the outcome each side makes observable. Every run uses fresh temporary files.
#pragma once

#include "side.h"

#include <equifuzz/choices/blockfile.h>
#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

#include <cstdio>
#include <memory>

namespace equifuzz::blockfile {

//! A scratch file (memfd, else std::tmpfile), closed (and so deleted) when it goes out of scope.
class TempFile
{
public:
    TempFile();
    std::FILE* get() const { return m_file.get(); }
    //! Every byte of the file, read raw (no obfuscation).
    Bytes Contents() const;
    void Replace(std::span<const uint8_t> bytes);

private:
    struct Closer {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::unique_ptr<std::FILE, Closer> m_file;
};

//! The bytes an op hands over, in order (header and checksum included for records).
Bytes OpStream(const WriteOp& op);
//! What the file must hold after the whole schedule, and the logical position after each op.
struct WriteModel {
    Bytes disk;
    std::vector<uint64_t> positions;
};
WriteModel ModelWrite(const WriteJob& job);

//! Everything a side makes observable for a write schedule.
struct WriteOutcome {
    WriteResult result;
    Bytes disk; //!< the whole file after the writer is gone
    Outcome ToOutcome(bool with_positions = true, bool with_disk = true) const;
    bool operator==(const WriteOutcome&) const = default;
};

//! The bytes a whole schedule hands over, in order, before obfuscation.
Bytes PlainStream(const WriteJob& job);

//! Under faults (blockfile_faults): whether the file holds only the obfuscated `stream` (and a zero
//! hole before the start offset), checked byte by byte on every input.
bool NoPlaintext(const WriteJob& job, const Bytes& stream, const Bytes& disk);
//! For a report: the side's result, and where its file first departs from the obfuscated stream.
Outcome FileReport(const WriteJob& job, const Bytes& stream, const WriteOutcome& side);
//! How many bytes reached the file after the start offset.
uint64_t Landed(const WriteJob& job, const Bytes& disk);

//! What the two write paths must agree on under a fault: the error, the destructor's throw, and
//! the file's bytes only where the fault lands exactly the bytes up to its mark (short writes).
struct FaultView {
    const WriteOutcome* run;
    bool with_disk;
    bool operator==(const FaultView& o) const
    {
        return run->result.error == o.run->result.error && run->result.terminated == o.run->result.terminated &&
               run->result.terminate_error == o.run->result.terminate_error && (!with_disk || run->disk == o.run->disk);
    }
    Outcome ToOutcome() const { return run->ToOutcome(false, with_disk); }
};

//! `allow_seek`: the write target seeks; the faults target writes append-only like blk files.
WriteJob DecodeWrite(FuzzedDataProvider& fdp, bool allow_seek, bool with_faults);
Description Describe(const WriteJob& job);
WriteOutcome RunWrite(const Side& side, const WriteJob& job);

//! A file holding `plain` obfuscated at its positions (then cut to `file_size`), and a read job.
struct ReadInput {
    Bytes plain;
    uint64_t file_size{0};
    ReadJob job;
};
ReadInput DecodeRead(FuzzedDataProvider& fdp);
Description Describe(const ReadInput& in);
//! Writes the file once, then hands each side the same file.
Bytes ObfuscatedFile(const ReadInput& in);
Outcome ToOutcome(const ReadResult& r);

Outcome ToOutcome(const RecordsResult& r);

//! A file of blk or rev records (magic, size, body, and for rev the checksum over the previous
//! block's hash and the body), after `offset` bytes of other data, obfuscated at its positions;
//! read back record by record (ReadBlock/ReadBlockUndo's shape) from `job.offset`.
struct RecordsInput {
    Bytes plain;                //!< the whole file before obfuscation
    uint64_t file_size{0};      //!< the file is cut here (a torn last record when below plain.size())
    RecordsJob job;
    std::vector<Bytes> bodies;  //!< what each written record holds
    std::string spoiler;        //!< what was done to the file or the job after writing ("" for nothing)
    //! The spoiler's choices as read (kind 0-7, the record, its value, the changed bits), so a
    //! structured mutation can write the same input again (EncodeRecords).
    struct Spoil {
        Spoiler kind{Spoiler::NONE};  // choices.json
        size_t which{0};
        uint64_t value{0};
        uint8_t flip{1};
    } spoil;
};
RecordsInput DecodeRecords(FuzzedDataProvider& fdp);
Description Describe(const RecordsInput& in);
Bytes ObfuscatedFile(const RecordsInput& in);

//! blockfile_records' structured mutation: what DecodeRecords reads, written as its choices.
struct RecordsChoices {
    Key key{};
    size_t buffer_size{DEFAULT_BUFFER};
    bool undo{false};
    Bytes prefix;                     //!< the other data before the first record (at most 17 bytes)
    std::vector<Bytes> bodies;        //!< 1-4 records
    std::vector<Hash256> prev_hashes; //!< undo: the hash each record's checksum was made with
    RecordsInput::Spoil spoil;
};
RecordsChoices ChoicesOf(const RecordsInput& in);
//! The bytes DecodeRecords reads back as `c` (values out of the decoder's ranges are clamped).
Bytes EncodeRecords(const RecordsChoices& c);
//! Spoils the last record's checksum, the previous-block hash, a size field or the cut; changes
//! records, body lengths around the copy chunk, the buffer size, the key. False when it declines.
bool MutateRecords(Mutation& m);

} // namespace equifuzz::blockfile
