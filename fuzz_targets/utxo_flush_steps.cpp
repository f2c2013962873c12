// utxo_flush_steps: blocks of cache operations (AddCoin with or without possible_overwrite,
// SpendCoin, AccessCoin over a few outpoints), each flushed with its tip at a batch size the input
// chooses (the side's default, 0, a few entries, around the markers' 84 bytes, up to 4 KiB),
// some interrupted before a chosen partial batch and then recovered by replaying the block as
// RollforwardBlock does (a recovery may be interrupted too). Our models and Bitcoin Core's
// CCoinsViewDB over LevelDB's memory Env, from the trees before and after #31645, must leave the
// same logical content after every step, crash at the same place after the same partial
// batches, and satisfy the flush's properties (CheckScenario, differential/utxo_flush/pair.h).
#include <equifuzz/harness.h>
#include <utxo_flush/pair.h>

using namespace equifuzz;
using namespace equifuzz::utxo_flush;

EQUIFUZZ_TARGET(utxo_flush_steps)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    CheckScenario(DecodeScenario(fdp, Storage::MEMORY));
}

// One mutation in two changes the decoded scenario and writes it back (utxo_flush::MutateScenario).
EQUIFUZZ_MUTATOR(utxo_flush_steps, 2)
{
    return MutateScenario(m, Storage::MEMORY);
}
