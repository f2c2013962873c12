// The decoder's mirror: a scenario written as the bytes DecodeScenario (decode.cpp) reads back, for
// the structured mutation (mutate.cpp) and the unit tests. Every function makes the encoder's
// calls in the order its Decode twin makes the provider's, and each named choice through
// choices.json (EncodeChoice); a value a decoder cannot produce is written as the nearest one it
// can (unit test: a decoded scenario written and decoded again is the same scenario).
#include "pair.h"
#include "pair_parts.h"

#include <algorithm>

namespace equifuzz::utxo_flush {
namespace {

void EncodeScript(FdpEncoder& e, const Bytes& s)
{
    const auto all_equal{[&](size_t from, size_t n) { return std::all_of(s.begin() + from, s.begin() + from + n, [&](uint8_t b) { return b == s[from]; }); }};
    if (s.size() == 25 && s[0] == 0x76 && s[1] == 0xa9 && s[2] == 20 && s[23] == 0x88 && s[24] == 0xac && all_equal(3, 20)) {
        e.Integral<uint8_t>(s[3]);
        EncodeChoice(e, ScriptKind::P2PKH);
    } else if (s.size() == 23 && s[0] == 0xa9 && s[1] == 20 && s[22] == 0x87 && all_equal(2, 20)) {
        e.Integral<uint8_t>(s[2]);
        EncodeChoice(e, ScriptKind::P2SH);
    } else if (s.size() == 35 && s[0] == 33 && (s[1] == 0x02 || s[1] == 0x03) && s[34] == 0xac && all_equal(2, 32)) {
        e.Integral<uint8_t>(s[2]);
        EncodeChoice(e, ScriptKind::P2PK_COMPRESSED);
        e.Bool(s[1] == 0x02);
    } else if (s == P2pkUncompressed(false) || s == P2pkUncompressed(true)) {
        e.Integral<uint8_t>(0);
        EncodeChoice(e, ScriptKind::P2PK_UNCOMPRESSED);
        e.Bool(s != P2pkUncompressed(false));
    } else { // stored raw (at most 80 bytes)
        e.Integral<uint8_t>(0);
        EncodeChoice(e, ScriptKind::RAW);
        const size_t n{std::min(s.size(), MAX_RAW_SCRIPT)};
        e.Integral(n, 0, MAX_RAW_SCRIPT);
        e.Bytes(std::span{s}.first(n));
    }
}

void EncodeCoin(FdpEncoder& e, const Coin& c)
{
    e.Integral(c.height, 0, MAX_HEIGHT);
    e.Bool(c.coinbase);
    e.Integral(static_cast<uint64_t>(std::max<int64_t>(c.amount, 0)), 0, MAX_AMOUNT);
    EncodeScript(e, c.script);
}

void EncodeBatchSize(FdpEncoder& e, uint64_t bytes)
{
    if (bytes == 0) {
        EncodeChoice(e, BatchSize::EACH_ENTRY);
    } else if (bytes == 16 * MiB) {
        EncodeChoice(e, BatchSize::DEFAULT_16_MIB);
    } else if (bytes == 32 * MiB) {
        EncodeChoice(e, BatchSize::DEFAULT_32_MIB);
    } else if (bytes <= MAX_FEW_ENTRIES) {
        EncodeChoice(e, BatchSize::FEW_ENTRIES);
        e.Integral(bytes, 1, MAX_FEW_ENTRIES);
    } else {
        EncodeChoice(e, BatchSize::ANY_SMALL);
        e.Integral(bytes, 0, MAX_ANY_SMALL);
    }
}

void EncodeOps(FdpEncoder& e, const std::vector<Op>& ops)
{
    const size_t n{std::min(ops.size(), MAX_BLOCK_OPS)};
    e.Integral(n, 0, MAX_BLOCK_OPS);
    for (size_t i = 0; i < n; ++i) {
        const Op& op{ops[i]};
        EncodeChoice(e, op.kind);
        e.Integral(op.txid[0], 1, TXIDS);
        e.Bool(op.n <= MAX_SMALL_N);
        if (op.n <= MAX_SMALL_N) {
            e.Integral(op.n, 0, MAX_SMALL_N);
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
    EncodeChoice(e, f.kind);
    const bool early{f.at >= 1 && f.at <= MAX_EARLY_FAULT_AT};
    e.Bool(early);
    e.Integral(f.at, 1, early ? MAX_EARLY_FAULT_AT : MAX_FAULT_AT);
    if (f.kind == Fault::Kind::TORN) e.Integral<uint8_t>(f.keep);
}

void EncodeFlushCall(FdpEncoder& e, bool sync) { EncodeChoice(e, sync ? FlushCall::SYNC : FlushCall::FLUSH); }

} // namespace

Bytes EncodeScenario(const Scenario& scenario, Storage storage)
{
    Scenario in{scenario};
    if (in.steps.empty()) in.steps.emplace_back(); // a decoded scenario has at least one step
    FdpEncoder e;
    e.Bool(in.obfuscate);
    const size_t steps{std::clamp<size_t>(in.steps.size(), 1, MAX_STEPS)};
    e.Integral(steps, 1, MAX_STEPS);
    for (size_t i = 0; i < steps && i < in.steps.size(); ++i) {
        const Step& step{in.steps[i]};
        if (i == 0 || !Interrupts(in.steps[i - 1])) EncodeOps(e, step.ops);
        e.Bool(step.batch_bytes.has_value());
        if (step.batch_bytes) EncodeBatchSize(e, *step.batch_bytes);
        if (storage == Storage::DISK_FAULTS) {
            const bool fault{step.fault.kind != Fault::Kind::NONE};
            EncodeChoice(e, fault ? Interruption::WRITE_FAULT : Interruption::CRASH_POINT_OR_NONE);
            if (fault) {
                EncodeFault(e, step.fault);
                EncodeFlushCall(e, step.sync);
                continue;
            }
        }
        e.Bool(step.crash_before == 0);
        if (step.crash_before != 0) e.Integral(step.crash_before, 1, MAX_CRASH_BEFORE);
        EncodeFlushCall(e, step.sync);
    }
    return e.Finish();
}

} // namespace equifuzz::utxo_flush
