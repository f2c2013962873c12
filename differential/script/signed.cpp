#include "signed.h"

#include "crypto.h"
#include "opcodes.h"
#include "pair.h"
#include "tx.h"

#include <equifuzz/choices/script.h>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <array>

namespace equifuzz::script {
namespace {

const secp256k1_context* SigningContext()
{
    static secp256k1_context* ctx{secp256k1_context_create(SECP256K1_CONTEXT_NONE)};
    return ctx;
}

//! Test key i (0..2): the 32-byte scalar i+1 repeated in every byte, far below the group order.
std::array<uint8_t, 32> SecretKey(int i)
{
    std::array<uint8_t, 32> k;
    k.fill(static_cast<uint8_t>(i + 1));
    return k;
}

Bytes PublicKey(int i, bool compressed)
{
    secp256k1_pubkey pub;
    const auto sk{SecretKey(i)};
    if (!secp256k1_ec_pubkey_create(SigningContext(), &pub, sk.data())) return {};
    Bytes out(65);
    size_t len{out.size()};
    secp256k1_ec_pubkey_serialize(SigningContext(), out.data(), &len, &pub, compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED);
    out.resize(len);
    return out;
}

//! DER signature (low S, RFC 6979 nonce) of `hash` with key i, and the hash-type byte appended.
Bytes Sign(const Bytes& hash, int key, uint8_t hash_type)
{
    secp256k1_ecdsa_signature sig;
    const auto sk{SecretKey(key)};
    if (!secp256k1_ecdsa_sign(SigningContext(), &sig, hash.data(), sk.data(), nullptr, nullptr)) return {};
    Bytes out(72);
    size_t len{out.size()};
    secp256k1_ecdsa_signature_serialize_der(SigningContext(), out.data(), &len, &sig);
    out.resize(len);
    out.push_back(hash_type);
    return out;
}

//! Key i as a BIP-340 key pair, tweaked for a key-path-only output when `tweak_for_key_path`.
//! `xonly` receives the (tweaked) x-only public key.
bool KeyPair(int i, bool tweak_for_key_path, secp256k1_keypair& kp, Bytes& xonly)
{
    const auto sk{SecretKey(i)};
    if (!secp256k1_keypair_create(SigningContext(), &kp, sk.data())) return false;
    secp256k1_xonly_pubkey pub;
    xonly.assign(32, 0);
    if (!secp256k1_keypair_xonly_pub(SigningContext(), &pub, nullptr, &kp)) return false;
    secp256k1_xonly_pubkey_serialize(SigningContext(), xonly.data(), &pub);
    if (!tweak_for_key_path) return true;
    const Bytes tweak{TaggedHash("TapTweak", xonly)}; // no script tree: the tweak commits to the key alone
    if (!secp256k1_keypair_xonly_tweak_add(SigningContext(), &kp, tweak.data())) return false;
    if (!secp256k1_keypair_xonly_pub(SigningContext(), &pub, nullptr, &kp)) return false;
    secp256k1_xonly_pubkey_serialize(SigningContext(), xonly.data(), &pub);
    return true;
}

//! BIP-340 signature of `hash`, with the hash-type byte appended unless it is SIGHASH_DEFAULT.
Bytes SignSchnorr(const Bytes& hash, const secp256k1_keypair& kp, uint8_t hash_type)
{
    Bytes sig(64);
    if (!secp256k1_schnorrsig_sign32(SigningContext(), sig.data(), hash.data(), &kp, nullptr)) return {};
    if (hash_type != 0x00) sig.push_back(hash_type);
    return sig;
}

using Kind = SignedKind;  // choices.json, as Wrap

//! The transaction around the spend (the signature hash covers it, not the scriptSig or witness
//! filled in afterwards): version, lock time, sequence and amount, and 0..2 outputs.
Transaction ConsumeTransaction(FuzzedDataProvider& fdp, SignedSpend& out)
{
    out.ctx = ConsumeCoreContext(fdp);
    static constexpr std::array<uint8_t, 4> OUTPUTS{1, 1, 0, 2}; // 0: SIGHASH_SINGLE past the last output
    out.ctx.outputs = fdp.PickValueInArray(OUTPUTS);
    return CoreSpendingTransaction(out.spend, out.ctx);
}

static constexpr std::array<const char*, 6> SPOILS{"none", "wrong key", "flipped byte", "other hash type signed",
                                                   "padded signature", "non-empty dummy"};

//! 0 (not spoiled) half the time, else one of SPOILS[1..last].
int ConsumeSpoil(FuzzedDataProvider& fdp, int last)
{
    return fdp.ConsumeIntegralInRange<int>(0, 9) < 5 ? 0 : fdp.ConsumeIntegralInRange<int>(1, last);
}

//! Taproot: a key-path spend of a key-only output, or a script-path spend of a single-leaf tree
//! whose leaf is `<key> [CODESEPARATOR] CHECKSIG` or the 2-of-2 `<k0> CHECKSIG <k1> CHECKSIGADD 2
//! NUMEQUAL`, signed over the BIP-341 signature hash, sometimes with an annex.
SignedSpend DecodeTaprootSpend(FuzzedDataProvider& fdp, bool script_path, uint32_t flags)
{
    SignedSpend out;
    SpendInput& in{out.spend};
    in.flags = flags;
    const int keys{script_path && fdp.ConsumeBool() ? 2 : 1};
    const bool codesep{script_path && keys == 1 && fdp.ConsumeIntegralInRange<int>(0, 3) == 0};
    // The leaf's place in the tree: alone, or under 1..3 sibling hashes (a merkle path).
    std::vector<Bytes> path(script_path ? static_cast<size_t>(std::max(0, fdp.ConsumeIntegralInRange<int>(-1, 3))) : 0);
    for (Bytes& node : path) node = ConsumeBytesPadded(fdp, 32);
    std::vector<secp256k1_keypair> pairs(static_cast<size_t>(keys));
    std::vector<Bytes> xonly(static_cast<size_t>(keys));
    for (int i = 0; i < keys; ++i) {
        if (!KeyPair(i, !script_path, pairs[static_cast<size_t>(i)], xonly[static_cast<size_t>(i)])) return out;
    }
    TaprootContext context;
    Bytes leaf, control;
    if (script_path) {
        AppendPush(leaf, xonly[0]);
        if (codesep) {
            leaf.push_back(OP_CODESEPARATOR);
            context.codesep_pos = 1; // the opcode index: the push is opcode 0
        }
        leaf.push_back(OP_CHECKSIG);
        if (keys == 2) {
            AppendPush(leaf, xonly[1]);
            leaf.insert(leaf.end(), {OP_CHECKSIGADD, OP_2, OP_NUMEQUAL});
        }
        Bytes output_key;
        if (!TaprootTree(leaf, path, output_key, control)) return out;
        in.script_pubkey = {OP_1};
        AppendPush(in.script_pubkey, output_key);
        context.script_path = true;
        context.tapleaf_hash = TapleafHash(0xc0, leaf);
    } else {
        in.script_pubkey = {OP_1};
        AppendPush(in.script_pubkey, xonly[0]);
    }
    if (fdp.ConsumeIntegralInRange<int>(0, 7) == 0) {
        context.annex_present = true;
        context.annex = {0x50};
        const Bytes extra{fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange<size_t>(0, 8))};
        context.annex.insert(context.annex.end(), extra.begin(), extra.end());
    }

    const Transaction tx{ConsumeTransaction(fdp, out)};
    const std::vector<TxOut> spent{TxOut{out.ctx.amount, in.script_pubkey}};

    static constexpr std::array<uint8_t, 9> HASH_TYPES{0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83, 0x04, 0x84};
    const uint8_t hash_type{fdp.ConsumeIntegralInRange<int>(0, 3) != 0 ? uint8_t{0x00} : fdp.PickValueInArray(HASH_TYPES)};
    const int spoil{ConsumeSpoil(fdp, 4)};
    std::vector<Bytes> sigs; // in key order
    for (int i = 0; i < keys; ++i) {
        uint8_t signed_type{hash_type};
        if (spoil == 3 && i == 0) signed_type = hash_type == 0x00 ? 0x01 : 0x00;
        Bytes hash;
        // An invalid hash type has no hash: sign anything, the verifier fails it on the type.
        if (!TaprootSignatureHash(tx, 0, spent, signed_type, context, hash)) hash.assign(32, 0x11);
        const size_t signer{spoil == 1 && i == 0 ? static_cast<size_t>((i + 1) % keys) : static_cast<size_t>(i)};
        secp256k1_keypair other;
        Bytes other_x;
        const bool foreign{spoil == 1 && i == 0 && keys == 1};
        if (foreign && !KeyPair(2, !script_path, other, other_x)) return out;
        Bytes sig{SignSchnorr(hash, foreign ? other : pairs[signer], hash_type)};
        if (spoil == 2 && i == 0 && !sig.empty()) sig[fdp.ConsumeIntegralInRange<size_t>(0, sig.size() - 1)] ^= fdp.ConsumeIntegralInRange<uint8_t>(1, 255);
        if (spoil == 4 && i == 0) sig.push_back(0x01);
        sigs.push_back(sig);
    }
    for (auto it = sigs.rbegin(); it != sigs.rend(); ++it) in.witness.push_back(*it); // the first key's signature on top
    if (script_path) {
        in.witness.push_back(leaf);
        in.witness.push_back(control);
    }
    if (context.annex_present) in.witness.push_back(context.annex);
    out.recipe.taproot = true;
    out.recipe.script_path = script_path;
    out.recipe.keys = keys;
    out.recipe.leaf_depth = path.size();
    out.recipe.hash_type = hash_type;
    out.recipe.codesep = codesep;
    out.recipe.annex = context.annex_present;
    out.recipe.spoil = spoil;
    return out;
}

} // namespace

SignedSpend DecodeSignedSpend(FuzzedDataProvider& fdp)
{
    SignedSpend out;
    SpendInput& in{out.spend};
    in.flags = FillFlags(fdp.ConsumeIntegralInRange<int>(0, 3) == 0 ? fdp.ConsumeIntegral<uint32_t>() & ALL_FLAGS
                                                                      : (FLAG_P2SH | FLAG_WITNESS | FLAG_DERSIG | FLAG_NULLDUMMY | FLAG_TAPROOT));
    const Kind kind{ConsumeChoice<Kind>(fdp)};
    if (kind == Kind::TR_KEY || kind == Kind::TR_SCRIPT) return DecodeTaprootSpend(fdp, kind == Kind::TR_SCRIPT, in.flags);
    const Wrap wrap{ConsumeChoice<Wrap>(fdp)};
    const bool segwit{kind == Kind::WPKH || wrap == Wrap::P2WSH || wrap == Wrap::P2SH_P2WSH};

    // Keys: n of them (multisig: 1..3), m signatures; compressed unless the input says otherwise.
    const int n{kind == Kind::MULTISIG ? fdp.ConsumeIntegralInRange<int>(1, 3) : 1};
    const int m{kind == Kind::MULTISIG ? fdp.ConsumeIntegralInRange<int>(1, n) : 1};
    std::vector<Bytes> pubkeys;
    for (int i = 0; i < n; ++i) pubkeys.push_back(PublicKey(i, !fdp.ConsumeBool() || kind == Kind::WPKH));
    const bool codesep{kind != Kind::WPKH && fdp.ConsumeIntegralInRange<int>(0, 3) == 0};

    // The script the signature commits to (from just after the OP_CODESEPARATOR, if any).
    Bytes script;
    size_t code_from{0};
    const auto checksig_tail = [&](uint8_t op) {
        if (codesep) {
            script.push_back(OP_CODESEPARATOR);
            code_from = script.size();
        }
        script.push_back(op);
    };
    switch (kind) {
    case Kind::P2PK:
        AppendPush(script, pubkeys[0]);
        checksig_tail(OP_CHECKSIG);
        break;
    case Kind::P2PKH:
    case Kind::WPKH:
        script = {OP_DUP, OP_HASH160};
        AppendPush(script, Hash160(pubkeys[0]));
        script.push_back(OP_EQUALVERIFY);
        checksig_tail(OP_CHECKSIG);
        break;
    case Kind::MULTISIG:
        script.push_back(static_cast<uint8_t>(0x50 + m));
        for (const Bytes& p : pubkeys) AppendPush(script, p);
        script.push_back(static_cast<uint8_t>(0x50 + n));
        checksig_tail(OP_CHECKMULTISIG);
        break;
    case Kind::TR_KEY:
    case Kind::TR_SCRIPT:
        break; // DecodeTaprootSpend took them, above
    }
    const Bytes script_code(script.begin() + static_cast<std::ptrdiff_t>(code_from), script.end());

    if (kind == Kind::WPKH) {
        Bytes program{OP_0};
        AppendPush(program, Hash160(pubkeys[0]));
        if (wrap == Wrap::P2SH || wrap == Wrap::P2SH_P2WSH) {
            AppendPush(in.script_sig, program);
            in.script_pubkey = P2shScript(program);
        } else {
            in.script_pubkey = program;
        }
    } else if (wrap == Wrap::BARE) {
        in.script_pubkey = script;
    } else if (wrap == Wrap::P2SH) {
        in.script_pubkey = P2shScript(script);
    } else if (wrap == Wrap::P2WSH) {
        in.script_pubkey = P2wshScript(script);
    } else {
        AppendPush(in.script_sig, P2wshScript(script));
        in.script_pubkey = P2shScript(P2wshScript(script));
    }

    const Transaction tx{ConsumeTransaction(fdp, out)};

    static constexpr std::array<uint8_t, 10> HASH_TYPES{0x01, 0x02, 0x03, 0x81, 0x82, 0x83, 0x00, 0x04, 0x41, 0xff};
    const uint8_t hash_type{fdp.ConsumeIntegralInRange<int>(0, 3) != 0 ? uint8_t{0x01} : fdp.PickValueInArray(HASH_TYPES)};
    // How to spoil it (0 = not at all): sign with another key, flip a byte, sign under another hash
    // type than the one appended, pad the DER, give multisig a non-empty dummy.
    const int spoil{ConsumeSpoil(fdp, 5)};
    const auto sighash = [&](uint8_t type) {
        return segwit ? SegwitV0SignatureHash(script_code, tx, 0, type, out.ctx.amount) : LegacySignatureHash(script_code, tx, 0, type);
    };
    std::vector<Bytes> sigs;
    int next_key{0}; // multisig: signatures in key order, each key at most once
    for (int i = 0; i < m; ++i) {
        int key{kind == Kind::MULTISIG ? fdp.ConsumeIntegralInRange<int>(next_key, n - (m - i)) : 0};
        next_key = key + 1;
        uint8_t signed_type{hash_type};
        if (spoil == 1 && i == 0) key = (key + 1) % 3;
        if (spoil == 3 && i == 0) signed_type = hash_type ^ 0x02;
        Bytes sig{Sign(sighash(signed_type), key, hash_type)};
        if (spoil == 2 && i == 0 && !sig.empty()) sig[fdp.ConsumeIntegralInRange<size_t>(0, sig.size() - 1)] ^= fdp.ConsumeIntegralInRange<uint8_t>(1, 255);
        if (spoil == 4 && i == 0 && !sig.empty()) sig.insert(sig.end() - 1, 0x00);
        sigs.push_back(sig);
    }

    // The unlocking data, innermost script last.
    Stack items;
    if (kind == Kind::MULTISIG) items.push_back(spoil == 5 ? Bytes{0x01} : Bytes{});
    for (const Bytes& s : sigs) items.push_back(s);
    if (kind == Kind::P2PKH || kind == Kind::WPKH) items.push_back(pubkeys[0]);
    if (segwit) {
        in.witness = items;
        if (kind != Kind::WPKH) in.witness.push_back(script);
    } else {
        Bytes unlock;
        for (const Bytes& item : items) AppendPush(unlock, item);
        if (wrap == Wrap::P2SH) AppendPush(unlock, script);
        in.script_sig = unlock;
    }

    out.recipe.kind = static_cast<int>(kind);
    out.recipe.wrap = static_cast<int>(wrap);
    out.recipe.m = m;
    out.recipe.n = n;
    out.recipe.hash_type = hash_type;
    out.recipe.codesep = codesep;
    out.recipe.spoil = spoil;
    return out;
}

std::string Recipe::Text() const
{
    if (taproot) {
        return std::string{script_path ? "P2TR script path" : "P2TR key path"} + (keys == 2 ? ", 2-of-2 CHECKSIGADD" : "") +
               (leaf_depth == 0 ? "" : ", leaf at depth " + std::to_string(leaf_depth)) + ", hash type " + std::to_string(hash_type) +
               (codesep ? ", CODESEPARATOR" : "") + (annex ? ", annex" : "") + ", spoiled: " + SPOILS[static_cast<size_t>(spoil)];
    }
    static constexpr std::array<const char*, 4> KINDS{"P2PK", "P2PKH", "multisig", "P2WPKH"};
    static constexpr std::array<const char*, 4> WRAPS{"bare", "P2SH", "P2WSH", "P2SH-P2WSH"};
    const auto k{static_cast<Kind>(kind)};
    const auto w{static_cast<Wrap>(wrap)};
    return std::string{KINDS[static_cast<size_t>(kind)]} +
           (k == Kind::WPKH ? (w == Wrap::P2SH || w == Wrap::P2SH_P2WSH ? " in P2SH" : "") : std::string{" "} + WRAPS[static_cast<size_t>(wrap)]) +
           ", " + std::to_string(m) + "-of-" + std::to_string(n) + ", hash type " + std::to_string(hash_type) + (codesep ? ", CODESEPARATOR" : "") +
           ", spoiled: " + (spoil == 5 && k != Kind::MULTISIG ? "none (no dummy to spoil)" : SPOILS[static_cast<size_t>(spoil)]);
}

Description Describe(const SignedSpend& in)
{
    Description d{Describe(in.spend)};
    d.Add("recipe", in.recipe.Text()).Add("outputs", uint64_t{in.ctx.outputs}).Add("amount", in.ctx.amount);
    return d;
}

} // namespace equifuzz::script
