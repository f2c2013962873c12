// prevector pair: the interface every side offers (spec section 1).
//
// The sides are two instantiations of one container (prevector.h): the original is CScriptBase
// before #32279, prevector<28, uint8_t>; the optimized is prevector<36, uint8_t> after it. A side
// runs an *operation program* (a decoded op sequence, the same for every side) on its container
// and reports a trace; it also builds standard scripts on a CScript-like type over its prevector.
// std::vector is the oracle for contents (pair.h). What may differ between the sides (capacity,
// inline or heap, allocated memory, sizeof) is reported too and checked against a model of the
// capacity rules for each side's own N.
#pragma once

#include <equifuzz/choices/prevector.h>
#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace equifuzz::prevec {

//! Every operation a program can apply. `a` is the primary container, `b` the alternate one
//! (for swap, copies and moves).
//! OpKind, declared in choices.json (the decoder's list, the report's words); each value:
//!   PushBack           a.push_back(v)
//!   PopBack            a.pop_back() (only when non-empty)
//!   InsertOne          a.insert(pos, v): returns the position
//!   InsertSelfElement  a.insert(pos, a[i]): the value is an element of a itself
//!   InsertCount        a.insert(pos, count, v) (count may be 0)
//!   InsertRange        a.insert(pos, values...)
//!   InsertSelfRange    a.insert(pos, a.begin()+first, a.begin()+last): defined, copies first
//!   EraseOne           a.erase(pos): returns the position
//!   EraseRange         a.erase(first, last) (may be empty): returns the position
//!   Resize             a.resize(n)
//!   ResizeUninit       a.resize_uninitialized(n), then the new elements are written
//!   Reserve            a.reserve(n)
//!   ShrinkToFit        a.shrink_to_fit() (std::vector: no-op for the oracle)
//!   AssignCount        a.assign(n, v)
//!   AssignRange        a.assign(values...)
//!   Clear              a.clear()
//!   Swap               a.swap(b)
//!   CopyAssignBA       a = b
//!   CopyAssignAB       b = a
//!   SelfCopyAssign     a = a (must do nothing)
//!   CopyConstruct      a = move(Vec(b)): the copy constructor's capacity, then a move
//!   MoveAssignBA       a = move(b): b is left empty (and inline)
//!   MoveConstruct      Vec c(move(b)); b = move(a); a = move(c)
//!   ConstructCount     b = Vec(n, v)
//!   ConstructRange     b = Vec(values...)
//!   SetElement         a[pos] = v, a.front() = v or a.back() = v
//!   Relations          a == b, a != b, a < b, b < a
//!   Reserialize        b = Unserialize(Serialize(a)) (CompactSize count + element bytes)

struct Op {
    OpKind kind{OpKind::PushBack};
    uint32_t x{0}, y{0}, z{0};    //!< raw parameters, reduced against the current sizes (Resolve)
    std::vector<uint64_t> values; //!< element seeds for range operations
    uint64_t value{0};            //!< the element seed for single-value operations
};
using OpProgram = std::vector<Op>;

//! Largest size a program may reach; an operation that would exceed it is skipped by every side.
inline constexpr uint32_t MAX_ELEMENTS{520};
//! What the trace records as the return position of an op that returns none, or was skipped.
inline constexpr uint32_t NO_POSITION{0xffffffff};
inline constexpr uint32_t SKIPPED{0xfffffffe};

//! The storage of both containers after one op (prevector sides only).
struct StorageState {
    uint32_t capacity_a{0}, capacity_b{0};
    bool direct_a{true}, direct_b{true};
    uint64_t memory_a{0}, memory_b{0}; //!< allocated_memory()
    bool operator==(const StorageState&) const = default;
};

//! What running an OpProgram made observable.
struct OpsResult {
    //! Per op: kind, size of a, size of b, returned position, 64-bit digests of a's and b's
    //! elements (29 bytes a step; the digest as TraceDigest says). Must be identical for every
    //! side, the oracle included.
    Bytes trace;
    //! Per Relations op: a == b, a != b (part of `trace` too) and the container's own a < b, b < a.
    std::vector<uint8_t> less;
    //! The oracle only: a < b and b < a under the size-first rule, from its data.
    std::vector<uint8_t> size_first_less;
    std::vector<StorageState> storage; //!< per op (empty for the oracle)
    Bytes final_a, final_b;            //!< element bytes at the end
    Bytes serialized_a;                //!< CompactSize count + element bytes of a at the end
    std::string inconsistency;         //!< first failed self-check (pointers, iteration), or empty
    //! What every side must agree on (compared with AgreedPart), and its report.
    auto Agreed() const { return std::tie(trace, final_a, final_b, serialized_a, inconsistency); }
    Outcome ToOutcome() const;
};

//! The standard output script types (spec 1b table), plus raw bytes and free-form pushes.
//! ScriptKind, declared in choices.json (the decoder's list, the report's words); each value:
//!   P2A
//!   P2WPKH
//!   P2SH
//!   P2PKH
//!   P2WSH
//!   P2TR
//!   P2PKCompressed
//!   P2PKUncompressed
//!   OpReturn           OP_RETURN and one push of `length` bytes (direct push, PUSHDATA1/2)
//!   WitnessCommitment  OP_RETURN <36: aa21a9ed || 32>
//!   Multisig1of1
//!   Multisig1of2
//!   Multisig2of3
//!   Raw                `length` bytes range-constructed (the 36/37 boundary)
//!   Pushes             pushes of the lengths in `pushes`, each data taken from `data`


struct ScriptInput {
    ScriptKind kind{ScriptKind::P2PKH};
    uint32_t length{0};           //!< OpReturn payload / Raw length
    std::vector<uint32_t> pushes; //!< Pushes: lengths
    Bytes data;                   //!< key, hash and payload material (long enough for any kind)
};

//! A script built by a side, and what its storage looked like.
struct ScriptFacts {
    Bytes bytes;      //!< the script as begin()..end()
    Bytes serialized; //!< CompactSize + bytes
    bool is_p2sh{false}, is_p2wsh{false}, is_unspendable{false}, is_push_only{false};
    int witness_version{-1}; //!< -1 when not a witness program
    Bytes witness_program;
    // Storage, allowed to differ between the sides and checked against their own N:
    uint32_t built_capacity{0}; //!< after building with pushes (growth rule)
    bool built_direct{true};
    uint64_t built_memory{0};
    uint32_t range_capacity{0}; //!< range-constructed from the bytes (exact)
    bool range_direct{true};
    uint32_t copy_capacity{0};  //!< copy of the built script (exact from size)
    bool copy_direct{true};
    uint32_t read_capacity{0};  //!< unserialized from `serialized` (resize_uninitialized)
    bool read_direct{true};
    bool read_equal{false};     //!< the unserialized script == the built one
    uint64_t dynamic_usage{0};  //!< MallocUsage(allocated_memory()) of the built script
    //! The part every side must agree on (compared with AgreedPart), and its report.
    auto Agreed() const
    {
        return std::tie(bytes, serialized, is_p2sh, is_p2wsh, is_unspendable, is_push_only, witness_version, witness_program, read_equal);
    }
    Outcome ToOutcome() const;
};

//! A wider trivially copyable element: 16 bytes, no padding.
struct Wide {
    uint64_t lo{0}, hi{0};
    bool operator==(const Wide&) const = default;
    bool operator<(const Wide& o) const { return lo != o.lo ? lo < o.lo : hi < o.hi; }
};

//! How a run fingerprints the contents of a and b after every op in its trace. Fast: a word-wise
//! mix of the element bytes, on every input. Fnv1a: FNV-1a byte by byte, the digests a report
//! shows (the recorded reports carry them); a difference seen with Fast is run again with Fnv1a
//! before it is reported (pair.h: CompareWithOracle).
enum class TraceDigest : uint8_t { Fast, Fnv1a };

struct Side {
    const char* name;
    unsigned inline_size;          //!< N
    size_t sizeof_bytes_container; //!< sizeof(prevector<N, uint8_t>)
    OpsResult (*run_ops)(const OpProgram& program, TraceDigest digest);      //!< T = uint8_t
    OpsResult (*run_ops_wide)(const OpProgram& program, TraceDigest digest); //!< T = Wide
    ScriptFacts (*build_script)(const ScriptInput& in);
};

//! Our prevector<28> and prevector<36>, then Bitcoin Core's CScriptBase from the trees before
//! and after #32279, when built.
EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::prevec
