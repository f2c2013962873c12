// A stand-in for the SipHash-1-3-UJ hasher of Bitcoin Core PR #35215, written here from the spec
// (spec section 3b), with the interface the PR merged: SipHasher13UJ(k0, k1), Write(uint64),
// WriteJumbo(uint256), Finalize() and the const Hash(h) / Hash(h, extra) overloads.
//
// No registry tree has #35215. tests/python/test_core_sides.py pastes this class into a copy of
// kernel 0.4.1's crypto/siphash.h (before its closing #endif) to make a "reviewer's checkout" with
// the hasher, so the siphash pair's Core 1-3-UJ entries are built and fuzzed, and a one-line bug in
// it is caught. It is not Core's code and is never compiled into a default build.
#include <uint256.h>

#include <bit>
#include <cstdint>

class SipHasher13UJ
{
    uint64_t m_v[4];

    static void Round(uint64_t (&v)[4]) noexcept
    {
        v[0] += v[1]; v[1] = std::rotl(v[1], 13); v[1] ^= v[0]; v[0] = std::rotl(v[0], 32);
        v[2] += v[3]; v[3] = std::rotl(v[3], 16); v[3] ^= v[2];
        v[0] += v[3]; v[3] = std::rotl(v[3], 21); v[3] ^= v[0];
        v[2] += v[1]; v[1] = std::rotl(v[1], 17); v[1] ^= v[2]; v[2] = std::rotl(v[2], 32);
    }
    static void Normal(uint64_t (&v)[4], uint64_t m) noexcept
    {
        v[3] ^= m;
        Round(v);
        v[0] ^= m;
    }
    static void Jumbo(uint64_t (&v)[4], const uint256& h) noexcept
    {
        const uint64_t d[4]{h.GetUint64(0), h.GetUint64(1), h.GetUint64(2), h.GetUint64(3)};
        v[3] ^= d[0];
        v[0] ^= d[1];
        v[1] ^= d[2];
        v[2] ^= d[3];
        Round(v);
        for (int i = 0; i < 4; ++i) v[i] ^= d[i];
    }
    static uint64_t Final(uint64_t (&v)[4]) noexcept
    {
        v[2] ^= 0x6465646461706e75ULL; // "unpadded", little-endian
        for (int i = 0; i < 3; ++i) Round(v);
        return v[0] ^ v[1] ^ v[2] ^ v[3];
    }

public:
    SipHasher13UJ(uint64_t k0, uint64_t k1) noexcept
        : m_v{0x736f6d6570736575ULL ^ k0, 0x646f72616e646f6dULL ^ k1, 0x6c7967656e657261ULL ^ k0, 0x7465646279746573ULL ^ k1} {}
    SipHasher13UJ& Write(uint64_t data) noexcept { Normal(m_v, data); return *this; }
    SipHasher13UJ& WriteJumbo(const uint256& hash) noexcept { Jumbo(m_v, hash); return *this; }
    uint64_t Finalize() const noexcept
    {
        uint64_t v[4]{m_v[0], m_v[1], m_v[2], m_v[3]};
        return Final(v);
    }
    uint64_t Hash(const uint256& hash) const noexcept
    {
        uint64_t v[4]{m_v[0], m_v[1], m_v[2], m_v[3]};
        Jumbo(v, hash);
        return Final(v);
    }
    uint64_t Hash(const uint256& hash, uint64_t extra) const noexcept
    {
        uint64_t v[4]{m_v[0], m_v[1], m_v[2], m_v[3]};
        Jumbo(v, hash);
        Normal(v, extra);
        return Final(v);
    }
};
