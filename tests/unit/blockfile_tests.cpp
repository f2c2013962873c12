// Known answers for the block/undo file pair (spec 2.8 and 4), run against every side.
#include <blockfile/file.h>
#include <blockfile/pair.h>
#include <common/block_file.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <iterator>
#include <string>
#include <vector>

using namespace equifuzz;
using namespace equifuzz::blockfile;

namespace {

const std::vector<const Side*> SIDES{&original_side(), &optimized_side()};

Key KeyFromHex(const std::string& hex)
{
    Key k{};
    for (size_t i = 0; i < KEY_SIZE; ++i) k[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return k;
}

Bytes ReadData(const std::string& name)
{
    std::ifstream f{std::string{EQUIFUZZ_DATA_DIR} + "/bitcoin/" + name, std::ios::binary};
    REQUIRE(f.good());
    return {std::istreambuf_iterator<char>{f}, std::istreambuf_iterator<char>{}};
}

//! The block bodies of a blk file (magic, LE32 size, block; repeated).
std::vector<Bytes> SplitRecords(const Bytes& file)
{
    auto bodies{SplitBlockFile(file)};
    REQUIRE(bodies.has_value());
    return *bodies;
}

//! The field writes a block's serializer issues, at transaction granularity: the 80-byte
//! header, the transaction count, then each transaction.
std::vector<size_t> BlockFields(const Bytes& body)
{
    ByteReader r{body};
    const Block block{ReadBlock(r)};
    const size_t count_size{body[80] < 253 ? 1u : body[80] == 253 ? 3u : 5u};
    std::vector<size_t> chunks{80, count_size};
    for (const Transaction& tx : block.txs) chunks.push_back(SerializedSize(tx, true));
    size_t sum{0};
    for (const size_t c : chunks) sum += c;
    REQUIRE(sum == body.size());
    return chunks;
}

WriteOp Raw(Bytes data)
{
    WriteOp op;
    op.data = std::move(data);
    return op;
}

} // namespace

TEST_CASE("streams_tests: {1,2,3} then {4,5} with key ff00ff00ff00ff00 give fc01fd03fd04fa")
{
    WriteJob job;
    job.key = KeyFromHex("ff00ff00ff00ff00");
    job.ops = {Raw({3, 1, 2, 3}), Raw({2, 4, 5})}; // the serialized vectors
    for (const size_t buffer : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, DEFAULT_BUFFER}) {
        job.buffer_size = buffer;
        for (const Side* side : SIDES) {
            INFO(side->name << ", buffer " << buffer);
            TempFile file;
            const WriteResult w{side->write(file.get(), job)};
            CHECK(w.error.empty());
            CHECK(w.positions == std::vector<uint64_t>{4, 7});
            CHECK(Hex(file.Contents()) == "fc01fd03fd04fa");
            ReadJob r;
            r.key = job.key;
            r.chunks = {4, 3};
            r.buffer_size = buffer;
            const ReadResult back{side->read(file.get(), r)};
            CHECK(back.error.empty());
            CHECK(Hex(back.data) == "03010203020405");
            r.chunks = {4, 4};
            const ReadResult short_read{side->read(file.get(), r)};
            CHECK(short_read.reads_ok == 1);
            CHECK(short_read.error == READ_EOF);
        }
    }
}

TEST_CASE("real blocks round-trip through both paths byte for byte, with and without obfuscation")
{
    for (const std::string name : {"blk_0_to_4.dat", "277647.dat"}) {
        const Bytes blk{ReadData(name)};
        const std::vector<Bytes> bodies{SplitRecords(blk)};
        WriteJob job;
        for (const Bytes& body : bodies) {
            WriteOp op;
            op.kind = WriteOp::Kind::BLOCK;
            op.data = body;
            op.chunks = BlockFields(body);
            job.ops.push_back(op);
        }
        for (const std::string key : {"0000000000000000", "a1b2c3d4e5f60718"}) {
            job.key = KeyFromHex(key);
            for (const uint64_t start : {uint64_t{0}, uint64_t{13}}) {
                job.start = start;
                Bytes expected(start, 0);
                expected.insert(expected.end(), blk.begin(), blk.end());
                Obfuscate(std::span<uint8_t>{expected}.subspan(start), job.key, start);
                std::vector<Bytes> disks;
                for (const Side* side : SIDES) {
                    INFO(name << " key " << key << " start " << start << " " << side->name);
                    TempFile file;
                    const WriteResult w{side->write(file.get(), job)};
                    REQUIRE(w.error.empty());
                    disks.push_back(file.Contents());
                    CHECK(disks.back() == expected); // the zero key reproduces the file exactly
                    for (const Side* reader : SIDES) {
                        RecordsJob r{job.key, start, bodies.size(), false, {}, DEFAULT_BUFFER};
                        const RecordsResult back{reader->read_records(file.get(), r)};
                        CHECK(back.error.empty());
                        CHECK(back.bodies == bodies);
                        for (const Bytes& m : back.magics) CHECK(Hex(m) == "f9beb4d9");
                    }
                }
                CHECK(disks[0] == disks[1]);
            }
        }
    }
}

TEST_CASE("undo record: magic, LE32 size, undo bytes, SHA256d(prev hash || undo bytes)")
{
    // A CBlockUndo with one CTxUndo of one coin: height 1 non-coinbase -> VARINT(2), 00, then a
    // compressed TxOut (amount VARINT 0, script type 0 + 20-byte key hash).
    Bytes undo{0x01, 0x01, 0x02, 0x00, 0x00, 0x00};
    for (uint8_t i = 0; i < 20; ++i) undo.push_back(i);
    Hash256 prev{};
    for (size_t i = 0; i < prev.size(); ++i) prev[i] = static_cast<uint8_t>(0x40 + i);
    Bytes hashed{prev.begin(), prev.end()};
    hashed.insert(hashed.end(), undo.begin(), undo.end());
    const Hash256 checksum{DoubleSha256(hashed)};

    WriteOp op;
    op.kind = WriteOp::Kind::UNDO;
    op.data = undo;
    op.chunks = {1, 1, 4, undo.size() - 6};
    op.prev_hash = prev;
    for (const std::string key : {"0000000000000000", "ff00ff00ff00ff00"}) {
        for (const Side* side : SIDES) {
            INFO(side->name << " key " << key);
            WriteJob job;
            job.key = KeyFromHex(key);
            job.start = 5;
            job.buffer_size = 3;
            job.ops = {op};
            TempFile file;
            const WriteResult w{side->write(file.get(), job)};
            REQUIRE(w.error.empty());
            CHECK(w.positions == std::vector<uint64_t>{5 + HEADER_BYTES + undo.size() + 32});
            Bytes disk{file.Contents()};
            Obfuscate(std::span<uint8_t>{disk}.subspan(5), job.key, 5);
            CHECK(Hex(std::span<const uint8_t>{disk}.subspan(5, 8)) == "f9beb4d91a000000");
            CHECK(Bytes(disk.begin() + 13, disk.begin() + 13 + undo.size()) == undo);
            CHECK(Bytes(disk.end() - 32, disk.end()) == Bytes(checksum.begin(), checksum.end()));
            for (const Side* reader : SIDES) {
                RecordsJob r{job.key, 5, 1, true, {prev}, 7};
                CHECK(reader->read_records(file.get(), r).error.empty());
                r.prev_hashes[0][0] ^= 1;
                CHECK(reader->read_records(file.get(), r).error == UNDO_CHECKSUM_MISMATCH);
            }
        }
    }
}

TEST_CASE("a short write lands the bytes up to the fault on both paths, obfuscated")
{
    WriteJob job;
    job.key = KeyFromHex("0102030405060708");
    job.start = 3;
    job.buffer_size = 5;
    job.faults.fail_after = 9;
    job.ops = {Raw(Bytes(4, 0xaa)), Raw(Bytes(12, 0xbb))};
    Bytes expected(3, 0);
    Bytes stream(4, 0xaa);
    stream.insert(stream.end(), 5, 0xbb);
    Obfuscate(stream, job.key, 3);
    expected.insert(expected.end(), stream.begin(), stream.end());
    for (const Side* side : SIDES) {
        INFO(side->name);
        TempFile file;
        const WriteResult w{side->write(file.get(), job)};
        CHECK(w.error == WRITE_BUFFER_FAILED);
        CHECK_FALSE(w.terminated);
        CHECK(file.Contents() == expected);
    }
}

TEST_CASE("EncodeRecords is DecodeRecords' mirror; MutateRecords spoils last undo records", "[mutator]")
{
    std::mt19937 rng{31551};
    size_t last_checksum_spoiled{0};
    for (int i = 0; i < 400; ++i) {
        Bytes raw(std::uniform_int_distribution<size_t>{0, 700}(rng));
        for (uint8_t& b : raw) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{raw.data(), raw.size()};
        const RecordsInput first{DecodeRecords(fdp)};
        // Written and read again: the same file, job and spoiler.
        const Bytes once{EncodeRecords(ChoicesOf(first))};
        FuzzedDataProvider fdp1{once.data(), once.size()};
        const RecordsInput second{DecodeRecords(fdp1)};
        CHECK(second.plain == first.plain);
        CHECK(second.file_size == first.file_size);
        CHECK(second.bodies == first.bodies);
        CHECK(second.spoiler == first.spoiler);
        CHECK(second.job.key == first.job.key);
        CHECK(second.job.buffer_size == first.job.buffer_size);
        CHECK(second.job.offset == first.job.offset);
        CHECK(second.job.count == first.job.count);
        CHECK(second.job.prev_hashes == first.job.prev_hashes);
        // Mutated: still an input the target reads, and now and then a rev file whose last
        // record's checksum does not match (a changed checksum byte or previous-block hash).
        Bytes mutated{raw};
        Mutation m{mutated, 1 << 16, static_cast<uint32_t>(i)};
        if (MutateRecords(m)) {
            FuzzedDataProvider fdp2{mutated.data(), mutated.size()};
            const RecordsInput in{DecodeRecords(fdp2)};
            const size_t last{in.bodies.size() - 1};
            const bool in_checksum{in.spoil.kind == Spoiler::BYTE_CHANGED && in.spoil.value + 32 >= in.plain.size()};
            last_checksum_spoiled += in.job.undo && in.spoil.which == last && (in_checksum || in.spoil.kind == Spoiler::PREV_HASH_DIFFERS);
            // What ChoicesOf reads back is what the mutation wrote.
            CHECK(EncodeRecords(ChoicesOf(in)) == mutated);
        }
    }
    CHECK(last_checksum_spoiled > 10); // about 1 in 20 mutations
}
