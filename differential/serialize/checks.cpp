// The serialize pair's checks: when a value must read back as itself (RoundTrips, ReadsBackAs,
// ReserializesTo), a side's writing and reading as report fields, a block's ids, and every side
// decoding the same bytes.
#include "pair.h"

#include <algorithm>
#include <string>

namespace equifuzz::serialize {
namespace {

bool BytesLengthsOk(const Transaction& tx)
{
    for (const TxIn& in : tx.vin) {
        if (in.script_sig.size() > MAX_COMPACT_SIZE || in.witness.size() > MAX_COMPACT_SIZE) return false;
    }
    return true;
}

bool TxWithWitnessRoundTrips(const Transaction& tx) { return !tx.vin.empty() || tx.vout.empty(); }

Bytes Sha256d(std::span<const uint8_t> b)
{
    const Hash256 h{DoubleSha256(b)};
    return {h.begin(), h.end()};
}

} // namespace

bool RoundTrips(const Value& v)
{
    if (const auto* c{std::get_if<CompactSize>(&v)}) return c->n <= MAX_COMPACT_SIZE;
    if (const auto* t{std::get_if<TxNoWitness>(&v)}) return !t->tx.HasWitness() && BytesLengthsOk(t->tx);
    if (const auto* t{std::get_if<TxWithWitness>(&v)}) return TxWithWitnessRoundTrips(t->tx) && BytesLengthsOk(t->tx);
    if (const auto* b{std::get_if<Block>(&v)}) {
        for (const Transaction& tx : b->txs) {
            if (!TxWithWitnessRoundTrips(tx)) return false;
        }
    }
    return true;
}

bool ReadsBackAs(const Value& read, const Value& v)
{
    const auto* a{std::get_if<TxIn>(&read)};
    const auto* b{std::get_if<TxIn>(&v)};
    if (a && b) return a->prevout == b->prevout && a->script_sig == b->script_sig && a->sequence == b->sequence && a->witness.empty();
    return read == v;
}

bool ReserializesTo(const Value& v, std::span<const uint8_t> consumed, std::span<const uint8_t> reserialized)
{
    if (std::holds_alternative<bool>(v)) {
        return consumed.size() == 1 && reserialized.size() == 1 && reserialized[0] == (consumed[0] != 0 ? 1 : 0);
    }
    return std::equal(consumed.begin(), consumed.end(), reserialized.begin(), reserialized.end());
}

Written Write(const Side& side, const Value& v)
{
    Written w{side.serialize(v), 0};
    w.size = side.serialized_size(v);
    return w;
}

Outcome Written::ToOutcome() const { return Outcome{}.Add("bytes", bytes).Add("size", size); }

Outcome ToOutcome(const Decoded& d)
{
    Outcome o;
    o.Add("accepted", d.value.has_value()).Add("error", d.error);
    o.Add("consumed", uint64_t{d.consumed}).As(d.value ? FieldClass::DATA : FieldClass::DIAGNOSTIC);
    if (d.value) {
        const std::string dump{Dump(*d.value)};
        const Bytes text{dump.begin(), dump.end()};
        o.Add("value", dump.size() > 400 ? dump.substr(0, 400) + "…" : dump).Add("value_sha256d", Sha256d(text));
    }
    return o;
}

BlockIds BlockIdsOf(const Side& side, const Block& block)
{
    BlockIds ids{side.serialize(Value{block.header}), {}, {}};
    for (const Transaction& tx : block.txs) {
        ids.no_witness.push_back(side.serialize(Value{TxNoWitness{tx}}));
        ids.with_witness.push_back(side.serialize(Value{TxWithWitness{tx}}));
    }
    return ids;
}

Outcome BlockIds::ToOutcome() const
{
    Outcome o;
    o.Add("block_hash", Sha256d(header));
    for (size_t i = 0; i < no_witness.size(); ++i) {
        o.Add("txid" + std::to_string(i), Sha256d(no_witness[i]));
        o.Add("wtxid" + std::to_string(i), Sha256d(with_witness[i]));
    }
    return o;
}

std::vector<Decoded> DecodeEverywhere(size_t kind, std::span<const uint8_t> bytes, const DescribeFn& describe)
{
    std::vector<Decoded> decoded;
    for (const auto& [label, side, role] : Sides()) decoded.push_back(side->deserialize(kind, bytes));
    std::vector<Labeled<ByRef<Decoded>>> results;
    for (size_t i = 0; i < decoded.size(); ++i) results.push_back({LabelOf(Sides()[i]), {&decoded[i]}});
    Compare(describe, results);
    return decoded;
}

} // namespace equifuzz::serialize
