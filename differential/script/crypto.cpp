#include "crypto.h"

#include <common/compact_size.h>
#include <common/digest.h>
#include <script/opcodes.h>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

#include <algorithm>

#include <stdexcept>

namespace equifuzz::script {
namespace {

Bytes DigestBytes(DigestKind kind, std::span<const uint8_t> data)
{
    Bytes out(DigestSize(kind));
    Digest(kind, data, out.data());
    return out;
}

} // namespace

Bytes Sha256(std::span<const uint8_t> data) { return DigestBytes(DigestKind::Sha256, data); }
Bytes Sha1(std::span<const uint8_t> data) { return DigestBytes(DigestKind::Sha1, data); }
Bytes Ripemd160(std::span<const uint8_t> data) { return DigestBytes(DigestKind::Ripemd160, data); }

Bytes TaggedHash(std::string_view tag, std::span<const uint8_t> data)
{
    const Bytes t{Sha256({reinterpret_cast<const uint8_t*>(tag.data()), tag.size()})};
    Bytes buf{t};
    buf.insert(buf.end(), t.begin(), t.end());
    buf.insert(buf.end(), data.begin(), data.end());
    return Sha256(buf);
}

Bytes TapleafHash(uint8_t leaf_version, std::span<const uint8_t> script)
{
    Bytes buf{leaf_version};
    AppendByteVector(buf, script);
    return TaggedHash("TapLeaf", buf);
}

namespace {
const secp256k1_context* Secp()
{
    static secp256k1_context* ctx{secp256k1_context_create(SECP256K1_CONTEXT_VERIFY | SECP256K1_CONTEXT_SIGN)};
    return ctx;
}

//! The tweak of internal key `p` for merkle root `root`.
Bytes TapTweak(std::span<const uint8_t> p, std::span<const uint8_t> root)
{
    Bytes buf(p.begin(), p.end());
    buf.insert(buf.end(), root.begin(), root.end());
    return TaggedHash("TapTweak", buf);
}
} // namespace

bool VerifyTaprootCommitment(std::span<const uint8_t> control, std::span<const uint8_t> program, std::span<const uint8_t> leaf_hash)
{
    if (control.size() < 33 || program.size() != 32) return false;
    secp256k1_xonly_pubkey internal;
    if (!secp256k1_xonly_pubkey_parse(Secp(), &internal, control.data() + 1)) return false;
    Bytes k(leaf_hash.begin(), leaf_hash.end());
    for (size_t pos = 33; pos + 32 <= control.size(); pos += 32) {
        k = TapBranchHash(k, Bytes(control.begin() + static_cast<std::ptrdiff_t>(pos), control.begin() + static_cast<std::ptrdiff_t>(pos + 32)));
    }
    const Bytes tweak{TapTweak(control.subspan(1, 32), k)};
    return secp256k1_xonly_pubkey_tweak_add_check(Secp(), program.data(), control[0] & 1, &internal, tweak.data()) == 1;
}

Bytes TapBranchHash(const Bytes& a, const Bytes& b)
{
    Bytes pair_bytes{std::min(a, b)}; // the two children in lexicographic order
    const Bytes& hi{std::max(a, b)};
    pair_bytes.insert(pair_bytes.end(), hi.begin(), hi.end());
    return TaggedHash("TapBranch", pair_bytes);
}

bool SingleLeafTaproot(std::span<const uint8_t> script, Bytes& output_key, Bytes& control)
{
    return TaprootTree(script, {}, output_key, control);
}

bool TaprootTree(std::span<const uint8_t> script, const std::vector<Bytes>& path, Bytes& output_key, Bytes& control)
{
    uint8_t seckey[32]{};
    seckey[31] = 1; // the internal key is the generator
    secp256k1_keypair keypair;
    if (!secp256k1_keypair_create(Secp(), &keypair, seckey)) return false;
    secp256k1_xonly_pubkey internal;
    if (!secp256k1_keypair_xonly_pub(Secp(), &internal, nullptr, &keypair)) return false;
    uint8_t p[32];
    secp256k1_xonly_pubkey_serialize(Secp(), p, &internal);
    Bytes root{TapleafHash(0xc0, script)};
    for (const Bytes& node : path) root = TapBranchHash(root, node);
    const Bytes tweak{TapTweak(p, root)};
    secp256k1_pubkey tweaked;
    if (!secp256k1_xonly_pubkey_tweak_add(Secp(), &tweaked, &internal, tweak.data())) return false;
    secp256k1_xonly_pubkey q;
    int parity{0};
    if (!secp256k1_xonly_pubkey_from_pubkey(Secp(), &q, &parity, &tweaked)) return false;
    output_key.assign(32, 0);
    secp256k1_xonly_pubkey_serialize(Secp(), output_key.data(), &q);
    control.assign(1, static_cast<uint8_t>(0xc0 | parity));
    control.insert(control.end(), p, p + 32);
    for (const Bytes& node : path) control.insert(control.end(), node.begin(), node.end());
    return true;
}

void AppendPush(Bytes& script, std::span<const uint8_t> data)
{
    const size_t n{data.size()};
    if (n < OP_PUSHDATA1) {
        script.push_back(static_cast<uint8_t>(n));
    } else if (n <= 0xff) {
        script.push_back(OP_PUSHDATA1);
        AppendLE(script, n, 1);
    } else if (n <= 0xffff) {
        script.push_back(OP_PUSHDATA2);
        AppendLE(script, n, 2);
    } else {
        script.push_back(OP_PUSHDATA4);
        AppendLE(script, n, 4);
    }
    script.insert(script.end(), data.begin(), data.end());
}

Bytes P2shScript(std::span<const uint8_t> redeem)
{
    Bytes spk{OP_HASH160};
    AppendPush(spk, Hash160(redeem));
    spk.push_back(OP_EQUAL);
    return spk;
}

Bytes P2wshScript(std::span<const uint8_t> witness_script)
{
    Bytes spk{OP_0};
    AppendPush(spk, Sha256(witness_script));
    return spk;
}

} // namespace equifuzz::script
