// The operation-program interpreter, one template for every container: each side runs it on its
// prevector<N, T>, model.cpp runs it on std::vector<T> as the oracle. Parameters are reduced
// against the current sizes by Resolve(), which the capacity model (model.cpp) shares, so every
// run and the model see the same positions, counts and skips.
#pragma once

#include "side.h"

#include <common/compact_size.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace equifuzz::prevec {

//! An op's parameters made concrete for the current sizes of a and b.
struct Resolved {
    bool skip{false};
    uint32_t pos{0}, first{0}, last{0}, n{0};
};

inline Resolved Resolve(const Op& op, uint32_t sa, uint32_t sb)
{
    Resolved r;
    const auto fits = [&](uint64_t total) { r.skip = r.skip || total > MAX_ELEMENTS; };
    switch (op.kind) {
    case OpKind::PushBack: fits(uint64_t{sa} + 1); break;
    case OpKind::PopBack: r.skip = sa == 0; break;
    case OpKind::InsertOne: r.pos = op.x % (sa + 1); fits(uint64_t{sa} + 1); break;
    case OpKind::InsertSelfElement:
        r.skip = sa == 0;
        r.pos = op.x % (sa + 1);
        r.first = sa == 0 ? 0 : op.y % sa;
        fits(uint64_t{sa} + 1);
        break;
    case OpKind::InsertCount: r.pos = op.x % (sa + 1); r.n = op.y % 48; fits(uint64_t{sa} + r.n); break;
    case OpKind::InsertRange: r.pos = op.x % (sa + 1); r.n = static_cast<uint32_t>(op.values.size()); fits(uint64_t{sa} + r.n); break;
    case OpKind::InsertSelfRange:
        r.pos = op.x % (sa + 1);
        r.first = op.y % (sa + 1);
        r.last = r.first + op.z % (sa - r.first + 1);
        r.n = r.last - r.first;
        fits(uint64_t{sa} + r.n);
        break;
    case OpKind::EraseOne: r.skip = sa == 0; r.pos = sa == 0 ? 0 : op.x % sa; break;
    case OpKind::EraseRange:
        r.first = op.x % (sa + 1);
        r.last = r.first + op.y % (sa - r.first + 1);
        break;
    case OpKind::Resize:
    case OpKind::ResizeUninit:
    case OpKind::AssignCount:
    case OpKind::ConstructCount: r.n = op.x % (MAX_ELEMENTS + 1); break;
    case OpKind::Reserve: r.n = op.x % (2 * MAX_ELEMENTS); break;
    case OpKind::AssignRange:
    case OpKind::ConstructRange: r.n = static_cast<uint32_t>(op.values.size()); fits(r.n); break;
    case OpKind::SetElement: r.skip = sa == 0; r.pos = sa == 0 ? 0 : op.x % sa; break;
    default: break;
    }
    (void)sb;
    return r;
}

template <typename T>
T MakeValue(uint64_t seed)
{
    if constexpr (std::is_same_v<T, Wide>) {
        return Wide{seed, seed * 0x9e3779b97f4a7c15ULL ^ 0x5555};
    } else {
        return static_cast<T>(seed);
    }
}

//! Writes the low `width` bytes of `v` at `at`, least significant first; returns the end.
//! Small enough to be inlined, and then instrumented as its caller is (not at all inside
//! AppendElements).
inline uint8_t* PutLE(uint8_t* at, uint64_t v, int width)
{
    for (int i = 0; i < width; ++i) *at++ = static_cast<uint8_t>(v >> (8 * i));
    return at;
}

//! An element's serialized size: Wide is its two words, little-endian; a byte is itself.
template <typename T>
constexpr size_t ELEMENT_BYTES{std::is_same_v<T, Wide> ? 16 : 1};

//! Appends the elements' bytes of `v`.
template <typename Vec>
EQUIFUZZ_NO_COVERAGE void AppendElements(Bytes& out, const Vec& v)
{
    using T = typename Vec::value_type;
    const size_t at{out.size()};
    out.resize(at + v.size() * ELEMENT_BYTES<T>);
    uint8_t* p{out.data() + at};
    for (const auto& e : v) {
        if constexpr (std::is_same_v<T, Wide>) {
            p = PutLE(PutLE(p, e.lo, 8), e.hi, 8);
        } else {
            *p++ = static_cast<uint8_t>(e);
        }
    }
}

//! Serialize(v): CompactSize element count, then the elements' bytes.
template <typename Vec>
EQUIFUZZ_NO_COVERAGE Bytes SerializeElements(const Vec& v)
{
    Bytes out;
    out.reserve(9 + v.size() * ELEMENT_BYTES<typename Vec::value_type>);
    AppendCompactSize(out, v.size());
    AppendElements(out, v);
    return out;
}

//! Writes the `n` elements serialized in `bytes` from `pos` on into v[0], ..., v[n - 1]: the
//! stream's per-element reads, harness code (its loop would only feed the fuzzer comparisons).
template <typename Vec>
EQUIFUZZ_NO_COVERAGE void ReadElementsInto(Vec& v, const Bytes& bytes, size_t pos, uint64_t n)
{
    using T = typename Vec::value_type;
    auto out{v.begin()}; // the container's begin(), which every target exercises
    for (uint64_t i = 0; i < n; ++i, ++out) {
        T e{};
        if constexpr (std::is_same_v<T, Wide>) {
            for (int k = 0; k < 8; ++k) e.lo |= uint64_t{bytes[pos++]} << (8 * k);
            for (int k = 0; k < 8; ++k) e.hi |= uint64_t{bytes[pos++]} << (8 * k);
        } else {
            e = static_cast<T>(bytes[pos++]);
        }
        *out = e;
    }
}

//! Unserialize into `v` the way a stream fills a prevector: one resize_uninitialized to the
//! count (so capacity is exact), then the elements written in place. `bytes` is well formed.
template <typename Vec, bool IsPrevector>
void UnserializeElements(Vec& v, const Bytes& bytes)
{
    size_t pos{0};
    uint64_t n{bytes[pos++]};
    if (n >= 253) {
        const int width{n == 253 ? 2 : n == 254 ? 4 : 8};
        n = 0;
        for (int i = 0; i < width; ++i) n |= uint64_t{bytes[pos++]} << (8 * i);
    }
    if constexpr (IsPrevector) {
        v.resize_uninitialized(static_cast<typename Vec::size_type>(n));
    } else {
        v.resize(n);
    }
    ReadElementsInto(v, bytes, pos, n);
}

//! FNV-1a over the elements' bytes, and the element count: TraceDigest::Fnv1a.
template <typename Vec>
EQUIFUZZ_NO_COVERAGE uint64_t FnvDigest(const Vec& v)
{
    uint64_t h{0xcbf29ce484222325ULL};
    for (const auto& e : v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(e)>, Wide>) {
            for (int i = 0; i < 8; ++i) h = (h ^ static_cast<uint8_t>(e.lo >> (8 * i))) * 0x100000001b3ULL;
            for (int i = 0; i < 8; ++i) h = (h ^ static_cast<uint8_t>(e.hi >> (8 * i))) * 0x100000001b3ULL;
        } else {
            h = (h ^ static_cast<uint8_t>(e)) * 0x100000001b3ULL;
        }
    }
    return h ^ v.size();
}

//! TraceDigest::Fast: the elements' bytes as they lie from &*begin() (both containers keep them
//! contiguous, Wide has no padding), eight at a time. Each step, (h ^ word) * odd, rotated, is a
//! bijection of h, so two contents of one length that differ in a single word never collide;
//! the length is in the start value. It reads size() elements from begin(); FNV-1a walks
//! begin()..end(), and SelfCheck ties end() to size() when the program ends.
template <typename Vec>
EQUIFUZZ_NO_COVERAGE uint64_t FastDigest(const Vec& v)
{
    using T = typename Vec::value_type;
    static_assert(std::has_unique_object_representations_v<T>, "every byte of an element is its value");
    const size_t len{v.size() * sizeof(T)};
    uint64_t h{0x243f6a8885a308d3ULL ^ len};
    if (len == 0) return h;
    const auto* p{reinterpret_cast<const uint8_t*>(&*v.begin())};
    const auto mix = [&](uint64_t word) { h = std::rotl((h ^ word) * 0x9e3779b97f4a7c15ULL, 31); };
    size_t i{0};
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        mix(word);
    }
    if (i < len) {
        uint64_t word{0};
        std::memcpy(&word, p + i, len - i);
        mix(word);
    }
    return h;
}

template <typename Vec>
EQUIFUZZ_NO_COVERAGE uint64_t TraceDigestOf(const Vec& v, TraceDigest digest)
{
    return digest == TraceDigest::Fast ? FastDigest(v) : FnvDigest(v);
}

template <typename Vec>
EQUIFUZZ_NO_COVERAGE Bytes ElementBytes(const Vec& v)
{
    Bytes b;
    AppendElements(b, v);
    return b;
}

//! Inline or on the heap, from public API only (Core keeps is_direct() private): a prevector
//! allocates nothing while its elements are inline.
template <typename Vec>
bool IsInline(const Vec& v)
{
    return v.allocated_memory() == 0;
}

//! Pointer identities and iteration orders that must hold in any state.
template <typename Vec>
std::string SelfCheck(Vec& v)
{
    using T = typename Vec::value_type;
    const Vec& cv{v};
    const size_t n{v.size()};
    if (v.empty() != (n == 0)) return "empty() disagrees with size()";
    if (static_cast<size_t>(v.end() - v.begin()) != n) return "end() - begin() != size()";
    for (size_t i = 0; i < n; ++i) {
        T* p{&v[i]};
        if (p != &*(v.begin() + i) || p != v.data() + i || p != &*(v.end() - (n - i)) || &cv[i] != p) return "element address mismatch";
    }
    if (n > 0 && (&v.front() != v.data() || &v.back() != v.data() + n - 1)) return "front()/back() address mismatch";
    std::vector<T> forward(cv.begin(), cv.end());
    // Backwards by decrementing iterators (Core's prevector has no reverse iterators): the walk
    // from end() meets every element of the forward walk, last first, and stops at begin().
    const auto walks_back = [&](auto begin, auto end) {
        size_t i{n};
        while (end != begin) {
            if (i == 0 || !(*--end == forward[--i])) return false;
        }
        return i == 0;
    };
    if (!walks_back(v.begin(), v.end())) return "reverse iteration differs";
    if (!walks_back(cv.begin(), cv.end())) return "const reverse iteration differs";
    // A container built from its own range, and from an std::vector copy, equals it.
    const Vec self_copy(v.begin(), v.end());
    const Vec from_vector(forward.begin(), forward.end());
    if (!(self_copy == v) || !(from_vector == v)) return "range construction differs";
    return {};
}

template <typename T>
bool SizeFirstLess(const std::vector<T>& x, const std::vector<T>& y)
{
    if (x.size() != y.size()) return x.size() < y.size();
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
}

//! Runs `program` on Vec (a prevector<N, T> when IsPrevector, else std::vector<T>).
//! copy_aliased: the container does not take an argument that refers into itself, so the
//! program copies the element or range first, as the container's callers must. Our prevector.h
//! takes both; std::vector takes an element (the standard requires it) but not a range of its
//! own (the oracle always copies that); Bitcoin Core's prevector takes neither (found by its
//! Core sides: insert(pos, a[i]) reads the reference after reallocating, a use-after-free).
template <typename Vec, bool IsPrevector>
OpsResult RunProgram(const OpProgram& program, TraceDigest digest, bool copy_aliased = false)
{
    using T = typename Vec::value_type;
    using SizeT = typename Vec::size_type;
    OpsResult out;
    Vec a;
    Vec b;
    // 29 bytes a step (below), written in place: one allocation.
    out.trace.resize(program.size() * 29);
    uint8_t* at{out.trace.data()};
    const auto put = [&](uint64_t v, int width) { at = PutLE(at, v, width); };
    if constexpr (IsPrevector) out.storage.reserve(program.size());
    for (const Op& op : program) {
        const Resolved r{Resolve(op, static_cast<uint32_t>(a.size()), static_cast<uint32_t>(b.size()))};
        uint32_t ret{NO_POSITION};
        const T v{MakeValue<T>(op.value)};
        std::vector<T> values;
        for (const uint64_t s : op.values) values.push_back(MakeValue<T>(s));
        if (r.skip) {
            ret = SKIPPED;
        } else {
            switch (op.kind) {
            case OpKind::PushBack: a.push_back(v); break;
            case OpKind::PopBack: a.pop_back(); break;
            case OpKind::InsertOne: {
                // The returned position is read after the call: insert may reallocate.
                const auto it{a.insert(a.begin() + r.pos, v)};
                ret = static_cast<uint32_t>(it - a.begin());
                break;
            }
            case OpKind::InsertSelfElement: {
                const auto it{copy_aliased ? a.insert(a.begin() + r.pos, T{a[r.first]}) : a.insert(a.begin() + r.pos, a[r.first])};
                ret = static_cast<uint32_t>(it - a.begin());
                break;
            }
            case OpKind::InsertCount: a.insert(a.begin() + r.pos, static_cast<SizeT>(r.n), v); break;
            case OpKind::InsertRange: a.insert(a.begin() + r.pos, values.begin(), values.end()); break;
            case OpKind::InsertSelfRange:
                if (IsPrevector && !copy_aliased) {
                    a.insert(a.begin() + r.pos, a.begin() + r.first, a.begin() + r.last);
                } else {
                    // std::vector leaves an own range undefined: the oracle copies it first,
                    // which is the behaviour our prevector.h defines. Bitcoin Core's prevector
                    // does not define it either (it moves the tail before reading the range).
                    const std::vector<T> copy(a.begin() + r.first, a.begin() + r.last);
                    a.insert(a.begin() + r.pos, copy.begin(), copy.end());
                }
                break;
            case OpKind::EraseOne: {
                const auto it{a.erase(a.begin() + r.pos)};
                ret = static_cast<uint32_t>(it - a.begin());
                break;
            }
            case OpKind::EraseRange: {
                const auto it{a.erase(a.begin() + r.first, a.begin() + r.last)};
                ret = static_cast<uint32_t>(it - a.begin());
                break;
            }
            case OpKind::Resize: a.resize(r.n); break;
            case OpKind::ResizeUninit: {
                const size_t old{a.size()};
                if constexpr (IsPrevector) {
                    a.resize_uninitialized(r.n);
                } else {
                    a.resize(r.n);
                }
                for (size_t i = old; i < r.n; ++i) a[i] = MakeValue<T>(op.value + i);
                break;
            }
            case OpKind::Reserve: a.reserve(r.n); break;
            case OpKind::ShrinkToFit: a.shrink_to_fit(); break;
            case OpKind::AssignCount: a.assign(static_cast<SizeT>(r.n), v); break;
            case OpKind::AssignRange: a.assign(values.begin(), values.end()); break;
            case OpKind::Clear: a.clear(); break;
            case OpKind::Swap: a.swap(b); break;
            case OpKind::CopyAssignBA: a = b; break;
            case OpKind::CopyAssignAB: b = a; break;
            case OpKind::SelfCopyAssign: {
                const Vec& self{a};
                a = self;
                break;
            }
            case OpKind::CopyConstruct: {
                Vec c(b);
                a = std::move(c);
                break;
            }
            case OpKind::MoveAssignBA:
                a = std::move(b);
                if constexpr (!IsPrevector) b.clear(); // std::vector leaves it unspecified
                break;
            case OpKind::MoveConstruct: {
                Vec c(std::move(b));
                b = std::move(a);
                a = std::move(c);
                break;
            }
            case OpKind::ConstructCount: b = Vec(static_cast<SizeT>(r.n), v); break;
            case OpKind::ConstructRange: b = Vec(values.begin(), values.end()); break;
            case OpKind::SetElement:
                switch (op.y % 3) {
                case 0: a[r.pos] = v; break;
                case 1: a.front() = v; break;
                default: a.back() = v; break;
                }
                break;
            case OpKind::Relations: {
                ret = (a == b ? 1u : 0u) | (a != b ? 2u : 0u);
                out.less.push_back(a < b);
                out.less.push_back(b < a);
                if constexpr (!IsPrevector) {
                    out.size_first_less.push_back(SizeFirstLess(a, b));
                    out.size_first_less.push_back(SizeFirstLess(b, a));
                }
                break;
            }
            case OpKind::Reserialize: {
                Vec c;
                UnserializeElements<Vec, IsPrevector>(c, SerializeElements(a));
                b = std::move(c);
                break;
            }
            }
        }
        put(static_cast<uint8_t>(op.kind), 1);
        put(a.size(), 4);
        put(b.size(), 4);
        put(ret, 4);
        put(TraceDigestOf(a, digest), 8);
        put(TraceDigestOf(b, digest), 8);
        if constexpr (IsPrevector) {
            out.storage.push_back({static_cast<uint32_t>(a.capacity()), static_cast<uint32_t>(b.capacity()), IsInline(a), IsInline(b),
                                   a.allocated_memory(), b.allocated_memory()});
        }
    }
    assert(at == out.trace.data() + out.trace.size());
    out.inconsistency = SelfCheck(a);
    if (out.inconsistency.empty()) out.inconsistency = SelfCheck(b);
    out.final_a = ElementBytes(a);
    out.final_b = ElementBytes(b);
    out.serialized_a = SerializeElements(a);
    return out;
}

} // namespace equifuzz::prevec
