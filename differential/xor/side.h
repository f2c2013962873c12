// Obfuscation XOR pair: the interface every side offers (spec section 2).
//
// The original is Bitcoin Core's util::Xor before #31144: byte by byte with a key vector and a
// running index. The optimized side is the Obfuscation class after #31144: the key as one 64-bit
// word, eight precomputed rotations, an alignment peel, 64-byte and 8-byte blocks, a tail, and a
// zero-key short-circuit. Both must produce data[i] ^ key[(offset + i) mod 8] for every input.
#pragma once

#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace equifuzz::xorpair {

inline constexpr size_t KEY_SIZE{8};
//! The key as stored: 8 bytes in serialized (memory) order.
using Key = std::array<std::byte, KEY_SIZE>;

//! Result of reading a serialized key (CompactSize length + bytes).
struct KeyParse {
    std::string error;  //!< empty on success, else the exact exception message
    Bytes key;          //!< the key bytes read (any length the side accepts)
    size_t consumed{0}; //!< bytes consumed from the input on success
    bool operator==(const KeyParse&) const = default;
};

//! What a side must offer. All functions are pure: no state survives a call.
struct Side {
    const char* name;
    //! XOR `data` in place: data[i] ^= key[(key_offset + i) mod 8].
    void (*apply)(const Key& key, std::span<std::byte> data, uint64_t key_offset);
    //! The stream's view: `data` handed over as consecutive chunks (lengths sum to data.size()),
    //! each obfuscated at the running position key_offset + bytes before it.
    void (*apply_chunked)(const Key& key, std::span<std::byte> data, uint64_t key_offset, std::span<const size_t> chunks);
    //! The key's serialized form (a byte vector: CompactSize 8, then the key).
    Bytes (*serialize_key)(const Key& key);
    //! Reads a serialized key.
    KeyParse (*parse_key)(std::span<const uint8_t> serialized);
    //! The key as lowercase hex in stored order (HexKey()).
    std::string (*hex_key)(const Key& key);
    //! True for the pre-#31144 code, which keeps a serialized key of any length; false for a
    //! side that refuses anything but 8 bytes with KEY_SIZE_ERROR (the one allowed difference).
    bool keeps_any_key_length{false};
};

EQUIFUZZ_DECLARE_SIDES();

//! The exact message the optimized side throws for a key that is not 8 bytes long.
inline constexpr const char* KEY_SIZE_ERROR{"Obfuscation key size should be exactly 8 bytes long"};

} // namespace equifuzz::xorpair
