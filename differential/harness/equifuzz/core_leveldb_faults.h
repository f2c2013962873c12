// A LevelDB file system whose write-ahead log fails one write on request, for a Core side of a
// faults target (utxo_flush_faults, coins_view_faults). Included by a Core shim after <leveldb/env.h>: everything is
// in an unnamed namespace, so each side (its own object, its symbols kept apart) has its own state.
//
// Armed with a plan, the `at`-th Append (APPEND: nothing of it written; TORN: the first keep/256
// of its bytes written) or Flush (FLUSH: after the bytes reached the file) on a file whose name
// ends in ".log" fails with an I/O error, once. Tables and the manifest are written as they would
// be: LevelDB writes them on its own schedule (compactions), which no input decides. READ fails
// the `at`-th read of a table file (".ldb", ".sst") the armed thread makes while the side counts
// reads (Reads: around its lookups, never during a walk or LevelDB's own compactions).
#pragma once

#include <leveldb/env.h>
#include <leveldb/status.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

namespace equifuzz_leveldb_faults {
namespace {

enum class Kind : uint8_t { NONE, APPEND, TORN, FLUSH, READ };

struct Plan {
    Kind kind{Kind::NONE};
    size_t at{0};     //!< 1-based, counted from when the plan is armed
    uint8_t keep{0};  //!< TORN: the share written, in 256ths
};

struct State {
    Plan plan;          //!< kind NONE: disarmed
    size_t appends{0};
    size_t flushes{0};
    size_t reads{0};
    bool fired{false};  //!< the plan's write failed (the plan is then disarmed)
    //! Called when the write fails, before the error returns: what the side notes of the moment
    //! (utxo_flush: the batch being written).
    void (*on_fire)(){nullptr};
};
State g_state;
//! Reads count only on the thread that armed the plan, and only while it says so (Reads): other
//! threads (LevelDB's compactions, a compaction thread) read tables at times no input decides.
std::atomic<bool> g_counting_reads{false};
std::atomic<std::thread::id> g_reader{};

//! Arms `plan` (counting from now); a plan of kind NONE disarms.
void Arm(const Plan& plan, void (*on_fire)() = nullptr)
{
    g_counting_reads = false;
    g_reader = std::this_thread::get_id();
    g_state = State{.plan = plan, .on_fire = on_fire};
}

//! While it lives, this thread's reads of table files count towards a READ plan.
struct Reads {
    Reads() { g_counting_reads = true; }
    ~Reads() { g_counting_reads = false; }
    Reads(const Reads&) = delete;
    Reads& operator=(const Reads&) = delete;
};

leveldb::Status Fire()
{
    g_state.fired = true;
    g_state.plan = {};
    if (g_state.on_fire) g_state.on_fire();
    return leveldb::Status::IOError("equifuzz", "injected write fault");
}

class LogFile final : public leveldb::WritableFile
{
public:
    explicit LogFile(leveldb::WritableFile* file) : m_file{file} {}
    leveldb::Status Append(const leveldb::Slice& data) override
    {
        const Kind kind{g_state.plan.kind};
        if ((kind == Kind::APPEND || kind == Kind::TORN) && ++g_state.appends == g_state.plan.at) {
            if (kind == Kind::TORN) {
                const size_t keep{data.size() * g_state.plan.keep / 256};
                if (keep != 0) (void)m_file->Append(leveldb::Slice{data.data(), keep});
            }
            return Fire();
        }
        return m_file->Append(data);
    }
    leveldb::Status Flush() override
    {
        leveldb::Status status{m_file->Flush()};
        if (status.ok() && g_state.plan.kind == Kind::FLUSH && ++g_state.flushes == g_state.plan.at) return Fire();
        return status;
    }
    leveldb::Status Sync() override { return m_file->Sync(); }
    leveldb::Status Close() override { return m_file->Close(); }
    std::string GetName() const override { return m_file->GetName(); }

private:
    std::unique_ptr<leveldb::WritableFile> m_file;
};

class TableFile final : public leveldb::RandomAccessFile
{
public:
    explicit TableFile(leveldb::RandomAccessFile* file) : m_file{file} {}
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result, char* scratch) const override
    {
        if (g_counting_reads.load() && g_reader.load() == std::this_thread::get_id() && g_state.plan.kind == Kind::READ &&
            ++g_state.reads == g_state.plan.at) {
            *result = leveldb::Slice{};
            return Fire();
        }
        return m_file->Read(offset, n, result, scratch);
    }
    std::string GetName() const override { return m_file->GetName(); }

private:
    std::unique_ptr<leveldb::RandomAccessFile> m_file;
};

//! The Env a side's LevelDB opens its files with: `target`'s, each log file wrapped in LogFile and
//! each table file in TableFile.
class Env final : public leveldb::EnvWrapper
{
public:
    using leveldb::EnvWrapper::EnvWrapper;
    leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** file) override
    {
        return Wrap(name, target()->NewWritableFile(name, file), file);
    }
    leveldb::Status NewAppendableFile(const std::string& name, leveldb::WritableFile** file) override
    {
        return Wrap(name, target()->NewAppendableFile(name, file), file);
    }
    leveldb::Status NewRandomAccessFile(const std::string& name, leveldb::RandomAccessFile** file) override
    {
        leveldb::Status status{target()->NewRandomAccessFile(name, file)};
        if (status.ok() && (name.ends_with(".ldb") || name.ends_with(".sst"))) *file = new TableFile{*file};
        return status;
    }

private:
    static leveldb::Status Wrap(const std::string& name, leveldb::Status status, leveldb::WritableFile** file)
    {
        if (status.ok() && name.ends_with(".log")) *file = new LogFile{*file};
        return status;
    }
};

} // namespace
} // namespace equifuzz_leveldb_faults
