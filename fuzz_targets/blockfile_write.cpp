// blockfile_write: one write schedule (raw writes, seeks, flushes, blk and rev records) through
// the original AutoFile and through #31551's BufferedWriter, each on its own temporary file.
// The decoder varies the key (zero key included), the start offset (every residue mod 8), the
// writer's buffer size (1 byte up to 64 KiB), the sizes of the field writes (across the 4096-byte
// copy chunk too) and where the schedule seeks and flushes. Both files must hold the same bytes,
// both sides must report the same positions, and the bytes must be plain ^ key at each position.
#include <blockfile/pair.h>
#include <equifuzz/harness.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::blockfile;

EQUIFUZZ_TARGET(blockfile_write)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const WriteJob job{DecodeWrite(fdp, /*allow_seek=*/true, /*with_faults=*/false)};
    const DescribeFn desc{[&] { return Describe(job); }};

    // Our two models, and Bitcoin Core's AutoFile before #31551 and BufferedWriter after it (when
    // built): the same file bytes, positions and (no) errors.
    const auto runs{EachSide(Sides(), [&](const Side& side) { return RunWrite(side, job); })};
    Compare(desc, runs);

    // The definition (spec 2.5 invariant 1), checked on each side: catches a bug all share.
    const WriteModel model{ModelWrite(job)};
    for (const auto& run : runs) { // not a structured binding: the lambdas capture it (clang 16+)
        const auto& label{run.label};
        const auto& side{run.result};
        RequireOf(label, side.result.error.empty() && !side.result.terminated, "no-error-without-faults", desc, side);
        RequireOf(label, side.disk == model.disk, "disk-is-plain-xor-key-at-position", desc,
                  [&] { return side.ToOutcome(false).Add("expected_disk", model.disk); });
        RequireOf(label, side.result.positions == model.positions, "positions-match-definition", desc, [&] { return side.ToOutcome(true, false); });
    }
}
