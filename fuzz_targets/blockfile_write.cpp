// blockfile_write: one write schedule (raw writes, seeks, flushes, blk and rev records) through
// the original AutoFile and through #31551's BufferedWriter, each on its own temporary file.
// The decoder varies the key (zero key included), the start offset (every residue mod 8), the
// writer's buffer size (1 byte up to 64 KiB), the sizes of the field writes (across the 4096-byte
// copy chunk too) and where the schedule seeks and flushes. Both files must hold the same bytes,
// both sides must report the same positions, and the bytes must be plain ^ key at each position.
#include <blockfile/pair.h>
#include <equifuzz/harness.h>

using namespace equifuzz;
using namespace equifuzz::blockfile;

EQUIFUZZ_TARGET(blockfile_write)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const WriteJob job{DecodeWrite(fdp, /*allow_seek=*/true, /*with_faults=*/false)};
    const Description desc{Describe(job)};

    const auto original{RunWrite(original_side(), job)};
    const auto optimized{RunWrite(optimized_side(), job)};
    Compare(desc, {{"original", original.ToOutcome()}, {"optimized", optimized.ToOutcome()}});

    // The definition (spec 2.5 invariant 1), checked on each side: catches a bug both share.
    const WriteModel model{ModelWrite(job)};
    Outcome expected;
    expected.Add("disk", model.disk).Add("disk_size", uint64_t{model.disk.size()});
    for (const auto* side : {&original, &optimized}) {
        Require(side->result.error.empty() && !side->result.terminated, "no-error-without-faults", desc, side->ToOutcome());
        Require(side->disk == model.disk, "disk-is-plain-xor-key-at-position", desc, side->ToOutcome(false).Add("expected_disk", model.disk));
        Require(side->result.positions == model.positions, "positions-match-definition", desc, side->ToOutcome(true, false));
    }
}
