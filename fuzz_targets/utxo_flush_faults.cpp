// utxo_flush_faults: utxo_flush_disk with write errors. During a step's flush, the chosen call
// on LevelDB's write-ahead log (an Append that writes nothing or part of its bytes, or a Flush
// after the bytes reached the file) fails with an I/O error, through a file system Bitcoin Core's
// sides hand LevelDB in place of its own (core/shim.cpp). Core must stop the flush with its
// dbwrapper_error; after reopening, the database holds whole batches (those before the failing
// one, or that one too) and the replayed block gives the uninterrupted content. Only Core's sides
// have a log to fail: they are compared with each other, and our model gives what they must hold.
#include <equifuzz/harness.h>
#include <utxo_flush/pair.h>

using namespace equifuzz;
using namespace equifuzz::utxo_flush;

EQUIFUZZ_TARGET(utxo_flush_faults)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    CheckScenario(DecodeScenario(fdp, Storage::DISK_FAULTS));
}

// One mutation in two changes the decoded scenario and writes it back (utxo_flush::MutateScenario).
EQUIFUZZ_MUTATOR(utxo_flush_faults, 2)
{
    return MutateScenario(m, Storage::DISK_FAULTS);
}
