#include "digest.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace equifuzz {
namespace {

const char* AlgorithmName(DigestKind kind)
{
    switch (kind) {
    case DigestKind::Sha256: return "SHA256";
    case DigestKind::Sha1: return "SHA1";
    case DigestKind::Ripemd160: return "RIPEMD160";
    }
    return "?";
}

//! The algorithm, fetched once (thread-safe static initialisation); never freed.
const EVP_MD* Fetched(DigestKind kind)
{
    const auto fetch = [](DigestKind k) { return EVP_MD_fetch(nullptr, AlgorithmName(k), nullptr); };
    static EVP_MD* const sha256{fetch(DigestKind::Sha256)};
    static EVP_MD* const sha1{fetch(DigestKind::Sha1)};
    // OpenSSL 3 keeps RIPEMD-160 in the default provider since 3.0.7 (before, only in legacy).
    static EVP_MD* const ripemd160{fetch(DigestKind::Ripemd160)};
    const EVP_MD* md{kind == DigestKind::Sha256 ? sha256 : kind == DigestKind::Sha1 ? sha1 : ripemd160};
    if (md == nullptr) throw std::runtime_error{std::string{AlgorithmName(kind)} + " is not available from OpenSSL"};
    return md;
}

struct CtxFree {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

} // namespace

void Digest(DigestKind kind, std::span<const uint8_t> data, uint8_t* out)
{
    const EVP_MD* md{Fetched(kind)};
    thread_local const std::unique_ptr<EVP_MD_CTX, CtxFree> ctx{EVP_MD_CTX_new()};
    unsigned len{0};
    if (!ctx || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1 || EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
        EVP_DigestFinal_ex(ctx.get(), out, &len) != 1 || len != DigestSize(kind)) {
        throw std::runtime_error{std::string{"OpenSSL "} + AlgorithmName(kind) + " failed"};
    }
}

std::array<uint8_t, 32> DoubleSha256(std::span<const uint8_t> data)
{
    std::array<uint8_t, 32> once, twice;
    Digest(DigestKind::Sha256, data, once.data());
    Digest(DigestKind::Sha256, once, twice.data());
    return twice;
}

} // namespace equifuzz
