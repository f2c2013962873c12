// OpenSSL's SHA-256, SHA-1 and RIPEMD-160 for every pair's harness and models: each algorithm is
// fetched from its provider once and one digest context per thread is reused. EVP_Digest with
// EVP_sha256() fetches the algorithm and allocates a context on every call, which under ASan was a
// visible share of the script and tx_check targets' time (six allocations a double SHA-256).
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace equifuzz {

enum class DigestKind { Sha256, Sha1, Ripemd160 };

//! The digest's size in bytes: 32, 20, 20.
constexpr size_t DigestSize(DigestKind kind) { return kind == DigestKind::Sha256 ? 32 : 20; }

//! Writes the digest of `data` to `out`, which holds DigestSize(kind) bytes. Throws
//! std::runtime_error when OpenSSL cannot provide the algorithm (RIPEMD-160 needs OpenSSL's
//! default provider, 3.0.7 or later).
void Digest(DigestKind kind, std::span<const uint8_t> data, uint8_t* out);

//! SHA-256(SHA-256(data)).
std::array<uint8_t, 32> DoubleSha256(std::span<const uint8_t> data);

} // namespace equifuzz
