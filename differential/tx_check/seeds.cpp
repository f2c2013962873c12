// The CheckTransaction targets' seeds (common/seeds.h): the real transactions of
// tests/data/bitcoin (the test vectors' and the blocks'), the real blocks, and random inputs for
// the target that builds a transaction from any bytes.
#include <common/seeds.h>
#include <common/transaction.h>

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    for (const Bytes& tx : w.TestVectorTransactions()) w.Add("tx_check_raw", tx);
    const std::vector<Bytes> blocks{w.RealBlocks()};
    for (const Bytes& raw : blocks) {
        ByteReader reader{raw};
        const Block block{ReadBlock(reader)};
        // The first transactions of each block are plenty.
        for (size_t n = 0; n < block.txs.size() && n < 40; ++n) w.Add("tx_check_raw", SerializeTransaction(block.txs[n], /*with_witness=*/true));
    }
    w.AddRandom("tx_check_build", {0, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096});
    // A trailing 0x00 makes the decoder take the raw path (its first choice is read from the end).
    for (Bytes raw : blocks) {
        raw.push_back(0x00);
        w.Add("tx_check_block", raw);
    }
    w.AddRandom("tx_check_block", {0, 32, 64, 128, 256, 512, 1024, 2048, 4096});
}

} // namespace equifuzz::seeds
