// The tx_check pair's list of sides, its decoders (fuzz bytes to a transaction, a block) and their
// descriptions; every choice among named values is read through choices.json.
#include "pair.h"

#include <equifuzz/choices/tx_check.h>

#include <algorithm>
#include <limits>

EQUIFUZZ_DEFINE_SIDES(equifuzz::tx_check)

namespace equifuzz::tx_check {
namespace {

Hash256 ConsumeHash(FuzzedDataProvider& fdp)
{
    Hash256 h{};
    const Bytes b{fdp.ConsumeBytes<uint8_t>(32)};
    std::copy(b.begin(), b.end(), h.begin());
    return h;
}

OutPoint ConsumeOutPoint(FuzzedDataProvider& fdp, const std::vector<TxIn>& earlier)
{
    OutPoint p;
    switch (ConsumeChoice<OutpointForm>(fdp)) {
    case OutpointForm::NULL_OUTPOINT: p = OutPoint{}; break;
    case OutpointForm::ZERO_HASH: p.hash = {}; p.n = fdp.ConsumeIntegral<uint32_t>(); break;
    case OutpointForm::MAX_INDEX: p.hash = ConsumeHash(fdp); p.hash[31] |= 1; p.n = NULL_INDEX; break;
    case OutpointForm::HIGH_BYTES: // a signed-char comparison would sort these before the zero hash
        p.hash = {};
        p.hash[fdp.ConsumeIntegralInRange<size_t>(0, 31)] = fdp.ConsumeIntegralInRange<uint8_t>(0x80, 0xff);
        p.n = fdp.ConsumeBool() ? NULL_INDEX : fdp.ConsumeIntegralInRange<uint32_t>(0, 3);
        break;
    case OutpointForm::EXACT_DUPLICATE:
        if (!earlier.empty()) {
            p = earlier[fdp.ConsumeIntegralInRange<size_t>(0, earlier.size() - 1)].prevout;
            break;
        }
        [[fallthrough]];
    case OutpointForm::NEAR_DUPLICATE:
        if (!earlier.empty()) { // same hash and n +/- 1, or one hash byte changed
            p = earlier[fdp.ConsumeIntegralInRange<size_t>(0, earlier.size() - 1)].prevout;
            if (fdp.ConsumeBool()) {
                p.n += fdp.ConsumeBool() ? 1u : 0xffffffffu;
            } else {
                p.hash[fdp.ConsumeIntegralInRange<size_t>(0, 31)] ^= fdp.ConsumeIntegralInRange<uint8_t>(1, 0xff);
            }
            break;
        }
        [[fallthrough]];
    case OutpointForm::ANY: p.hash = ConsumeHash(fdp); p.n = fdp.ConsumeIntegralInRange<uint32_t>(0, 4); break;
    }
    return p;
}

int64_t ConsumeValue(FuzzedDataProvider& fdp)
{
    constexpr int64_t values[]{0, 1, -1, COIN, MAX_MONEY, MAX_MONEY - 1, MAX_MONEY + 1, MAX_MONEY / 2,
                               MAX_MONEY / 2 + 1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    if (fdp.ConsumeBool()) return fdp.PickValueInArray(values);
    return fdp.ConsumeIntegral<int64_t>();
}

size_t ConsumeCount(FuzzedDataProvider& fdp, size_t small_max, size_t large_max)
{
    return fdp.ConsumeIntegralInRange<uint8_t>(0, 7) == 0 ? fdp.ConsumeIntegralInRange<size_t>(0, large_max)
                                                           : fdp.ConsumeIntegralInRange<size_t>(0, small_max);
}

Bytes ConsumeScript(FuzzedDataProvider& fdp, size_t max)
{
    constexpr size_t around_limits[]{0, 1, 2, 3, 99, 100, 101};
    const size_t len{fdp.ConsumeBool() ? fdp.PickValueInArray(around_limits) : fdp.ConsumeIntegralInRange<size_t>(0, max)};
    return ConsumeBytesPadded(fdp, len);
}

//! Pads one output's script so the stripped size lands at 1,000,000 + delta bytes.
void MakeSizeNearLimit(Transaction& tx, int delta)
{
    if (tx.vout.empty()) tx.vout.emplace_back();
    tx.vout.back().script_pubkey.clear();
    const size_t base{SerializedSize(tx, false)}; // with an empty script (1-byte length)
    const size_t target{MAX_BLOCK_WEIGHT / WITNESS_SCALE_FACTOR + delta};
    if (base + 4 >= target) return;
    tx.vout.back().script_pubkey.assign(target - base - 4, 0x6a); // length prefix grows 1 -> 5 bytes
}

} // namespace

Transaction BuildTransaction(FuzzedDataProvider& fdp)
{
    Transaction tx;
    tx.version = fdp.PickValueInArray({1, 2, 3, -1});
    if (fdp.ConsumeIntegralInRange<uint8_t>(0, 5) == 0) { // a coinbase shape
        TxIn in;
        in.script_sig = ConsumeScript(fdp, 110);
        tx.vin.push_back(std::move(in));
    }
    const size_t n_in{ConsumeCount(fdp, 4, 400)};
    for (size_t i = 0; i < n_in; ++i) {
        TxIn in;
        in.prevout = ConsumeOutPoint(fdp, tx.vin);
        in.script_sig = ConsumeScript(fdp, 8);
        in.sequence = fdp.ConsumeBool() ? 0xffffffff : fdp.ConsumeIntegral<uint32_t>();
        if (fdp.ConsumeIntegralInRange<uint8_t>(0, 7) == 0) in.witness.push_back(ConsumeScript(fdp, 4));
        // Insert anywhere, so a null or duplicate input can take any position.
        const size_t pos{fdp.ConsumeIntegralInRange<size_t>(0, tx.vin.size())};
        tx.vin.insert(tx.vin.begin() + static_cast<std::ptrdiff_t>(pos), std::move(in));
    }
    const size_t n_out{ConsumeCount(fdp, 3, 40)};
    for (size_t i = 0; i < n_out; ++i) tx.vout.push_back({ConsumeValue(fdp), ConsumeScript(fdp, 4)});
    tx.lock_time = fdp.ConsumeIntegral<uint32_t>();
    if (fdp.ConsumeIntegralInRange<uint8_t>(0, 31) == 0) MakeSizeNearLimit(tx, fdp.ConsumeIntegralInRange<int>(-2, 2));
    return tx;
}

std::optional<Block> DecodeBlock(FuzzedDataProvider& fdp)
{
    if (fdp.ConsumeIntegralInRange<uint8_t>(0, 3) == 0) { // raw: the rest is a serialized block
        const Bytes raw{fdp.ConsumeRemainingBytes<uint8_t>()};
        try {
            ByteReader r{raw};
            return ReadBlock(r);
        } catch (const StreamError&) {
            return std::nullopt; // not a block: decoding is not what this target checks
        }
    }
    Block block;
    const size_t n_tx{fdp.ConsumeIntegralInRange<size_t>(0, 5)};
    for (size_t i = 0; i < n_tx; ++i) {
        if (!block.txs.empty() && fdp.ConsumeIntegralInRange<uint8_t>(0, 7) == 0) {
            block.txs.push_back(block.txs[fdp.ConsumeIntegralInRange<size_t>(0, block.txs.size() - 1)]);
            continue;
        }
        Transaction tx{BuildTransaction(fdp)};
        if (i == 0 && fdp.ConsumeIntegralInRange<uint8_t>(0, 3) != 0) { // usually a coinbase first
            tx.vin.resize(1);
            tx.vin[0].prevout = OutPoint{};
            tx.vin[0].script_sig = ConsumeScript(fdp, 110);
        }
        block.txs.push_back(std::move(tx));
    }
    return block;
}

Description Describe(const Transaction& tx)
{
    Description d;
    d.Add("txid", DisplayHex(Txid(tx))).Add("version", int64_t{tx.version}).Add("coinbase", tx.IsCoinBase());
    std::string inputs;
    for (size_t i = 0; i < tx.vin.size() && i < 12; ++i) {
        const OutPoint& p{tx.vin[i].prevout};
        inputs += (i ? " " : "") + (p.IsNull() ? std::string{"NULL"} : Hex(std::span{p.hash}.first(3)) + "…:" + std::to_string(p.n));
    }
    if (tx.vin.size() > 12) inputs += " … (" + std::to_string(tx.vin.size()) + " inputs)";
    d.Add("vin", tx.vin.size()).Add("prevouts", inputs);
    std::string values;
    for (size_t i = 0; i < tx.vout.size() && i < 8; ++i) values += (i ? " " : "") + std::to_string(tx.vout[i].value);
    d.Add("vout", tx.vout.size()).Add("values", values);
    d.Add("stripped_size", SerializedSize(tx, false));
    if (tx.IsCoinBase()) d.Add("coinbase_script_len", tx.vin[0].script_sig.size());
    return d;
}

Description Describe(const Block& block)
{
    Description d;
    d.Add("transactions", block.txs.size());
    for (size_t i = 0; i < block.txs.size() && i < 6; ++i) {
        const Description tx{Describe(block.txs[i])}; // keep it alive: the loop reads its fields
        for (const Field& f : tx.Fields()) d.Add("tx" + std::to_string(i) + "." + f.name, f.value);
    }
    return d;
}

} // namespace equifuzz::tx_check
