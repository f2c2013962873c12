// The prevout fetch pair's Bitcoin Core sides: CoinsViewOverlay over CCoinsViewCache (the node's
// middle cache) over a memory-only CCoinsViewDB (LevelDB's memory Env), as CoinsViews::InitCache
// layers them (without the error catcher, which only forwards). cmake/CoreTrees.cmake builds this
// file once per side against the commits before and after #35295. The block is a real CBlock of
// real transactions (their txids Core's own), the accesses Core's own calls on the overlay.
//
// The merge's overlay gets a ThreadPool of the input's worker count, started inside the run and
// stopped before it returns: no thread outlives an input (a pool started before a fork server
// forks is what #35767 had to undo in Core's own fuzzing). The tree before the merge has the
// overlay without a pool: its guard is CreateResetGuard and every miss is serial. Without git both
// sides are the same registry tree (kernel 0.4.1); the one playing "before" then runs with 0
// workers, the serial path of the new code (EQUIFUZZ_SIDE_ROLE and EQUIFUZZ_CORE_TREE say which
// role this object plays, from which tree). A "before" tree from git or a checkout that has
// StartFetching (verify of a later change to the queue) fetches with the input's workers.
//
// What a node would take from the rest of Core is answered here, without editing a Core file:
// logging (equifuzz/core_hooks.h: every line reaches OnLogLine, from worker threads too, so it
// locks), randomness (a fixed sequence, for the salted hashers), and the public-key checks of the
// coin compressor over the system libsecp256k1 (the tree's pubkey.cpp needs a newer one).
#include "../side.h"

#include <equifuzz/core_shim.h>
#include <equifuzz/temp_dir.h>

#include <coins.h>
#include <dbwrapper.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <pubkey.h>
#include <random.h>
#include <script/script.h>
#include <span.h>
#include <txdb.h>
#include <uint256.h>
#include <util/check.h>
#ifdef EQUIFUZZ_CORE_HAS_START_FETCHING
#include <util/threadpool.h>
#endif

#include <streams.h>
#include <util/fs.h>

#include <secp256k1.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace equifuzz::prevout_fetch {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

#define EQUIFUZZ_PF_STR2(x) #x
#define EQUIFUZZ_PF_STR(x) EQUIFUZZ_PF_STR2(x)
//! Whether this object is the registry fallback's "before" side: the same tree as "after"
//! (kernel 0.4.1, the merge's code), so it runs serially. A git or user tree plays itself.
constexpr bool SERIAL_STAND_IN{std::string_view{EQUIFUZZ_PF_STR(EQUIFUZZ_SIDE_ROLE)} == "core_original" &&
                               std::string_view{EQUIFUZZ_CORE_TREE}.starts_with("kernel-")};
#ifdef EQUIFUZZ_CORE_HAS_START_FETCHING
constexpr bool FETCHES{!SERIAL_STAND_IN};
#else
constexpr bool FETCHES{false};
#endif
//! Whether a failed Assume aborts in this build (util/check.h's G_ABORT_ON_FAILED_ASSUME): the
//! overlay's Flush then aborts on unconsumed inputs instead of warning.
constexpr bool ASSUME_ABORTS{G_ABORT_ON_FAILED_ASSUME};

// --- The log: warnings, from any thread ----------------------------------------------------------
std::mutex g_log_mutex;
std::vector<std::string> g_log;

void OnLogLine(std::string_view line)
{
    // Each worker announces itself (util::TraceThread's "<name> thread start/exit", LogInfo): how
    // many there are is the input's, not an observation.
    if (line.ends_with(" thread start") || line.ends_with(" thread exit")) return;
    const std::lock_guard lock{g_log_mutex};
    g_log.emplace_back(line);
}

std::vector<std::string> TakeLog()
{
    const std::lock_guard lock{g_log_mutex};
    return std::exchange(g_log, {});
}

// --- Our scenario in Core's types -----------------------------------------------------------------
uint256 Filled(uint8_t byte)
{
    uint256 u;
    std::memset(u.begin(), byte, 32);
    return u;
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

//! The block, its transactions hashed by Core, and each Ref's COutPoint.
struct Built {
    CBlock block;
    std::vector<Txid> txids;
    COutPoint At(const Ref& r) const
    {
        if (r.External()) return COutPoint{Txid::FromUint256(Filled(r.id)), r.n};
        return COutPoint{txids[r.tx], r.n};
    }
};

Built Build(const Scenario& s)
{
    Built b;
    const size_t count{s.vtx.size()};
    std::vector<CTransactionRef> txs(count);
    b.txids.resize(count);
    // A transaction's txid needs those of the block's transactions it spends from first: the
    // decoder keeps those references acyclic.
    std::function<void(size_t)> make{[&](size_t i) {
        if (txs[i]) return;
        for (const Ref& r : s.vtx[i].vin) {
            if (!r.External()) make(r.tx);
        }
        CMutableTransaction mtx;
        mtx.version = 2;
        if (i == 0) {
            mtx.vin.resize(1);  // the null prevout; a height push keeps the txid apart
            mtx.vin[0].scriptSig = CScript{} << static_cast<int64_t>(BLOCK_HEIGHT);
        } else {
            for (const Ref& r : s.vtx[i].vin) mtx.vin.emplace_back(b.At(r));
            mtx.nLockTime = static_cast<uint32_t>(i);  // two transactions never share a txid
        }
        for (const Coin& c : s.vtx[i].vout) mtx.vout.emplace_back(c.amount, CScript(c.script.begin(), c.script.end()));
        txs[i] = MakeTransactionRef(std::move(mtx));
        b.txids[i] = txs[i]->GetHash();
    }};
    for (size_t i = 0; i < count; ++i) make(i);
    b.block.vtx = std::move(txs);
    return b;
}

//! The driver's calls (side.h's Drive) on a Core cache.
struct CoreView {
    CCoinsViewCache& cache;
    const Built& built;
    bool Have(const Ref& r) { return cache.HaveCoin(built.At(r)); }
    std::optional<Coin> Get(const Ref& r)
    {
        const ::Coin& c{cache.AccessCoin(built.At(r))};
        return c.IsSpent() ? std::nullopt : std::optional{FromCoin(c)};
    }
    bool Spend(const Ref& r) { return cache.SpendCoin(built.At(r)); }
    bool Add(const Ref& r, const Coin& c, bool possible_overwrite)
    {
        try {
            cache.AddCoin(built.At(r), ToCoin(c), possible_overwrite);
            return false;
        } catch (const std::logic_error&) {
            return true;
        }
    }
};

//! A cache's own content: HaveCoinInCache never fetches, AccessCoin of a cached coin neither.
Snapshot Take(const CCoinsViewCache& cache, const Built& built, const std::vector<Ref>& named)
{
    Snapshot snap;
    for (const Ref& r : named) {
        const COutPoint at{built.At(r)};
        snap.coins.push_back(cache.HaveCoinInCache(at) ? std::optional{FromCoin(cache.AccessCoin(at))} : std::nullopt);
    }
    snap.entries = cache.GetCacheSize();
    return snap;
}

//! The block's accesses on the overlay, and its flush (ConnectTip's, inside the guard's scope).
template <typename Overlay>
void Connect(const Scenario& s, Overlay& overlay, const Built& built, const std::vector<Ref>& named, Result& r)
{
    CoreView view{overlay, built};
    r.stopped = Drive(s, view, r.accesses);
#ifdef EQUIFUZZ_CORE_HAS_START_FETCHING
    if (FETCHES) r.consumed = overlay.AllInputsConsumed();
#endif
    r.overlay = Take(overlay, built, named);
    if (!r.stopped.empty() || !s.flush) return;
    r.flushed = true;
    if (ASSUME_ABORTS && r.consumed == false) {
        // Flush would abort the process (its Assume): Core's own fuzzers skip such a flush too.
        r.flush_withheld = true;
        return;
    }
    overlay.SetBestBlock(Filled(BLOCK_HASH_BYTE));
    try {
        overlay.Flush(/*reallocate_cache=*/false);
    } catch (const std::logic_error& e) {
        r.flush_error = e.what();
    }
}

//! The side's database: one memory-only CCoinsViewDB for the whole process, given each run the
//! scenario's coins. Opening a LevelDB per run was most of a run's time; what a block reads from
//! the database is its content, which every run sets whole: the coins the last run wrote are spent
//! (erased by the flush), this run's added over them as the scenario writes them (an unspendable
//! coin never reaches the database, a later coin at the same outpoint replaces an earlier one). Nothing else writes to it: the block's overlay flushes into
//! the middle cache, which is never flushed. Its outpoints are external ones (a txid of one
//! repeated byte), the same whatever the block.
CCoinsViewDB& Database(const Scenario& s, const Built& built)
{
    static CCoinsViewDB db{DBParams{.path = {}, .cache_bytes = size_t{1} << 20, .memory_only = true, .wipe_data = true},
                           CoinsViewOptions{}};
    // The cache that writes it, emptied by each flush without giving its memory back.
    static CCoinsViewCache writer{&db, /*deterministic=*/true};
    static std::optional<decltype(s.db)> written;  // what the database holds, as the scenario said it
    if (written == s.db) return db;                 // the same input's next side run
    // Every coin the last run wrote is spent first: one this run writes again comes back, one it
    // writes unspendable (which AddCoin leaves out) is erased, as in a fresh database.
    if (written) {
        for (const auto& [at, coin] : *written) writer.SpendCoin(built.At(at));
    }
    for (const auto& [at, coin] : s.db) writer.AddCoin(built.At(at), ToCoin(coin), /*possible_overwrite=*/true);
    writer.SetBestBlock(Filled(DB_TIP_BYTE));
    writer.Flush(/*reallocate_cache=*/false);
    written = s.db;
    return db;
}

Result Run(const Scenario& s, uint8_t workers)
{
    const Built built{Build(s)};
    const std::vector<Ref> named{NamedRefs(s)};
    CCoinsViewDB& db{Database(s, built)};
    CCoinsViewCache middle{&db, /*deterministic=*/true};
    for (const MiddleOp& op : s.middle) {
        const COutPoint at{built.At(op.at)};
        switch (op.kind) {
        case MiddleOp::Kind::ADD_FRESH:
            try {
                middle.AddCoin(at, ToCoin(op.coin), /*possible_overwrite=*/false);
            } catch (const std::logic_error&) {
            }
            break;
        case MiddleOp::Kind::ADD_DIRTY: middle.AddCoin(at, ToCoin(op.coin), /*possible_overwrite=*/true); break;
        case MiddleOp::Kind::SPEND: middle.SpendCoin(at); break;
        case MiddleOp::Kind::ACCESS: (void)middle.AccessCoin(at); break;
        }
    }
    Result r;
    // Opening the database logs at Info ("Opened LevelDB successfully"): only what the block's
    // connection logs is kept (the hook is not told a line's level).
    (void)TakeLog();
#ifdef EQUIFUZZ_CORE_HAS_START_FETCHING
    {
        // Declared before the overlay, so the overlay (whose destructor stops its fetching) goes first.
        const auto pool{std::make_shared<ThreadPool>("prevout")};
        if (FETCHES && workers > 0) {
            pool->Start(workers);
            // A node shutting down: the workers stay counted, Submit is refused.
            if (s.interrupted) pool->Interrupt();
        }
        {
            CoinsViewOverlay overlay{&middle, pool, /*deterministic=*/true};
            const auto guard{overlay.StartFetching(built.block)};
            Connect(s, overlay, built, named, r);
        }
        pool->Stop();
    }
#else
    (void)workers;
    {
        CoinsViewOverlay overlay{&middle, /*deterministic=*/true};
        const auto guard{overlay.CreateResetGuard()};
        Connect(s, overlay, built, named, r);
    }
#endif
    r.middle = Take(middle, built, named);
    if (FETCHES) r.warnings = TakeLog();
    return r;
}

// --- The benchmark: a real block read through the overlay -------------------------------------------

//! ConnectBlock's reads of one block on `view`: per transaction HaveCoin of each input, AccessCoin
//! of each, SpendCoin of each, AddCoin of each output.
void ConnectReads(const CBlock& block, CCoinsViewCache& view, ReadBlockCost& cost)
{
    for (size_t i = 1; i < block.vtx.size(); ++i) {
        const CTransaction& tx{*block.vtx[i]};
        for (const CTxIn& in : tx.vin) cost.missing += view.HaveCoin(in.prevout) ? 0 : 1;
        for (const CTxIn& in : tx.vin) {
            const ::Coin& coin{view.AccessCoin(in.prevout)};
            if (!coin.IsSpent()) {
                cost.amount += coin.out.nValue;
                ++cost.inputs;
            }
        }
        for (const CTxIn& in : tx.vin) view.SpendCoin(in.prevout);
        for (uint32_t n = 0; n < tx.vout.size(); ++n) {
            try {
                view.AddCoin(COutPoint{tx.GetHash(), n}, ::Coin{tx.vout[n], 277'647, false}, /*possible_overwrite=*/false);
            } catch (const std::logic_error&) {
            }
        }
    }
}

ReadBlockCost ReadBlock(const std::vector<uint8_t>& bytes, uint8_t workers)
{
    // The block, parsed by Core, and its database: written once per process (per block).
    static std::vector<uint8_t> parsed_from;
    static CBlock block;
    static std::optional<TempDir> dir;
    if (parsed_from != bytes) {
        block = CBlock{};
        SpanReader{bytes} >> TX_WITH_WITNESS(block);
        parsed_from = bytes;
        dir.emplace("equifuzz-prevout");
        CCoinsViewDB db{DBParams{.path = fs::PathFromString(dir->path().string()), .cache_bytes = size_t{8} << 20, .memory_only = false, .wipe_data = true},
                        CoinsViewOptions{}};
        CCoinsViewCache writer{&db, /*deterministic=*/true};
        std::vector<Txid> in_block;
        for (const CTransactionRef& tx : block.vtx) in_block.push_back(tx->GetHash());
        const CScript script{CScript{} << OP_DUP << OP_HASH160 << std::vector<unsigned char>(20, 0x5a) << OP_EQUALVERIFY << OP_CHECKSIG};
        for (size_t i = 1; i < block.vtx.size(); ++i) {
            for (const CTxIn& in : block.vtx[i]->vin) {
                if (std::find(in_block.begin(), in_block.end(), in.prevout.hash) != in_block.end()) continue;
                writer.AddCoin(in.prevout, ::Coin{CTxOut{100'000, script}, 277'000, false}, /*possible_overwrite=*/true);
            }
        }
        writer.SetBestBlock(Filled(DB_TIP_BYTE));
        writer.Flush();
    }
    ReadBlockCost cost;
    // Opened again for each block: LevelDB's own cache starts cold (the files may be in the
    // operating system's cache).
    CCoinsViewDB db{DBParams{.path = fs::PathFromString(dir->path().string()), .cache_bytes = size_t{8} << 20, .memory_only = false, .wipe_data = false},
                    CoinsViewOptions{}};
    CCoinsViewCache middle{&db, /*deterministic=*/true};
#ifdef EQUIFUZZ_CORE_HAS_START_FETCHING
    // One pool per worker count, started once and kept, as a node keeps its pool between blocks.
    static std::map<uint8_t, std::shared_ptr<ThreadPool>> pools;
    const uint8_t count{FETCHES ? workers : uint8_t{0}};
    auto& pool{pools[count]};
    if (!pool) {
        pool = std::make_shared<ThreadPool>("prevout");
        if (count > 0) pool->Start(count);
    }
    CoinsViewOverlay overlay{&middle, pool, /*deterministic=*/true};
    {
        const auto guard{overlay.StartFetching(block)};
        ConnectReads(block, overlay, cost);
        if (FETCHES) cost.consumed &= overlay.AllInputsConsumed();
    }
#else
    (void)workers;
    CoinsViewOverlay overlay{&middle, /*deterministic=*/true};
    {
        const auto guard{overlay.CreateResetGuard()};
        ConnectReads(block, overlay, cost);
    }
#endif
    return cost;
}

const Side CORE{"Bitcoin Core CoinsViewOverlay (" EQUIFUZZ_CORE_TREE ")", FETCHES, Run, ReadBlock, FETCHES};

} // namespace
} // namespace equifuzz::prevout_fetch

EQUIFUZZ_EXPORT_SIDE(equifuzz::prevout_fetch, equifuzz::prevout_fetch::CORE)

// --- Logging and assertions: Core's hooks as this tree declares them ---------------------------
#include <equifuzz/core_hooks.h>

bool equifuzz::core_hooks::LogCategoryEnabled(uint64_t) { return false; }
void equifuzz::core_hooks::OnLogLine(std::string_view line) { equifuzz::prevout_fetch::OnLogLine(line); }

// --- Randomness and public keys: equifuzz/core_coins_hooks.h ---------------------------------------
#include <equifuzz/core_coins_hooks.h>
