// The UTXO flush pair's Bitcoin Core sides: CCoinsViewCache over CCoinsViewDB over CDBWrapper
// over the tree's own LevelDB (cmake/CoreObjects.cmake builds this file once per side against the
// commits before and after #31645, with the pair's CORE_SOURCES and the tree's LevelDB and crc32c,
// its symbols kept apart). The scenario's operations are Core's own calls on the cache; the flush
// is Core's CCoinsViewCache::Flush (or Sync) into Core's BatchWrite; the content is read back
// through Core's CDBWrapper iterator, values de-obfuscated by Core.
//
// What a node would take from the rest of Core is answered here, without editing a Core file:
//   * logging (equifuzz/core_hooks.h, whichever hooks the tree declares): Core's log macros ask
//     whether a category is on and hand over each line. This file answers for the coins database only and watches BatchWrite's "Writing
//     partial batch" line, which every tree logs just before it writes a partial batch: the
//     scenario's crash throws from there, so the flush stops exactly before that batch, as a
//     process killed there would (without -dbcrashratio's _Exit, which would end the fuzzer);
//   * assertions (util/check.h's assertion_fail, also in core_hooks.h): print and abort, as Core does;
//   * randomness (FastRandomContext, for the obfuscation key): a fixed sequence, so that a run
//     is reproducible; the key only changes the stored bytes, never the logical content;
//   * CPubKey::IsFullyValid and Decompress (the coin compressor's uncompressed P2PK form) over the
//     system libsecp256k1: the tree's pubkey.cpp needs a newer one;
//   * LevelDB's file system: leveldb::Env::Default() is wrapped (the pair's CORE_WRAP, ld's
//     --wrap inside this side only) to return the tree's own POSIX Env behind a layer that, when a
//     step asks for it, fails one call on the write-ahead log's files (utxo_flush_faults).
#include "../side.h"

#include <equifuzz/core_shim.h>
#include <equifuzz/temp_dir.h>

#include <coins.h>
#include <crypto/sha256.h>
#include <dbwrapper.h>
#include <logging.h>
#include <primitives/transaction.h>
#include <pubkey.h>
#include <random.h>
#include <script/script.h>
#include <span.h>
#include <txdb.h>
#include <uint256.h>
#include <util/check.h>
#include <util/fs.h>

#include <leveldb/env.h>
#include <equifuzz/core_leveldb_faults.h>
#include <leveldb/helpers/memenv/memenv.h>
#include <leveldb/slice.h>
#include <leveldb/status.h>
#include <secp256k1.h>

#include <equifuzz/core_coins_db.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>

namespace equifuzz::utxo_flush {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

// --- The crash point: the k-th "Writing partial batch" line -----------------------------------
struct Crash {
};
size_t g_partials_seen{0};
size_t g_crash_before{0};
double g_largest_batch_mib{0};  //!< from the "Writing partial/final batch of %.2f MiB" lines

size_t g_batches_begun{0};       //!< partial and final batches BatchWrite announced in this flush

void OnLogLine(std::string_view line)
{
    for (const std::string_view lead : {"Writing partial batch of ", "Writing final batch of "}) {
        if (line.starts_with(lead)) {
            g_largest_batch_mib = std::max(g_largest_batch_mib, std::atof(std::string{line.substr(lead.size())}.c_str()));
            ++g_batches_begun;
        }
    }
    if (line.starts_with("Writing partial batch")) {
        ++g_partials_seen;
        if (g_partials_seen == g_crash_before) throw Crash{};
    }
}

// --- Write faults: the write-ahead log's files fail on request (equifuzz/core_leveldb_faults.h) ----
// Armed for one flush: the `at`-th Append (or Flush) on a log file fails. Tables and the manifest
// are left alone: compactions write them on LevelDB's background thread, at times no input decides.
namespace faults = equifuzz_leveldb_faults;
//! The batch being written when the fault fired; 0: not fired.
size_t g_fired_in_batch{0};
void NoteFiredBatch() { g_fired_in_batch = std::max<size_t>(g_batches_begun, 1); }
faults::Plan PlanOf(const Fault& f)
{
    switch (f.kind) {
    case Fault::Kind::NONE: return {};
    case Fault::Kind::APPEND: return {.kind = faults::Kind::APPEND, .at = f.at, .keep = 0};
    case Fault::Kind::TORN: return {.kind = faults::Kind::TORN, .at = f.at, .keep = f.keep};
    case Fault::Kind::FLUSH: return {.kind = faults::Kind::FLUSH, .at = f.at, .keep = 0};
    }
    return {};
}

// --- Reaching the database behind CCoinsViewDB (equifuzz/core_coins_db.h) ---------------------
// CCoinsViewDB keeps its options protected too: an explicit instantiation may name them.
template <typename Tag, typename Tag::type M>
struct Reach {
    friend typename Tag::type Member(Tag) { return M; }
};
struct OptionsMember {
    using type = CoinsViewOptions CCoinsViewDB::*;
    friend type Member(OptionsMember);
};
template struct Reach<OptionsMember, &CCoinsViewDB::m_options>;

using equifuzz_coins_db::Dump;

uint256 ToUint256(const Hash& h)
{
    uint256 u;
    std::memcpy(u.begin(), h.data(), h.size());
    return u;
}

COutPoint ToOutPoint(const Hash& txid, uint32_t n) { return COutPoint{Txid::FromUint256(ToUint256(txid)), n}; }

::Coin ToCoin(const Coin& c)
{
    return ::Coin{CTxOut{c.amount, CScript(c.script.begin(), c.script.end())}, static_cast<int>(c.height), c.coinbase};
}

//! Where the databases go: a file system in memory when the machine has one (/dev/shm), so that
//! reopening a database after every step costs no disk I/O (LevelDB's POSIX Env and its files
//! are the same there); else the system's temporary directory ($TMPDIR).
std::filesystem::path TempRoot()
{
    static const std::filesystem::path root{[] {
        const std::filesystem::path shm{"/dev/shm"};
        std::error_code ec;
        if (std::filesystem::is_directory(shm, ec) && access(shm.c_str(), W_OK | X_OK) == 0) return shm;
        return std::filesystem::temp_directory_path();
    }()};
    return root;
}

//! CCoinsViewCache::Flush as a node calls it: erasing, and giving the map's memory back. A tree
//! whose Flush takes that as a parameter (master since 2026, with a default; some branches
//! without one) is given it.
void FlushCache(CCoinsViewCache& cache)
{
#ifdef EQUIFUZZ_CORE_HAS_FLUSH_REALLOCATE
    cache.Flush(/*reallocate_cache=*/true);
#else
    cache.Flush();
#endif
}

//! The files of a scenario whose database lives in memory across reopens: while set, every
//! leveldb::Env::Default() of this side (the Options a CDBWrapper opens with) is this Env. Atomic:
//! LevelDB's background thread calls Env::Default() too (a compaction's Options).
std::atomic<leveldb::Env*> g_memory_files{nullptr};

std::vector<StepResult> Run(const Scenario& scenario)
{
    std::optional<TempDir> dir;
    if (scenario.on_disk) dir.emplace("equifuzz-utxo", TempRoot());
    // Declared before the database, so that it outlives every open of it.
    std::unique_ptr<leveldb::Env> memory_files;
    if (scenario.on_disk && scenario.files_in_memory) memory_files.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
    g_memory_files = memory_files.get();
    struct Unset {
        ~Unset() { g_memory_files = nullptr; }
    } unset_after;
    const auto open{[&](bool wipe) {
        DBParams params{
            .path = scenario.on_disk ? fs::PathFromString(dir->path().string()) : fs::path{},
            .cache_bytes = size_t{1} << 20,
            .memory_only = !scenario.on_disk,
            .wipe_data = wipe,
            .obfuscate = scenario.obfuscate,
        };
        return std::make_unique<CCoinsViewDB>(std::move(params), CoinsViewOptions{});
    }};
    std::unique_ptr<CCoinsViewDB> view{open(true)};
    const auto default_batch{(*view.*Member(OptionsMember{})).batch_write_bytes};
    std::vector<StepResult> results;
    for (const Step& step : scenario.steps) {
        StepResult r;
        (*view.*Member(OptionsMember{})).batch_write_bytes = step.batch_bytes ? *step.batch_bytes : default_batch;
        g_partials_seen = 0;
        g_batches_begun = 0;
        g_crash_before = step.crash_before;
        faults::Arm({});
        g_fired_in_batch = 0;
        try {
            CCoinsViewCache cache{view.get(), /*deterministic=*/true};
            for (const Op& op : step.ops) {
                const COutPoint outpoint{ToOutPoint(op.txid, op.n)};
                switch (op.kind) {
                case Op::Kind::ADD: {
                    const bool overwrite{step.rollforward ? cache.HaveCoin(outpoint) : op.possible_overwrite};
                    try {
                        cache.AddCoin(outpoint, ToCoin(op.coin), overwrite);
                    } catch (const std::logic_error&) {
                        ++r.refused;
                    }
                    break;
                }
                case Op::Kind::SPEND: cache.SpendCoin(outpoint); break;
                case Op::Kind::ACCESS: cache.AccessCoin(outpoint); break;
                }
            }
            cache.SetBestBlock(ToUint256(step.tip));
            if (scenario.on_disk) faults::Arm(PlanOf(step.fault), NoteFiredBatch);
            if (step.sync) {
                cache.Sync();
            } else {
                FlushCache(cache);
            }
            if (g_fired_in_batch != 0) r.stopped = "write fault ignored: the flush went on";
        } catch (const Crash&) {
            // The cache is gone with the "process"; Sync has already cleaned entries whose batch
            // was never written, so it could not be flushed again anyway.
            r.stopped = "crash before partial batch " + std::to_string(step.crash_before);
        } catch (const dbwrapper_error& e) {
            // A node stops here (a fatal error); what it left on disk is read after reopening.
            if (g_fired_in_batch == 0) throw;
            r.stopped = std::string{"write fault: "} + e.what();
        }
        r.faulted_batch = g_fired_in_batch;
        r.partial_batches = g_partials_seen - (r.stopped.starts_with("crash") ? 1 : 0);
        g_crash_before = 0;
        faults::Arm({});
        if (scenario.on_disk) {
            // What survives is what is on disk: close, reopen, read.
            view.reset();
            try {
                view = open(false);
            } catch (const dbwrapper_error& e) {
                // LevelDB refuses what was left (a log written past a failed write): the step's
                // result says so, with the directory's name left out, and the scenario ends.
                std::string why{e.what()};
                for (size_t at; (at = why.find(dir->path().string())) != std::string::npos;) why.replace(at, dir->path().string().size(), "<dir>");
                r.stopped += std::string{r.stopped.empty() ? "" : "; "} + "the database does not reopen: " + why;
                results.push_back(std::move(r));
                break;
            }
        }
        r.content = Dump(*view);
        results.push_back(std::move(r));
    }
    return results;
}

//! What the benchmark times: a cache of `coins` new coins flushed into an empty database on disk.
FlushCost FlushOnDisk(size_t coins, std::optional<uint64_t> batch_bytes)
{
    TempDir dir{"equifuzz-utxo", TempRoot()};
    CCoinsViewDB view{DBParams{.path = fs::PathFromString(dir.path().string()), .cache_bytes = size_t{8} << 20,
                               .memory_only = false, .wipe_data = true, .obfuscate = true},
                      CoinsViewOptions{}};
    if (batch_bytes) (view.*Member(OptionsMember{})).batch_write_bytes = *batch_bytes;
    CCoinsViewCache cache{&view, /*deterministic=*/true};
    for (size_t i = 0; i < coins; ++i) {
        Hash txid{};
        for (size_t b = 0; b < 8; ++b) txid[b] = static_cast<uint8_t>((i / 4) >> (8 * b));
        txid[31] = 0xc0;
        Bytes script{0x76, 0xa9, 20};
        script.insert(script.end(), 20, static_cast<uint8_t>(i * 7));
        script.insert(script.end(), {0x88, 0xac});
        const Coin coin{.height = static_cast<uint32_t>(800'000 + i / 3000), .coinbase = false,
                        .amount = static_cast<int64_t>(10'000 + i * 13), .script = std::move(script)};
        cache.AddCoin(ToOutPoint(txid, static_cast<uint32_t>(i % 4)), ToCoin(coin), /*possible_overwrite=*/false);
    }
    Hash tip;
    tip.fill(0x5a);
    cache.SetBestBlock(ToUint256(tip));
    g_partials_seen = 0;
    g_crash_before = 0;
    g_largest_batch_mib = 0;
    const auto start{std::chrono::steady_clock::now()};
    FlushCache(cache);
    const std::chrono::duration<double> took{std::chrono::steady_clock::now() - start};
    return {.seconds = took.count(), .partial_batches = g_partials_seen,
            .largest_batch_bytes = static_cast<uint64_t>(g_largest_batch_mib * double(MiB))};
}

const Side CORE{"Bitcoin Core CCoinsViewDB::BatchWrite (" EQUIFUZZ_CORE_TREE ")", CoinsViewOptions{}.batch_write_bytes, Run,
                FlushOnDisk, /*injects_faults=*/true};

} // namespace
} // namespace equifuzz::utxo_flush

EQUIFUZZ_EXPORT_SIDE(equifuzz::utxo_flush, equifuzz::utxo_flush::CORE)

// --- Logging and assertions: Core's hooks as this tree declares them ---------------------------
#include <equifuzz/core_hooks.h>

bool equifuzz::core_hooks::LogCategoryEnabled(uint64_t category) { return category == static_cast<uint64_t>(BCLog::COINDB); }
void equifuzz::core_hooks::OnLogLine(std::string_view line) { equifuzz::utxo_flush::OnLogLine(line); }

// --- LevelDB's file system: the tree's POSIX Env behind the faults' Env ---------------------------------
// Every call to leveldb::Env::Default() in this side (LevelDB's Options, CDBWrapper's memory Env)
// lands here; __real_ is the tree's own definition in env_posix.cc.
extern "C" leveldb::Env* __real__ZN7leveldb3Env7DefaultEv();
extern "C" leveldb::Env* __wrap__ZN7leveldb3Env7DefaultEv()
{
    static leveldb::Env* const env{new equifuzz_leveldb_faults::Env{__real__ZN7leveldb3Env7DefaultEv()}};
    leveldb::Env* const memory{equifuzz::utxo_flush::g_memory_files.load()};
    return memory ? memory : env;
}

// --- Randomness and public keys: equifuzz/core_coins_hooks.h ---------------------------------------
#include <equifuzz/core_coins_hooks.h>
