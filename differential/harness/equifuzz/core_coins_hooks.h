// What a Core side that compiles coins.cpp, dbwrapper.cpp and the coin compressor needs from the
// rest of Core, answered the same way for every such pair (utxo_flush, prevout_fetch):
//   * randomness (FastRandomContext, GetRandBytes): a fixed sequence of ChaCha20 keys, a counter as
//     the key, so that every run of the same input is the same; it draws the database's
//     obfuscation key and the salted hashers' salts, and nothing compared depends on the values;
//   * CPubKey::IsFullyValid and Decompress (the compressor's P2PK forms) over the system
//     libsecp256k1: the tree's pubkey.cpp needs a newer one than Debian's.
// These are definitions of Core's own functions: include this in exactly one source of a side (its
// shim), after equifuzz/core_hooks.h (which names the tree's span type).
#pragma once

#include <pubkey.h>
#include <random.h>
#include <span.h>

#include <secp256k1.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace {
uint64_t g_equifuzz_seeds{0};
const std::array<std::byte, 32> EQUIFUZZ_ZERO_KEY{};

const secp256k1_context* EquifuzzSecp()
{
    static secp256k1_context* const ctx{secp256k1_context_create(SECP256K1_CONTEXT_NONE)};
    return ctx;
}
} // namespace

FastRandomContext::FastRandomContext(bool deterministic) noexcept : requires_seed{!deterministic}, rng{EQUIFUZZ_ZERO_KEY} {}

void FastRandomContext::RandomSeed() noexcept
{
    std::array<std::byte, 32> key{};
    ++g_equifuzz_seeds;
    for (size_t i = 0; i < 8; ++i) key[i] = std::byte(g_equifuzz_seeds >> (8 * i));
    rng.SetKey(key);
    requires_seed = false;
}

void FastRandomContext::fillrand(equifuzz::core_hooks::Span<std::byte> output) noexcept
{
    if (requires_seed) RandomSeed();
    rng.Keystream(output);
}

//! dbwrapper.cpp draws an obfuscation key through it in older trees (and a memory database
//! without obfuscation still links it).
void GetRandBytes(equifuzz::core_hooks::Span<unsigned char> bytes) noexcept
{
    FastRandomContext{}.fillrand(MakeWritableByteSpan(bytes));
}

bool CPubKey::IsFullyValid() const
{
    if (!IsValid()) return false;
    secp256k1_pubkey parsed;
    return secp256k1_ec_pubkey_parse(EquifuzzSecp(), &parsed, data(), size()) == 1;
}

bool CPubKey::Decompress()
{
    if (!IsValid()) return false;
    secp256k1_pubkey parsed;
    if (secp256k1_ec_pubkey_parse(EquifuzzSecp(), &parsed, data(), size()) != 1) return false;
    unsigned char full[SIZE];
    size_t length{sizeof(full)};
    secp256k1_ec_pubkey_serialize(EquifuzzSecp(), full, &length, &parsed, SECP256K1_EC_UNCOMPRESSED);
    Set(full, full + length);
    return true;
}
