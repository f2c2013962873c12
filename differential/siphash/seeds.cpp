// The SipHash targets' seeds (common/seeds.h), for both pairs that share these sides (siphash,
// siphash_uj). Both decoders read their choices (key kind, uint256 kind, index, op kinds) through
// the FuzzedDataProvider, so random inputs of assorted lengths reach every shape quickly; constant
// inputs pick the edge choices (zero key and txid, all-ones words) and slices of a real block file
// give real txid-like material.
#include <common/seeds.h>

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    // Short inputs decode to the outpoint shape alone; longer ones add byte runs and words.
    w.AddRandom("siphash_sip24", {0, 4, 16, 36, 48, 64, 80, 100, 128, 160, 200, 256, 320, 400, 512, 700});
    w.AddConstant("siphash_sip24", {0x00, 0x01, 0x7f, 0x80, 0xff}, {8, 40, 96, 200});
    w.AddRealSlices("siphash_sip24", 12, 400);
    w.AddRandom("siphash_uj", {0, 4, 16, 36, 48, 64, 80, 100, 128, 160, 200, 256, 320, 400, 512});
    w.AddConstant("siphash_uj", {0x00, 0x01, 0x7f, 0x80, 0xff}, {8, 40, 96, 200});
    w.AddRealSlices("siphash_uj", 12, 400);
}

} // namespace equifuzz::seeds
