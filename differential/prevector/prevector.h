// prevector<N, T, Size, Diff>: a vector that keeps up to N elements inside the object and moves
// to one malloc'd block beyond that, written from spec section 1a (the observable API and the
// exact capacity rules of Bitcoin Core's prevector). Both sides of the pair instantiate this one
// template: the original with N = 28 (CScriptBase before #32279), the optimized with N = 36.
//
// Layout: a size word and a union that is either the inline array or {heap pointer, heap
// capacity}. The size word encodes the mode: inline while it is <= N, on the heap it holds
// size + N + 1 (so an empty heap vector reads N + 1). Heap storage only ever comes from
// malloc/realloc and goes back through free, so AddressSanitizer tracks every heap access.
//
// Defined here, unlike Core: an element or a range taken from the vector itself may be inserted
// (the value or range is copied before anything moves). is_direct() is public so tests can see
// the mode; Core keeps it private and it shows only through capacity() and allocated_memory().
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <type_traits>

namespace equifuzz::prevec {

template <unsigned int N, typename T, typename Size = uint32_t, typename Diff = int32_t>
class prevector
{
    static_assert(std::is_trivially_copyable_v<T>, "elements are moved with memcpy/memmove/realloc");
    static_assert(N > 0);

public:
    using size_type = Size;
    using difference_type = Diff;
    using value_type = T;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    prevector() = default;
    explicit prevector(size_type n) { resize(n); }
    prevector(size_type n, const T& value)
    {
        const T v{value};
        change_capacity(n);
        m_size += n;
        std::fill_n(item(0), n, v);
    }
    template <typename InputIt>
    prevector(InputIt first, InputIt last)
    {
        const size_type n{static_cast<size_type>(std::distance(first, last))};
        change_capacity(n);
        m_size += n;
        std::copy(first, last, item(0));
    }
    //! The copy is sized from the source's *size*: a heap vector holding <= N elements copies inline.
    prevector(const prevector& other) : prevector(other.begin(), other.end()) {}
    //! Takes the source's storage as it is; the source is left empty and inline.
    prevector(prevector&& other) noexcept : m_union(other.m_union), m_size(other.m_size) { other.m_size = 0; }
    ~prevector()
    {
        if (!is_direct()) std::free(heap_ptr());
    }

    //! Keeps this vector's capacity when it is large enough (it is assign(begin, end)).
    prevector& operator=(const prevector& other)
    {
        if (&other == this) return *this;
        assign(other.begin(), other.end());
        return *this;
    }
    prevector& operator=(prevector&& other) noexcept
    {
        if (!is_direct()) std::free(heap_ptr());
        m_union = other.m_union;
        m_size = other.m_size;
        other.m_size = 0;
        return *this;
    }

    //! Whether the elements live inside the object (test observation; private in Core).
    bool is_direct() const { return m_size <= N; }
    size_type size() const { return is_direct() ? m_size : m_size - N - 1; }
    bool empty() const { return size() == 0; }
    size_type capacity() const { return is_direct() ? N : heap_capacity(); }
    //! Heap bytes owned: 0 while inline, sizeof(T) * capacity on the heap.
    size_t allocated_memory() const { return is_direct() ? 0 : sizeof(T) * heap_capacity(); }

    iterator begin() { return item(0); }
    const_iterator begin() const { return item(0); }
    iterator end() { return item(size()); }
    const_iterator end() const { return item(size()); }
    reverse_iterator rbegin() { return reverse_iterator{end()}; }
    const_reverse_iterator rbegin() const { return const_reverse_iterator{end()}; }
    reverse_iterator rend() { return reverse_iterator{begin()}; }
    const_reverse_iterator rend() const { return const_reverse_iterator{begin()}; }

    T& operator[](size_type i) { return *item(i); }
    const T& operator[](size_type i) const { return *item(i); }
    T& front() { return *item(0); }
    const T& front() const { return *item(0); }
    T& back() { return *item(size() - 1); }
    const T& back() const { return *item(size() - 1); }
    T* data() { return item(0); }
    const T* data() const { return item(0); }

    //! Growing is exact and value-initializes; shrinking erases the tail (capacity unchanged).
    void resize(size_type new_size)
    {
        const size_type cur{size()};
        if (cur == new_size) return;
        if (cur > new_size) {
            erase(item(new_size), end());
            return;
        }
        if (new_size > capacity()) change_capacity(new_size);
        const size_type added{static_cast<size_type>(new_size - cur)};
        m_size += added;
        std::fill_n(item(cur), added, T{});
    }

    //! Like resize, but new elements are left for the caller to write.
    void resize_uninitialized(size_type new_size)
    {
        const size_type cur{size()};
        if (capacity() < new_size) {
            change_capacity(new_size);
            m_size += new_size - cur;
            return;
        }
        if (new_size < cur) {
            erase(item(new_size), end());
        } else {
            m_size += new_size - cur;
        }
    }

    void reserve(size_type n)
    {
        if (n > capacity()) change_capacity(n);
    }

    void shrink_to_fit() { change_capacity(size()); }

    //! Capacity and heap block stay.
    void clear() { resize(0); }

    void assign(size_type n, const T& value)
    {
        const T v{value};
        clear();
        if (capacity() < n) change_capacity(n);
        m_size += n;
        std::fill_n(item(0), n, v);
    }

    template <typename InputIt>
    void assign(InputIt first, InputIt last)
    {
        const size_type n{static_cast<size_type>(std::distance(first, last))};
        clear();
        if (capacity() < n) change_capacity(n);
        m_size += n;
        // memmove-like copy: the source may be this vector's own (untouched) storage.
        if constexpr (std::is_pointer_v<InputIt>) {
            if (n > 0) std::memmove(item(0), &*first, n * sizeof(T));
        } else {
            std::copy(first, last, item(0));
        }
    }

    //! Returns the position of the inserted element.
    iterator insert(iterator pos, const T& value)
    {
        const T v{value}; // may be an element of this vector: copy before anything moves
        const size_type p{static_cast<size_type>(pos - begin())};
        const size_type new_size{static_cast<size_type>(size() + 1)};
        grow_for(new_size);
        T* at{item(p)};
        std::memmove(at + 1, at, (size() - p) * sizeof(T));
        m_size += 1;
        *at = v;
        return at;
    }

    void insert(iterator pos, size_type count, const T& value)
    {
        const T v{value};
        const size_type p{static_cast<size_type>(pos - begin())};
        const size_type new_size{static_cast<size_type>(size() + count)};
        grow_for(new_size);
        T* at{item(p)};
        std::memmove(at + count, at, (size() - p) * sizeof(T));
        m_size += count;
        std::fill_n(at, count, v);
    }

    template <typename InputIt>
    void insert(iterator pos, InputIt first, InputIt last)
    {
        if constexpr (std::is_convertible_v<InputIt, const T*>) {
            const T* f{first};
            if (first != last && std::less_equal<const T*>{}(begin(), f) && std::less<const T*>{}(f, end())) {
                // A range of this vector: growing or shifting would move it under us, so copy it out.
                const size_t n{static_cast<size_t>(last - first)};
                T* copy{static_cast<T*>(std::malloc(n * sizeof(T)))};
                assert(copy != nullptr);
                std::memcpy(copy, f, n * sizeof(T));
                insert(pos, copy, copy + n);
                std::free(copy);
                return;
            }
        }
        const size_type p{static_cast<size_type>(pos - begin())};
        const size_type count{static_cast<size_type>(std::distance(first, last))};
        const size_type new_size{static_cast<size_type>(size() + count)};
        grow_for(new_size);
        T* at{item(p)};
        std::memmove(at + count, at, (size() - p) * sizeof(T));
        m_size += count;
        std::copy(first, last, at);
    }

    //! Shifts the tail down; capacity never changes. Returns `first`.
    iterator erase(iterator first, iterator last)
    {
        T* const tail_end{end()};
        const size_type removed{static_cast<size_type>(last - first)};
        std::memmove(first, last, static_cast<size_t>(tail_end - last) * sizeof(T));
        m_size -= removed;
        return first;
    }
    iterator erase(iterator pos) { return erase(pos, pos + 1); }

    void push_back(const T& value) { emplace_back(value); }
    template <typename... Args>
    void emplace_back(Args&&... args)
    {
        const T v(std::forward<Args>(args)...);
        const size_type new_size{static_cast<size_type>(size() + 1)};
        grow_for(new_size);
        *item(size()) = v;
        m_size += 1;
    }
    void pop_back() { erase(end() - 1, end()); }

    //! Bitwise: the storages, and so capacities and modes, trade places.
    void swap(prevector& other) noexcept
    {
        std::swap(m_union, other.m_union);
        std::swap(m_size, other.m_size);
    }

    bool operator==(const prevector& other) const
    {
        return size() == other.size() && std::equal(begin(), end(), other.begin());
    }
    bool operator!=(const prevector& other) const { return !(*this == other); }
    //! Size first: a shorter vector is less; equal sizes compare element by element.
    bool operator<(const prevector& other) const
    {
        if (size() != other.size()) return size() < other.size();
        return std::lexicographical_compare(begin(), end(), other.begin(), other.end());
    }

private:
    //! push/insert growth: 1.5 times the size needed, computed from the new size.
    void grow_for(size_type new_size)
    {
        if (capacity() < new_size) change_capacity(static_cast<size_type>(new_size + (new_size >> 1)));
    }

    //! Moves the storage to fit exactly `new_capacity` (inline when it fits in N).
    void change_capacity(size_type new_capacity)
    {
        if (new_capacity <= N) {
            if (!is_direct()) {
                T* heap{heap_ptr()};
                const size_type n{size()};
                std::memcpy(m_union.direct, heap, n * sizeof(T));
                std::free(heap);
                m_size = n;
            }
            return;
        }
        if (!is_direct()) {
            void* grown{std::realloc(heap_ptr(), sizeof(T) * size_t{new_capacity})};
            assert(grown != nullptr);
            m_union.heap.ptr = static_cast<char*>(grown);
            m_union.heap.capacity = new_capacity;
            return;
        }
        void* block{std::malloc(sizeof(T) * size_t{new_capacity})};
        assert(block != nullptr);
        std::memcpy(block, m_union.direct, m_size * sizeof(T));
        m_union.heap.ptr = static_cast<char*>(block);
        m_union.heap.capacity = new_capacity;
        m_size += N + 1;
    }

    T* item(size_type i) { return (is_direct() ? reinterpret_cast<T*>(m_union.direct) : heap_ptr()) + i; }
    const T* item(size_type i) const
    {
        return (is_direct() ? reinterpret_cast<const T*>(m_union.direct) : reinterpret_cast<const T*>(m_union.heap.ptr)) + i;
    }
    T* heap_ptr() const { return reinterpret_cast<T*>(m_union.heap.ptr); }
    size_type heap_capacity() const { return m_union.heap.capacity; }

#pragma pack(push, 1)
    // Packed so {pointer, capacity} takes 12 bytes on 64-bit and the inline array sets the size.
    union Storage {
        char direct[sizeof(T) * N];
        struct {
            char* ptr;
            size_type capacity;
        } heap;
    };
#pragma pack(pop)
    // Pointer-aligned so the inline array starts at the object's start; the size word follows.
    alignas(char*) Storage m_union{};
    size_type m_size{0};
};

} // namespace equifuzz::prevec
