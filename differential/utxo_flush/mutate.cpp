// The scenario targets' structured mutation: a scenario decoded from the input, changed where the
// flush's bugs live (crashes between batches, recoveries, small batches, coins the cache must
// refuse), and written back as the bytes the decoder reads (EncodeScenario).
#include "pair.h"

#include <array>

namespace equifuzz::utxo_flush {
namespace {

Op NewOp(Mutation& m, const std::vector<Op>& ops)
{
    Op op;
    if (!ops.empty() && m.OneIn(2)) { // the same outpoint as another operation: spent, re-added, read
        op = ops[m.Below(ops.size())];
        op.kind = PickChoice<OpKind>(m);
    } else {
        op.kind = PickChoice<OpKind>(m);
        op.txid.fill(static_cast<uint8_t>(m.Between(1, 8)));
        op.n = static_cast<uint32_t>(m.Below(4));
    }
    if (op.kind == Op::Kind::ADD) {
        op.coin.height = static_cast<uint32_t>(m.Below(1000));
        op.coin.coinbase = m.OneIn(4);
        op.coin.amount = static_cast<int64_t>(m.Below(100'000'000));
        // A script: P2PKH-like bytes, or one that begins with OP_RETURN (unspendable: never added).
        op.coin.script = m.OneIn(3) ? Bytes{0x6a, static_cast<uint8_t>(m.Byte())} : m.Filler(m.Between(1, 30));
        op.possible_overwrite = m.OneIn(2);
    }
    return op;
}

//! A crash before a partial batch of step i (a batch size that splits it: a crash before batch k
//! needs k partial batches), and a step after it to be its recovery.
void Crash(Mutation& m, Scenario& s, size_t i)
{
    Step& step{s.steps[i]};
    step.fault = Fault{};
    // Before batch 2 or 3 more often: the batches before it (the head markers first) are on disk.
    step.crash_before = m.OneIn(2) ? m.Between(2, 3) : m.Between(1, 6);
    if (!step.batch_bytes || *step.batch_bytes > 200) step.batch_bytes = m.OneIn(3) ? 0 : m.Between(0, 120);
    // Enough writes for that many batches (a recovery replays its interrupted step's operations).
    while (step.ops.size() < 3) step.ops.push_back(NewOp(m, step.ops));
    if (i + 1 == s.steps.size() && s.steps.size() < 5) s.steps.push_back(Step{});
}

bool Change(Mutation& m, Scenario& s, Storage storage)
{
    if (s.steps.empty()) s.steps.emplace_back();
    const size_t i{m.Below(s.steps.size())};
    Step& step{s.steps[i]};
    switch (m.Below(8)) {
    case 0: // a crash before a partial batch (the next step becomes the recovery), a write fault, or none
        if (storage == Storage::DISK_FAULTS && m.OneIn(2)) {
            step.crash_before = 0;
            step.fault.kind = PickChoice<FaultKind>(m);
            step.fault.at = m.Between(1, 8);
            step.fault.keep = m.Byte();
            if (i + 1 == s.steps.size() && s.steps.size() < 5) s.steps.push_back(Step{});
        } else if (m.OneIn(4)) {
            step.crash_before = 0;
            step.fault = Fault{};
        } else {
            Crash(m, s, i);
        }
        return true;
    case 1: // a crash whose recovery crashes too
        if (i + 1 >= 5) return false;
        Crash(m, s, i);
        Crash(m, s, i + 1);
        return true;
    case 2: { // a batch size that splits a block's writes
        static constexpr std::array<uint64_t, 6> SIZES{0, 1, 40, 84, 85, 200};
        step.batch_bytes = m.OneIn(2) ? m.Pick(SIZES) : m.Between(1, 400);
        return true;
    }
    case 3: // one more step
        if (s.steps.size() >= 5) return false;
        s.steps.push_back(Step{});
        s.steps.back().ops = s.steps[m.Below(s.steps.size())].ops;
        return true;
    case 4: // one more operation
    case 5:
        if (step.ops.size() >= 24) return false;
        step.ops.insert(step.ops.begin() + static_cast<std::ptrdiff_t>(m.Below(step.ops.size() + 1)), NewOp(m, step.ops));
        return true;
    case 6: // one operation fewer
        if (step.ops.empty()) return false;
        step.ops.erase(step.ops.begin() + static_cast<std::ptrdiff_t>(m.Below(step.ops.size())));
        return true;
    default:
        step.sync = !step.sync;
        return true;
    }
}

} // namespace

bool MutateScenario(Mutation& m, Storage storage)
{
    return DecodeChangeEncode(
        m, [&](FuzzedDataProvider& fdp) { return DecodeScenario(fdp, storage); }, [&](Scenario& s) { return Change(m, s, storage); },
        [&](const Scenario& s) { return EncodeScenario(s, storage); });
}

} // namespace equifuzz::utxo_flush
