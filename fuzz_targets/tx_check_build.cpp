// tx_check_build: transactions composed from fuzz choices (see tx_check::BuildTransaction), which
// reach duplicates at every position, null prevouts among 2 and 3+ inputs, coinbase lengths and
// the size limit far sooner than raw bytes do.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

#include <vector>

using namespace equifuzz;

EQUIFUZZ_TARGET(tx_check_build)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const Transaction tx{tx_check::BuildTransaction(fdp)};
    // Our std::set and #31682 models, and Bitcoin Core's CheckTransaction from two trees when built.
    const auto results{EachSide(tx_check::Sides(), [&](const tx_check::Side& side) { return side.check_transaction(tx); })};
    Compare([&] { return tx_check::Describe(tx); }, results);
}
