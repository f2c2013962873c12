// The jumboblock sketch: SipHash-1-3-UJ written again from its definition with its parameters
// (rounds, the labels of the jumbo block's words, the finalizer, the index tag) open, so the
// siphash_uj target can tell which parameter a side departs from.
#include "pair.h"

#include <bit>

namespace equifuzz::siphash {
namespace {

// The sketch's own round: written from the SipHash round definition (spec 3a).
void SketchRound(uint64_t (&v)[4])
{
    v[0] += v[1]; v[1] = std::rotl(v[1], 13) ^ v[0]; v[0] = std::rotl(v[0], 32);
    v[2] += v[3]; v[3] = std::rotl(v[3], 16) ^ v[2];
    v[0] += v[3]; v[3] = std::rotl(v[3], 21) ^ v[0];
    v[2] += v[1]; v[1] = std::rotl(v[1], 17) ^ v[2]; v[2] = std::rotl(v[2], 32);
}

struct Sketch {
    const SketchParams& p;
    uint64_t v[4];

    Sketch(const SketchParams& params, const Key& key)
        : p{params}, v{0x736f6d6570736575 ^ key.k0, 0x646f72616e646f6d ^ key.k1, 0x6c7967656e657261 ^ key.k0, 0x7465646279746573 ^ key.k1} {}

    void Normal(uint64_t m)
    {
        v[3] ^= m;
        for (unsigned r = 0; r < p.block_rounds; ++r) SketchRound(v);
        v[0] ^= m;
    }

    void Jumbo(const Uint256& h)
    {
        uint64_t d[4], m[4];
        for (unsigned i = 0; i < 4; ++i) d[i] = LE64(h.data() + 8 * i);
        for (unsigned i = 0; i < 4; ++i) m[i] = d[p.label[i] & 3];
        // "xor m0..m3 into v0..v3; round; xor m3, m0, m1, m2"
        for (unsigned i = 0; i < 4; ++i) v[i] ^= m[i];
        for (unsigned r = 0; r < p.block_rounds; ++r) SketchRound(v);
        v[0] ^= m[3];
        v[1] ^= m[0];
        v[2] ^= m[1];
        v[3] ^= m[2];
    }

    uint64_t Index(uint32_t n) const { return p.tag_index ? (uint64_t{36} << 56) | n : uint64_t{n}; }

    uint64_t Final() const
    {
        uint64_t w[4]{v[0], v[1], v[2], v[3]};
        w[2] ^= p.finalizer;
        for (unsigned r = 0; r < p.final_rounds; ++r) SketchRound(w);
        return w[0] ^ w[1] ^ w[2] ^ w[3];
    }
};

} // namespace

std::vector<uint64_t> SketchStream(const SketchParams& p, const Key& key, std::span<const UJOp> ops)
{
    std::vector<uint64_t> out;
    out.reserve(ops.size() + 1); // at most one output per op, and the last: one allocation
    Sketch s{p, key};
    for (const UJOp& op : ops) {
        switch (op.kind) {
        case UJOp::NORMAL: s.Normal(op.word); break;
        case UJOp::JUMBO: s.Jumbo(op.jumbo); break;
        case UJOp::FINALIZE: out.push_back(s.Final()); break;
        case UJOp::HASH_OUTPOINT: {
            Sketch c{s};
            c.Jumbo(op.jumbo);
            c.Normal(c.Index(op.n));
            out.push_back(c.Final());
            break;
        }
        case UJOp::HASH_JUMBO: {
            Sketch c{s};
            c.Jumbo(op.jumbo);
            out.push_back(c.Final());
            break;
        }
        }
    }
    out.push_back(s.Final());
    return out;
}

uint64_t SketchOutpoint(const SketchParams& p, const Key& key, const Uint256& h, uint32_t n)
{
    Sketch s{p, key};
    s.Jumbo(h);
    s.Normal(s.Index(n));
    return s.Final();
}

} // namespace equifuzz::siphash
