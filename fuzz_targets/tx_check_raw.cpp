// tx_check_raw: the input is a serialized transaction (witness allowed), as a peer would send it.
// Both sides must give the same verdict and the same first reject reason.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

using namespace equifuzz;

EQUIFUZZ_TARGET(tx_check_raw)
{
    Transaction tx;
    try {
        ByteReader r{input};
        tx = ReadTransaction(r, /*allow_witness=*/true);
    } catch (const StreamError&) {
        return; // not a transaction; decoding is fuzzed by the serialization pair
    }
    const auto original{tx_check::original_side().check_transaction(tx)};
    const auto optimized{tx_check::optimized_side().check_transaction(tx)};
    Compare([&] { return tx_check::Describe(tx); }, {{"original", ToOutcome(original)}, {"optimized", ToOutcome(optimized)}});
}
