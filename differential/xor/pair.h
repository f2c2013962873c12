// Obfuscation XOR pair: decoders (fuzz bytes -> typed input) and the outcome both sides return.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

#include <span>
#include <string>
#include <vector>

namespace equifuzz::xorpair {

//! One buffer obfuscated at a key offset, once in one piece and once as a chunk schedule.
struct ApplyInput {
    Key key{};
    uint64_t key_offset{0};
    size_t align{0};            //!< the data starts at (8-aligned address + align)
    Bytes data;
    std::vector<size_t> chunks; //!< lengths summing to data.size()
};

//! What must come out of every side for an ApplyInput: data[i] ^ key[(key_offset + i) mod 8].
Bytes Definition(const ApplyInput& in);

//! The key's round trip on one side: serialize_key(key), hex_key(key), parse_key(serialize_key(key)).
struct KeyRoundTrip {
    Bytes serialized;
    std::string hex;
    KeyParse reparsed;
    //! Read back without error, and the key it gave is `key`.
    bool GivesBack(const Key& key) const;
    bool operator==(const KeyRoundTrip&) const = default;
};
KeyRoundTrip RunKeyRoundTrip(const Side& side, const Key& key);

//! The hot path for one side: its three applications (one-shot, the same again, chunked) run on
//! a placed buffer as in RunApply and are checked where they lie, against `expected`
//! (Definition(in)) and the input, and its key round trip is compared with `key` (the original
//! side's); no copy of the data is kept. Given that `key` gives the key back, true exactly when
//! RunApply's outcome for the side passes every check xor_apply's full check makes of it.
bool AppliesAsDefined(const Side& side, const ApplyInput& in, std::span<const uint8_t> expected, const KeyRoundTrip& key);

//! Everything a side makes observable for an ApplyInput.
struct ApplyOutcome {
    Bytes oneshot;        //!< data after apply(key, data, key_offset)
    Bytes chunked;        //!< data after apply_chunked with the schedule
    Bytes twice;          //!< oneshot after a second apply at the same offset (must be data)
    KeyRoundTrip key;     //!< the key serialized, as hex, and read back (must give the key back)
    Outcome ToOutcome() const;
    bool operator==(const ApplyOutcome&) const = default;
};

ApplyInput DecodeApply(FuzzedDataProvider& fdp);
Description Describe(const ApplyInput& in);
ApplyOutcome RunApply(const Side& side, const ApplyInput& in);

//! A serialized key handed to the key reader: canonical, non-canonical, truncated or any bytes.
struct KeyInput {
    Bytes serialized;
};

struct KeyOutcome {
    KeyParse parse;
    Bytes reserialized;   //!< serialize_key(parsed key), when 8 bytes were read
    std::string key_hex;  //!< hex_key(parsed key), when 8 bytes were read
    //! The one difference the spec allows: the original keeps a key of any length, the
    //! optimized side refuses anything but 8 bytes.
    bool AcceptedOtherLength() const { return parse.error.empty() && parse.key.size() != KEY_SIZE; }
    Outcome ToOutcome() const;
    bool operator==(const KeyOutcome&) const = default;
};

KeyInput DecodeKey(FuzzedDataProvider& fdp);
Description Describe(const KeyInput& in);
KeyOutcome RunKey(const Side& side, const KeyInput& in);

} // namespace equifuzz::xorpair
