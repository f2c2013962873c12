// The pair's list of sides, its fuzz input's decoder and description (pair.h).
#include "pair.h"

#include "cache.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>

EQUIFUZZ_DEFINE_SIDES(equifuzz::utxo_flush)

namespace equifuzz::utxo_flush {
namespace {

//! A generator point, uncompressed (on the curve: the compressor's type 4 or 5).
constexpr uint8_t G_X[32]{0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62, 0x95, 0xce, 0x87, 0x0b, 0x07,
                          0x02, 0x9b, 0xfc, 0xdb, 0x2d, 0xce, 0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8, 0x17, 0x98};
constexpr uint8_t G_Y[32]{0x48, 0x3a, 0xda, 0x77, 0x26, 0xa3, 0xc4, 0x65, 0x5d, 0xa4, 0xfb, 0xfc, 0x0e, 0x11, 0x08, 0xa8,
                          0xfd, 0x17, 0xb4, 0x48, 0xa6, 0x85, 0x54, 0x19, 0x9c, 0x47, 0xd0, 0x8f, 0xfb, 0x10, 0xd4, 0xb8};

//! DecodeScript's uncompressed P2PK: the generator, or one byte off it.
Bytes Uncompressed(bool off_curve)
{
    Bytes s{65, 0x04};
    s.insert(s.end(), std::begin(G_X), std::end(G_X));
    s.insert(s.end(), std::begin(G_Y), std::end(G_Y));
    if (off_curve) s[10] ^= 0x01;
    s.push_back(0xac);
    return s;
}

Bytes DecodeScript(FuzzedDataProvider& fdp)
{
    const Bytes h(20, fdp.ConsumeIntegral<uint8_t>());
    switch (fdp.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: { // P2PKH
        Bytes s{0x76, 0xa9, 20};
        s.insert(s.end(), h.begin(), h.end());
        s.insert(s.end(), {0x88, 0xac});
        return s;
    }
    case 1: { // P2SH
        Bytes s{0xa9, 20};
        s.insert(s.end(), h.begin(), h.end());
        s.push_back(0x87);
        return s;
    }
    case 2: { // P2PK, compressed key
        Bytes s{33, static_cast<uint8_t>(fdp.ConsumeBool() ? 0x02 : 0x03)};
        s.insert(s.end(), 32, h[0]);
        s.push_back(0xac);
        return s;
    }
    case 3: // P2PK, uncompressed: the generator (on the curve) or one byte off it
        return Uncompressed(fdp.ConsumeBool());
    default: // anything else, stored raw
        return fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 80));
    }
}

Coin DecodeCoin(FuzzedDataProvider& fdp)
{
    Coin c;
    c.height = fdp.ConsumeIntegralInRange<uint32_t>(0, 0x7fffffff);
    c.coinbase = fdp.ConsumeBool();
    c.amount = fdp.ConsumeIntegralInRange<int64_t>(0, 2'100'000'000'000'000);
    c.script = DecodeScript(fdp);
    return c;
}

uint64_t DecodeBatchSize(FuzzedDataProvider& fdp)
{
    switch (fdp.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: return 0;                                                   // one write per entry
    case 1: return fdp.ConsumeIntegralInRange<uint64_t>(1, 200);        // a few entries per batch
    case 2: return fdp.ConsumeIntegralInRange<uint64_t>(78, 90);        // around the markers' 84 bytes
    case 3: return 16 * MiB;                                            // the defaults
    case 4: return 32 * MiB;
    default: return fdp.ConsumeIntegralInRange<uint64_t>(0, 4096);
    }
}

//! The cursor lists each coin once: a key seen before in the same block is skipped.
void AddUnique(std::vector<CursorEntry>& block, std::set<Bytes>& seen, CursorEntry e)
{
    if (seen.insert(CoinKey(e.txid, e.n)).second) block.push_back(std::move(e));
}

Hash Tip(size_t i)
{
    Hash h;
    h.fill(static_cast<uint8_t>(0x40 + i));
    return h;
}

std::vector<Op> DecodeOps(FuzzedDataProvider& fdp)
{
    std::vector<Op> ops(fdp.ConsumeIntegralInRange<size_t>(0, 24));
    for (Op& op : ops) {
        if (fdp.remaining_bytes() == 0) {
            op.kind = Op::Kind::ACCESS;
            continue;
        }
        const int kind{fdp.ConsumeIntegralInRange<int>(0, 9)};
        op.kind = kind < 5 ? Op::Kind::ADD : kind < 8 ? Op::Kind::SPEND : Op::Kind::ACCESS;
        // A few outpoints, so that blocks meet each other's coins; sometimes any output index.
        op.txid.fill(fdp.ConsumeIntegralInRange<uint8_t>(1, 8));
        op.n = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, 3) : fdp.ConsumeIntegral<uint32_t>();
        if (op.kind == Op::Kind::ADD) {
            op.coin = DecodeCoin(fdp);
            op.possible_overwrite = fdp.ConsumeBool();
        }
    }
    return ops;
}

} // namespace

namespace {

Fault DecodeFault(FuzzedDataProvider& fdp)
{
    Fault f;
    f.kind = static_cast<Fault::Kind>(fdp.ConsumeIntegralInRange<int>(1, 3));
    // A batch of a few coins is one log record: two Appends (header, payload) and one Flush.
    f.at = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<size_t>(1, 4) : fdp.ConsumeIntegralInRange<size_t>(1, 64);
    if (f.kind == Fault::Kind::TORN) f.keep = fdp.ConsumeIntegral<uint8_t>();
    return f;
}

} // namespace

bool Interrupts(const Step& s) { return s.crash_before != 0 || s.fault.kind != Fault::Kind::NONE; }

Scenario DecodeScenario(FuzzedDataProvider& fdp, Storage storage)
{
    Scenario in;
    in.on_disk = storage != Storage::MEMORY;
    in.files_in_memory = storage == Storage::DISK;
    in.obfuscate = fdp.ConsumeBool();
    const size_t steps{fdp.ConsumeIntegralInRange<size_t>(1, 5)};
    size_t blocks{0};
    for (size_t i = 0; i < steps; ++i) {
        Step step;
        if (!in.steps.empty() && Interrupts(in.steps.back())) {
            step.ops = in.steps.back().ops;
            step.tip = in.steps.back().tip;
            step.rollforward = true;
        } else {
            step.ops = DecodeOps(fdp);
            step.tip = Tip(++blocks);
        }
        if (fdp.ConsumeBool()) step.batch_bytes = DecodeBatchSize(fdp);
        // utxo_flush_faults: a write fault unless the input says otherwise (an input of zeros
        // fails the flush's first Append), else a crash point or none, as the other targets.
        if (storage == Storage::DISK_FAULTS && fdp.ConsumeIntegralInRange<int>(0, 3) != 3) {
            step.fault = DecodeFault(fdp);
        } else {
            step.crash_before = fdp.ConsumeBool() ? 0 : fdp.ConsumeIntegralInRange<size_t>(1, 6);
        }
        step.sync = fdp.ConsumeIntegralInRange<int>(0, 3) == 0;
        in.steps.push_back(std::move(step));
    }
    return in;
}

// --- the decoder's mirror: a scenario written as the bytes DecodeScenario reads back --------------
// Every function makes the encoder calls in the order its Decode twin makes the provider's; a
// value a decoder cannot produce is written as the nearest one it can (unit test: a decoded
// scenario written and decoded again is the same scenario).
namespace {

void EncodeScript(FdpEncoder& e, const Bytes& s)
{
    const auto all_equal{[&](size_t from, size_t n) { return std::all_of(s.begin() + from, s.begin() + from + n, [&](uint8_t b) { return b == s[from]; }); }};
    if (s.size() == 25 && s[0] == 0x76 && s[1] == 0xa9 && s[2] == 20 && s[23] == 0x88 && s[24] == 0xac && all_equal(3, 20)) {
        e.Integral<uint8_t>(s[3]);
        e.Integral(0, 0, 5);
    } else if (s.size() == 23 && s[0] == 0xa9 && s[1] == 20 && s[22] == 0x87 && all_equal(2, 20)) {
        e.Integral<uint8_t>(s[2]);
        e.Integral(1, 0, 5);
    } else if (s.size() == 35 && s[0] == 33 && (s[1] == 0x02 || s[1] == 0x03) && s[34] == 0xac && all_equal(2, 32)) {
        e.Integral<uint8_t>(s[2]);
        e.Integral(2, 0, 5);
        e.Bool(s[1] == 0x02);
    } else if (s == Uncompressed(false) || s == Uncompressed(true)) {
        e.Integral<uint8_t>(0);
        e.Integral(3, 0, 5);
        e.Bool(s != Uncompressed(false));
    } else { // stored raw (at most 80 bytes)
        e.Integral<uint8_t>(0);
        e.Integral(5, 0, 5);
        const size_t n{std::min<size_t>(s.size(), 80)};
        e.Integral(n, 0, 80);
        e.Bytes(std::span{s}.first(n));
    }
}

void EncodeCoin(FdpEncoder& e, const Coin& c)
{
    e.Integral(c.height, 0, 0x7fffffff);
    e.Bool(c.coinbase);
    e.Integral(static_cast<uint64_t>(std::max<int64_t>(c.amount, 0)), 0, 2'100'000'000'000'000);
    EncodeScript(e, c.script);
}

void EncodeBatchSize(FdpEncoder& e, uint64_t bytes)
{
    if (bytes == 0) {
        e.Integral(0, 0, 5);
    } else if (bytes == 16 * MiB || bytes == 32 * MiB) {
        e.Integral(bytes == 16 * MiB ? 3 : 4, 0, 5);
    } else if (bytes <= 200) {
        e.Integral(1, 0, 5);
        e.Integral(bytes, 1, 200);
    } else {
        e.Integral(5, 0, 5);
        e.Integral(bytes, 0, 4096);
    }
}

void EncodeOps(FdpEncoder& e, const std::vector<Op>& ops)
{
    const size_t n{std::min<size_t>(ops.size(), 24)};
    e.Integral(n, 0, 24);
    for (size_t i = 0; i < n; ++i) {
        const Op& op{ops[i]};
        e.Integral(op.kind == Op::Kind::ADD ? 0 : op.kind == Op::Kind::SPEND ? 5 : 8, 0, 9);
        e.Integral(op.txid[0], 1, 8);
        e.Bool(op.n <= 3);
        if (op.n <= 3) {
            e.Integral(op.n, 0, 3);
        } else {
            e.Integral<uint32_t>(op.n);
        }
        if (op.kind == Op::Kind::ADD) {
            EncodeCoin(e, op.coin);
            e.Bool(op.possible_overwrite);
        }
    }
}

void EncodeFault(FdpEncoder& e, const Fault& f)
{
    e.Integral(static_cast<uint64_t>(f.kind), 1, 3);
    e.Bool(f.at >= 1 && f.at <= 4);
    e.Integral(f.at, 1, f.at >= 1 && f.at <= 4 ? 4 : 64);
    if (f.kind == Fault::Kind::TORN) e.Integral<uint8_t>(f.keep);
}

} // namespace

Bytes EncodeScenario(const Scenario& scenario, Storage storage)
{
    Scenario in{scenario};
    if (in.steps.empty()) in.steps.emplace_back(); // a decoded scenario has at least one step
    FdpEncoder e;
    e.Bool(in.obfuscate);
    const size_t steps{std::clamp<size_t>(in.steps.size(), 1, 5)};
    e.Integral(steps, 1, 5);
    for (size_t i = 0; i < steps && i < in.steps.size(); ++i) {
        const Step& step{in.steps[i]};
        if (i == 0 || !Interrupts(in.steps[i - 1])) EncodeOps(e, step.ops);
        e.Bool(step.batch_bytes.has_value());
        if (step.batch_bytes) EncodeBatchSize(e, *step.batch_bytes);
        if (storage == Storage::DISK_FAULTS) {
            const bool fault{step.fault.kind != Fault::Kind::NONE};
            e.Integral(fault ? 0 : 3, 0, 3);
            if (fault) {
                EncodeFault(e, step.fault);
                e.Integral(step.sync ? 0 : 1, 0, 3);
                continue;
            }
        }
        e.Bool(step.crash_before == 0);
        if (step.crash_before != 0) e.Integral(step.crash_before, 1, 6);
        e.Integral(step.sync ? 0 : 1, 0, 3);
    }
    return e.Finish();
}

Description Describe(const Scenario& in)
{
    Description d;
    d.Add("storage", !in.on_disk        ? "LevelDB's memory Env"
                     : in.files_in_memory ? "files in LevelDB's memory Env, reopened between steps"
                                          : "a directory, reopened between steps");
    d.Add("obfuscate", in.obfuscate ? "yes" : "no");
    for (size_t i = 0; i < in.steps.size(); ++i) {
        const Step& s{in.steps[i]};
        const std::string p{"step " + std::to_string(i + 1) + " "};
        std::string ops;
        for (const Op& op : s.ops) {
            if (!ops.empty()) ops += ", ";
            ops += op.kind == Op::Kind::ADD ? "add" : op.kind == Op::Kind::SPEND ? "spend" : "access";
            ops += " " + std::to_string(op.txid[0]) + ":" + std::to_string(op.n);
            if (op.kind == Op::Kind::ADD) {
                ops += " (" + std::to_string(op.coin.amount) + " sat, height " + std::to_string(op.coin.height) +
                       (op.coin.coinbase ? ", coinbase" : "") + ", script " + std::to_string(op.coin.script.size()) + " B" +
                       (s.rollforward ? "" : op.possible_overwrite ? ", possible overwrite" : ", may be FRESH") + ")";
            }
        }
        d.Add(p + "ops", ops.empty() ? std::string{"none"} : ops);
        d.Add(p + "tip", Bytes(s.tip.begin(), s.tip.begin() + 1));
        d.Add(p + "batch bytes", s.batch_bytes ? std::to_string(*s.batch_bytes) : std::string{"the side's default"});
        d.Add(p + "crash before partial batch", s.crash_before);
        d.Add(p + "as", std::string{s.rollforward ? "rollforward after the crash, " : ""} + (s.sync ? "Sync" : "Flush"));
        if (s.fault.kind != Fault::Kind::NONE) {
            const char* what{s.fault.kind == Fault::Kind::APPEND ? "Append fails, nothing written"
                             : s.fault.kind == Fault::Kind::TORN ? "Append fails after a part"
                                                                 : "Flush fails after the write"};
            std::string fault{std::string{what} + " at the log's call " + std::to_string(s.fault.at) + " of the flush"};
            if (s.fault.kind == Fault::Kind::TORN) fault += " (" + std::to_string(s.fault.keep) + "/256 of it written)";
            d.Add(p + "write fault", fault);
        }
    }
    return d;
}

Outcome RunResult::ToOutcome() const
{
    Outcome o;
    for (size_t i = 0; i < steps.size(); ++i) {
        const StepResult& s{steps[i]};
        const std::string p{"step " + std::to_string(i + 1) + " "};
        o.Add(p + "stopped", s.stopped.empty() ? std::string{"no"} : s.stopped);
        o.Add(p + "partial batches", s.partial_batches);
        o.Add(p + "refused adds", s.refused);
        if (s.faulted_batch != 0) o.Add(p + "write fault in batch", s.faulted_batch);
        o.Add(p + "entries", s.content.size());
        for (const auto& [key, value] : s.content) o.Add(p + "key " + std::to_string(key.size()) + "B", key).Add("value", value);
    }
    return o;
}

FlushInput DecodeFlush(FuzzedDataProvider& fdp)
{
    FlushInput in;
    std::set<Bytes> seen;
    const size_t n1{fdp.ConsumeIntegralInRange<size_t>(0, 24)};
    for (size_t i = 0; i < n1 && fdp.remaining_bytes() > 0; ++i) {
        CursorEntry e;
        e.txid.fill(fdp.ConsumeIntegral<uint8_t>());
        e.txid[0] = 1;
        e.n = fdp.ConsumeIntegralInRange<uint32_t>(0, fdp.ConsumeBool() ? 200 : 0xffffffff);
        e.coin = DecodeCoin(fdp);
        e.dirty = fdp.ConsumeIntegralInRange<int>(0, 3) != 0;
        e.spent = fdp.ConsumeIntegralInRange<int>(0, 4) == 0;
        AddUnique(in.block1, seen, std::move(e));
    }
    seen.clear();
    const size_t n2{fdp.ConsumeIntegralInRange<size_t>(0, 32)};
    for (size_t i = 0; i < n2 && fdp.remaining_bytes() > 0; ++i) {
        CursorEntry e;
        if (!in.block1.empty() && fdp.ConsumeBool()) {
            // One of block 1's coins: spent now, or rewritten.
            e = in.block1[fdp.ConsumeIntegralInRange<size_t>(0, in.block1.size() - 1)];
            e.coin = DecodeCoin(fdp);
        } else {
            e.txid.fill(fdp.ConsumeIntegral<uint8_t>());
            e.txid[0] = 2;
            e.n = fdp.ConsumeIntegralInRange<uint32_t>(0, 300);
            e.coin = DecodeCoin(fdp);
        }
        e.dirty = fdp.ConsumeIntegralInRange<int>(0, 3) != 0;
        e.spent = fdp.ConsumeIntegralInRange<int>(0, 2) == 0;
        AddUnique(in.block2, seen, std::move(e));
    }
    in.size_a = DecodeBatchSize(fdp);
    in.size_b = DecodeBatchSize(fdp);
    in.crash_before = fdp.ConsumeIntegralInRange<size_t>(0, 12);
    return in;
}

namespace {

Bytes Listing(const std::vector<CursorEntry>& block)
{
    Bytes out;
    for (const CursorEntry& e : block) {
        const Bytes key{CoinKey(e.txid, e.n)};
        out.push_back(static_cast<uint8_t>((e.dirty ? 1 : 0) | (e.spent ? 2 : 0)));
        out.insert(out.end(), key.begin(), key.end());
    }
    return out;
}

} // namespace

Description Describe(const FlushInput& in)
{
    Description d;
    d.Add("block1 (flags|key)...", Listing(in.block1));
    d.Add("block2 (flags|key)...", Listing(in.block2));
    d.Add("size_a", in.size_a);
    d.Add("size_b", in.size_b);
    d.Add("crash_before_partial", in.crash_before);
    return d;
}

Outcome DbContent::ToOutcome() const
{
    Outcome o;
    o.Add("entries", content.size());
    for (const auto& [key, value] : content) o.Add(std::string{"key "} + std::to_string(key.size()) + "B", key).Add("value", value);
    return o;
}

bool EachCoinOldOrNew(const Content& now, const Content& before, const Content& after)
{
    Content keys{before};
    keys.insert(after.begin(), after.end());
    keys.insert(now.begin(), now.end());
    for (const auto& entry : keys) {
        const Bytes& key{entry.first};
        if (key.empty() || key[0] != DB_COIN) continue;
        const auto it{now.find(key)};
        const auto same{[&](const Content& c) {
            const auto at{c.find(key)};
            return (at == c.end()) == (it == now.end()) && (at == c.end() || at->second == it->second);
        }};
        if (!same(before) && !same(after)) return false;
    }
    return true;
}

namespace {

//! The content `step` leaves over `before` when exactly its first `batches` batches (the final one
//! counted) are written; nullopt: all of them, as an uninterrupted flush.
Content AfterBatches(const Content& before, const Step& step, uint64_t batch_bytes, std::optional<size_t> batches = std::nullopt)
{
    CacheModel cache{before};
    cache.ApplyStep(step);
    return Flush(before, cache.Cursor(), step.tip, batch_bytes, std::nullopt, batches).content;
}

//! Whether a step's own operations keep the cache's contract over the database before it.
bool KeepsContract(const Step& step, const Content& before)
{
    CacheModel cache{before};
    return cache.ApplyStep(step) == 0 && !cache.FreshOverDisk();
}

bool HasFaults(const Scenario& in)
{
    return std::ranges::any_of(in.steps, [](const Step& s) { return s.fault.kind != Fault::Kind::NONE; });
}

} // namespace

void CheckScenario(const Scenario& scenario)
{
    // Write faults need a side whose LevelDB writes files (Core's); only those run a scenario
    // with faults, and they are compared with each other. A build without one runs the scenario
    // without its faults, and says so once.
    std::vector<LabeledSide<Side>> sides;
    Scenario without_faults;
    const Scenario* run{&scenario};
    if (HasFaults(scenario)) {
        for (const auto& s : Sides()) {
            if (s.side->injects_faults) sides.push_back(s);
        }
        if (sides.empty()) {
            static const bool said{[] {
                std::fprintf(stderr, "utxo_flush: no side of this build injects write faults (Bitcoin Core's sides are "
                                     "left out): scenarios run without their faults, which are not checked\n");
                return true;
            }()};
            (void)said;
            without_faults = scenario;
            for (Step& s : without_faults.steps) s.fault = {};
            run = &without_faults;
        }
    }
    if (sides.empty()) sides.assign(Sides().begin(), Sides().end());
    const Scenario& in{*run};
    const auto desc{[&] { return Describe(in); }};
    const auto runs{EachSide(sides, [&](const Side& side) { return RunResult{side.run(in)}; })};
    Compare(desc, runs);

    const uint64_t default_batch_bytes{sides.front().side->default_batch_bytes};
    const std::vector<StepResult>& steps{runs.front().result.steps};
    Content before;
    Hash old_tip{};  // B before the step, or H's old tip while a flush is unfinished
    size_t crashed_at{SIZE_MAX};  // the step whose flush was interrupted, until one completes
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step& step{in.steps[i]};
        const StepResult& r{steps[i]};
        const DbContent state{r.content};
        Require(r.stopped.find("the database does not reopen") == std::string::npos, "the-database-reopens", desc, state);
        const uint64_t batch_bytes{step.batch_bytes.value_or(default_batch_bytes)};
        // What the step leaves when nothing interrupts it: needed only when something did.
        const Content uninterrupted{r.stopped.empty() ? Content{} : AfterBatches(before, step, batch_bytes)};
        bool completed{r.stopped.empty()};
        if (r.faulted_batch != 0) {
            Require(r.stopped.starts_with("write fault: "), "a-write-fault-stops-the-flush", desc, state);
            const Content upto_hit{AfterBatches(before, step, batch_bytes, r.faulted_batch)};
            const Content before_hit{AfterBatches(before, step, batch_bytes, r.faulted_batch - 1)};
            Require(r.content == before_hit || r.content == upto_hit, "a-write-fault-leaves-whole-batches", desc, state);
            completed = r.content == uninterrupted;  // the fault hit the final batch after it was handed over
        }
        if (completed) {
            Require(BestBlock(r.content) == step.tip && !HeadBlocks(r.content), "flush-leaves-B-at-its-tip-and-no-H", desc, state);
            if (crashed_at != SIZE_MAX) {
                const Content at_crash{crashed_at == 0 ? Content{} : steps[crashed_at - 1].content};
                if (KeepsContract(in.steps[crashed_at], at_crash)) {
                    const Content expected{AfterBatches(at_crash, in.steps[crashed_at], batch_bytes)};
                    Require(r.content == expected, "recovery-gives-the-uninterrupted-content", desc, DbContent{expected});
                }
                crashed_at = SIZE_MAX;
            }
            old_tip = step.tip;
        } else {
            if (crashed_at == SIZE_MAX) crashed_at = i;
            if (r.faulted_batch == 0) {
                Require(r.partial_batches + 1 == step.crash_before, "crash-after-the-batches-before-it", desc, state);
            }
            // Nothing of the flush may be written by a crash before its first batch; a write fault
            // in the first batch leaves nothing when LevelDB had not handed the record to the file.
            const bool nothing_written{r.faulted_batch != 0 ? r.content == before : step.crash_before == 1};
            if (nothing_written) {
                Require(r.content == before, "crash-before-the-first-batch-writes-nothing", desc, state);
            } else {
                const auto heads{HeadBlocks(r.content)};
                Require(!BestBlock(r.content) && heads && heads->first == step.tip && heads->second == old_tip,
                        "crash-leaves-no-B-and-H-new-old", desc, state);
                // Every coin at its value before the step or at its uninterrupted value.
                Require(EachCoinOldOrNew(r.content, before, uninterrupted), "each-coin-old-or-new", desc, state);
            }
        }
        before = r.content;
    }
}

} // namespace equifuzz::utxo_flush
