// Optimized side (spec 3b): the keyed initial state is computed once and copied per hash
// (PresaltedSipHasher, #30442); SipHasher13UJ (#35215) has const fixed-width Hash overloads that
// run the outpoint shape (jumbo txid, then the index as one plain block, no length tag) on a copy
// of the current state; the salted outpoint hasher holds one presalted object per family.
// CSipHasher here takes whole words straight from the input when it is at a block boundary.
#include "drive.h"
#include "side.h"

#include <bit>
#include <cstring>

namespace equifuzz::siphash {
namespace {

constexpr uint64_t C0{0x736f6d6570736575}, C1{0x646f72616e646f6d}, C2{0x6c7967656e657261}, C3{0x7465646279746573};

struct Lanes {
    uint64_t v[4];
};

inline void SipRound(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
{
    v0 += v1; v1 = std::rotl(v1, 13); v1 ^= v0; v0 = std::rotl(v0, 32);
    v2 += v3; v3 = std::rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = std::rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = std::rotl(v1, 17); v1 ^= v2; v2 = std::rotl(v2, 32);
}

inline Lanes Keyed(uint64_t k0, uint64_t k1) { return Lanes{{C0 ^ k0, C1 ^ k1, C2 ^ k0, C3 ^ k1}}; }

inline uint64_t LoadLE64(const uint8_t* p)
{
    uint64_t x;
    std::memcpy(&x, p, 8);
    if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
    return x;
}

//! CSipHasher with a word fast path.
class CSipHasher
{
public:
    CSipHasher(uint64_t k0, uint64_t k1) : m_s{Keyed(k0, k1)} {}

    void Write(uint64_t data)
    {
        Compress(data);
        m_count += 8;
    }

    void Write(std::span<const uint8_t> data)
    {
        size_t i{0};
        // Fill a partial block byte by byte.
        while (i < data.size() && (m_count & 7) != 0) PushByte(data[i++]);
        // Whole blocks straight from the input.
        for (; i + 8 <= data.size(); i += 8) {
            Compress(LoadLE64(data.data() + i));
            m_count += 8;
        }
        while (i < data.size()) PushByte(data[i++]);
    }

    uint64_t Finalize() const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        const uint64_t t{m_tmp | (uint64_t{m_count} << 56)};
        v3 ^= t;
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        v0 ^= t;
        v2 ^= 0xff;
        for (int i = 0; i < 4; ++i) SipRound(v0, v1, v2, v3);
        return v0 ^ v1 ^ v2 ^ v3;
    }

private:
    void PushByte(uint8_t b)
    {
        m_tmp |= uint64_t{b} << (8 * (m_count & 7));
        ++m_count;
        if ((m_count & 7) == 0) {
            Compress(m_tmp);
            m_tmp = 0;
        }
    }

    void Compress(uint64_t m)
    {
        m_s.v[3] ^= m;
        SipRound(m_s.v[0], m_s.v[1], m_s.v[2], m_s.v[3]);
        SipRound(m_s.v[0], m_s.v[1], m_s.v[2], m_s.v[3]);
        m_s.v[0] ^= m;
    }

    Lanes m_s;
    uint64_t m_tmp{0};
    uint8_t m_count{0};
};

//! PresaltedSipHasher: the keyed state is cached; each call works on a copy of it.
class PresaltedSipHasher
{
public:
    PresaltedSipHasher(uint64_t k0, uint64_t k1) : m_init{Keyed(k0, k1)} {}

    uint64_t operator()(const Uint256& h) const
    {
        uint64_t v0{m_init.v[0]}, v1{m_init.v[1]}, v2{m_init.v[2]}, v3{m_init.v[3]};
        Body(h, v0, v1, v2, v3);
        return Tail(uint64_t{4} << 59, v0, v1, v2, v3);
    }

    uint64_t operator()(const Uint256& h, uint32_t extra) const
    {
        uint64_t v0{m_init.v[0]}, v1{m_init.v[1]}, v2{m_init.v[2]}, v3{m_init.v[3]};
        Body(h, v0, v1, v2, v3);
        return Tail((uint64_t{36} << 56) | extra, v0, v1, v2, v3);
    }

private:
    static void Body(const Uint256& h, uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
    {
        for (int i = 0; i < 4; ++i) {
            const uint64_t d{LoadLE64(h.data() + 8 * i)};
            v3 ^= d;
            SipRound(v0, v1, v2, v3);
            SipRound(v0, v1, v2, v3);
            v0 ^= d;
        }
    }

    static uint64_t Tail(uint64_t last, uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
    {
        v3 ^= last;
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        v0 ^= last;
        v2 ^= 0xff;
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        return v0 ^ v1 ^ v2 ^ v3;
    }

    const Lanes m_init;
};

//! SipHasher13UJ with the const fixed-width Hash overloads.
class SipHasher13UJ
{
public:
    SipHasher13UJ(uint64_t k0, uint64_t k1) : m_s{Keyed(k0, k1)} {}

    SipHasher13UJ& Write(uint64_t m)
    {
        Normal(m, m_s.v[0], m_s.v[1], m_s.v[2], m_s.v[3]);
        return *this;
    }

    SipHasher13UJ& WriteJumbo(const Uint256& h)
    {
        Jumbo(h, m_s.v[0], m_s.v[1], m_s.v[2], m_s.v[3]);
        return *this;
    }

    uint64_t Finalize() const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        return Final(v0, v1, v2, v3);
    }

    //! Outpoint shape: jumbo(h), then uint64(n) as a plain normal block. Five rounds in all.
    uint64_t Hash(const Uint256& h, uint32_t n) const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        Jumbo(h, v0, v1, v2, v3);
        const uint64_t m{n};
        v3 ^= m;
        SipRound(v0, v1, v2, v3);
        v0 ^= m;
        return Final(v0, v1, v2, v3);
    }

    uint64_t Hash(const Uint256& h) const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        Jumbo(h, v0, v1, v2, v3);
        return Final(v0, v1, v2, v3);
    }

    //! h's four words as normal blocks (plain unpadded SipHash-1-3), then `extra` as a fifth.
    uint64_t HashNormal(const Uint256& h) const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        for (size_t i = 0; i < 4; ++i) Normal(LoadLE64(h.data() + 8 * i), v0, v1, v2, v3);
        return Final(v0, v1, v2, v3);
    }

    uint64_t HashNormal(const Uint256& h, uint64_t extra) const
    {
        uint64_t v0{m_s.v[0]}, v1{m_s.v[1]}, v2{m_s.v[2]}, v3{m_s.v[3]};
        for (size_t i = 0; i < 4; ++i) Normal(LoadLE64(h.data() + 8 * i), v0, v1, v2, v3);
        Normal(extra, v0, v1, v2, v3);
        return Final(v0, v1, v2, v3);
    }

private:
    static void Normal(uint64_t m, uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
    {
        v3 ^= m;
        SipRound(v0, v1, v2, v3);
        v0 ^= m;
    }

    static void Jumbo(const Uint256& h, uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
    {
        const uint64_t d0{LoadLE64(h.data())}, d1{LoadLE64(h.data() + 8)}, d2{LoadLE64(h.data() + 16)}, d3{LoadLE64(h.data() + 24)};
        v3 ^= d0;
        v0 ^= d1;
        v1 ^= d2;
        v2 ^= d3;
        SipRound(v0, v1, v2, v3);
        v0 ^= d0;
        v1 ^= d1;
        v2 ^= d2;
        v3 ^= d3;
    }

    static uint64_t Final(uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
    {
        v2 ^= UJ_FINAL;
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        SipRound(v0, v1, v2, v3);
        return v0 ^ v1 ^ v2 ^ v3;
    }

    Lanes m_s;
};

//! The hash tables' outpoint hasher: one salt, switchable between the two families.
class SaltedOutpointHasher
{
public:
    SaltedOutpointHasher(Family family, const Key& salt) : m_family{family}, m_sip24{salt.k0, salt.k1}, m_uj{salt.k0, salt.k1} {}

    uint64_t operator()(const Uint256& h, uint32_t n) const { return m_family == Family::SIP24 ? m_sip24(h, n) : m_uj.Hash(h, n); }

private:
    const Family m_family;
    const PresaltedSipHasher m_sip24;
    const SipHasher13UJ m_uj;
};

uint64_t Sip24Uint256(const Key& key, const Uint256& h) { return PresaltedSipHasher{key.k0, key.k1}(h); }

uint64_t Sip24Uint256Extra(const Key& key, const Uint256& h, uint32_t n) { return PresaltedSipHasher{key.k0, key.k1}(h, n); }

std::vector<uint64_t> UJStream(const Key& key, std::span<const UJOp> ops)
{
    return UJStreamOf<SipHasher13UJ>(
        key, ops, [](const SipHasher13UJ& h, const Uint256& jumbo, uint32_t n) { return h.Hash(jumbo, n); },
        [](const SipHasher13UJ& h, const Uint256& jumbo) { return h.Hash(jumbo); });
}

uint64_t UJOutpoint(const Key& key, const Uint256& h, uint32_t n) { return SipHasher13UJ{key.k0, key.k1}.Hash(h, n); }

uint64_t OutpointHasher(Family family, const Key& salt, const Uint256& h, uint32_t n)
{
    return SaltedOutpointHasher{family, salt}(h, n);
}

std::array<uint64_t, 2> UJNormal(const Key& key, const Uint256& h, uint64_t extra)
{
    const SipHasher13UJ hasher{key.k0, key.k1};
    return {hasher.HashNormal(h), hasher.HashNormal(h, extra)};
}

const Side OPTIMIZED{"PresaltedSipHasher + SipHasher13UJ fixed-width Hash",
                     Sip24StreamOf<CSipHasher>, Sip24BytesOf<CSipHasher>, Sip24Uint256, Sip24Uint256Extra, UJStream, UJOutpoint, OutpointHasher,
                     /*make_outpoint_hasher=*/nullptr, UJNormal};

} // namespace
} // namespace equifuzz::siphash

EQUIFUZZ_EXPORT_SIDE(equifuzz::siphash, equifuzz::siphash::OPTIMIZED)
