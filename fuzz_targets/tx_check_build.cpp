// tx_check_build: transactions composed from fuzz choices (see tx_check::BuildTransaction), which
// reach duplicates at every position, null prevouts among 2 and 3+ inputs, coinbase lengths and
// the size limit far sooner than raw bytes do.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(tx_check_build)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const Transaction tx{tx_check::BuildTransaction(fdp)};
    const auto original{tx_check::original_side().check_transaction(tx)};
    const auto optimized{tx_check::optimized_side().check_transaction(tx)};
    Compare([&] { return tx_check::Describe(tx); }, {{"original", ToOutcome(original)}, {"optimized", ToOutcome(optimized)}});
}
