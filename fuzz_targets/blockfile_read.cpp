// blockfile_read: a file holding plain data obfuscated at its positions (sometimes truncated),
// read from any offset with any schedule of read sizes, through the original AutoFile and
// through #31551's BufferedReader (read-ahead of 1 byte up to 64 KiB), ours and Bitcoin Core's
// (kernel 0.0.10 and 0.0.20, when built). All must return the same
// data and fail at the same read with the same message ("AutoFile::read: end of file", or
// "AutoFile::read: fread failed" when the file object starts returning short reads).
#include <blockfile/pair.h>
#include <equifuzz/harness.h>

#include <algorithm>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::blockfile;

EQUIFUZZ_TARGET(blockfile_read)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const ReadInput in{DecodeRead(fdp)};
    const DescribeFn desc{[&] { return Describe(in); }};

    TempFile file;
    file.Replace(ObfuscatedFile(in));
    // Our two models, and Bitcoin Core's AutoFile and BufferedReader (when built), on one file.
    const auto reads{EachSide(Sides(), [&](const Side& side) { return side.read(file.get(), in.job); })};
    Compare(desc, reads);
    const ReadResult& original{reads.front().result};

    // The definition: every read that fits in the bytes available succeeds and returns the plain
    // data; the first that does not fails with the message of whichever limit it hit first.
    const uint64_t file_size{std::min<uint64_t>(in.file_size, in.plain.size())};
    const uint64_t in_file{file_size > in.job.offset ? file_size - in.job.offset : 0};
    const uint64_t available{std::min(in_file, in.job.faults.read_fail_after)};
    uint64_t done{0}, reads_ok{0};
    std::string error;
    for (const size_t len : in.job.chunks) {
        if (done + len > available) {
            error = in.job.faults.read_fail_after <= in_file ? READ_FAILED : READ_EOF;
            break;
        }
        done += len;
        ++reads_ok;
    }
    const ReadResult expected{Bytes(in.plain.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(in.job.offset, in.plain.size())),
                                    in.plain.begin() + static_cast<ptrdiff_t>(std::min<uint64_t>(in.job.offset + done, in.plain.size()))),
                              reads_ok, error};
    Require(original == expected, "reads-match-definition", desc, [&] { return ToOutcome(expected); });
}
