// coins_view_faults: the coins_view scenario with Core's database on real files, one write of its
// log failing: once the calls begin, the chosen Append (nothing of it written, or a part) or Flush
// (after the bytes reached the file) of LevelDB's write-ahead log fails with an I/O error, through
// a file system Core's sides hand LevelDB (equifuzz/core_leveldb_faults.h). The flush or Sync that
// meets it must stop with Core's dbwrapper_error (a node stops there), and the database, opened
// again, must hold what it held before that call or all the call wrote; Core's two sides must
// agree on all of it, and every side on every call before the fault (Check, differential/coins_view/pair.h).
#include <coins_view/pair.h>
#include <equifuzz/harness.h>

using namespace equifuzz;
using namespace equifuzz::coins_view;

EQUIFUZZ_TARGET(coins_view_faults)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    Check(Decode(fdp, /*faults=*/true));
}

// One mutation in two changes the decoded scenario, its fault included, and writes it back
// (coins_view::MutateScenario).
EQUIFUZZ_MUTATOR(coins_view_faults, 2)
{
    return MutateScenario(m, /*faults=*/true);
}
