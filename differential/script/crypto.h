// Hash functions the interpreter and the checker use (OpenSSL EVP), and script-building helpers
// shared by the sides, the decoders and the tests.
#pragma once

#include <equifuzz/harness.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace equifuzz::script {

Bytes Sha256(std::span<const uint8_t> data);
Bytes Sha1(std::span<const uint8_t> data);
Bytes Ripemd160(std::span<const uint8_t> data);
inline Bytes Hash160(std::span<const uint8_t> data) { return Ripemd160(Sha256(data)); }
inline Bytes Hash256(std::span<const uint8_t> data) { return Sha256(Sha256(data)); }
//! BIP-340 tagged hash: SHA256(SHA256(tag) || SHA256(tag) || data).
Bytes TaggedHash(std::string_view tag, std::span<const uint8_t> data);

//! BIP-341 leaf hash: TaggedHash("TapLeaf", leaf_version || CompactSize(len) || script).
Bytes TapleafHash(uint8_t leaf_version, std::span<const uint8_t> script);
//! BIP-341: does the 32-byte output key `program` commit to `leaf_hash` through `control`
//! (33 + 32m bytes: leaf version | parity, internal key, merkle path)?
bool VerifyTaprootCommitment(std::span<const uint8_t> control, std::span<const uint8_t> program, std::span<const uint8_t> leaf_hash);
//! BIP-341's TapBranch: TaggedHash("TapBranch", min(a, b) || max(a, b)).
Bytes TapBranchHash(const Bytes& a, const Bytes& b);
//! For tests: a tree holding only `script` (leaf version 0xc0) under a fixed internal key
//! (the generator's x coordinate): the output key and the control block that spends it.
bool SingleLeafTaproot(std::span<const uint8_t> script, Bytes& output_key, Bytes& control);
//! The same for a tree where `script`'s leaf sits under the 32-byte sibling hashes `path`
//! (nearest first): the control block carries the path.
bool TaprootTree(std::span<const uint8_t> script, const std::vector<Bytes>& path, Bytes& output_key, Bytes& control);

//! Appends `data` as one push in the form CScript's << uses (direct, PUSHDATA1/2/4; never OP_N).
void AppendPush(Bytes& script, std::span<const uint8_t> data);
//! OP_HASH160 <HASH160(redeem)> OP_EQUAL.
Bytes P2shScript(std::span<const uint8_t> redeem);
//! OP_0 <SHA256(witness_script)>.
Bytes P2wshScript(std::span<const uint8_t> witness_script);

} // namespace equifuzz::script
