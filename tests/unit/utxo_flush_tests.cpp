// Known answers for the UTXO flush pair (#31645; differential/utxo_flush/BEHAVIOUR.md): Core's encodings,
// LevelDB's batch size, and BatchWrite's batches, crash points and recovery on the model database.
#include <catch2/catch.hpp>
#include "support/hex.h"
#include <utxo_flush/cache.h>
#include <utxo_flush/pair.h>
#include <utxo_flush/side.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace equifuzz::utxo_flush;

using equifuzz::Mutation;
using equifuzz::test::FromHex;

namespace {

Bytes VarInt(uint64_t n)
{
    Bytes out;
    AppendVarInt(out, n);
    return out;
}

Hash HashOf(uint8_t b)
{
    Hash h{};
    h.fill(b);
    return h;
}

//! A cursor of `count` entries: every third clean, every fifth dirty and spent, the rest written.
std::vector<CursorEntry> Entries(size_t count, uint8_t salt)
{
    std::vector<CursorEntry> out;
    for (size_t i = 0; i < count; ++i) {
        CursorEntry e;
        e.txid = HashOf(static_cast<uint8_t>(i));
        e.txid[0] = salt;
        e.n = static_cast<uint32_t>(i * 37);
        e.coin = {static_cast<uint32_t>(100 + i), i % 7 == 0, static_cast<int64_t>(i * 1000), Bytes(i % 40, 0x51)};
        e.dirty = i % 3 != 0;
        e.spent = i % 5 == 0;
        out.push_back(e);
    }
    return out;
}

} // namespace

TEST_CASE("VARINT: Core's base-128 with an offset per group")
{
    CHECK(VarInt(0) == FromHex("00"));
    CHECK(VarInt(127) == FromHex("7f"));
    CHECK(VarInt(128) == FromHex("8000"));
    CHECK(VarInt(255) == FromHex("807f"));
    CHECK(VarInt(256) == FromHex("8100"));
    CHECK(VarInt(16383) == FromHex("fe7f"));
    CHECK(VarInt(16384) == FromHex("ff00"));
    CHECK(VarInt(16511) == FromHex("ff7f"));
    CHECK(VarInt(16512) == FromHex("808000"));
}

TEST_CASE("CompressAmount: 0, a satoshi, a cent, a coin, 50 coins, 21 million coins")
{
    CHECK(CompressAmount(0) == 0);
    CHECK(CompressAmount(1) == 1);
    CHECK(CompressAmount(1'000'000) == 0x7);
    CHECK(CompressAmount(100'000'000) == 0x9);
    CHECK(CompressAmount(5'000'000'000) == 0x32);
    CHECK(CompressAmount(2'100'000'000'000'000) == 0x1406f40);
}

TEST_CASE("script compression: the six special forms and the raw one")
{
    const Bytes h20(20, 0xab);
    Bytes p2pkh{0x76, 0xa9, 20};
    p2pkh.insert(p2pkh.end(), h20.begin(), h20.end());
    p2pkh.insert(p2pkh.end(), {0x88, 0xac});
    Bytes want{0x00};
    want.insert(want.end(), h20.begin(), h20.end());
    CHECK(CompressScript(p2pkh) == want);

    Bytes p2sh{0xa9, 20};
    p2sh.insert(p2sh.end(), h20.begin(), h20.end());
    p2sh.push_back(0x87);
    want[0] = 0x01;
    CHECK(CompressScript(p2sh) == want);

    // Uncompressed P2PK with the generator point (y even): type 4 and x. Not a point: raw.
    const Bytes g{FromHex("0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
                          "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8")};
    Bytes p2pk{65};
    p2pk.insert(p2pk.end(), g.begin(), g.end());
    p2pk.push_back(0xac);
    const Bytes compressed{CompressScript(p2pk)};
    REQUIRE(compressed.size() == 33);
    CHECK(compressed[0] == 0x04);
    CHECK(Bytes(compressed.begin() + 1, compressed.end()) == Bytes(g.begin() + 1, g.begin() + 33));
    Bytes off_curve(p2pk);
    std::fill(off_curve.begin() + 2, off_curve.begin() + 66, 0);
    const Bytes raw{CompressScript(off_curve)};
    CHECK(raw.size() == 68);
    CHECK(raw[0] == 73); // VARINT(67 + 6)

    // Compressed P2PK keeps its prefix byte; nothing checks the point.
    Bytes p2pkc{33, 0x03};
    p2pkc.insert(p2pkc.end(), 32, 0x00);
    p2pkc.push_back(0xac);
    CHECK(CompressScript(p2pkc) == Bytes(p2pkc.begin() + 1, p2pkc.begin() + 34));

    CHECK(CompressScript({}) == FromHex("06"));
    const Bytes long_script(200, 0x6a);
    const Bytes long_compressed{CompressScript(long_script)};
    CHECK(Bytes(long_compressed.begin(), long_compressed.begin() + 2) == FromHex("804e")); // VARINT(206)
}

TEST_CASE("coin key and value")
{
    Hash txid{};
    txid[0] = 0x11;
    const Bytes key{CoinKey(txid, 1)};
    REQUIRE(key.size() == 34);
    CHECK(key[0] == 'C');
    CHECK(key[1] == 0x11);
    CHECK(key[33] == 0x01);
    CHECK(CoinKey(txid, 128).size() == 35);
    // A coinbase at height 1 paying 50 coins to an empty script.
    CHECK(CoinValue({1, true, 5'000'000'000, {}}) == FromHex("033206"));
}

TEST_CASE("LevelDB's batch size: the markers of a first batch are 84 bytes with the header")
{
    CHECK(BATCH_HEADER_BYTES + DeleteBytes(1) + PutBytes(1, 65) == 84);
    CHECK(VarInt32Size(127) == 1);
    CHECK(VarInt32Size(128) == 2);
    CHECK(VarInt32Size(16384) == 3);
    // A flush of nothing is one batch: the markers, then H erased and B put.
    const FlushResult r{Flush({}, {}, HashOf(1), 32 * MiB)};
    CHECK(r.partial_batches == 0);
    CHECK(r.batch_sizes == std::vector<uint64_t>{84 + DeleteBytes(1) + PutBytes(1, 32)});
    CHECK(BestBlock(r.content) == HashOf(1));
    CHECK(!HeadBlocks(r.content));
    CHECK(r.content.size() == 1);
}

TEST_CASE("a batch is cut only when its size is strictly above the batch size")
{
    CursorEntry clean;
    clean.txid = HashOf(9);
    // After a clean first entry the batch holds the markers alone: 84 bytes.
    CHECK(Flush({}, {clean}, HashOf(1), 84).partial_batches == 0);
    CHECK(Flush({}, {clean}, HashOf(1), 83).partial_batches == 1);
    CHECK(Flush({}, {clean}, HashOf(1), 83).batch_sizes == std::vector<uint64_t>{84, BATCH_HEADER_BYTES + DeleteBytes(1) + PutBytes(1, 32)});
}

TEST_CASE("the final content is the same for every batch size; only the cuts move")
{
    const auto cursor{Entries(60, 7)};
    const FlushResult whole{Flush({}, cursor, HashOf(2), 32 * MiB)};
    CHECK(whole.partial_batches == 0);
    for (uint64_t size : {uint64_t{0}, uint64_t{1}, uint64_t{84}, uint64_t{100}, uint64_t{1000}, 16 * MiB}) {
        const FlushResult r{Flush({}, cursor, HashOf(2), size)};
        CAPTURE(size);
        CHECK(r.stopped.empty());
        CHECK(r.content == whole.content);
    }
    // Size 0: one write after every entry (clean ones too), then the last.
    CHECK(Flush({}, cursor, HashOf(2), 0).partial_batches == cursor.size());
    CHECK(Flush({}, cursor, HashOf(2), 100).partial_batches > 1);
    // Clean entries are never written; spent ones are absent.
    for (const CursorEntry& e : cursor) {
        if (!e.dirty || e.spent) CHECK(whole.content.count(CoinKey(e.txid, e.n)) == 0);
        else CHECK(whole.content.at(CoinKey(e.txid, e.n)) == CoinValue(e.coin));
    }
}

TEST_CASE("a crash before partial batch k leaves the old content, the first batches, no B and H = [new, old]")
{
    const auto first{Entries(30, 1)};
    const FlushResult block1{Flush({}, first, HashOf(1), 32 * MiB)};
    REQUIRE(block1.stopped.empty());
    // The next block spends some of those coins and rewrites others, among new ones.
    auto second{Entries(45, 2)};
    for (size_t i = 1; i < first.size(); i += 4) {
        CursorEntry e{first[i]};
        e.dirty = true;
        e.spent = i % 8 == 1;
        e.coin.amount += 1;
        second.insert(second.begin() + static_cast<std::ptrdiff_t>(i % second.size()), e);
    }
    const FlushResult full{Flush(block1.content, second, HashOf(2), 200)};
    REQUIRE(full.partial_batches >= 3);
    for (size_t k = 1; k <= full.partial_batches; ++k) {
        CAPTURE(k);
        const FlushResult crashed{Flush(block1.content, second, HashOf(2), 200, k)};
        CHECK(crashed.stopped == "crash before partial batch " + std::to_string(k));
        if (k == 1) {
            CHECK(crashed.content == block1.content); // nothing was written
            continue;
        }
        CHECK(!BestBlock(crashed.content));
        REQUIRE(HeadBlocks(crashed.content));
        CHECK(HeadBlocks(crashed.content)->first == HashOf(2));
        CHECK(HeadBlocks(crashed.content)->second == HashOf(1));
        // Every coin at its old value (or absent) or at its new one.
        for (const CursorEntry& e : second) {
            const Bytes key{CoinKey(e.txid, e.n)};
            const auto now{crashed.content.find(key)};
            const auto old{block1.content.find(key)};
            const auto fin{full.content.find(key)};
            const bool as_old{(now == crashed.content.end()) == (old == block1.content.end()) &&
                              (now == crashed.content.end() || now->second == old->second)};
            const bool as_new{(now == crashed.content.end()) == (fin == full.content.end()) &&
                              (now == crashed.content.end() || now->second == fin->second)};
            CHECK((as_old || as_new));
        }
        // Recovery: the same operations flushed again with the same tip give the uninterrupted
        // content, crash again or not; another tip is refused.
        CHECK(Flush(crashed.content, second, HashOf(2), 200).content == full.content);
        CHECK(Flush(crashed.content, second, HashOf(2), 32 * MiB).content == full.content);
        CHECK(!Flush(crashed.content, second, HashOf(3), 200).stopped.empty());
        const FlushResult again{Flush(crashed.content, second, HashOf(2), 200, 2)};
        CHECK(HeadBlocks(again.content)->second == HashOf(1)); // the original old tip survives
    }
}

TEST_CASE("the sides' default batch sizes: 16 MiB before #31645, 32 MiB after")
{
    CHECK(original_side().default_batch_bytes == 16 * MiB);
    CHECK(optimized_side().default_batch_bytes == 32 * MiB);
    REQUIRE(Sides().size() >= 2);
    // Bitcoin Core's own default (CoinsViewOptions{}), where this build has its sides.
    for (const auto& [label, side, role] : Sides()) {
        INFO(label);
        if (std::string_view{label} == "core-original") CHECK(side->default_batch_bytes == 16 * MiB);
        if (std::string_view{label} == "core-optimized") CHECK(side->default_batch_bytes == 32 * MiB);
    }
}

TEST_CASE("the dynamic batch size from #31645's review: 16 MiB per whole 450 MiB of dbcache, in [16, 256] MiB")
{
    // The PR's own known answers (commit 1c88f34884, coins_tests.cpp db_batch_sizes).
    CHECK(DynamicBatchBytes(450 * MiB) == 16 * MiB);
    CHECK(DynamicBatchBytes(0) == 16 * MiB);
    for (const uint64_t mib : {4, 10, 45, 100, 450}) CHECK(DynamicBatchBytes(mib * MiB) == 16'777'216);
    CHECK(DynamicBatchBytes(1000 * MiB) == 33'554'432);
    CHECK(DynamicBatchBytes(2000 * MiB) == 67'108'864);
    CHECK(DynamicBatchBytes(3000 * MiB) == 100'663'296);
    CHECK(DynamicBatchBytes(4500 * MiB) == 167'772'160);
    CHECK(DynamicBatchBytes(7000 * MiB) == 251'658'240);
    CHECK(DynamicBatchBytes(10000 * MiB) == 268'435'456);
    CHECK(DynamicBatchBytes(45000 * MiB) == 268'435'456);
}

// --- The cache model (cache.h) and every side's run of a scenario -----------------------------

namespace {

Coin P2pkh(uint8_t tag, int64_t amount)
{
    Bytes script{0x76, 0xa9, 20};
    script.insert(script.end(), 20, tag);
    script.insert(script.end(), {0x88, 0xac});
    return {500'000, false, amount, script};
}

Op Add(uint8_t txid, uint32_t n, Coin coin, bool possible_overwrite)
{
    return {Op::Kind::ADD, HashOf(txid), n, std::move(coin), possible_overwrite};
}
Op Spend(uint8_t txid, uint32_t n) { return {Op::Kind::SPEND, HashOf(txid), n, {}, false}; }
Op Access(uint8_t txid, uint32_t n) { return {Op::Kind::ACCESS, HashOf(txid), n, {}, false}; }

std::vector<std::pair<uint8_t, bool>> Listed(const CacheModel& cache)
{
    std::vector<std::pair<uint8_t, bool>> out;  // (txid byte, spent), in cursor order
    for (const CursorEntry& e : cache.Cursor()) {
        CHECK(e.dirty);
        out.emplace_back(e.txid[0], e.spent);
    }
    return out;
}

} // namespace

TEST_CASE("cache: a FRESH coin spent in the same block is never written; a coin that may be on disk is erased")
{
    const Content db;
    CacheModel cache{db};
    CHECK(cache.Apply(Add(1, 0, P2pkh(1, 5000), /*possible_overwrite=*/false)));  // FRESH
    CHECK(cache.Apply(Add(2, 0, P2pkh(2, 6000), /*possible_overwrite=*/true)));   // DIRTY only
    CHECK(cache.Apply(Spend(1, 0)));
    CHECK(cache.Apply(Spend(2, 0)));
    CHECK(Listed(cache) == std::vector<std::pair<uint8_t, bool>>{{2, true}});
}

TEST_CASE("cache: entries are listed in the order they were first flagged; a forgotten one rejoins at the end")
{
    const Content db;
    CacheModel cache{db};
    cache.Apply(Add(3, 0, P2pkh(3, 1), true));
    cache.Apply(Add(1, 0, P2pkh(1, 1), false));
    cache.Apply(Add(2, 0, P2pkh(2, 1), true));
    cache.Apply(Spend(3, 0));                       // stays where it was, now spent
    cache.Apply(Spend(1, 0));                       // FRESH: forgotten
    cache.Apply(Add(1, 0, P2pkh(1, 2), false));     // FRESH again, at the end
    CHECK(Listed(cache) == std::vector<std::pair<uint8_t, bool>>{{3, true}, {2, false}, {1, false}});
}

TEST_CASE("cache: AddCoin without possible_overwrite over an unspent cached coin is refused; OP_RETURN is never kept")
{
    Content db;
    db[CoinKey(HashOf(4), 0)] = CoinValue(P2pkh(4, 1));
    CacheModel cache{db};
    CHECK(cache.Apply(Access(4, 0)));                          // fetched: clean, not listed
    CHECK(Listed(cache).empty());
    CHECK_FALSE(cache.Apply(Add(4, 0, P2pkh(9, 2), false)));  // Core: std::logic_error
    CHECK(cache.Apply(Add(5, 0, Coin{1, false, 0, Bytes{0x6a, 0x01, 0x00}}, false)));
    CHECK(Listed(cache).empty());
    CHECK_FALSE(cache.FreshOverDisk());
    CacheModel other{db};
    CHECK(other.Apply(Add(4, 0, P2pkh(9, 2), false)));  // not in the cache: FRESH over a coin on disk
    CHECK(other.FreshOverDisk());
}

TEST_CASE("every side: a flush at batch size 0 writes one partial batch per entry; a crash and its recovery")
{
    Scenario s;
    Step first;
    for (uint8_t t = 1; t <= 6; ++t) first.ops.push_back(Add(t, t, P2pkh(t, 1000 * t), false));
    first.tip = HashOf(0x41);
    first.batch_bytes = 0;
    Step second;
    second.ops = {Spend(1, 1), Spend(2, 2), Add(7, 0, P2pkh(7, 7), false), Add(3, 3, P2pkh(33, 3), true)};
    second.tip = HashOf(0x42);
    second.batch_bytes = 0;
    second.crash_before = 3;
    Step recovery{second};
    recovery.rollforward = true;
    recovery.crash_before = 0;
    s.steps = {first, second, recovery};
    for (const bool on_disk : {false, true}) {
        s.on_disk = on_disk;
        for (const auto& [label, side, role] : Sides()) {
            INFO(label << (on_disk ? " on disk" : " in memory"));
            const std::vector<StepResult> r{side->run(s)};
            REQUIRE(r.size() == 3);
            CHECK(r[0].stopped.empty());
            CHECK(r[0].partial_batches == 6);
            CHECK(BestBlock(r[0].content) == HashOf(0x41));
            CHECK(r[1].stopped == "crash before partial batch 3");
            CHECK(r[1].partial_batches == 2);
            CHECK(!BestBlock(r[1].content));
            CHECK(HeadBlocks(r[1].content) == std::pair{HashOf(0x42), HashOf(0x41)});
            CHECK(!r[1].content.contains(CoinKey(HashOf(1), 1)));  // the first two batches: the spends
            CHECK(r[1].content.contains(CoinKey(HashOf(3), 3)));
            CHECK(r[2].stopped.empty());
            CHECK(BestBlock(r[2].content) == HashOf(0x42));
            CHECK(!HeadBlocks(r[2].content));
            CHECK(r[2].content.size() == 1 + 4 + 1);  // B, coins 3..6 and 7
            CHECK(r[2].content.at(CoinKey(HashOf(3), 3)) == CoinValue(P2pkh(33, 3)));
        }
    }
}

TEST_CASE("Core's sides: a write fault in the log stops the flush with dbwrapper_error and leaves whole batches")
{
    // Batch size 0: one record per batch, each two Appends (header, payload) and one Flush. Block 2
    // is three partial batches (the markers with the first spend, the second spend, the new coin)
    // and the final one.
    Step first;
    for (uint8_t t = 1; t <= 3; ++t) first.ops.push_back(Add(t, 0, P2pkh(t, 1000 * t), false));
    first.tip = HashOf(0x41);
    Step second;
    second.ops = {Spend(1, 0), Spend(2, 0), Add(4, 0, P2pkh(4, 4), false)};
    second.tip = HashOf(0x42);
    second.batch_bytes = 0;
    Step recovery{second};
    recovery.rollforward = true;
    recovery.batch_bytes = std::nullopt;
    struct Case {
        Fault fault;
        size_t faulted_batch;
        size_t written;  //!< batches of block 2 on disk after reopening
    };
    const std::vector<Case> cases{
        {{Fault::Kind::APPEND, 1, 0}, 1, 0},    // batch 1's header: nothing written
        {{Fault::Kind::TORN, 2, 128}, 1, 0},    // half of batch 1's payload: a torn tail, dropped
        {{Fault::Kind::FLUSH, 1, 0}, 1, 1},     // batch 1 reached the file: it survives
        {{Fault::Kind::APPEND, 5, 0}, 3, 2},    // batch 3's header
        {{Fault::Kind::FLUSH, 4, 0}, 4, 4},     // the final batch reached the file: block 2 complete
    };
    size_t core_sides{0};
    for (const auto& [label, side, role] : Sides()) {
        if (!side->injects_faults) continue;
        ++core_sides;
        for (const Case& c : cases) {
            INFO(label << ": fault kind " << int(c.fault.kind) << " at call " << c.fault.at);
            Scenario s;
            s.on_disk = true;
            s.steps = {first, second, recovery};
            s.steps[1].fault = c.fault;
            const std::vector<StepResult> r{side->run(s)};
            REQUIRE(r.size() == 3);
            CHECK(r[1].stopped == "write fault: Fatal LevelDB error: IO error: equifuzz: injected write fault");
            CHECK(r[1].faulted_batch == c.faulted_batch);
            CacheModel cache{r[0].content};
            cache.ApplyStep(second);
            const Content expected{Flush(r[0].content, cache.Cursor(), second.tip, 0, std::nullopt, c.written).content};
            CHECK(r[1].content == expected);
            if (c.written == 0) CHECK(r[1].content == r[0].content);
            if (c.written > 0 && c.written < 4) CHECK(HeadBlocks(r[1].content) == std::pair{HashOf(0x42), HashOf(0x41)});
            CHECK(r[2].stopped.empty());
            CHECK(r[2].content == Flush(r[0].content, cache.Cursor(), second.tip, 0).content);
        }
    }
#if defined(EQUIFUZZ_CORE_ORIGINAL) || defined(EQUIFUZZ_CORE_OPTIMIZED)
    CHECK(core_sides > 0);
#endif
    // Our models have no log to fail.
    CHECK_FALSE(original_side().injects_faults);
    CHECK_FALSE(optimized_side().injects_faults);
}

TEST_CASE("EncodeScenario is DecodeScenario's mirror; MutateScenario keeps inputs decodable", "[mutator]")
{
    for (const Storage storage : {Storage::MEMORY, Storage::DISK, Storage::DISK_FAULTS}) {
        std::mt19937 rng{static_cast<uint32_t>(storage)};
        size_t crashes{0};
        for (int i = 0; i < 300; ++i) {
            Bytes raw(std::uniform_int_distribution<size_t>{0, 600}(rng));
            for (uint8_t& b : raw) b = static_cast<uint8_t>(rng());
            FuzzedDataProvider fdp{raw.data(), raw.size()};
            const Scenario first{DecodeScenario(fdp, storage)};
            // Written and read again: the same scenario (after one pass, which turns operations
            // decoded from an exhausted input into ones the decoder can read from bytes).
            const Bytes once{EncodeScenario(first, storage)};
            FuzzedDataProvider fdp1{once.data(), once.size()};
            const Scenario second{DecodeScenario(fdp1, storage)};
            const Bytes twice{EncodeScenario(second, storage)};
            FuzzedDataProvider fdp2{twice.data(), twice.size()};
            CHECK(DecodeScenario(fdp2, storage).steps == second.steps);
            CHECK(twice == once);
            CHECK(second.obfuscate == first.obfuscate);
            CHECK(second.steps.size() == first.steps.size());
            for (size_t k = 0; k < first.steps.size(); ++k) {
                CHECK(second.steps[k].crash_before == first.steps[k].crash_before);
                CHECK(second.steps[k].batch_bytes == first.steps[k].batch_bytes);
                CHECK(second.steps[k].fault == first.steps[k].fault);
            }
            // Mutated: still an input the targets read, and now and then interrupted.
            Bytes mutated{raw};
            Mutation m{mutated, 4096, static_cast<uint32_t>(i)};
            if (MutateScenario(m, storage)) {
                FuzzedDataProvider fdp3{mutated.data(), mutated.size()};
                for (const Step& s : DecodeScenario(fdp3, storage).steps) crashes += Interrupts(s);
            }
        }
        CHECK(crashes > 30);
    }
}
