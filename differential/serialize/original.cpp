// Original side: the generic serializer. Streams offer one `write(span)` / `read(span)`; every
// primitive has its own overload and goes through ser_writedata<N>/ser_readdata<N>, so a bool or
// a CompactSize prefix is a one-element span like any other write. GetSerializeSize runs the same
// serializer into a SizeComputer that adds up the lengths written (and, as on master, seeks for a
// CompactSize written to a bare SizeComputer).
#include "side.h"

#include <algorithm>
#include <array>
#include <limits>

namespace equifuzz::serialize {
namespace {

constexpr size_t MAX_VECTOR_ALLOCATE{5'000'000};

class VectorWriter
{
public:
    explicit VectorWriter(Bytes& out) : m_out{out} {}
    void write(std::span<const uint8_t> src) { m_out.insert(m_out.end(), src.begin(), src.end()); }

private:
    Bytes& m_out;
};

class SizeComputer
{
public:
    void write(std::span<const uint8_t> src) { m_size += src.size(); }
    void seek(size_t n) { m_size += n; }
    uint64_t size() const { return m_size; }

private:
    uint64_t m_size{0};
};

class DataStream
{
public:
    explicit DataStream(std::span<const uint8_t> data) : m_data{data} {}
    void read(std::span<uint8_t> dst)
    {
        if (dst.size() > m_data.size() - m_pos) throw StreamError{"DataStream::read(): end of data"};
        std::copy_n(m_data.begin() + static_cast<std::ptrdiff_t>(m_pos), dst.size(), dst.begin());
        m_pos += dst.size();
    }
    size_t pos() const { return m_pos; }

private:
    std::span<const uint8_t> m_data;
    size_t m_pos{0};
};

//! Carries the transaction parameter (allow_witness) down to nested serializers.
template <typename S>
class ParamsStream
{
public:
    ParamsStream(S& s, bool allow_witness) : m_s{s}, allow_witness{allow_witness} {}
    void write(std::span<const uint8_t> src) { m_s.write(src); }
    void read(std::span<uint8_t> dst) { m_s.read(dst); }
    void seek(size_t n) { m_s.seek(n); }

private:
    S& m_s;

public:
    const bool allow_witness;
};

// ---- ser_writedata / ser_readdata: little-endian, one span per primitive ----
template <typename S> void ser_writedata8(S& s, uint8_t v) { s.write(std::span<const uint8_t>{&v, 1}); }
template <typename S> void ser_writedata16(S& s, uint16_t v)
{
    const std::array<uint8_t, 2> b{uint8_t(v), uint8_t(v >> 8)};
    s.write(b);
}
template <typename S> void ser_writedata32(S& s, uint32_t v)
{
    const std::array<uint8_t, 4> b{uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    s.write(b);
}
template <typename S> void ser_writedata64(S& s, uint64_t v)
{
    std::array<uint8_t, 8> b;
    for (size_t i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
    s.write(b);
}
template <typename S> uint8_t ser_readdata8(S& s)
{
    uint8_t v;
    s.read(std::span<uint8_t>{&v, 1});
    return v;
}
template <typename S> uint16_t ser_readdata16(S& s)
{
    std::array<uint8_t, 2> b;
    s.read(b);
    return uint16_t(b[0] | (b[1] << 8));
}
template <typename S> uint32_t ser_readdata32(S& s)
{
    std::array<uint8_t, 4> b;
    s.read(b);
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}
template <typename S> uint64_t ser_readdata64(S& s)
{
    std::array<uint8_t, 8> b;
    s.read(b);
    uint64_t v{0};
    for (size_t i = 0; i < 8; ++i) v |= uint64_t{b[i]} << (8 * i);
    return v;
}

// ---- one overload per primitive type ----
template <typename S> void Serialize(S& s, bool a) { ser_writedata8(s, a ? 1 : 0); }
template <typename S> void Serialize(S& s, uint8_t a) { ser_writedata8(s, a); }
template <typename S> void Serialize(S& s, int8_t a) { ser_writedata8(s, uint8_t(a)); }
template <typename S> void Serialize(S& s, uint16_t a) { ser_writedata16(s, a); }
template <typename S> void Serialize(S& s, int16_t a) { ser_writedata16(s, uint16_t(a)); }
template <typename S> void Serialize(S& s, uint32_t a) { ser_writedata32(s, a); }
template <typename S> void Serialize(S& s, int32_t a) { ser_writedata32(s, uint32_t(a)); }
template <typename S> void Serialize(S& s, uint64_t a) { ser_writedata64(s, a); }
template <typename S> void Serialize(S& s, int64_t a) { ser_writedata64(s, uint64_t(a)); }
template <typename S> void Serialize(S& s, const Hash256& h) { s.write(h); }

template <typename S> void Unserialize(S& s, bool& a) { a = ser_readdata8(s) != 0; }
template <typename S> void Unserialize(S& s, uint8_t& a) { a = ser_readdata8(s); }
template <typename S> void Unserialize(S& s, int8_t& a) { a = int8_t(ser_readdata8(s)); }
template <typename S> void Unserialize(S& s, uint16_t& a) { a = ser_readdata16(s); }
template <typename S> void Unserialize(S& s, int16_t& a) { a = int16_t(ser_readdata16(s)); }
template <typename S> void Unserialize(S& s, uint32_t& a) { a = ser_readdata32(s); }
template <typename S> void Unserialize(S& s, int32_t& a) { a = int32_t(ser_readdata32(s)); }
template <typename S> void Unserialize(S& s, uint64_t& a) { a = ser_readdata64(s); }
template <typename S> void Unserialize(S& s, int64_t& a) { a = int64_t(ser_readdata64(s)); }
template <typename S> void Unserialize(S& s, Hash256& h) { s.read(h); }

// ---- CompactSize ----
constexpr uint64_t MAX_SIZE{0x02000000};

unsigned GetSizeOfCompactSize(uint64_t n)
{
    if (n < 253) return 1;
    if (n <= 0xffff) return 3;
    if (n <= 0xffffffff) return 5;
    return 9;
}

template <typename S>
void WriteCompactSize(S& s, uint64_t n)
{
    if (n < 253) {
        ser_writedata8(s, uint8_t(n));
    } else if (n <= 0xffff) {
        ser_writedata8(s, 253);
        ser_writedata16(s, uint16_t(n));
    } else if (n <= 0xffffffff) {
        ser_writedata8(s, 254);
        ser_writedata32(s, uint32_t(n));
    } else {
        ser_writedata8(s, 255);
        ser_writedata64(s, n);
    }
}

//! Master's non-template overload: chosen only when the stream is exactly a SizeComputer.
void WriteCompactSize(SizeComputer& s, uint64_t n) { s.seek(GetSizeOfCompactSize(n)); }

template <typename S>
uint64_t ReadCompactSize(S& s, bool range_check = true)
{
    const uint8_t prefix{ser_readdata8(s)};
    uint64_t n;
    if (prefix < 253) {
        n = prefix;
    } else if (prefix == 253) {
        n = ser_readdata16(s);
        if (n < 253) throw StreamError{"non-canonical ReadCompactSize()"};
    } else if (prefix == 254) {
        n = ser_readdata32(s);
        if (n < 0x10000u) throw StreamError{"non-canonical ReadCompactSize()"};
    } else {
        n = ser_readdata64(s);
        if (n < 0x100000000ULL) throw StreamError{"non-canonical ReadCompactSize()"};
    }
    if (range_check && n > MAX_SIZE) throw StreamError{"ReadCompactSize(): size too large"};
    return n;
}

// ---- VarInt (MSB base-128, +1 per continuation) ----
template <typename S, typename I>
void WriteVarInt(S& s, I n)
{
    std::array<uint8_t, (sizeof(I) * 8 + 6) / 7> tmp;
    size_t len{0};
    while (true) {
        tmp[len] = uint8_t(n & 0x7f) | (len ? 0x80 : 0x00);
        if (n <= 0x7f) break;
        n = (n >> 7) - 1;
        ++len;
    }
    do {
        ser_writedata8(s, tmp[len]);
    } while (len--);
}

template <typename S, typename I>
I ReadVarInt(S& s)
{
    I n{0};
    while (true) {
        const uint8_t b{ser_readdata8(s)};
        if (n > (std::numeric_limits<I>::max() >> 7)) throw StreamError{"ReadVarInt(): size too large"};
        n = I(n << 7) | (b & 0x7f);
        if (!(b & 0x80)) return n;
        if (n == std::numeric_limits<I>::max()) throw StreamError{"ReadVarInt(): size too large"};
        ++n;
    }
}

template <typename S> void Serialize(S& s, const CompactSize& v) { WriteCompactSize(s, v.n); }
template <typename S> void Serialize(S& s, const CompactSizeUnchecked& v) { WriteCompactSize(s, v.n); }
template <typename S> void Unserialize(S& s, CompactSize& v) { v.n = ReadCompactSize(s); }
template <typename S> void Unserialize(S& s, CompactSizeUnchecked& v) { v.n = ReadCompactSize(s, false); }
template <typename S, typename I> void Serialize(S& s, const VarInt<I>& v) { WriteVarInt(s, v.n); }
template <typename S, typename I> void Unserialize(S& s, VarInt<I>& v) { v.n = ReadVarInt<S, I>(s); }

// ---- containers ----
template <typename S>
void Serialize(S& s, const Bytes& v)
{
    WriteCompactSize(s, v.size());
    if (!v.empty()) s.write(v);
}

#include <serialize/containers.inc>

// ---- transactions and headers: what #31868 changes in this layer (the rest: tx_layer.inc) ----
template <typename S>
void SerializeTransaction(ParamsStream<S>& s, const Transaction& tx)
{
    Serialize(s, tx.version);
    uint8_t flags{0};
    if (s.allow_witness && tx.HasWitness()) flags |= 1;
    if (flags) {
        const std::vector<TxIn> dummy;
        Serialize(s, dummy); // the marker: an empty vin
        Serialize(s, flags);
    }
    Serialize(s, tx.vin);
    Serialize(s, tx.vout);
    if (flags & 1) {
        for (const TxIn& in : tx.vin) Serialize(s, in.witness);
    }
    Serialize(s, tx.lock_time);
}

template <typename S>
void UnserializeTransaction(ParamsStream<S>& s, Transaction& tx)
{
    Unserialize(s, tx.version);
    uint8_t flags{0};
    tx.vin.clear();
    tx.vout.clear();
    Unserialize(s, tx.vin);
    if (tx.vin.empty() && s.allow_witness) {
        Unserialize(s, flags);
        if (flags != 0) {
            Unserialize(s, tx.vin);
            Unserialize(s, tx.vout);
        }
    } else {
        Unserialize(s, tx.vout);
    }
    if ((flags & 1) && s.allow_witness) {
        flags ^= 1;
        for (TxIn& in : tx.vin) Unserialize(s, in.witness);
        if (!tx.HasWitness()) throw StreamError{"Superfluous witness record"};
    }
    if (flags) throw StreamError{"Unknown transaction optional data"};
    Unserialize(s, tx.lock_time);
}

template <typename S> void Serialize(S& s, const BlockHeader& h)
{
    Serialize(s, h.version);
    Serialize(s, h.prev_block);
    Serialize(s, h.merkle_root);
    Serialize(s, h.time);
    Serialize(s, h.bits);
    Serialize(s, h.nonce);
}

// ---- outpoints, inputs, outputs, blocks and the side's functions: the same on both sides ----
#include <serialize/tx_layer.inc>

const Side ORIGINAL{"original", SerializeValue, SizeOfValue, DeserializeValue};

} // namespace
} // namespace equifuzz::serialize

EQUIFUZZ_EXPORT_SIDE(equifuzz::serialize, equifuzz::serialize::ORIGINAL)
