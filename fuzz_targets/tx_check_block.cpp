// tx_check_block: CheckBlock's transaction rules (coinbase first and only first, then every
// transaction's context-free checks) - the path where CVE-2018-17144 lived, when blocks skipped
// the duplicate-input check. Raw serialized blocks or composed ones.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(tx_check_block)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const std::optional<Block> block{tx_check::DecodeBlock(fdp)};
    if (!block) return;
    const auto original{tx_check::original_side().check_block(*block)};
    const auto optimized{tx_check::optimized_side().check_block(*block)};
    Compare([&] { return tx_check::Describe(*block); }, {{"original", ToOutcome(original)}, {"optimized", ToOutcome(optimized)}});
}
