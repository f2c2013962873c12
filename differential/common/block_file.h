// The block-file layout the real data comes in (blk*.dat): records of a 4-byte network magic, the
// body's size as LE32, and the body (a serialized block). Read by the unit tests and the
// benchmarks that run on tests/data/bitcoin/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace equifuzz {

//! Magic and size ahead of each body.
inline constexpr size_t BLOCK_FILE_RECORD_HEADER{8};

//! The bodies of a block file's records, in order; bytes after the last whole header are
//! ignored. std::nullopt when a record claims more bytes than the file has.
inline std::optional<std::vector<std::vector<uint8_t>>> SplitBlockFile(std::span<const uint8_t> file)
{
    std::vector<std::vector<uint8_t>> bodies;
    for (size_t p = 0; p + BLOCK_FILE_RECORD_HEADER <= file.size();) {
        const size_t size{uint32_t{file[p + 4]} | uint32_t{file[p + 5]} << 8 | uint32_t{file[p + 6]} << 16 |
                          uint32_t{file[p + 7]} << 24};
        const size_t begin{p + BLOCK_FILE_RECORD_HEADER};
        if (size > file.size() - begin) return std::nullopt;
        bodies.emplace_back(file.begin() + begin, file.begin() + begin + size);
        p = begin + size;
    }
    return bodies;
}

} // namespace equifuzz
