// The coins view pair's Bitcoin Core sides: CCoinsViewCache stacked one to three deep over a
// CCoinsViewErrorCatcher (where the tree has one) over CCoinsViewDB over CDBWrapper over the
// tree's own LevelDB, as a node's chainstate stacks them (cmake/CoreObjects.cmake builds this file
// once per side against the trees before and after a change, with the pair's CORE_SOURCES and the
// tree's LevelDB and crc32c, its symbols kept apart). Every call of the scenario is Core's own
// call on the view it names; the database's content is read back through Core's CDBWrapper
// iterator, values de-obfuscated by Core.
//
// The database has a path but its files live in LevelDB's memory Env (leveldb::Env::Default() is
// wrapped, the pair's CORE_WRAP, to return it): closing and reopening it, as a restart or
// CCoinsViewDB::ResizeCache does, keeps what was written, and no input touches the disk. It is
// opened once per process (Database()) and emptied at each scenario's start.
//
// Bookkeeping: after every call the side checks Core's own accounting of each cache (the
// properties of side.h's Bookkeeping), reading the cache's protected members through the member
// pointers an explicit instantiation may name (no Core header changes).
//
// What the tree's version decides, by what its headers declare (the pair's CORE_FEATURE probes):
//   * GetCoin's signature: an optional, or (trees before late 2024) a bool and an out parameter;
//   * PeekCoin (a lookup that caches nothing): where the tree has none, GetCoin answers the call;
//   * Flush(bool reallocate_cache): given true, as a node's flush is;
//   * the dirty count (m_dirty_count): checked against the DIRTY entries where the tree keeps one;
//   * Reset (CreateResetGuard): where the tree has it; else the top cache replaced by a new one;
//   * a failed read: trees up to #34132 put CCoinsViewErrorCatcher between the database and the
//     caches (its callbacks, then std::abort; a read of the database itself throws); since, the
//     database takes the callback (DBParams::read_error_cb) and every failed read calls it, then
//     std::abort, from lookups declared noexcept. The faults target's failed read leaves the
//     lookup from the callback: by an exception on the trees before, by a longjmp since
//     (Survives); CCoinsView::HaveCoin, gone with #34132, is GetCoin's answer on the database there;
//   * the cursor: every view had one until mid 2026 (a backed view's forwards to its base), and
//     the walk goes through the error catcher there; since, only CCoinsViewDB has one;
//   * a LevelDB property read through CCoinsViewDB (GetDBProperty, with the compaction thread):
//     read at each MEMORY call, a known one and one LevelDB does not have, not compared;
//   * a full compaction: CCoinsViewDB's own (CompactFullAsync, or CompactFull returning a future,
//     since mid 2026), started under cs_main as a node starts it, in its thread; a ResizeCache or
//     a restart right after it meets it running, every other call waits for it (MeetsCompaction); on trees
//     before it, the database reopened with force_compact (ResizeCache with the same size), as
//     -forcecompactdb compacts it at a node's start.
#include "../side.h"

#include <equifuzz/core_shim.h>
#include <equifuzz/temp_dir.h>

#include <coins.h>
#include <crypto/sha256.h>
#include <kernel/cs_main.h>
#include <dbwrapper.h>
#include <logging.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <txdb.h>
#include <uint256.h>
#include <util/fs.h>

#include <leveldb/env.h>
#include <leveldb/helpers/memenv/memenv.h>

#include <equifuzz/core_coins_db.h>
#include <equifuzz/core_leveldb_faults.h>

#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#include <sanitizer/lsan_interface.h>
#define EQUIFUZZ_LSAN 1
#endif
#endif

namespace equifuzz::coins_view {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

// --- Reaching the members Core keeps protected (equifuzz/core_coins_db.h's Reach) ----------------
using equifuzz_coins_db::AllBytes;
using equifuzz_coins_db::Dump;
using equifuzz_coins_db::RawKey;
using equifuzz_coins_db::Wrapper;
//! The cache's own members, reached the same way (a friend defined where its tag is declared).
template <typename Tag, typename Tag::type M>
struct Reach {
    friend typename Tag::type Member(Tag) { return M; }
};
struct MapMember {
    using type = CCoinsMap CCoinsViewCache::*;
    friend type Member(MapMember);
};
struct UsageMember {
    using type = size_t CCoinsViewCache::*;
    friend type Member(UsageMember);
};
template struct Reach<MapMember, &CCoinsViewCache::cacheCoins>;
template struct Reach<UsageMember, &CCoinsViewCache::cachedCoinsUsage>;
struct ParamsMember {
    using type = DBParams CCoinsViewDB::*;
    friend type Member(ParamsMember);
};
template struct Reach<ParamsMember, &CCoinsViewDB::m_db_params>;
#ifdef EQUIFUZZ_CORE_HAS_DIRTY_COUNT
struct DirtyMember {
    using type = size_t CCoinsViewCache::*;
    friend type Member(DirtyMember);
};
template struct Reach<DirtyMember, &CCoinsViewCache::m_dirty_count>;
#endif

// --- Conversions ------------------------------------------------------------------------------
uint256 ToUint256(const Hash& h)
{
    uint256 u;
    std::memcpy(u.begin(), h.data(), h.size());
    return u;
}

Hash FromUint256(const uint256& u)
{
    Hash h;
    std::memcpy(h.data(), u.begin(), h.size());
    return h;
}

COutPoint ToOutPoint(const Outpoint& at) { return COutPoint{Txid::FromUint256(ToUint256(at.Txid())), at.n}; }

Outpoint FromOutPoint(const COutPoint& o)
{
    // Every txid the scenario writes is one byte repeated.
    return Outpoint{.id = o.hash.ToUint256().begin()[0], .n = o.n};
}

::Coin ToCoin(const Coin& c)
{
    return ::Coin{CTxOut{c.amount, CScript(c.script.begin(), c.script.end())}, static_cast<int>(c.height), c.coinbase};
}

Coin FromCoin(const ::Coin& c)
{
    return Coin{.height = c.nHeight, .coinbase = c.fCoinBase != 0, .amount = c.out.nValue,
                .script = Bytes(c.out.scriptPubKey.begin(), c.out.scriptPubKey.end())};
}

std::optional<Coin> Unspent(const ::Coin& c) { return c.IsSpent() ? std::nullopt : std::optional{FromCoin(c)}; }
std::optional<Coin> Unspent(const std::optional<::Coin>& c) { return c ? Unspent(*c) : std::nullopt; }

//! GetCoin as the tree declares it: an optional (since late 2024), or a bool and an out parameter.
std::optional<Coin> GetCoinOf(const CCoinsView& view, const COutPoint& o)
{
#ifdef EQUIFUZZ_CORE_HAS_GET_COIN_OPTIONAL
    return Unspent(view.GetCoin(o));
#else
    ::Coin coin;
    return view.GetCoin(o, coin) ? Unspent(coin) : std::nullopt;
#endif
}

// --- The database's files -----------------------------------------------------------------------
//! LevelDB's memory Env, for the process: every leveldb::Env::Default() of this side returns it
//! while no scenario on real files runs. Atomic, as g_disk_files: LevelDB's background thread
//! calls Env::Default() too (a compaction's Options), while the fuzzing thread sets them.
std::atomic<leveldb::Env*> g_memory_files{nullptr};
//! The faults target's file system (real files, the log failing on request) while its scenario runs.
std::atomic<leveldb::Env*> g_disk_files{nullptr};
namespace faults = equifuzz_leveldb_faults;

//! Where the process's database directories go: /dev/shm when the machine has it (its files are
//! as real to LevelDB's POSIX Env, and cost no disk), else the temporary directory.
std::filesystem::path ScratchRoot()
{
    const std::filesystem::path shm{"/dev/shm"};
    std::error_code ec;
    if (std::filesystem::is_directory(shm, ec) && access(shm.c_str(), W_OK | X_OK) == 0) return shm;
    return std::filesystem::temp_directory_path();
}

//! The directory CDBWrapper is given (it creates it on the real file system; LevelDB's files go
//! to the memory Env): one per process.
const std::filesystem::path& DbPath()
{
    static const TempDir dir{"equifuzz-coins-view", ScratchRoot()};
    return dir.path();
}

//! Where the faults target's databases are: real files, in a directory of the process's own.
const std::filesystem::path& DiskPath()
{
    static const TempDir dir{"equifuzz-coins-view-disk", ScratchRoot()};
    return dir.path();
}

//! The keys a scenario can write: the coins of the outpoints it names (its database's and its
//! calls'), 'B' and 'H'. A coin it never names reaches the database only through a bug, which the
//! scenario's last content (a full Dump) shows.
std::vector<Bytes> KeysOf(const Scenario& s)
{
    std::set<Outpoint> named;
    for (const auto& [at, coin] : s.db) named.insert(at);
    for (const Op& op : s.ops) named.insert(op.at);
    std::vector<Bytes> keys;
    for (const Outpoint& at : named) keys.push_back(utxo_flush::CoinKey(at.Txid(), at.n));
    keys.push_back(Bytes{utxo_flush::DB_BEST_BLOCK});
    keys.push_back(Bytes{utxo_flush::DB_HEAD_BLOCKS});
    return keys;
}

//! The database's content at `keys`, read one by one: what Dump gives while nothing else was
//! written, without walking the deletion markers earlier scenarios left in LevelDB's memtable.
Content Snapshot(CCoinsViewDB& view, const std::vector<Bytes>& keys)
{
    Content content;
    CDBWrapper& db{Wrapper(view)};
    for (const Bytes& key : keys) {
        Bytes value;
        AllBytes v{&value};
        if (db.Read(RawKey{&key}, v)) content.emplace(key, std::move(value));
    }
    return content;
}

void FlushCache(CCoinsViewCache& cache)
{
#ifdef EQUIFUZZ_CORE_HAS_FLUSH_REALLOCATE
    cache.Flush(/*reallocate_cache=*/true);
#else
    (void)cache.Flush();
#endif
}

//! Thrown by the error catcher's callback when a read the faults target failed reaches it.
struct ReadFailed {};

//! What a failed read does in Core after the read-error callbacks: nothing more is asked of the
//! node (it aborts). The faults target's own failed read is left by the callback instead, and the
//! side stops the scenario there (ReadFault).
#if defined(EQUIFUZZ_CORE_HAS_READ_ERROR_CB) && !defined(EQUIFUZZ_CORE_HAS_ERROR_CATCHER)
//! A failed read is fatal in the database itself, from lookups declared noexcept (#34132).
#define EQUIFUZZ_FATAL_READS 1
#endif
#ifdef EQUIFUZZ_FATAL_READS
//! Where the callback jumps to: set by Survives around a lookup while a read fault is armed.
std::jmp_buf* g_read_failed{nullptr};
#endif
void OnReadError()
{
    if (faults::g_state.fired) {
#ifdef EQUIFUZZ_FATAL_READS
        // Core's lookups are noexcept here: no exception can leave them, and std::abort follows.
        if (g_read_failed) std::longjmp(*g_read_failed, 1);
#else
        throw ReadFailed{};
#endif
    }
    std::fputs("coins_view: a read of the coins database failed\n", stderr);
}
#ifdef EQUIFUZZ_FATAL_READS
//! Runs `lookup`; false when its read failed and Core's callback jumped back here. Core would
//! abort after the callback, so the lookup's frames are left where they stand, and what they
//! allocated is never freed: leaks are not recorded while a lookup runs under a read fault. The
//! frames hold no lock (CCoinsViewDB's lookups take none; LevelDB's Get has returned).
template <typename Lookup>
[[gnu::noinline]] bool Survives(const Lookup& lookup)
{
    if (faults::g_state.plan.kind != faults::Kind::READ) {
        lookup();
        return true;
    }
    struct LeaksIgnored {
#ifdef EQUIFUZZ_LSAN
        LeaksIgnored() { __lsan_disable(); }
        ~LeaksIgnored() { __lsan_enable(); }
#endif
    } ignored;
    std::jmp_buf here;
    if (setjmp(here) != 0) {
        g_read_failed = nullptr;
        return false;
    }
    g_read_failed = &here;
    lookup();
    g_read_failed = nullptr;
    return true;
}
#else
template <typename Lookup>
bool Survives(const Lookup& lookup)
{
    lookup();
    return true;
}
#endif

//! Whether `view` holds an unspent coin at `o`: its HaveCoin where every view has one (before
//! #34132), else GetCoin's answer, as callers of the database ask it since.
template <typename View>
bool HaveOf(View& view, const COutPoint& o)
{
#ifdef EQUIFUZZ_CORE_HAS_VIEW_HAVE_COIN
    return view.HaveCoin(o);
#else
    return GetCoinOf(view, o).has_value();
#endif
}

// --- Bookkeeping ------------------------------------------------------------------------------
//! The databases, opened once per process and side (an open costs more than a whole scenario):
//! one with an obfuscation key, one without, each with what the last scenario on it left. A
//! scenario starts by erasing every key but the obfuscation key's, which leaves what a fresh
//! database shows its callers; how LevelDB keeps it (memtable or tables, compacted or not) carries
//! over from input to input, which no promise sees. Each is wiped and opened afresh every
//! REOPEN_EVERY scenarios: the erases pile up as deletion markers in LevelDB's memtable, which
//! every later walk of the database steps over.
struct Slot {
    std::unique_ptr<CCoinsViewDB> db;
    //! The keys the last scenario left (nullopt: unknown, it stopped early).
    std::optional<std::vector<Bytes>> left;
    //! Whether the last scenario left LevelDB tables (it compacted or reopened the database).
    bool layered{false};
};
Slot& Database(bool obfuscate, bool on_disk)
{
    static Slot* const slots{new Slot[4]};
    return slots[(obfuscate ? 1 : 0) + (on_disk ? 2 : 0)];
}
constexpr size_t REOPEN_EVERY{32};
size_t g_scenarios{0};

class Stack
{
public:
    explicit Stack(const Scenario& s) : m_obfuscate{s.obfuscate}, m_on_disk{s.on_disk}, m_slot{Database(s.obfuscate, s.on_disk)}, m_db{m_slot.db}
    {
        // A scenario that compacts gets a fresh database: where a compaction puts each key depends
        // on every table LevelDB holds, which must be this input's own for the input to replay
        // alike on its own.
        // The next scenario gets a fresh one too after any scenario that left LevelDB tables (a
        // compaction, or a reopen, which writes the log to a level-0 table): tables piling up over
        // inputs would start LevelDB's own compactions in its thread at times no input decides.
        bool compacts{false}, leaves_tables{false};
        for (const Op& op : s.ops) {
            compacts |= op.kind == Op::Kind::COMPACT;
            leaves_tables |= op.kind == Op::Kind::COMPACT || op.kind == Op::Kind::REOPEN || op.kind == Op::Kind::RESIZE;
        }
        // On real files every scenario has a fresh database: a fault may leave a log LevelDB refuses.
        const bool fresh{!m_db || ++g_scenarios % REOPEN_EVERY == 0 || compacts || m_slot.layered || m_on_disk};
        m_slot.layered = leaves_tables;
        if (fresh) {
            m_db.reset();
            m_db = Open(/*wipe=*/true);
            m_slot.left.reset();
        } else {
            Erase();
        }
        Catch();
        if (!s.db.empty()) {
            CCoinsViewCache first{&Base(), /*deterministic=*/true};
            for (const auto& [at, coin] : s.db) first.AddCoin(ToOutPoint(at), ToCoin(coin), /*possible_overwrite=*/true);
            first.SetBestBlock(ToUint256(DbTip()));
            FlushCache(first);
            // In a scenario that compacts, the database's first coins start where a node's old
            // coins are: compacted into LevelDB's tables (the calls' writes land above them); so
            // they do where a read of a table file is to fail, for the lookups to read tables.
            if (compacts || (m_on_disk && s.fault.kind == Fault::Kind::READ)) {
                Compact();
                Settle();
            }
        }
        for (size_t i = 0; i < s.caches; ++i) Push();
    }

    std::unique_ptr<CCoinsViewDB> Open(bool wipe) const
    {
        DBParams params{
            .path = fs::PathFromString(((m_on_disk ? DiskPath() : DbPath()) / (m_obfuscate ? "obfuscated" : "plain")).string()),
            .cache_bytes = size_t{1} << 20,
            .memory_only = false,
            .wipe_data = wipe,
            .obfuscate = m_obfuscate,
        };
#ifdef EQUIFUZZ_CORE_HAS_READ_ERROR_CB
        params.read_error_cb = OnReadError;
#endif
        return std::make_unique<CCoinsViewDB>(std::move(params), CoinsViewOptions{});
    }
    void Push()
    {
        CCoinsView* base{m_caches.empty() ? &Base() : m_caches.back().get()};
        m_caches.push_back(std::make_unique<CCoinsViewCache>(base, /*deterministic=*/true));
    }
    void Pop() { m_caches.pop_back(); }
    //! The top cache's backend: the empty view (what mempool acceptance swaps in once it has
    //! brought a transaction's coins into its cache), or the view below it again.
    void Detach()
    {
#ifdef EQUIFUZZ_CORE_HAS_COINS_VIEW_EMPTY
        m_caches.back()->SetBackend(CoinsViewEmpty::Get());
#else
        static CCoinsView empty;  // before #34124 the base view answered as an empty one
        m_caches.back()->SetBackend(empty);
#endif
        m_detached = true;
    }
    void Attach()
    {
        m_caches.back()->SetBackend(m_caches.size() == 1 ? Base() : *m_caches[m_caches.size() - 2]);
        m_detached = false;
    }
    bool Detached() const { return m_detached; }
    //! The top cache's changes discarded: Core's Reset, through the guard that is its public face,
    //! where the tree has it (since #34164); before, a node made a new cache for each block.
    void Reset()
    {
#ifdef EQUIFUZZ_CORE_HAS_RESET_GUARD
        { const auto guard{m_caches.back()->CreateResetGuard()}; }
#else
        Pop();
        Push();
#endif
    }
    //! A node stopped by a failed write, started again: every cache gone, the database closed and
    //! opened; its whole content then, or nothing and why it did not open (`why` gets the reason).
    Content Restart(std::string& why)
    {
        const size_t depth{m_caches.size()};
        m_caches.clear();
        Uncatch();
        m_db.reset();
        try {
            m_db = Open(/*wipe=*/false);
        } catch (const dbwrapper_error& e) {
            std::string what{e.what()};
            const std::string dir{DiskPath().string()};
            for (size_t at; (at = what.find(dir)) != std::string::npos;) what.replace(at, dir.size(), "<dir>");
            why += "; the database does not open again: " + what;
            return {};
        }
        Catch();
        for (size_t i = 0; i < depth; ++i) Push();
        return Dump(*m_db);
    }
    void Reopen()
    {
        const size_t depth{m_caches.size()};
        m_caches.clear();
        Uncatch();
        m_db.reset();
        m_db = Open(/*wipe=*/false);
        Catch();
        for (size_t i = 0; i < depth; ++i) Push();
    }
    //! The error catcher a node puts between its database and its cache, on trees that have one:
    //! what reaches the database from the caches, and every read of "view 0" but AccessCoin's,
    //! goes through it. A read that fails makes Core abort after the callbacks (a crash the
    //! harness reports) but for the faults target's own (OnReadError). Since #34132 the database
    //! takes the callback itself (Open) and the caches sit on it.
    void Catch()
    {
#ifdef EQUIFUZZ_CORE_HAS_ERROR_CATCHER
        m_catcher = std::make_unique<CCoinsViewErrorCatcher>(m_db.get());
        m_catcher->AddReadErrCallback(OnReadError);
#endif
    }
    void Uncatch()
    {
#ifdef EQUIFUZZ_CORE_HAS_ERROR_CATCHER
        m_catcher.reset();
#endif
    }
    CCoinsViewDB& Db() { return *m_db; }
    //! The view under the bottom cache: the error catcher, or the database where the tree has none.
#ifdef EQUIFUZZ_CORE_HAS_ERROR_CATCHER
    CCoinsView& Base() { return *m_catcher; }
#else
    CCoinsView& Base() { return *m_db; }
#endif
    //! A full compaction of the database (the tree's own, see the file's head).
    void Compact()
    {
#ifdef EQUIFUZZ_CORE_HAS_COMPACT_THREAD
        LOCK(::cs_main);
#ifdef EQUIFUZZ_CORE_HAS_COMPACT_ASYNC
        m_compactions.push_back(m_db->CompactFullAsync());
#else
        m_compactions.push_back(m_db->CompactFull());
#endif
#else
        DBParams& params{(*m_db).*Member(ParamsMember{})};
        params.options.force_compact = true;
        Resize(params.cache_bytes);
        params.options.force_compact = false;
#endif
    }
    //! CCoinsViewDB::ResizeCache, under cs_main as its callers hold it (trees since 2026 require
    //! it; a recursive mutex, harmless before).
    void Resize(size_t bytes)
    {
        LOCK(::cs_main);
        m_db->ResizeCache(bytes);
    }
    //! Waits for every compaction the scenario started.
    void Settle()
    {
        for (const auto& done : m_compactions) done.wait();
        m_compactions.clear();
    }
    //! What the scenario left in the database (its last content): the next one erases exactly that.
    void Left(const Content& content)
    {
        m_slot.left.emplace();
        for (const auto& [key, value] : content) m_slot.left->push_back(key);
    }
    //! Every key but the obfuscation key's, erased in one batch: the keys the last scenario left
    //! (Left), or, when it stopped before saying, every key a walk of the database finds.
    void Erase()
    {
        CDBWrapper& db{Wrapper(*m_db)};
        std::vector<Bytes> keys;
        if (auto& left{m_slot.left}) {
            keys = std::move(*left);
        } else {
            std::unique_ptr<CDBIterator> it{db.NewIterator()};
            for (it->SeekToFirst(); it->Valid(); it->Next()) {
                Bytes key;
                AllBytes k{&key};
                if (!it->GetKey(k)) throw std::runtime_error{"a key could not be read back"};
                if (key != equifuzz_coins_db::ObfuscationEntry()) keys.push_back(std::move(key));
            }
        }
        m_slot.left.reset();
        if (keys.empty()) return;
        CDBBatch batch{db};
        for (const Bytes& key : keys) batch.Erase(RawKey{&key});
        db.WriteBatch(batch);
    }
    CCoinsViewCache& Cache(size_t view) { return *m_caches.at(view - 1); }
    CCoinsView& View(size_t view) { return view == 0 ? Base() : Cache(view); }
    size_t Depth() const { return m_caches.size(); }

    //! Checks every cache's accounting; records the first break of each property.
    void CheckBookkeeping(Bookkeeping& b)
    {
        for (size_t v = 1; v <= m_caches.size(); ++v) {
            CCoinsViewCache& cache{Cache(v)};
            const CCoinsMap& map{cache.*Member(MapMember{})};
            size_t usage{0}, dirty{0};
            for (const auto& [outpoint, entry] : map) {
                usage += entry.coin.DynamicMemoryUsage();
                if (entry.IsDirty()) ++dirty;
                if (b.spent_flagged.empty() && entry.coin.IsSpent() && !entry.IsDirty()) {
                    b.spent_flagged = "cache " + std::to_string(v) + " keeps a spent entry that is not DIRTY";
                }
                if (b.fresh.empty() && entry.IsFresh() && UnspentBelow(v, outpoint)) {
                    b.fresh = "cache " + std::to_string(v) + " has a FRESH entry whose coin the view below holds unspent";
                }
            }
            const size_t kept{cache.*Member(UsageMember{})};
            if (b.usage.empty() && kept != usage) {
                b.usage = "cache " + std::to_string(v) + " counts " + std::to_string(kept) + " bytes, its entries use " + std::to_string(usage);
            }
#ifdef EQUIFUZZ_CORE_HAS_DIRTY_COUNT
            const size_t counted{cache.*Member(DirtyMember{})};
            if (b.dirty.empty() && counted != dirty) {
                b.dirty = "cache " + std::to_string(v) + " counts " + std::to_string(counted) + " dirty entries, " + std::to_string(dirty) + " are DIRTY";
            }
#endif
        }
    }
    //! Entries and DIRTY entries of each cache, bottom first.
    void Count(Internals& in)
    {
        for (size_t v = 1; v <= m_caches.size(); ++v) {
            const CCoinsMap& map{Cache(v).*Member(MapMember{})};
            in.entries.push_back(map.size());
            uint64_t dirty{0};
            for (const auto& [outpoint, entry] : map) dirty += entry.IsDirty() ? 1 : 0;
            in.dirty.push_back(dirty);
        }
    }

private:
    //! Whether the view below cache `v` shows an unspent coin at `o`, caching nothing.
    bool UnspentBelow(size_t v, const COutPoint& o)
    {
        for (size_t below = v - 1; below > 0; --below) {
            const CCoinsMap& map{Cache(below).*Member(MapMember{})};
            if (const auto it{map.find(o)}; it != map.end()) return !it->second.coin.IsSpent();
        }
        return HaveOf(*m_db, o);
    }

    const bool m_obfuscate;
    const bool m_on_disk;
    Slot& m_slot;                         //!< the process's database for this scenario (Database())
    std::unique_ptr<CCoinsViewDB>& m_db;  //!< its view
    std::vector<std::shared_future<void>> m_compactions;
#ifdef EQUIFUZZ_CORE_HAS_ERROR_CATCHER
    std::unique_ptr<CCoinsViewErrorCatcher> m_catcher;       //!< over m_db (Catch())
#endif
    std::vector<std::unique_ptr<CCoinsViewCache>> m_caches;  //!< bottom first
    bool m_detached{false};                                  //!< Detach()
};

Answer Reply(uint16_t index, std::optional<Coin> coin = {}, bool flag = false, std::vector<Hash> hashes = {})
{
    return Answer{.op = index, .coin = std::move(coin), .flag = flag, .hashes = std::move(hashes), .walk = {}};
}

//! Whether a call meets a compaction still running: only ResizeCache or a restart right after the
//! compaction does (Core lets ResizeCache replace the database while its compaction thread runs:
//! both take CCoinsViewDB's m_db_mutex; a restart closes the database, whose destructor waits for
//! the compaction, as a node's shutdown does). Every other call waits for it first, so that what a
//! call sees and where LevelDB keeps each key are the same from run to run, and an input that
//! shows a bug shows it again when it is replayed.
bool MeetsCompaction(Op::Kind kind) { return kind == Op::Kind::RESIZE || kind == Op::Kind::REOPEN; }

//! A lookup stopped by a failed read: the node stops, and is started again (false: the scenario ends).
bool ReadFault(Stack& stack, uint16_t index, std::string what, Result& r)
{
    const Content before{Dump(stack.Db())};
    r.faulted = Faulted{.op = index, .what = std::move(what), .before = before, .after = {}};
    r.faulted->after = stack.Restart(r.faulted->what);
    return false;
}

//! One call on the stack; false when it stopped the scenario.
bool Apply(Stack& stack, const Op& op, const Op* next, uint16_t index, const std::vector<Bytes>& keys, Result& r)
{
    Promised& out{r.promised};
    if (!MeetsCompaction(op.kind)) stack.Settle();
    const COutPoint o{ToOutPoint(op.at)};
    switch (op.kind) {
    case Op::Kind::ADD:
        try {
            stack.Cache(stack.Depth()).AddCoin(o, ToCoin(op.coin), op.possible_overwrite);
        } catch (const std::logic_error& e) {
            out.stopped = e.what();
            return false;
        }
        return true;
    case Op::Kind::EMPLACE:
        stack.Cache(stack.Depth()).EmplaceCoinInternalDANGER(COutPoint{o}, ToCoin(op.coin));
        return true;
    case Op::Kind::RESET:
        stack.Reset();
        return true;
    case Op::Kind::SPEND: {
        ::Coin moved;
        const bool spent{stack.Cache(stack.Depth()).SpendCoin(o, op.moveout ? &moved : nullptr)};
        if (op.spends_a_coin) out.answers.push_back(Reply(index, op.moveout && spent ? Unspent(moved) : std::nullopt, spent));
        else r.internals.values.push_back({.op = index, .number = spent ? 1U : 0U});
        return true;
    }
    case Op::Kind::ACCESS:
    case Op::Kind::GET:
    case Op::Kind::PEEK:
    case Op::Kind::HAVE: {
        Answer a{Reply(index)};
        try {
            const faults::Reads counted;  // the faults target's READ plan counts a lookup's reads of table files
            const bool survived{Survives([&] {
                if (op.kind == Op::Kind::ACCESS) {
                    a.coin = op.view == 0 ? GetCoinOf(stack.Db(), o) : Unspent(stack.Cache(op.view).AccessCoin(o));
                } else if (op.kind == Op::Kind::GET) {
                    a.coin = GetCoinOf(stack.View(op.view), o);
                } else if (op.kind == Op::Kind::PEEK) {
#ifdef EQUIFUZZ_CORE_HAS_PEEK_COIN
                    a.coin = Unspent(stack.View(op.view).PeekCoin(o));
#else
                    a.coin = GetCoinOf(stack.View(op.view), o);
#endif
                } else {
                    a.flag = op.view == 0 ? HaveOf(stack.Base(), o) : stack.Cache(op.view).HaveCoin(o);
                }
            })};
            if (!survived) return ReadFault(stack, index, "read fault: the database's read-error callback stopped the lookup", r);
        } catch (const ReadFailed&) {
            return ReadFault(stack, index, "read fault: the error catcher stopped the lookup", r);
        } catch (const dbwrapper_error& e) {
            // A read of the database itself (AccessCoin of view 0 goes past the catcher).
            if (!faults::g_state.fired || r.faulted) throw;
            return ReadFault(stack, index, std::string{"read fault: "} + e.what(), r);
        }
        if (faults::g_state.fired && !r.faulted) {
            // The read failed and the lookup answered as if it had not: what no correct side does.
            const Content now{Dump(stack.Db())};
            r.faulted = Faulted{.op = index, .what = "read fault ignored: the lookup answered", .before = now, .after = now};
        }
        if (op.unheld && stack.Detached() && op.view == stack.Depth()) {
            // A detached cache asked for a coin nobody brought into it: its own answer.
            const bool found{op.kind == Op::Kind::HAVE ? a.flag : a.coin.has_value()};
            r.internals.values.push_back({.op = index, .number = found ? 1U : 0U, .second = a.coin ? static_cast<uint64_t>(a.coin->amount) : 0U});
        } else {
            out.answers.push_back(std::move(a));
        }
        return true;
    }
    case Op::Kind::DETACH:
        stack.Detach();
        return true;
    case Op::Kind::ATTACH:
        stack.Attach();
        return true;
    case Op::Kind::HAVE_IN_CACHE:
        r.internals.values.push_back({.op = index, .number = stack.Cache(op.view).HaveCoinInCache(o) ? 1U : 0U});
        return true;
    case Op::Kind::UNCACHE:
        stack.Cache(op.view).Uncache(o);
        return true;
    case Op::Kind::FLUSH:
    case Op::Kind::SYNC: {
        // On real files with a fault still armed, what the database holds before a write to it:
        // a failed write must leave that, or the whole write.
        const bool may_fail{op.view == 1 && faults::g_state.plan.kind != faults::Kind::NONE};
        const Content before{may_fail ? Dump(stack.Db()) : Content{}};
        try {
            if (op.kind == Op::Kind::FLUSH) FlushCache(stack.Cache(op.view));
            else (void)stack.Cache(op.view).Sync();
        } catch (const std::logic_error& e) {
            out.stopped = e.what();
            return false;
        } catch (const dbwrapper_error& e) {
            if (!faults::g_state.fired || r.faulted) throw;
            // A node stops at a failed write (a fatal error) and is started again.
            r.faulted = Faulted{.op = index, .what = std::string{"write fault: "} + e.what(), .before = before, .after = {}};
            r.faulted->after = stack.Restart(r.faulted->what);
            return false;
        }
        if (faults::g_state.fired && !r.faulted) {
            // The write failed and the call went on as if it had not: what no correct side does.
            r.faulted = Faulted{.op = index, .what = "write fault ignored: the call went on", .before = before, .after = Dump(stack.Db())};
        }
        if (op.view == 1) out.contents.emplace_back(index, Snapshot(stack.Db(), keys));
        return true;
    }
    case Op::Kind::SET_BEST:
        stack.Cache(op.view).SetBestBlock(ToUint256(op.hash));
        return true;
    case Op::Kind::GET_BEST:
        out.answers.push_back(Reply(index, std::nullopt, false, {FromUint256(stack.View(op.view).GetBestBlock())}));
        return true;
    case Op::Kind::GET_HEADS: {
        std::vector<Hash> heads;
        for (const uint256& h : stack.Base().GetHeadBlocks()) heads.push_back(FromUint256(h));
        out.answers.push_back(Reply(index, std::nullopt, false, std::move(heads)));
        return true;
    }
    case Op::Kind::MEMORY: {
        CCoinsViewCache& cache{stack.Cache(op.view)};
        // The database's EstimateSize and its LevelDB's memory are called, not compared: they depend
        // on how LevelDB keeps the database, which carries over from input to input (Database()).
        (void)stack.Base().EstimateSize();
        (void)Wrapper(stack.Db()).DynamicMemoryUsage();
#ifdef EQUIFUZZ_CORE_HAS_DB_PROPERTY
        // The same figure as a node's status reads it, and a property LevelDB does not know (no value).
        (void)stack.Db().GetDBProperty("leveldb.approximate-memory-usage");
        if (stack.Db().GetDBProperty("equifuzz.no-such-property")) {
            out.stopped = "LevelDB answered a property it does not have";
            return false;
        }
#endif
        r.internals.values.push_back({.op = index, .number = cache.DynamicMemoryUsage(), .second = cache.GetCacheSize()});
        return true;
    }
    case Op::Kind::CURSOR: {
#ifdef EQUIFUZZ_CORE_HAS_VIEW_CURSOR
        std::unique_ptr<CCoinsViewCursor> cursor{stack.Base().Cursor()};
#else
        std::unique_ptr<CCoinsViewCursor> cursor{stack.Db().Cursor()};
#endif
        Answer a{Reply(index, std::nullopt, false, {FromUint256(cursor->GetBestBlock())})};
        for (; cursor->Valid(); cursor->Next()) {
            COutPoint key;
            ::Coin coin;
            if (!cursor->GetKey(key) || !cursor->GetValue(coin)) {
                out.stopped = "the cursor could not read an entry";
                return false;
            }
            a.walk.emplace_back(FromOutPoint(key), FromCoin(coin));
        }
        out.answers.push_back(std::move(a));
        return true;
    }
    case Op::Kind::REOPEN:
        stack.Reopen();
        out.contents.emplace_back(index, Snapshot(stack.Db(), keys));
        return true;
    case Op::Kind::RESIZE:
        stack.Resize(op.cache_bytes);
        out.contents.emplace_back(index, Snapshot(stack.Db(), keys));
        return true;
    case Op::Kind::COMPACT:
        if (next && MeetsCompaction(next->kind)) {
            // The call after it meets the compaction running: nothing of this thread touches the
            // database in between (a read here would take LevelDB's mutex after the compaction
            // thread released it, ordering the two threads whatever Core's own locking does).
            // A compaction changes no key: its content is read before it starts.
            out.contents.emplace_back(index, Snapshot(stack.Db(), keys));
            stack.Compact();
            return true;
        }
        stack.Compact();
        stack.Settle();
        out.contents.emplace_back(index, Snapshot(stack.Db(), keys));
        return true;
    case Op::Kind::PUSH:
        stack.Push();
        return true;
    case Op::Kind::POP:
        stack.Pop();
        return true;
    }
    return true;
}

extern "C" leveldb::Env* __real__ZN7leveldb3Env7DefaultEv();

faults::Kind FaultOf(Fault::Kind kind)
{
    switch (kind) {
    case Fault::Kind::NONE: return faults::Kind::NONE;
    case Fault::Kind::APPEND: return faults::Kind::APPEND;
    case Fault::Kind::TORN: return faults::Kind::TORN;
    case Fault::Kind::FLUSH: return faults::Kind::FLUSH;
    case Fault::Kind::READ: return faults::Kind::READ;
    }
    return faults::Kind::NONE;
}

Result Run(const Scenario& s)
{
    // For the process, never destroyed: the databases live in it.
    if (!g_memory_files.load()) g_memory_files = leveldb::NewMemEnv(leveldb::Env::Default());
    static faults::Env* const disk_files{new faults::Env{__real__ZN7leveldb3Env7DefaultEv()}};
    g_disk_files = s.on_disk ? disk_files : nullptr;
    faults::Arm({});
    struct Disarm {
        ~Disarm()
        {
            faults::Arm({});
            g_disk_files = nullptr;
        }
    } disarm;
    Result r;
    r.bookkeeping.emplace();
    Stack stack{s};
    // The fault counts the log's writes from the first call on (the database's first coins are in).
    if (s.on_disk) faults::Arm({.kind = FaultOf(s.fault.kind), .at = s.fault.at, .keep = s.fault.keep});
    const std::vector<Bytes> keys{KeysOf(s)};
    bool ran{true};
    for (size_t i = 0; i < s.ops.size() && ran; ++i) {
        ran = Apply(stack, s.ops[i], i + 1 < s.ops.size() ? &s.ops[i + 1] : nullptr, static_cast<uint16_t>(i), keys, r);
        stack.CheckBookkeeping(*r.bookkeeping);
    }
    stack.Settle();
    if (ran) {
        Content last{Dump(stack.Db())};
        stack.Left(last);
        r.promised.contents.emplace_back(static_cast<uint16_t>(s.ops.size()), std::move(last));
    }
    stack.Count(r.internals);
    return r;
}

// --- A block's calls, for bench/coins_view_bench.cpp ------------------------------------------------
//! Outpoint i of the bench's coins (`round` 0: the database's; 1: the block's new ones).
COutPoint BenchOutpoint(size_t round, size_t i)
{
    uint256 id;
    std::memcpy(id.begin(), &i, sizeof(i));
    id.begin()[31] = static_cast<unsigned char>(0xB0 + round);
    return COutPoint{Txid::FromUint256(id), static_cast<uint32_t>(i % 3)};
}
::Coin BenchCoin(size_t i)
{
    CScript script;
    script << OP_0 << std::vector<unsigned char>(20, static_cast<unsigned char>(i));  // P2WPKH's shape
    return ::Coin{CTxOut{static_cast<CAmount>(1'000 + i), script}, static_cast<int>(800'000 + i % 1'000), false};
}

//! One block's work on Core's stack, as a node connects and flushes it: over a database of
//! `coins` coins (written once per size, in the process's memory Env), a block's view over the
//! chainstate's cache looks up and spends every coin and adds as many new ones (FRESH), is flushed
//! into the chainstate's cache, which is flushed into the database; then the reverse (the new
//! coins spent, the old ones added back, flushed), which leaves the database as it was for the next
//! run. Returns what the views answered, so that nothing is optimized away.
uint64_t BenchBlock(size_t coins)
{
    if (!g_memory_files.load()) g_memory_files = leveldb::NewMemEnv(leveldb::Env::Default());
    static std::map<size_t, std::unique_ptr<CCoinsViewDB>> databases;
    auto& db{databases[coins]};
    uint256 tip;
    tip.begin()[0] = 1;
    if (!db) {
        DBParams params{
            .path = fs::PathFromString((DbPath() / ("bench-" + std::to_string(coins))).string()),
            .cache_bytes = size_t{8} << 20,
            .memory_only = false,
            .wipe_data = true,
            .obfuscate = true,
        };
        db = std::make_unique<CCoinsViewDB>(std::move(params), CoinsViewOptions{});
        CCoinsViewCache first{db.get(), /*deterministic=*/true};
        for (size_t i = 0; i < coins; ++i) first.AddCoin(BenchOutpoint(0, i), BenchCoin(i), /*possible_overwrite=*/false);
        first.SetBestBlock(tip);
        FlushCache(first);
    }
    uint64_t seen{0};
    CCoinsViewCache chain{db.get(), /*deterministic=*/true};
    for (size_t round = 0; round < 2; ++round) {
        uint256 block;
        block.begin()[0] = static_cast<unsigned char>(2 + round);
        CCoinsViewCache view{&chain, /*deterministic=*/true};
        for (size_t i = 0; i < coins; ++i) {
            const COutPoint spent{BenchOutpoint(round, i)};
            seen += static_cast<uint64_t>(view.AccessCoin(spent).out.nValue);
            ::Coin moved;
            seen += view.SpendCoin(spent, &moved) ? 1 : 0;
            if (round == 0) view.AddCoin(BenchOutpoint(1, i), BenchCoin(i), /*possible_overwrite=*/false);
            else view.AddCoin(BenchOutpoint(0, i), std::move(moved), /*possible_overwrite=*/true);
        }
        view.SetBestBlock(round == 0 ? block : tip);
        FlushCache(view);
        FlushCache(chain);
    }
    return seen + chain.GetCacheSize();
}

const Side CORE{"Bitcoin Core CCoinsViewCache over CCoinsViewDB (" EQUIFUZZ_CORE_TREE ")", Run, BenchBlock, /*injects_faults=*/true};

} // namespace
} // namespace equifuzz::coins_view

EQUIFUZZ_EXPORT_SIDE(equifuzz::coins_view, equifuzz::coins_view::CORE)

// --- Logging and assertions: Core's hooks as this tree declares them ---------------------------
#include <equifuzz/core_hooks.h>

bool equifuzz::core_hooks::LogCategoryEnabled(uint64_t) { return false; }
void equifuzz::core_hooks::OnLogLine(std::string_view) {}

// --- LevelDB's file system: the process's memory Env, or real files that fail on request ---------
extern "C" leveldb::Env* __real__ZN7leveldb3Env7DefaultEv();
extern "C" leveldb::Env* __wrap__ZN7leveldb3Env7DefaultEv()
{
    using namespace equifuzz::coins_view;
    if (leveldb::Env* const disk{g_disk_files.load()}) return disk;
    if (leveldb::Env* const memory{g_memory_files.load()}) return memory;
    return __real__ZN7leveldb3Env7DefaultEv();
}

// --- Randomness and public keys: equifuzz/core_coins_hooks.h ---------------------------------------
#include <equifuzz/core_coins_hooks.h>
