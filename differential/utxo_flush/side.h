// The UTXO flush pair (#31645): what every side offers. The routine is the same on both sides
// (model.h); what #31645 changed is the batch size BatchWrite cuts the flush at by default.
#pragma once

#include <equifuzz/side.h>

#include "model.h"

#include <cstdint>

namespace equifuzz::utxo_flush {

inline constexpr uint64_t MiB{uint64_t{1} << 20};

struct Side {
    const char* name;
    //! The default batch size (-dbbatchsize) the flush is cut at.
    uint64_t default_batch_bytes;
};

EQUIFUZZ_DECLARE_SIDES();

} // namespace equifuzz::utxo_flush
