// The utxo_flush pair's decoders (fuzz bytes to a scenario or two flushes), their descriptions
// and the sides' results as report fields. Every choice among named values is read through the
// pair's choices.json (ConsumeChoice); encode.cpp writes the same choices back.
#include "pair.h"
#include "pair_parts.h"

#include "cache.h"

#include <set>
#include <string>

EQUIFUZZ_DEFINE_SIDES(equifuzz::utxo_flush)

namespace equifuzz::utxo_flush {

namespace {

//! The generator point's coordinates.
constexpr uint8_t G_X[32]{0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62, 0x95, 0xce, 0x87, 0x0b, 0x07,
                          0x02, 0x9b, 0xfc, 0xdb, 0x2d, 0xce, 0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8, 0x17, 0x98};
constexpr uint8_t G_Y[32]{0x48, 0x3a, 0xda, 0x77, 0x26, 0xa3, 0xc4, 0x65, 0x5d, 0xa4, 0xfb, 0xfc, 0x0e, 0x11, 0x08, 0xa8,
                          0xfd, 0x17, 0xb4, 0x48, 0xa6, 0x85, 0x54, 0x19, 0x9c, 0x47, 0xd0, 0x8f, 0xfb, 0x10, 0xd4, 0xb8};

} // namespace

Bytes P2pkUncompressed(bool off_curve)
{
    Bytes s{65, 0x04};
    s.insert(s.end(), std::begin(G_X), std::end(G_X));
    s.insert(s.end(), std::begin(G_Y), std::end(G_Y));
    if (off_curve) s[10] ^= 0x01;
    s.push_back(0xac);
    return s;
}

Hash BlockTip(size_t i)
{
    Hash h;
    h.fill(static_cast<uint8_t>(0x40 + i));
    return h;
}

namespace {

Bytes DecodeScript(FuzzedDataProvider& fdp)
{
    const Bytes h(20, fdp.ConsumeIntegral<uint8_t>());
    switch (ConsumeChoice<ScriptKind>(fdp)) {
    case ScriptKind::P2PKH: {
        Bytes s{0x76, 0xa9, 20};
        s.insert(s.end(), h.begin(), h.end());
        s.insert(s.end(), {0x88, 0xac});
        return s;
    }
    case ScriptKind::P2SH: {
        Bytes s{0xa9, 20};
        s.insert(s.end(), h.begin(), h.end());
        s.push_back(0x87);
        return s;
    }
    case ScriptKind::P2PK_COMPRESSED: {
        Bytes s{33, static_cast<uint8_t>(fdp.ConsumeBool() ? 0x02 : 0x03)};
        s.insert(s.end(), 32, h[0]);
        s.push_back(0xac);
        return s;
    }
    case ScriptKind::P2PK_UNCOMPRESSED:
        return P2pkUncompressed(fdp.ConsumeBool());
    case ScriptKind::RAW: // anything else, stored as it is
        return fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, MAX_RAW_SCRIPT));
    }
    return {};
}

Coin DecodeCoin(FuzzedDataProvider& fdp)
{
    Coin c;
    c.height = fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_HEIGHT);
    c.coinbase = fdp.ConsumeBool();
    c.amount = fdp.ConsumeIntegralInRange<int64_t>(0, MAX_AMOUNT);
    c.script = DecodeScript(fdp);
    return c;
}

uint64_t DecodeBatchSize(FuzzedDataProvider& fdp)
{
    switch (ConsumeChoice<BatchSize>(fdp)) {
    case BatchSize::EACH_ENTRY: return 0;
    case BatchSize::FEW_ENTRIES: return fdp.ConsumeIntegralInRange<uint64_t>(1, MAX_FEW_ENTRIES);
    case BatchSize::AROUND_MARKERS: return fdp.ConsumeIntegralInRange<uint64_t>(MARKERS_FROM, MARKERS_TO);
    case BatchSize::DEFAULT_16_MIB: return 16 * MiB;
    case BatchSize::DEFAULT_32_MIB: return 32 * MiB;
    case BatchSize::ANY_SMALL: return fdp.ConsumeIntegralInRange<uint64_t>(0, MAX_ANY_SMALL);
    }
    return 0;
}

//! The cursor lists each coin once: a key seen before in the same block is skipped.
void AddUnique(std::vector<CursorEntry>& block, std::set<Bytes>& seen, CursorEntry e)
{
    if (seen.insert(CoinKey(e.txid, e.n)).second) block.push_back(std::move(e));
}

std::vector<Op> DecodeOps(FuzzedDataProvider& fdp)
{
    std::vector<Op> ops(fdp.ConsumeIntegralInRange<size_t>(0, MAX_BLOCK_OPS));
    for (Op& op : ops) {
        if (fdp.remaining_bytes() == 0) {
            op.kind = Op::Kind::ACCESS;
            continue;
        }
        op.kind = ConsumeChoice<OpKind>(fdp);
        // A few outpoints, so that blocks meet each other's coins; sometimes any output index.
        op.txid.fill(fdp.ConsumeIntegralInRange<uint8_t>(1, TXIDS));
        op.n = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, MAX_SMALL_N) : fdp.ConsumeIntegral<uint32_t>();
        if (op.kind == Op::Kind::ADD) {
            op.coin = DecodeCoin(fdp);
            op.possible_overwrite = fdp.ConsumeBool();
        }
    }
    return ops;
}

Fault DecodeFault(FuzzedDataProvider& fdp)
{
    Fault f;
    f.kind = ConsumeChoice<FaultKind>(fdp);
    // A batch of a few coins is one log record: two Appends (header, payload) and one Flush.
    f.at = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<size_t>(1, MAX_EARLY_FAULT_AT) : fdp.ConsumeIntegralInRange<size_t>(1, MAX_FAULT_AT);
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
    const size_t steps{fdp.ConsumeIntegralInRange<size_t>(1, MAX_STEPS)};
    size_t blocks{0};
    for (size_t i = 0; i < steps; ++i) {
        Step step;
        if (!in.steps.empty() && Interrupts(in.steps.back())) {
            step.ops = in.steps.back().ops;
            step.tip = in.steps.back().tip;
            step.rollforward = true;
        } else {
            step.ops = DecodeOps(fdp);
            step.tip = BlockTip(++blocks);
        }
        if (fdp.ConsumeBool()) step.batch_bytes = DecodeBatchSize(fdp);
        // utxo_flush_faults: a write fault unless the input says otherwise (an input of zeros
        // fails the flush's first Append), else a crash point or none, as the other targets.
        if (storage == Storage::DISK_FAULTS && ConsumeChoice<Interruption>(fdp) == Interruption::WRITE_FAULT) {
            step.fault = DecodeFault(fdp);
        } else {
            step.crash_before = fdp.ConsumeBool() ? 0 : fdp.ConsumeIntegralInRange<size_t>(1, MAX_CRASH_BEFORE);
        }
        step.sync = ConsumeChoice<FlushCall>(fdp) == FlushCall::SYNC;
        in.steps.push_back(std::move(step));
    }
    // Only states Core's callers create (cache.h, ContractBreak), unless hunting beyond them.
    if (!BeyondContract()) KeepContract(in);
    return in;
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
            ops += ChoiceName(op.kind);
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
        d.Add(p + "as", std::string{s.rollforward ? "rollforward after the crash, " : ""} +
                            std::string{ChoiceName(s.sync ? FlushCall::SYNC : FlushCall::FLUSH)});
        if (s.fault.kind != Fault::Kind::NONE) {
            std::string fault{std::string{ChoiceName(s.fault.kind)} + " at the log's call " + std::to_string(s.fault.at) + " of the flush"};
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
        // Where a flush stops, after how many partial batches, and what an interrupted flush left
        // depend on the order and size of the batches, which Core does not promise: internal.
        // What Core promises about an interrupted flush (no best block, head blocks new and old,
        // each coin old or new, recovery to the uninterrupted content) is checked as properties of
        // every side (CheckScenario). A completed flush's content is a promise.
        o.Add(p + "stopped", s.stopped.empty() ? std::string{"no"} : s.stopped).As(FieldClass::INTERNAL);
        o.Add(p + "partial batches", s.partial_batches).As(FieldClass::INTERNAL);
        o.Add(p + "refused adds", s.refused);
        o.Add(p + "write fault in batch", s.faulted_batch).As(FieldClass::INTERNAL);
        if (s.stopped.empty()) {
            o.Add(p + "entries", s.content.size());
            for (const auto& [key, value] : s.content) o.Add(p + "key " + std::to_string(key.size()) + "B", key).Add("value", value);
        } else {
            // One field, so that the steps after it stay aligned with another side's.
            std::string left{std::to_string(s.content.size()) + " entries:"};
            for (const auto& [key, value] : s.content) left += " " + Hex(key) + "=" + Hex(value);
            o.Add(p + "content after the interruption", left).As(FieldClass::INTERNAL);
        }
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
        e.dirty = ConsumeChoice<Dirtiness>(fdp) == Dirtiness::DIRTY;
        e.spent = ConsumeChoice<SpentInBlock1>(fdp) == SpentInBlock1::SPENT;
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
        e.dirty = ConsumeChoice<Dirtiness>(fdp) == Dirtiness::DIRTY;
        e.spent = ConsumeChoice<SpentInBlock2>(fdp) == SpentInBlock2::SPENT;
        AddUnique(in.block2, seen, std::move(e));
    }
    in.size_a = DecodeBatchSize(fdp);
    in.size_b = DecodeBatchSize(fdp);
    in.crash_before = fdp.ConsumeIntegralInRange<size_t>(0, 12);
    return in;
}

namespace {

//! Each entry as one byte of flags (1: dirty, 2: spent) followed by its key.
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

} // namespace equifuzz::utxo_flush
