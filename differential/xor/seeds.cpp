// The obfuscation XOR targets' seeds (common/seeds.h). xor_apply: random data of lengths around
// multiples of 8 (the words), 64 (the unrolled blocks) and the tails, and slices of a real block
// file. xor_key: random inputs of assorted lengths, and two keys as a LevelDB value holds them
// (a CompactSize length, the eight bytes), then a few bytes more.
#include <common/seeds.h>

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    w.AddRandom("xor_apply", {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 71, 72, 73, 127, 128, 129, 200, 511, 512, 513, 640});
    w.AddRealSlices("xor_apply", 16, 700);
    w.AddRandom("xor_key", {0, 1, 2, 4, 8, 9, 10, 12, 16, 17, 24, 32, 40, 64});
    w.Add("xor_key", Bytes{0x08, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0});
    w.Add("xor_key", Bytes{0xfd, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x03});
}

} // namespace equifuzz::seeds
