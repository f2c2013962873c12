// The utxo_flush pair's own pieces shared by its source files (not the pair's interface, pair.h):
// what the decoder (decode.cpp) and its mirror, the encoder (encode.cpp), both build.
#pragma once

#include "side.h"

#include <cstddef>
#include <cstdint>

namespace equifuzz::utxo_flush {

// The ranges DecodeScenario reads and EncodeScenario writes, declared once.
//! A coin's height is read in [0, MAX_HEIGHT], its amount in [0, MAX_AMOUNT] (MAX_MONEY).
inline constexpr uint32_t MAX_HEIGHT{0x7fffffff};
inline constexpr int64_t MAX_AMOUNT{2'100'000'000'000'000};
//! A raw script's longest length.
inline constexpr size_t MAX_RAW_SCRIPT{80};
//! A block's operations: at most MAX_BLOCK_OPS; an outpoint's txid a byte in [1, TXIDS] repeated,
//! its index mostly in [0, MAX_SMALL_N] (else any).
inline constexpr size_t MAX_BLOCK_OPS{24};
inline constexpr uint8_t TXIDS{8};
inline constexpr uint32_t MAX_SMALL_N{3};
//! A scenario's steps: 1 to MAX_STEPS; a crash point before partial batch 1 to MAX_CRASH_BEFORE.
inline constexpr size_t MAX_STEPS{5};
inline constexpr size_t MAX_CRASH_BEFORE{6};
//! Batch sizes in bytes: FEW_ENTRIES in [1, MAX_FEW_ENTRIES], ANY_SMALL in [0, MAX_ANY_SMALL],
//! AROUND_MARKERS in [MARKERS_FROM, MARKERS_TO] (decoded only: the encoder writes FEW_ENTRIES).
inline constexpr uint64_t MAX_FEW_ENTRIES{200};
inline constexpr uint64_t MAX_ANY_SMALL{4096};
inline constexpr uint64_t MARKERS_FROM{78};
inline constexpr uint64_t MARKERS_TO{90};
//! A write fault's call: mostly in [1, MAX_EARLY_FAULT_AT] (a batch of a few coins is one log
//! record: two Appends and a Flush), else in [1, MAX_FAULT_AT].
inline constexpr size_t MAX_EARLY_FAULT_AT{4};
inline constexpr size_t MAX_FAULT_AT{64};

//! P2PK with the generator as an uncompressed key (on the curve: the compressor's type 4 or 5),
//! or one byte off it.
Bytes P2pkUncompressed(bool off_curve);

//! The tip of the i-th block (1-based) of a scenario.
Hash BlockTip(size_t i);

} // namespace equifuzz::utxo_flush
