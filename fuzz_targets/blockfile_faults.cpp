// blockfile_faults: an append-only write schedule (raw writes, flushes, blk and rev records, like
// WriteBlock/WriteBlockUndo) on a file object that fails once a chosen number of bytes reached
// the file: the failing call lands the bytes up to that mark (short write) or none, and fails
// once (transient) or for good (sticky).
//
// What both paths must report the same way: the error message, whether a destructor threw, and
// - for short writes - exactly which bytes reached the file (the first `fail_after` bytes of the
// obfuscated stream). The differences batching allows are asserted as relations:
//   * when a failing call lands nothing, how many bytes landed depends on the call sizes, so the
//     bytes are not compared; each side's bytes must still be a prefix of the obfuscated stream;
//   * with the zero key the original writes directly (AutoFile::write) and the batched side
//     through write_buffer, so the messages are "AutoFile::write: write failed" and
//     "AutoFile::write_buffer: write failed" respectively.
// Properties, each side alone: "no-plaintext-on-disk": every byte in the file at position p
// equals plain[p] ^ key[p mod 8] for the byte the caller wrote there (the hole before the start
// offset stays zero); "nothing-lands-after-the-fault": no more than fail_after bytes landed (a
// failed flush retried later must not put anything else on disk).
#include <blockfile/pair.h>
#include <equifuzz/harness.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

using namespace equifuzz;
using namespace equifuzz::blockfile;

EQUIFUZZ_TARGET(blockfile_faults)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const WriteJob job{DecodeWrite(fdp, /*allow_seek=*/false, /*with_faults=*/true)};
    const DescribeFn desc{[&] { return Describe(job); }};

    auto original{RunWrite(original_side(), job)};
    auto optimized{RunWrite(optimized_side(), job)};

    const Bytes stream{PlainStream(job)};
    // Each side alone: only obfuscated bytes reach the file, and after the failing call nothing
    // more lands (a retry of a failed flush writes bytes the file refused; with a non-zero key,
    // bytes XORed twice: see no-plaintext-on-disk).
    const auto check_file = [&](Label label, const WriteOutcome& side) {
        const auto report = [&] { return FileReport(job, stream, side); };
        RequireOf(label, NoPlaintext(job, stream, side.disk), "no-plaintext-on-disk", desc, report);
        RequireOf(label, Landed(job, side.disk) <= job.faults.fail_after, "nothing-lands-after-the-fault", desc, report);
    };
    check_file(Model("original"), original);
    check_file(Model("optimized"), optimized);

    const bool zero_key{std::all_of(job.key.begin(), job.key.end(), [](uint8_t b) { return b == 0; })};
    if (zero_key && original.result.error == WRITE_FAILED && optimized.result.error == WRITE_BUFFER_FAILED) {
        optimized.result.error = original.result.error; // the one allowed difference, exactly
    }
    // Which op failed differs by design (a batched write fails at a later flush): no positions.
    const bool compare_disk{job.faults.short_write};
    Compare(desc, {{Model("original"), FaultView{&original, compare_disk}}, {Model("optimized"), FaultView{&optimized, compare_disk}}});

    // Bitcoin Core's sides, when built.
    // * Core's AutoFile before #31551 must do what our original does, but for the two differences
    //   #31551 made, asserted exactly (spec 2.4, 2.6): a failed obfuscated write says
    //   "XorFile::write: failed", and the zero key counts as a key there.
    // * Core's BufferedWriter from #31551 until upstream's fix keeps a failed flush's obfuscated
    //   bytes and its destructor writes them again: plaintext on disk, or std::terminate (spec 2.7,
    //   confirmed on Core's code; FINDINGS.md). It must do exactly what our model of that
    //   shape does (master_retry_side): the same error, the same bytes, the same termination; once
    //   Core terminates, its process is gone and its "error" cannot be seen. A tree with the fix
    //   (Side::retries_failed_flush false) must do exactly what our optimized side does.
    //   EQUIFUZZ_BLOCKFILE_CORE_STRICT=1 also holds Core's writer to the properties above (and
    //   to not terminating), which reports the finding itself on a tree without the fix.
    // * Core before the change is always held to them (the pinned one, before #31551, keeps them);
    //   when it breaks one on an input (a reviewer's tree from master, say), Core after the
    //   change is held to them too on that input, so the report says whether the change keeps
    //   the finding (present before the change) or removes it (gone after).
    static const bool strict{std::getenv("EQUIFUZZ_BLOCKFILE_CORE_STRICT") != nullptr};
    bool core_original_broke{false};
    const auto check_core = [&](Label label, const WriteOutcome& core) {
        check_file(label, core);
        RequireOf(label, !core.result.terminated, "core-writer-does-not-terminate", desc, [&] { return FileReport(job, stream, core); });
    };
    for (const auto& [label, side, role] : Sides()) {
        if (role == Role::CORE_ORIGINAL) {
            auto core{RunWrite(*side, job)};
            core_original_broke = !NoPlaintext(job, stream, core.disk) || Landed(job, core.disk) > job.faults.fail_after || core.result.terminated;
            check_core(LabelOf(label, role), core);
            if (core.result.error == "XorFile::write: failed") core.result.error = zero_key ? WRITE_FAILED : WRITE_BUFFER_FAILED;
            Compare(desc, {{Model("original"), FaultView{&original, compare_disk}}, {LabelOf(label, role), FaultView{&core, compare_disk}}});
        } else if (role == Role::CORE_OPTIMIZED) {
            // Master before upstream's fix retries a failed flush and is held to our model of that
            // shape; a tree with the fix (it forgets the bytes, flushes explicitly) to our optimized.
            auto core{RunWrite(*side, job)};
            const bool retries{side->retries_failed_flush};
            auto model{RunWrite(retries ? master_retry_side() : optimized_side(), job)};
            if (strict || core_original_broke) check_core(LabelOf(label, role), core);
            if (core.result.terminated) core.result.error.clear();
            if (model.result.terminated) model.result.error.clear();
            Compare(desc, {{Model(retries ? "master-shape" : "optimized"), FaultView{&model, true}}, {LabelOf(label, role), FaultView{&core, true}}});
        }
    }
}
