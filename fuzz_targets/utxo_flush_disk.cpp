// utxo_flush_disk: utxo_flush_steps on a real temporary directory: Bitcoin Core's database is
// closed and reopened after every step, so what is compared is what survived on disk, crashes
// between batches included (the writes before a crash are LevelDB log records, kept across a
// reopen). Our models have no disk; they give the content every side must read back.
#include <equifuzz/harness.h>
#include <utxo_flush/pair.h>

using namespace equifuzz;
using namespace equifuzz::utxo_flush;

EQUIFUZZ_TARGET(utxo_flush_disk)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    CheckScenario(DecodeScenario(fdp, Storage::DISK));
}

// One mutation in two changes the decoded scenario and writes it back (utxo_flush::MutateScenario).
EQUIFUZZ_MUTATOR(utxo_flush_disk, 2)
{
    return MutateScenario(m, Storage::DISK);
}
