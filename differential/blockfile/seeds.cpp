// The block/undo file targets' seeds (common/seeds.h). The decoders read their choices (key,
// start offset, buffer size, op kinds, chunk sizes, faults) from the end of the input and the
// written bytes from the front, so random inputs of many lengths reach every op kind, and slices
// of a real block file give real record bytes to write and read.
#include <common/seeds.h>

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    for (const char* target : {"blockfile_write", "blockfile_read", "blockfile_faults", "blockfile_records"}) {
        w.AddRandom(target, {8, 16, 24, 32, 48, 64, 96, 128, 200, 300, 512, 800, 1200, 2000, 4200, 9000});
        w.AddRealSlices(target, 12, 3000);
    }
}

} // namespace equifuzz::seeds
