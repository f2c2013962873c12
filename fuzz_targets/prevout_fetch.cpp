// prevout_fetch: one block connected through the overlay cache ConnectBlock uses (#35295), over
// coins in a database and entries (fresh, dirty, spent, clean) in the cache between them; inputs
// spend database and cache coins, spent and missing outpoints, earlier and later outputs of the
// same block and the same outpoint twice; 0, 1, 2, 8 or 16 workers; ConnectBlock's order, a
// permuted one, or stopped early; then flushed or not. Our serial and prefetching models and
// Bitcoin Core's overlay before and after #35295 (after: with the input's workers and with none)
// must return the same from every call and leave the same caches; our prefetching model and Core's
// merge must agree on whether every queued input was consumed and on the warnings logged
// (Check, differential/prevout_fetch/pair.h).
#include <equifuzz/harness.h>
#include <prevout_fetch/pair.h>

using namespace equifuzz;
using namespace equifuzz::prevout_fetch;

EQUIFUZZ_TARGET(prevout_fetch)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    Check(Decode(fdp));
}
