// The siphash pair's list of sides, its decoders (fuzz bytes to a SipHash-2-4 input and a
// SipHash-1-3-UJ input), the streams an input stands for, their descriptions, and the few byte
// conversions the pair shares (LE64, Uint256FromWords, ToBytes, Hex64).
#include "pair.h"

#include <string>

EQUIFUZZ_DEFINE_SIDES(equifuzz::siphash)

namespace equifuzz::siphash {

uint64_t LE64(const uint8_t* p)
{
    uint64_t x{0};
    for (unsigned i = 0; i < 8; ++i) x |= uint64_t{p[i]} << (8 * i);
    return x;
}

Uint256 Uint256FromWords(uint64_t d0, uint64_t d1, uint64_t d2, uint64_t d3)
{
    Uint256 h{};
    const uint64_t d[4]{d0, d1, d2, d3};
    for (unsigned w = 0; w < 4; ++w) {
        for (unsigned i = 0; i < 8; ++i) h[8 * w + i] = static_cast<uint8_t>(d[w] >> (8 * i));
    }
    return h;
}

Bytes ToBytes(const Uint256& h) { return Bytes(h.begin(), h.end()); }

std::string Hex64(uint64_t x)
{
    static const char* digits{"0123456789abcdef"};
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, x >>= 4) s[static_cast<size_t>(i)] = digits[x & 15];
    return s;
}

namespace {

Key ConsumeKey(FuzzedDataProvider& fdp)
{
    return CallOneOf(
        fdp, [] { return Key{0, 0}; }, [] { return Key{~uint64_t{0}, ~uint64_t{0}}; },
        [] { return Key{0x0706050403020100, 0x0f0e0d0c0b0a0908}; }, // the reference vectors' key
        [] { return COINS_CACHE_DETERMINISTIC_SALT; },
        [&] {
            Key k;
            k.k0 = fdp.ConsumeIntegral<uint64_t>();
            k.k1 = fdp.ConsumeIntegral<uint64_t>();
            return k;
        });
}

uint64_t ConsumeWord(FuzzedDataProvider& fdp)
{
    return CallOneOf(
        fdp, [] { return uint64_t{0}; }, [&] { return uint64_t{1} << fdp.ConsumeIntegralInRange<unsigned>(0, 63); },
        [] { return ~uint64_t{0}; }, [&] { return fdp.ConsumeIntegral<uint64_t>(); });
}

Uint256 ConsumeUint256(FuzzedDataProvider& fdp)
{
    return CallOneOf(
        fdp, [] { return Uint256{}; },
        [&] { // one limb set: the near-identical txids of the adversarial cases
            uint64_t d[4]{};
            d[fdp.ConsumeIntegralInRange<unsigned>(0, 3)] = ConsumeWord(fdp);
            return Uint256FromWords(d[0], d[1], d[2], d[3]);
        },
        [&] {
            // Drawn in order, limb 0 first: a function's arguments have no evaluation order, and
            // gcc and clang would read the same input differently.
            uint64_t d[4];
            for (uint64_t& w : d) w = ConsumeWord(fdp);
            return Uint256FromWords(d[0], d[1], d[2], d[3]);
        },
        [&] {
            const Bytes b{ConsumeBytesPadded(fdp, 32)};
            Uint256 h{};
            std::copy(b.begin(), b.end(), h.begin());
            return h;
        });
}

uint32_t ConsumeIndex(FuzzedDataProvider& fdp)
{
    // Small indexes are what real outpoints use; the top bit catches sign extension.
    return CallOneOf(
        fdp, [&] { return fdp.ConsumeIntegralInRange<uint32_t>(0, 16); },
        [&] { return 0x80000000u | fdp.ConsumeIntegral<uint32_t>(); }, [&] { return fdp.ConsumeIntegral<uint32_t>(); });
}

} // namespace

// ---- SipHash-2-4 -------------------------------------------------------------------------------

Sip24Input DecodeSip24(FuzzedDataProvider& fdp)
{
    Sip24Input in;
    in.key = ConsumeKey(fdp);
    in.h = ConsumeUint256(fdp);
    in.n = ConsumeIndex(fdp);
    in.words = fdp.ConsumeBool();
    in.chunks = ConsumeChunks(fdp, 36, 10);

    // An arbitrary stream: byte runs of any length, words only where the stream is at a block
    // boundary (Write(uint64) asserts that), and finalizes anywhere (they must not disturb it).
    const size_t count{fdp.ConsumeIntegralInRange<size_t>(0, 16)};
    in.ops.reserve(count);
    size_t written{0};
    for (size_t i = 0; i < count && fdp.remaining_bytes() > 0; ++i) {
        Sip24Op op;
        const unsigned kind{fdp.ConsumeIntegralInRange<unsigned>(0, 3)};
        if (kind == 0) {
            op.kind = Sip24Op::FINALIZE;
        } else if (kind == 1 && written % 8 == 0) {
            op.kind = Sip24Op::WORD;
            op.word = ConsumeWord(fdp);
            written += 8;
        } else {
            op.kind = Sip24Op::BYTES;
            op.bytes = ConsumeBytesPadded(fdp, ConsumeLengthNearMultiple(fdp, 8, 80));
            written += op.bytes.size();
        }
        in.ops.push_back(std::move(op));
    }
    return in;
}

std::vector<Sip24Op> OutpointStream(const Sip24Input& in)
{
    Bytes all{ToBytes(in.h)};
    for (unsigned i = 0; i < 4; ++i) all.push_back(static_cast<uint8_t>(in.n >> (8 * i)));
    std::vector<Sip24Op> ops;
    ops.reserve(in.chunks.size() + 2); // a chunk split at byte 32, and the FINALIZE
    size_t pos{0};
    const auto emit = [&](size_t len) {
        if (len == 8 && pos % 8 == 0 && in.words) {
            ops.push_back({Sip24Op::WORD, {}, LE64(all.data() + pos)});
        } else if (len > 0) {
            ops.push_back({Sip24Op::BYTES, Bytes(all.begin() + pos, all.begin() + pos + len), 0});
        }
        pos += len;
    };
    bool finalized{false};
    for (const size_t c : in.chunks) {
        size_t left{c};
        while (left > 0) {
            // Split a chunk at byte 32 so the FINALIZE lands exactly after h.
            const size_t piece{pos < 32 && pos + left > 32 ? 32 - pos : left};
            emit(piece);
            left -= piece;
            if (pos == 32 && !finalized) {
                ops.push_back({Sip24Op::FINALIZE, {}, 0});
                finalized = true;
            }
        }
    }
    return ops;
}

Bytes StreamBytes(std::span<const Sip24Op> ops)
{
    size_t total{0};
    for (const Sip24Op& op : ops) total += op.kind == Sip24Op::BYTES ? op.bytes.size() : op.kind == Sip24Op::WORD ? 8 : 0;
    Bytes out;
    out.reserve(total); // one allocation, of exactly the stream's size
    for (const Sip24Op& op : ops) {
        if (op.kind == Sip24Op::BYTES) out.insert(out.end(), op.bytes.begin(), op.bytes.end());
        if (op.kind == Sip24Op::WORD) {
            for (unsigned i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(op.word >> (8 * i)));
        }
    }
    return out;
}

Description Describe(const Sip24Input& in)
{
    Description d;
    d.Add("k0", Hex64(in.key.k0)).Add("k1", Hex64(in.key.k1)).Add("h_internal", ToBytes(in.h)).Add("n", uint64_t{in.n});
    std::string chunks;
    for (const size_t c : in.chunks) chunks += (chunks.empty() ? "" : ",") + std::to_string(c);
    d.Add("chunks_of_36", chunks).Add("aligned_words_as_uint64", in.words);
    std::string ops;
    for (const Sip24Op& op : in.ops) {
        if (!ops.empty()) ops += " ";
        if (op.kind == Sip24Op::FINALIZE) ops += "F";
        if (op.kind == Sip24Op::WORD) ops += "W:" + Hex64(op.word);
        if (op.kind == Sip24Op::BYTES) ops += "B" + std::to_string(op.bytes.size());
    }
    d.Add("stream_ops", ops).Add("stream_bytes", StreamBytes(in.ops));
    return d;
}

// ---- SipHash-1-3-UJ ----------------------------------------------------------------------------

UJInput DecodeUJ(FuzzedDataProvider& fdp)
{
    UJInput in;
    in.key = ConsumeKey(fdp);
    in.h = ConsumeUint256(fdp);
    in.n = ConsumeIndex(fdp);
    in.normal_as_jumbo = fdp.ConsumeIntegral<uint64_t>();
    const size_t count{fdp.ConsumeIntegralInRange<size_t>(0, 14)};
    in.ops.reserve(count);
    for (size_t i = 0; i < count && fdp.remaining_bytes() > 0; ++i) {
        UJOp op;
        // One action per kind: the count of choices is the count of lambdas.
        CallOneOf(
            fdp, [&] { op.kind = UJOp::NORMAL, op.word = ConsumeWord(fdp); }, [&] { op.kind = UJOp::JUMBO, op.jumbo = ConsumeUint256(fdp); },
            [&] { op.kind = UJOp::FINALIZE; },
            [&] { op.kind = UJOp::HASH_OUTPOINT, op.jumbo = ConsumeUint256(fdp), op.n = ConsumeIndex(fdp); },
            [&] { op.kind = UJOp::HASH_JUMBO, op.jumbo = ConsumeUint256(fdp); });
        in.ops.push_back(op);
    }
    return in;
}

std::vector<UJOp> NormalsAsJumbo(std::span<const UJOp> ops, uint64_t mask)
{
    std::vector<UJOp> out(ops.begin(), ops.end());
    unsigned i{0};
    for (UJOp& op : out) {
        if (op.kind != UJOp::NORMAL) continue;
        if (i < 64 && ((mask >> i) & 1)) {
            op.kind = UJOp::JUMBO;
            op.jumbo = Uint256FromWords(op.word, 0, 0, 0);
        }
        ++i;
    }
    return out;
}

Description Describe(const UJInput& in)
{
    Description d;
    d.Add("k0", Hex64(in.key.k0)).Add("k1", Hex64(in.key.k1)).Add("h_internal", ToBytes(in.h)).Add("n", uint64_t{in.n});
    std::string ops;
    for (const UJOp& op : in.ops) {
        if (!ops.empty()) ops += " ";
        switch (op.kind) {
        case UJOp::NORMAL: ops += "N:" + Hex64(op.word); break;
        case UJOp::JUMBO: ops += "J:" + Hex(std::span<const uint8_t>{op.jumbo}); break;
        case UJOp::FINALIZE: ops += "F"; break;
        case UJOp::HASH_OUTPOINT: ops += "H(" + Hex(std::span<const uint8_t>{op.jumbo}) + "," + std::to_string(op.n) + ")"; break;
        case UJOp::HASH_JUMBO: ops += "H(" + Hex(std::span<const uint8_t>{op.jumbo}) + ")"; break;
        }
    }
    d.Add("stream_ops", ops).Add("normal_as_jumbo_mask", in.normal_as_jumbo);
    return d;
}

} // namespace equifuzz::siphash
