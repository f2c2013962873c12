// The raw tx_check targets' structured mutation: the input read as a transaction (or a block),
// changed the way the duplicate and null-prevout rules care about, and serialized again.
#include "pair.h"

#include <array>
#include <limits>

namespace equifuzz::tx_check {
namespace {

size_t Index(Mutation& m, size_t n) { return m.Below(n); }

//! One change to a transaction's inputs or outputs; false when there is nothing to change.
bool MutateTransaction(Mutation& m, Transaction& tx)
{
    static constexpr std::array<int64_t, 6> VALUES{0, 1, COIN, MAX_MONEY, MAX_MONEY + 1, -1};
    switch (m.Below(9)) {
    case 0: // spend an earlier input's outpoint again
    case 1:
        if (tx.vin.size() < 2) return false;
        tx.vin[Index(m, tx.vin.size())].prevout = tx.vin[Index(m, tx.vin.size())].prevout;
        return true;
    case 2: // spend the null outpoint
        if (tx.vin.empty()) return false;
        tx.vin[Index(m, tx.vin.size())].prevout = OutPoint{};
        return true;
    case 3: { // one more input: a copy of one, or a fresh outpoint, at any position
        if (tx.vin.size() >= 64) return false;
        TxIn in{tx.vin.empty() ? TxIn{} : tx.vin[Index(m, tx.vin.size())]};
        if (m.OneIn(2)) {
            for (uint8_t& b : in.prevout.hash) b = m.Byte();
            in.prevout.n = static_cast<uint32_t>(m.Below(4));
        }
        tx.vin.insert(tx.vin.begin() + static_cast<std::ptrdiff_t>(Index(m, tx.vin.size() + 1)), std::move(in));
        return true;
    }
    case 4: // one input fewer
        if (tx.vin.empty()) return false;
        tx.vin.erase(tx.vin.begin() + static_cast<std::ptrdiff_t>(Index(m, tx.vin.size())));
        return true;
    case 5: // a near duplicate: the same hash with another index
        if (tx.vin.size() < 2) return false;
        tx.vin[Index(m, tx.vin.size())].prevout.hash = tx.vin[Index(m, tx.vin.size())].prevout.hash;
        return true;
    case 6: // an output value at a boundary (an output first, when there is none)
        if (tx.vout.empty()) tx.vout.emplace_back();
        tx.vout[Index(m, tx.vout.size())].value = m.Pick(VALUES);
        return true;
    case 7: // the null hash with another index (sorts before the null outpoint)
        if (tx.vin.empty()) return false;
        tx.vin[Index(m, tx.vin.size())].prevout.hash = Hash256{};
        return true;
    default: // every output worth a little: the checks after the value checks are reached
        if (tx.vout.empty()) tx.vout.emplace_back();
        for (TxOut& out : tx.vout) out.value = static_cast<int64_t>(m.Below(2)) * COIN;
        return true;
    }
}

//! Output scripts cut to 100 bytes: the duplicate and null rules do not need long scripts, and the
//! target (and libFuzzer's room) would spend their time on them.
void CapScripts(Transaction& tx)
{
    for (TxOut& out : tx.vout) {
        if (out.script_pubkey.size() > 100) out.script_pubkey.resize(100);
    }
}

//! When the bytes are not a transaction (yet): a small one, 1-4 inputs and 1-2 outputs, for the
//! changes to work on. (Composing one with BuildTransaction from the same bytes cost most of the
//! target's time: up to 400 inputs, each inserted at a chosen position.)
Transaction SmallTransaction(Mutation& m)
{
    Transaction tx;
    tx.version = m.OneIn(2) ? 1 : 2;
    const size_t inputs{m.Between(1, 4)};
    for (size_t i = 0; i < inputs; ++i) {
        TxIn in;
        for (uint8_t& b : in.prevout.hash) b = m.Byte();
        in.prevout.n = static_cast<uint32_t>(m.Below(4));
        in.script_sig = m.Filler(m.Below(8));
        tx.vin.push_back(std::move(in));
    }
    const size_t outputs{m.Between(1, 2)};
    for (size_t i = 0; i < outputs; ++i) tx.vout.push_back({static_cast<int64_t>(m.Below(2)) * COIN, m.Filler(m.Below(26))});
    return tx;
}

//! A transaction without inputs serializes as what a witness-allowing reader takes for the witness
//! marker: the raw targets would never see it. It gets one input.
void Readable(Mutation& m, Transaction& tx)
{
    if (!tx.vin.empty()) return;
    tx.vin.emplace_back();
    for (uint8_t& b : tx.vin[0].prevout.hash) b = m.Byte();
    tx.vin[0].prevout.n = 0;
}

} // namespace

bool MutateRawTransaction(Mutation& m)
{
    Transaction tx;
    try {
        ByteReader r{m.bytes};
        tx = ReadTransaction(r, /*allow_witness=*/true);
    } catch (const StreamError&) {
        tx = SmallTransaction(m);
    }
    CapScripts(tx);
    const size_t changes{1 + m.Below(3)};
    for (size_t i = 0; i < changes; ++i) MutateTransaction(m, tx);
    Readable(m, tx);
    Bytes out{SerializeTransaction(tx, tx.HasWitness())};
    if (out.size() > m.max_size) return false;
    m.bytes = std::move(out);
    return true;
}

bool MutateRawBlock(Mutation& m)
{
    // tx_check_block's raw form: a serialized block, then a last byte that is 0 modulo 4.
    std::optional<Block> block;
    if (!m.bytes.empty() && m.bytes.back() % 4 == 0) {
        try {
            ByteReader r{std::span{m.bytes}.first(m.bytes.size() - 1)};
            block = ReadBlock(r);
        } catch (const StreamError&) {
        }
    }
    if (!block) {
        // Compose one: a coinbase, then small transactions.
        block.emplace();
        Transaction coinbase;
        coinbase.vin.emplace_back();
        coinbase.vin[0].script_sig.assign(2 + m.Below(99), 0x51);
        coinbase.vout.emplace_back();
        block->txs.push_back(std::move(coinbase));
        const size_t n{1 + m.Below(3)};
        for (size_t i = 0; i < n; ++i) {
            block->txs.push_back(SmallTransaction(m));
        }
    }
    if (block->txs.empty()) return false;
    if (m.OneIn(8)) { // a transaction twice
        block->txs.push_back(block->txs[Index(m, block->txs.size())]);
    } else { // a transaction changed, most often one after the coinbase
        const size_t i{block->txs.size() > 1 && !m.OneIn(4) ? 1 + Index(m, block->txs.size() - 1) : Index(m, block->txs.size())};
        const size_t changes{1 + m.Below(3)};
        for (size_t k = 0; k < changes; ++k) MutateTransaction(m, block->txs[i]);
    }
    for (Transaction& tx : block->txs) Readable(m, tx);
    Bytes out{SerializeBlock(*block)};
    out.push_back(static_cast<uint8_t>(4 * m.Below(64)));
    if (out.size() > m.max_size) return false;
    m.bytes = std::move(out);
    return true;
}

} // namespace equifuzz::tx_check
