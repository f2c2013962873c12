#include "tx.h"

#include "crypto.h"
#include "opcodes.h"

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

namespace equifuzz::script {
namespace {

void WriteOutPoint(Bytes& out, const TxIn& in)
{
    out.insert(out.end(), in.prevout.hash.begin(), in.prevout.hash.end());
    AppendLE(out, in.prevout.n, 4);
}

void WriteOutput(Bytes& out, const TxOut& o)
{
    AppendLE(out, static_cast<uint64_t>(o.value), 8);
    AppendByteVector(out, o.script_pubkey);
}

//! The script code as the legacy sighash commits to it: OP_CODESEPARATORs removed.
Bytes WithoutCodeSeparators(const Bytes& s)
{
    Bytes out;
    size_t pc{0};
    while (pc < s.size()) {
        const size_t start{pc};
        const std::optional<ScriptOp> op{ReadOp(s, pc)};
        if (!op) { // a truncated push: keep the rest as it is
            out.insert(out.end(), s.begin() + static_cast<std::ptrdiff_t>(start), s.end());
            break;
        }
        if (op->opcode != OP_CODESEPARATOR) out.insert(out.end(), s.begin() + static_cast<std::ptrdiff_t>(start), s.begin() + static_cast<std::ptrdiff_t>(pc));
    }
    return out;
}

const secp256k1_context* Context()
{
    static secp256k1_context* ctx{secp256k1_context_create(SECP256K1_CONTEXT_VERIFY)};
    return ctx;
}

//! DER parsing as consensus does it: lenient about lengths and padding (BER-ish), like the
//! parser libsecp256k1 ships in contrib/. Rebuilt from its documented rules.
bool ParseLaxDER(const uint8_t* in, size_t len, secp256k1_ecdsa_signature& sig)
{
    size_t pos{0};
    uint8_t tmp[64]{};
    secp256k1_ecdsa_signature_parse_compact(Context(), &sig, tmp);
    const auto read_len = [&](size_t& out) -> bool {
        if (pos == len) return false;
        size_t l{in[pos++]};
        if (l & 0x80) {
            l -= 0x80;
            if (l > len - pos) return false;
            while (l > 0 && in[pos] == 0) { ++pos; --l; }
            if (l >= sizeof(size_t)) return false;
            size_t v{0};
            while (l > 0) { v = (v << 8) | in[pos++]; --l; }
            out = v;
        } else {
            out = l;
        }
        return true;
    };
    if (pos == len || in[pos] != 0x30) return false;
    ++pos;
    size_t seq_len;
    if (!read_len(seq_len)) return false;
    (void)seq_len;
    uint8_t parts[2][32]{};
    bool overflow{false};
    for (int k = 0; k < 2; ++k) {
        if (pos == len || in[pos] != 0x02) return false;
        ++pos;
        size_t l;
        if (!read_len(l) || l > len - pos) return false;
        size_t start{pos};
        size_t n{l};
        while (n > 0 && in[start] == 0) { ++start; --n; }
        if (n > 32) overflow = true; else std::copy(in + start, in + start + n, parts[k] + 32 - n);
        pos += l;
    }
    uint8_t compact[64];
    std::copy(parts[0], parts[0] + 32, compact);
    std::copy(parts[1], parts[1] + 32, compact + 32);
    if (!overflow) overflow = !secp256k1_ecdsa_signature_parse_compact(Context(), &sig, compact);
    if (overflow) { // an out-of-range value parses as zero, which never verifies
        std::fill(compact, compact + 64, 0);
        secp256k1_ecdsa_signature_parse_compact(Context(), &sig, compact);
    }
    return true;
}

} // namespace

Transaction BuildCreditingTransaction(const Bytes& script_pubkey, int64_t amount)
{
    Transaction tx;
    tx.version = 1;
    TxIn in;
    in.script_sig = {0x00, 0x00}; // OP_0 OP_0
    tx.vin.push_back(in);
    tx.vout.push_back({amount, script_pubkey});
    return tx;
}

Transaction BuildSpendingTransaction(const Bytes& script_sig, const Stack& witness, const Transaction& credit)
{
    Transaction tx;
    tx.version = 1;
    TxIn in;
    in.prevout = {equifuzz::Txid(credit), 0};
    in.script_sig = script_sig;
    in.witness = witness;
    tx.vin.push_back(in);
    tx.vout.push_back({credit.vout[0].value, {}});
    return tx;
}

Bytes LegacySignatureHash(const Bytes& script_code, const Transaction& tx, size_t input, int32_t hash_type)
{
    Bytes one(32, 0);
    one[0] = 1;
    if (input >= tx.vin.size()) return one;
    const int base{hash_type & 0x1f};
    const bool anyone_can_pay{(hash_type & 0x80) != 0};
    const bool none{base == 2}, single{base == 3};
    if (single && input >= tx.vout.size()) return one;
    Bytes ser;
    AppendLE(ser, static_cast<uint32_t>(tx.version), 4);
    const size_t n_inputs{anyone_can_pay ? 1 : tx.vin.size()};
    AppendCompactSize(ser, n_inputs);
    for (size_t k = 0; k < n_inputs; ++k) {
        const size_t i{anyone_can_pay ? input : k};
        WriteOutPoint(ser, tx.vin[i]);
        AppendByteVector(ser, i == input ? WithoutCodeSeparators(script_code) : Bytes{});
        AppendLE(ser, (i != input && (none || single)) ? 0 : tx.vin[i].sequence, 4);
    }
    const size_t n_outputs{none ? 0 : single ? input + 1 : tx.vout.size()};
    AppendCompactSize(ser, n_outputs);
    for (size_t i = 0; i < n_outputs; ++i) {
        if (single && i != input) {
            WriteOutput(ser, TxOut{-1, {}});
        } else {
            WriteOutput(ser, tx.vout[i]);
        }
    }
    AppendLE(ser, tx.lock_time, 4);
    AppendLE(ser, static_cast<uint32_t>(hash_type), 4);
    return Hash256(ser);
}

Bytes SegwitV0SignatureHash(const Bytes& script_code, const Transaction& tx, size_t input, int32_t hash_type, int64_t amount)
{
    const int base{hash_type & 0x1f};
    const bool anyone_can_pay{(hash_type & 0x80) != 0};
    Bytes prevouts(32, 0), sequences(32, 0), outputs(32, 0);
    if (!anyone_can_pay) {
        Bytes s;
        for (const TxIn& in : tx.vin) WriteOutPoint(s, in);
        prevouts = Hash256(s);
    }
    if (!anyone_can_pay && base != 2 && base != 3) {
        Bytes s;
        for (const TxIn& in : tx.vin) AppendLE(s, in.sequence, 4);
        sequences = Hash256(s);
    }
    if (base != 2 && base != 3) {
        Bytes s;
        for (const TxOut& o : tx.vout) WriteOutput(s, o);
        outputs = Hash256(s);
    } else if (base == 3 && input < tx.vout.size()) {
        Bytes s;
        WriteOutput(s, tx.vout[input]);
        outputs = Hash256(s);
    }
    Bytes ser;
    AppendLE(ser, static_cast<uint32_t>(tx.version), 4);
    ser.insert(ser.end(), prevouts.begin(), prevouts.end());
    ser.insert(ser.end(), sequences.begin(), sequences.end());
    WriteOutPoint(ser, tx.vin[input]);
    AppendByteVector(ser, script_code);
    AppendLE(ser, static_cast<uint64_t>(amount), 8);
    AppendLE(ser, tx.vin[input].sequence, 4);
    ser.insert(ser.end(), outputs.begin(), outputs.end());
    AppendLE(ser, tx.lock_time, 4);
    AppendLE(ser, static_cast<uint32_t>(hash_type), 4);
    return Hash256(ser);
}

TransactionChecker::TransactionChecker(const Transaction& tx, size_t input, int64_t amount, std::vector<TxOut> spent)
    : m_tx{tx}, m_input{input}, m_amount{amount}, m_spent{std::move(spent)} {}
TransactionChecker::~TransactionChecker() = default;

bool TransactionChecker::CheckECDSASignature(const Bytes& sig_in, const Bytes& pubkey, const Bytes& script_code, SigVersion sigversion) const
{
    if (pubkey.empty()) return false;
    const uint8_t h{pubkey[0]};
    const size_t expected{(h == 2 || h == 3) ? 33u : (h == 4 || h == 6 || h == 7) ? 65u : 0u};
    if (expected == 0 || pubkey.size() != expected) return false;
    if (sig_in.empty()) return false;
    // Core treats a negative amount as "amount unknown": a witness v0 signature hash cannot be
    // made, and the check fails (MissingDataBehavior::FAIL in libbitcoinconsensus; in block
    // validation amounts are never negative). Found by the Core oracle through script_signed
    // (corpora/regressions/script_signed/core-segwit-negative-amount).
    if (sigversion == SigVersion::WITNESS_V0 && m_amount < 0) return false;
    const int32_t hash_type{sig_in.back()};
    const Bytes hash{sigversion == SigVersion::WITNESS_V0 ? SegwitV0SignatureHash(script_code, m_tx, m_input, hash_type, m_amount)
                                                          : LegacySignatureHash(script_code, m_tx, m_input, hash_type)};
    secp256k1_pubkey key;
    if (!secp256k1_ec_pubkey_parse(Context(), &key, pubkey.data(), pubkey.size())) return false;
    secp256k1_ecdsa_signature sig;
    if (!ParseLaxDER(sig_in.data(), sig_in.size() - 1, sig)) return false;
    secp256k1_ecdsa_signature_normalize(Context(), &sig, &sig);
    return secp256k1_ecdsa_verify(Context(), &sig, hash.data(), &key) == 1;
}

bool TaprootSignatureHash(const Transaction& tx, size_t input, const std::vector<TxOut>& spent, uint8_t hash_type,
                          const TaprootContext& context, Bytes& hash)
{
    const uint8_t output_type{static_cast<uint8_t>(hash_type == 0x00 ? 0x01 : hash_type & 0x03)};
    const bool anyone_can_pay{(hash_type & 0x80) != 0};
    if (!(hash_type <= 0x03 || (hash_type >= 0x81 && hash_type <= 0x83))) return false;
    if (input >= tx.vin.size() || spent.size() != tx.vin.size()) return false;
    Bytes msg{0x00}; // the epoch
    msg.push_back(hash_type);
    AppendLE(msg, static_cast<uint32_t>(tx.version), 4);
    AppendLE(msg, tx.lock_time, 4);
    if (!anyone_can_pay) {
        Bytes prevouts, amounts, scripts, sequences;
        for (const TxIn& in : tx.vin) WriteOutPoint(prevouts, in);
        for (const TxOut& o : spent) AppendLE(amounts, static_cast<uint64_t>(o.value), 8);
        for (const TxOut& o : spent) AppendByteVector(scripts, o.script_pubkey);
        for (const TxIn& in : tx.vin) AppendLE(sequences, in.sequence, 4);
        for (const Bytes* part : {&prevouts, &amounts, &scripts, &sequences}) {
            const Bytes h{Sha256(*part)};
            msg.insert(msg.end(), h.begin(), h.end());
        }
    }
    if (output_type == 0x01) {
        Bytes outputs;
        for (const TxOut& o : tx.vout) WriteOutput(outputs, o);
        const Bytes h{Sha256(outputs)};
        msg.insert(msg.end(), h.begin(), h.end());
    }
    msg.push_back(static_cast<uint8_t>((context.script_path ? 2 : 0) + (context.annex_present ? 1 : 0)));
    if (anyone_can_pay) {
        WriteOutPoint(msg, tx.vin[input]);
        AppendLE(msg, static_cast<uint64_t>(spent[input].value), 8);
        AppendByteVector(msg, spent[input].script_pubkey);
        AppendLE(msg, tx.vin[input].sequence, 4);
    } else {
        AppendLE(msg, input, 4);
    }
    if (context.annex_present) {
        Bytes annex;
        AppendByteVector(annex, context.annex);
        const Bytes h{Sha256(annex)};
        msg.insert(msg.end(), h.begin(), h.end());
    }
    if (output_type == 0x03) {
        if (input >= tx.vout.size()) return false;
        Bytes output;
        WriteOutput(output, tx.vout[input]);
        const Bytes h{Sha256(output)};
        msg.insert(msg.end(), h.begin(), h.end());
    }
    if (context.script_path) {
        msg.insert(msg.end(), context.tapleaf_hash.begin(), context.tapleaf_hash.end());
        msg.push_back(0x00); // key_version
        AppendLE(msg, context.codesep_pos, 4);
    }
    hash = TaggedHash("TapSighash", msg);
    return true;
}

bool TransactionChecker::CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext& context, ScriptError& error) const
{
    if (sig.size() != 64 && sig.size() != 65) {
        error = ScriptError::SCHNORR_SIG_SIZE;
        return false;
    }
    uint8_t hash_type{0x00};
    if (sig.size() == 65) {
        hash_type = sig[64];
        if (hash_type == 0x00) { // an explicit SIGHASH_DEFAULT is not allowed
            error = ScriptError::SCHNORR_SIG_HASHTYPE;
            return false;
        }
    }
    Bytes hash;
    if (m_spent.empty()) { // no spent outputs: the hash cannot be made (Core: missing data)
        error = ScriptError::SCHNORR_SIG;
        return false;
    }
    if (!TaprootSignatureHash(m_tx, m_input, m_spent, hash_type, context, hash)) {
        error = ScriptError::SCHNORR_SIG_HASHTYPE;
        return false;
    }
    secp256k1_xonly_pubkey key;
    if (pubkey.size() != 32 || !secp256k1_xonly_pubkey_parse(Context(), &key, pubkey.data()) ||
        !secp256k1_schnorrsig_verify(Context(), sig.data(), hash.data(), 32, &key)) {
        error = ScriptError::SCHNORR_SIG;
        return false;
    }
    return true;
}

bool TransactionChecker::CheckLockTime(int64_t locktime) const
{
    constexpr int64_t THRESHOLD{500000000};
    const int64_t tx_locktime{m_tx.lock_time};
    if (!((tx_locktime < THRESHOLD && locktime < THRESHOLD) || (tx_locktime >= THRESHOLD && locktime >= THRESHOLD))) return false;
    if (locktime > tx_locktime) return false;
    return m_tx.vin[m_input].sequence != 0xffffffff;
}

bool TransactionChecker::CheckSequence(int64_t sequence) const
{
    const int64_t tx_sequence{m_tx.vin[m_input].sequence};
    // BIP-68/112 compare the version as unsigned: version -1 (0xffffffff) enables them. Found by
    // the Core oracle (corpora/regressions/script_spend/core-csv-negative-tx-version).
    if (static_cast<uint32_t>(m_tx.version) < 2) return false;
    if (tx_sequence & (int64_t{1} << 31)) return false;
    constexpr int64_t TYPE_FLAG{1 << 22};
    constexpr int64_t MASK{TYPE_FLAG | 0xffff};
    const int64_t a{tx_sequence & MASK}, b{sequence & MASK};
    if (!((a < TYPE_FLAG && b < TYPE_FLAG) || (a >= TYPE_FLAG && b >= TYPE_FLAG))) return false;
    return b <= a;
}

} // namespace equifuzz::script
