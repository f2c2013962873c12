// coins_view: a stack of one to three CCoinsViewCache over CCoinsViewDB, and up to 64 calls on
// any of its views: AddCoin and SpendCoin on the top cache; AccessCoin, GetCoin, PeekCoin,
// HaveCoin, HaveCoinInCache, Uncache, Flush, Sync, SetBestBlock and GetBestBlock on any cache (the
// lookups on the database too); the database's head blocks, cursor walk, size estimate, cache
// resize and a restart; caches pushed and dropped. Our two models of the contract and Bitcoin
// Core's stack before and after a change must answer every call alike and leave the same
// database; entry counts and memory are compared between Core's sides and only reported; each
// Core side's own accounting must hold after every call (Check, differential/coins_view/pair.h).
#include <coins_view/pair.h>
#include <equifuzz/harness.h>

using namespace equifuzz;
using namespace equifuzz::coins_view;

EQUIFUZZ_TARGET(coins_view)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    Check(Decode(fdp));
}

// One mutation in two changes the decoded scenario and writes it back (coins_view::MutateScenario):
// a call repeated on an outpoint at another level, a flush, restart or compaction inserted.
EQUIFUZZ_MUTATOR(coins_view, 2)
{
    return MutateScenario(m, /*faults=*/false);
}
