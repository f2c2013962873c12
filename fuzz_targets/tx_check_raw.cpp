// tx_check_raw: the input is a serialized transaction (witness allowed), as a peer would send it.
// Both sides must give the same verdict and the same first reject reason.
#include <equifuzz/harness.h>
#include <tx_check/pair.h>

#include <vector>

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
    // Our std::set and #31682 models, and Bitcoin Core's CheckTransaction from two trees when built.
    const auto results{EachSide(tx_check::Sides(), [&](const tx_check::Side& side) { return side.check_transaction(tx); })};
    Compare([&] { return tx_check::Describe(tx); }, results);
}

// One mutation in sixteen changes the transaction's inputs or outputs (tx_check::MutateRawTransaction).
EQUIFUZZ_MUTATOR(tx_check_raw, 16)
{
    return tx_check::MutateRawTransaction(m);
}
