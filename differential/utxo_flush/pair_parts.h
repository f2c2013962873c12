// The utxo_flush pair's own pieces shared by its source files (not the pair's interface, pair.h):
// what the decoder (decode.cpp) and its mirror, the encoder (encode.cpp), both build.
#pragma once

#include "side.h"

#include <cstddef>

namespace equifuzz::utxo_flush {

//! P2PK with the generator as an uncompressed key (on the curve: the compressor's type 4 or 5),
//! or one byte off it.
Bytes P2pkUncompressed(bool off_curve);

//! The tip of the i-th block (1-based) of a scenario.
Hash BlockTip(size_t i);

} // namespace equifuzz::utxo_flush
