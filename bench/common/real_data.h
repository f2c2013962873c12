// The real blocks the benchmarks share (tests/data/bitcoin/):
// 277647.dat (one mainnet block, 149,164 bytes) and blk_0_to_4.dat (genesis and four test
// blocks), both in block-file layout (magic, LE32 size, block). EQUIFUZZ_DATA_DIR is set by
// bench/CMakeLists.txt.
#pragma once

#include <common/transaction.h>

#include <string>
#include <vector>

namespace equifuzz::bench {

//! The file's bytes; exits with one sentence when it cannot be read.
Bytes ReadDataFile(const std::string& name);
//! The block bodies of a block file (magic and size stripped).
std::vector<Bytes> BlockBodies(const Bytes& file);
//! The blocks of a block file, parsed with our transaction model.
std::vector<Block> Blocks(const std::string& name);

//! The write calls Bitcoin Core's serializer issues for a block, one per field: the six header
//! fields, the transaction count, then per transaction version, marker and flag (with witness),
//! counts, outpoint hash and index, scripts (CompactSize then the bytes, one write each),
//! sequence, value, witness items, lock time. They add up to the block's size.
std::vector<size_t> FieldWrites(const Block& block);

} // namespace equifuzz::bench
