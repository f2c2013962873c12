// Optimized side: PR #31868's specialized serializer. One `if constexpr` Serialize/Unserialize
// for every integral type, dispatching on sizeof; streams gain a single-byte path
// (write_byte/read_byte) used for 8-bit values, bools and the first byte of every CompactSize and
// VarInt; and a stream that wraps a SizeComputer (detected through GetStream(), so through a
// ParamsStream too) skips the byte-level work: integers, hashes, CompactSize and VarInt seek by
// their size.
#include "side.h"

#include <algorithm>
#include <array>
#include <concepts>
#include <limits>
#include <type_traits>

namespace equifuzz::serialize {
namespace {

constexpr size_t MAX_VECTOR_ALLOCATE{5'000'000};
constexpr uint64_t MAX_SIZE{0x02000000};

class VectorWriter
{
public:
    explicit VectorWriter(Bytes& out) : m_out{out} {}
    void write(std::span<const uint8_t> src) { m_out.insert(m_out.end(), src.begin(), src.end()); }
    void write_byte(uint8_t b) { m_out.push_back(b); }

private:
    Bytes& m_out;
};

class SizeComputer
{
public:
    void write(std::span<const uint8_t> src) { m_size += src.size(); }
    void write_byte(uint8_t) { m_size += 1; }
    void seek(size_t n) { m_size += n; }
    uint64_t size() const { return m_size; }
    SizeComputer& GetStream() { return *this; }

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
    uint8_t read_byte()
    {
        if (m_pos >= m_data.size()) throw StreamError{"DataStream::read(): end of data"};
        return m_data[m_pos++];
    }
    size_t pos() const { return m_pos; }

private:
    std::span<const uint8_t> m_data;
    size_t m_pos{0};
};

template <typename S>
class ParamsStream
{
public:
    ParamsStream(S& s, bool allow_witness) : m_s{s}, allow_witness{allow_witness} {}
    void write(std::span<const uint8_t> src) { m_s.write(src); }
    void write_byte(uint8_t b) { m_s.write_byte(b); }
    void read(std::span<uint8_t> dst) { m_s.read(dst); }
    uint8_t read_byte() { return m_s.read_byte(); }
    void seek(size_t n) { m_s.seek(n); }
    auto& GetStream()
        requires requires(S& inner) { inner.GetStream(); }
    {
        return m_s.GetStream();
    }

private:
    S& m_s;

public:
    const bool allow_witness;
};

//! A stream whose innermost stream is a SizeComputer: nothing needs to be produced, only counted.
template <typename S>
concept SizeStream = requires(S& s) {
    { s.GetStream() } -> std::same_as<SizeComputer&>;
};

unsigned GetSizeOfCompactSize(uint64_t n)
{
    if (n < 253) return 1;
    if (n <= 0xffff) return 3;
    if (n <= 0xffffffff) return 5;
    return 9;
}

template <typename I>
unsigned GetSizeOfVarInt(I n)
{
    unsigned len{1};
    while (n > 0x7f) {
        n = (n >> 7) - 1;
        ++len;
    }
    return len;
}

// ---- every integral type through one function pair ----
template <typename T>
concept Integral = std::is_integral_v<T> && !std::is_same_v<T, char>;

template <typename S, Integral T>
void Serialize(S& s, T a)
{
    if constexpr (SizeStream<S>) {
        s.seek(sizeof(T));
    } else if constexpr (std::is_same_v<T, bool>) {
        s.write_byte(a ? 1 : 0);
    } else if constexpr (sizeof(T) == 1) {
        s.write_byte(static_cast<uint8_t>(a));
    } else {
        using U = std::make_unsigned_t<T>;
        const U u{static_cast<U>(a)};
        std::array<uint8_t, sizeof(T)> b;
        for (size_t i = 0; i < sizeof(T); ++i) b[i] = static_cast<uint8_t>(u >> (8 * i));
        s.write(b);
    }
}

template <typename S, Integral T>
void Unserialize(S& s, T& a)
{
    if constexpr (std::is_same_v<T, bool>) {
        a = s.read_byte() != 0;
    } else if constexpr (sizeof(T) == 1) {
        a = static_cast<T>(s.read_byte());
    } else {
        using U = std::make_unsigned_t<T>;
        std::array<uint8_t, sizeof(T)> b;
        s.read(b);
        U u{0};
        for (size_t i = 0; i < sizeof(T); ++i) u |= static_cast<U>(U{b[i]} << (8 * i));
        a = static_cast<T>(u);
    }
}

template <typename S>
void Serialize(S& s, const Hash256& h)
{
    if constexpr (SizeStream<S>) {
        s.seek(h.size());
    } else {
        s.write(h);
    }
}
template <typename S> void Unserialize(S& s, Hash256& h) { s.read(h); }

// ---- CompactSize ----
template <typename S>
void WriteCompactSize(S& s, uint64_t n)
{
    if constexpr (SizeStream<S>) {
        s.seek(GetSizeOfCompactSize(n));
    } else if (n < 253) {
        s.write_byte(static_cast<uint8_t>(n));
    } else if (n <= 0xffff) {
        s.write_byte(253);
        Serialize(s, static_cast<uint16_t>(n));
    } else if (n <= 0xffffffff) {
        s.write_byte(254);
        Serialize(s, static_cast<uint32_t>(n));
    } else {
        s.write_byte(255);
        Serialize(s, n);
    }
}

template <typename S>
uint64_t ReadCompactSize(S& s, bool range_check = true)
{
    const uint8_t prefix{s.read_byte()};
    uint64_t n{prefix};
    if (prefix == 253) {
        uint16_t v;
        Unserialize(s, v);
        n = v;
        if (n < 253) throw StreamError{"non-canonical ReadCompactSize()"};
    } else if (prefix == 254) {
        uint32_t v;
        Unserialize(s, v);
        n = v;
        if (n < 0x10000u) throw StreamError{"non-canonical ReadCompactSize()"};
    } else if (prefix == 255) {
        Unserialize(s, n);
        if (n < 0x100000000ULL) throw StreamError{"non-canonical ReadCompactSize()"};
    }
    if (range_check && n > MAX_SIZE) throw StreamError{"ReadCompactSize(): size too large"};
    return n;
}

// ---- VarInt ----
template <typename S, typename I>
void WriteVarInt(S& s, I n)
{
    if constexpr (SizeStream<S>) {
        s.seek(GetSizeOfVarInt(n));
    } else {
        if (n <= 0x7f) { // one digit: the single-byte path
            s.write_byte(static_cast<uint8_t>(n));
            return;
        }
        constexpr size_t MAX_DIGITS{(sizeof(I) * 8 + 6) / 7};
        std::array<uint8_t, MAX_DIGITS> tmp;
        size_t pos{MAX_DIGITS}; // filled from the end, so the digits come out most significant first
        tmp[--pos] = static_cast<uint8_t>(n & 0x7f);
        while (n > 0x7f) {
            n = (n >> 7) - 1;
            tmp[--pos] = static_cast<uint8_t>((n & 0x7f) | 0x80);
        }
        s.write(std::span<const uint8_t>{tmp}.subspan(pos));
    }
}

template <typename S, typename I>
I ReadVarInt(S& s)
{
    I n{0};
    while (true) {
        const uint8_t b{s.read_byte()};
        if (n > (std::numeric_limits<I>::max() >> 7)) throw StreamError{"ReadVarInt(): size too large"};
        n = static_cast<I>((n << 7) | (b & 0x7f));
        if ((b & 0x80) == 0) return n;
        if (n == std::numeric_limits<I>::max()) throw StreamError{"ReadVarInt(): size too large"};
        n++;
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
    if constexpr (SizeStream<S>) {
        s.seek(v.size());
    } else if (v.size() == 1) {
        s.write_byte(v[0]);
    } else if (!v.empty()) {
        s.write(v);
    }
}

#include <serialize/containers.inc>

// ---- transactions and headers: what #31868 changes in this layer (the rest: tx_layer.inc) ----
template <typename S>
void SerializeTransaction(ParamsStream<S>& s, const Transaction& tx)
{
    Serialize(s, tx.version);
    const bool extended{s.allow_witness && tx.HasWitness()};
    if (extended) {
        const uint8_t marker{0x00}, flag{0x01}; // an empty vin, then the witness flag
        Serialize(s, marker);
        Serialize(s, flag);
    }
    Serialize(s, tx.vin);
    Serialize(s, tx.vout);
    if (extended) {
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
        flags = s.read_byte();
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
    if constexpr (SizeStream<S>) {
        s.seek(80);
    } else {
        Serialize(s, h.version);
        Serialize(s, h.prev_block);
        Serialize(s, h.merkle_root);
        Serialize(s, h.time);
        Serialize(s, h.bits);
        Serialize(s, h.nonce);
    }
}

// ---- outpoints, inputs, outputs, blocks and the side's functions: the same on both sides ----
#include <serialize/tx_layer.inc>

const Side OPTIMIZED{"optimized", SerializeValue, SizeOfValue, DeserializeValue};

} // namespace
} // namespace equifuzz::serialize

EQUIFUZZ_EXPORT_SIDE(equifuzz::serialize, equifuzz::serialize::OPTIMIZED)
