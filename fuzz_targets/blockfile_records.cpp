// blockfile_records: a blk or rev file of 1-4 records (after some other data, obfuscated at
// their positions) read back record by record, ReadBlock's and ReadBlockUndo's shape: magic, size,
// body, and for rev the checksum over the previous block's hash and the body. Through the original
// AutoFile and #31551's BufferedReader, ours and Bitcoin Core's (when built). The file may be
// spoiled after writing: a changed byte, the last size field off by a little, a torn last record,
// one record more asked for, or the wrong previous-block hash. All sides must return the same
// magics, bodies and error; an unspoiled file must give back exactly what was written.
#include <blockfile/pair.h>
#include <equifuzz/harness.h>

#include <vector>

using namespace equifuzz;
using namespace equifuzz::blockfile;

EQUIFUZZ_TARGET(blockfile_records)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const RecordsInput in{DecodeRecords(fdp)};
    const DescribeFn desc{[&] { return Describe(in); }};

    TempFile file;
    file.Replace(ObfuscatedFile(in));
    const auto reads{EachSide(Sides(), [&](const Side& side) { return side.read_records(file.get(), in.job); })};
    Compare(desc, reads);

    // The definition, on an unspoiled file: every record back, each with the magic, no error.
    if (in.spoiler.empty()) {
        const RecordsResult expected{std::vector<Bytes>(in.bodies.size(), Bytes(MAGIC.begin(), MAGIC.end())), in.bodies, ""};
        Require(reads.front().result == expected, "records-read-back-as-written", desc, [&] { return ToOutcome(expected); });
    }
}

EQUIFUZZ_MUTATOR(blockfile_records, 2)
{
    return MutateRecords(m);
}
