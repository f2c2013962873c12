#include "real_data.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace equifuzz::bench {
namespace {

size_t CompactSizeLength(uint64_t n) { return n < 253 ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9; }

void Push(std::vector<size_t>& out, const Bytes& bytes)
{
    out.push_back(CompactSizeLength(bytes.size()));
    if (!bytes.empty()) out.push_back(bytes.size());
}

} // namespace

Bytes ReadDataFile(const std::string& name)
{
    const std::string path{std::string{EQUIFUZZ_DATA_DIR} + "/bitcoin/" + name};
    std::ifstream f{path, std::ios::binary};
    if (!f) {
        std::fprintf(stderr, "cannot read %s, the real data the benchmarks run on\n", path.c_str());
        std::exit(2);
    }
    return {std::istreambuf_iterator<char>{f}, std::istreambuf_iterator<char>{}};
}

std::vector<Bytes> BlockBodies(const Bytes& file)
{
    std::vector<Bytes> out;
    for (size_t p = 0; p + 8 <= file.size();) {
        const size_t size{uint32_t{file[p + 4]} | uint32_t{file[p + 5]} << 8 | uint32_t{file[p + 6]} << 16 | uint32_t{file[p + 7]} << 24};
        if (p + 8 + size > file.size()) break;
        out.emplace_back(file.begin() + p + 8, file.begin() + p + 8 + size);
        p += 8 + size;
    }
    return out;
}

std::vector<Block> Blocks(const std::string& name)
{
    std::vector<Block> blocks;
    for (const Bytes& body : BlockBodies(ReadDataFile(name))) {
        ByteReader r{body};
        blocks.push_back(ReadBlock(r));
    }
    return blocks;
}

std::vector<size_t> FieldWrites(const Block& block)
{
    std::vector<size_t> out{4, 32, 32, 4, 4, 4, CompactSizeLength(block.txs.size())};
    for (const Transaction& tx : block.txs) {
        const bool witness{tx.HasWitness()};
        out.push_back(4);
        if (witness) out.insert(out.end(), {1, 1}); // the empty vin marker (a count of 0), the flag
        out.push_back(CompactSizeLength(tx.vin.size()));
        for (const TxIn& in : tx.vin) {
            out.insert(out.end(), {32, 4});
            Push(out, in.script_sig);
            out.push_back(4);
        }
        out.push_back(CompactSizeLength(tx.vout.size()));
        for (const TxOut& o : tx.vout) {
            out.push_back(8);
            Push(out, o.script_pubkey);
        }
        if (witness) {
            for (const TxIn& in : tx.vin) {
                out.push_back(CompactSizeLength(in.witness.size()));
                for (const Bytes& item : in.witness) Push(out, item);
            }
        }
        out.push_back(4);
    }
    return out;
}

} // namespace equifuzz::bench
