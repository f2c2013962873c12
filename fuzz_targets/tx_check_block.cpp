// tx_check_block: CheckBlock's transaction rules (coinbase first and only first, then every
// transaction's context-free checks) - the path where CVE-2018-17144 lived, when blocks skipped
// the duplicate-input check. Raw serialized blocks or composed ones.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

#include <vector>

using namespace equifuzz;

EQUIFUZZ_TARGET(tx_check_block)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const std::optional<Block> block{tx_check::DecodeBlock(fdp)};
    if (!block) return;
    // Our std::set and #31682 models, and Bitcoin Core's CheckTransaction from two trees when built.
    const auto results{EachSide(tx_check::Sides(), [&](const tx_check::Side& side) { return side.check_block(*block); })};
    Compare([&] { return tx_check::Describe(*block); }, results);
}

// One mutation in three changes one transaction of a raw block (tx_check::MutateRawBlock).
EQUIFUZZ_MUTATOR(tx_check_block, 3)
{
    return tx_check::MutateRawBlock(m);
}
