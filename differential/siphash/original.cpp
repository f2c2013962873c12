// Original side (spec 3a): SipHash as it was before #30442 and #35215. Every hash starts from the
// key: CSipHasher buffers bytes into 8-byte blocks and appends the length byte at Finalize; the
// free functions SipHashUint256 / SipHashUint256Extra are the specialized, unrolled forms for a
// uint256 (and a uint256 plus a 32-bit word). SipHash-1-3-UJ appears here only as the plain
// streaming hasher (Write / WriteJumbo / Finalize); its fixed-width outpoint hash is computed by
// streaming, which is the definition the optimized side's narrow routine must match.
#include "drive.h"
#include "side.h"

#include <bit>

namespace equifuzz::siphash {
namespace {

constexpr uint64_t C0{0x736f6d6570736575}, C1{0x646f72616e646f6d}, C2{0x6c7967656e657261}, C3{0x7465646279746573};

struct State {
    uint64_t v0, v1, v2, v3;
    State(uint64_t k0, uint64_t k1) : v0{C0 ^ k0}, v1{C1 ^ k1}, v2{C2 ^ k0}, v3{C3 ^ k1} {}

    void Round()
    {
        v0 += v1; v1 = std::rotl(v1, 13); v1 ^= v0; v0 = std::rotl(v0, 32);
        v2 += v3; v3 = std::rotl(v3, 16); v3 ^= v2;
        v0 += v3; v3 = std::rotl(v3, 21); v3 ^= v0;
        v2 += v1; v1 = std::rotl(v1, 17); v1 ^= v2; v2 = std::rotl(v2, 32);
    }
    uint64_t Out() const { return v0 ^ v1 ^ v2 ^ v3; }
};

uint64_t ReadLE64(const uint8_t* p)
{
    uint64_t x{0};
    for (int i = 7; i >= 0; --i) x = (x << 8) | p[i];
    return x;
}

//! CSipHasher: SipHash-2-4 over a byte stream.
class CSipHasher
{
public:
    CSipHasher(uint64_t k0, uint64_t k1) : m_v{k0, k1} {}

    void Write(uint64_t data)
    {
        // Only at an 8-byte boundary; it counts as 8 bytes.
        m_v.v3 ^= data;
        m_v.Round();
        m_v.Round();
        m_v.v0 ^= data;
        m_count += 8;
    }

    void Write(std::span<const uint8_t> data)
    {
        uint64_t t{m_tmp};
        uint8_t c{m_count};
        for (const uint8_t b : data) {
            t |= uint64_t{b} << (8 * (c % 8));
            ++c;
            if ((c & 7) == 0) {
                m_v.v3 ^= t;
                m_v.Round();
                m_v.Round();
                m_v.v0 ^= t;
                t = 0;
            }
        }
        m_count = c;
        m_tmp = t;
    }

    uint64_t Finalize() const
    {
        State v{m_v};
        const uint64_t t{m_tmp | (uint64_t{m_count} << 56)};
        v.v3 ^= t;
        v.Round();
        v.Round();
        v.v0 ^= t;
        v.v2 ^= 0xff;
        for (int i = 0; i < 4; ++i) v.Round();
        return v.Out();
    }

private:
    State m_v;
    uint64_t m_tmp{0};
    uint8_t m_count{0}; //!< only the length mod 256 is ever used
};

//! SipHashUint256: four words, then the final block 32 << 56.
uint64_t SipHashUint256(uint64_t k0, uint64_t k1, const Uint256& h)
{
    State v{k0, k1};
    for (int i = 0; i < 4; ++i) {
        const uint64_t d{ReadLE64(h.data() + 8 * i)};
        v.v3 ^= d;
        v.Round();
        v.Round();
        v.v0 ^= d;
    }
    const uint64_t last{uint64_t{32} << 56};
    v.v3 ^= last;
    v.Round();
    v.Round();
    v.v0 ^= last;
    v.v2 ^= 0xff;
    v.Round();
    v.Round();
    v.Round();
    v.Round();
    return v.Out();
}

//! SipHashUint256Extra: four words, then the final block (36 << 56) | extra.
uint64_t SipHashUint256Extra(uint64_t k0, uint64_t k1, const Uint256& h, uint32_t extra)
{
    State v{k0, k1};
    for (int i = 0; i < 4; ++i) {
        const uint64_t d{ReadLE64(h.data() + 8 * i)};
        v.v3 ^= d;
        v.Round();
        v.Round();
        v.v0 ^= d;
    }
    const uint64_t last{(uint64_t{36} << 56) | extra};
    v.v3 ^= last;
    v.Round();
    v.Round();
    v.v0 ^= last;
    v.v2 ^= 0xff;
    v.Round();
    v.Round();
    v.Round();
    v.Round();
    return v.Out();
}

//! SipHasher13UJ, streaming only.
class SipHasher13UJ
{
public:
    SipHasher13UJ(uint64_t k0, uint64_t k1) : m_v{k0, k1} {}

    SipHasher13UJ& Write(uint64_t m)
    {
        m_v.v3 ^= m;
        m_v.Round();
        m_v.v0 ^= m;
        return *this;
    }

    SipHasher13UJ& WriteJumbo(const Uint256& h)
    {
        const uint64_t d0{ReadLE64(h.data())}, d1{ReadLE64(h.data() + 8)}, d2{ReadLE64(h.data() + 16)}, d3{ReadLE64(h.data() + 24)};
        m_v.v3 ^= d0;
        m_v.v0 ^= d1;
        m_v.v1 ^= d2;
        m_v.v2 ^= d3;
        m_v.Round();
        m_v.v0 ^= d0;
        m_v.v1 ^= d1;
        m_v.v2 ^= d2;
        m_v.v3 ^= d3;
        return *this;
    }

    uint64_t Finalize() const
    {
        State v{m_v};
        v.v2 ^= UJ_FINAL;
        v.Round();
        v.Round();
        v.Round();
        return v.Out();
    }

private:
    State m_v;
};

uint64_t Sip24Uint256(const Key& key, const Uint256& h) { return SipHashUint256(key.k0, key.k1, h); }

uint64_t Sip24Uint256Extra(const Key& key, const Uint256& h, uint32_t n) { return SipHashUint256Extra(key.k0, key.k1, h, n); }

std::vector<uint64_t> UJStream(const Key& key, std::span<const UJOp> ops)
{
    // The outpoint and jumbo shapes by definition: the same blocks streamed into a copy.
    return UJStreamOf<SipHasher13UJ>(
        key, ops, [](const SipHasher13UJ& h, const Uint256& jumbo, uint32_t n) { return SipHasher13UJ{h}.WriteJumbo(jumbo).Write(uint64_t{n}).Finalize(); },
        [](const SipHasher13UJ& h, const Uint256& jumbo) { return SipHasher13UJ{h}.WriteJumbo(jumbo).Finalize(); });
}

uint64_t UJOutpoint(const Key& key, const Uint256& h, uint32_t n)
{
    return SipHasher13UJ{key.k0, key.k1}.WriteJumbo(h).Write(uint64_t{n}).Finalize();
}

uint64_t OutpointHasher(Family family, const Key& salt, const Uint256& h, uint32_t n)
{
    return family == Family::SIP24 ? SipHashUint256Extra(salt.k0, salt.k1, h, n) : UJOutpoint(salt, h, n);
}

std::array<uint64_t, 2> UJNormal(const Key& key, const Uint256& h, uint64_t extra)
{
    // By definition: h's four little-endian words streamed as normal blocks, then `extra`.
    SipHasher13UJ hasher{key.k0, key.k1};
    for (size_t i = 0; i < 4; ++i) hasher.Write(ReadLE64(h.data() + 8 * i));
    return {hasher.Finalize(), SipHasher13UJ{hasher}.Write(extra).Finalize()};
}

const Side ORIGINAL{"CSipHasher + SipHashUint256[Extra] + streaming SipHasher13UJ",
                    Sip24StreamOf<CSipHasher>, Sip24BytesOf<CSipHasher>, Sip24Uint256, Sip24Uint256Extra, UJStream, UJOutpoint, OutpointHasher,
                    /*make_outpoint_hasher=*/nullptr, UJNormal};

} // namespace
} // namespace equifuzz::siphash

EQUIFUZZ_EXPORT_SIDE(equifuzz::siphash, equifuzz::siphash::ORIGINAL)
