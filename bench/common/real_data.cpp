#include "real_data.h"

#include <common/block_file.h>
#include <common/compact_size.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <utility>

namespace equifuzz::bench {
namespace {

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
    auto bodies{SplitBlockFile(file)};
    if (!bodies) {
        std::fprintf(stderr, "a block file of the real data ends inside a record\n");
        std::exit(2);
    }
    return std::move(*bodies);
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
