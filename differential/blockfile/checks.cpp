// What the targets check with: a side run on a scratch file, the sides' results as report fields,
// and the file properties (only obfuscated bytes on disk, nothing past a fault).
#include "pair.h"
#include "file.h"

#include <algorithm>

namespace equifuzz::blockfile {

WriteOutcome RunWrite(const Side& side, const WriteJob& job)
{
    WriteOutcome out;
    TempFile file;
    out.result = side.write(file.get(), job);
    out.disk = file.Contents();
    return out;
}

Outcome WriteOutcome::ToOutcome(bool with_positions, bool with_disk) const
{
    Outcome o;
    o.Add("error", result.error);
    if (with_positions) {
        std::string p;
        for (const uint64_t v : result.positions) p += (p.empty() ? "" : ",") + std::to_string(v);
        o.Add("positions", p);
    }
    o.Add("terminated", result.terminated).Add("terminate_error", result.terminate_error);
    if (with_disk) o.Add("disk", disk).Add("disk_size", uint64_t{disk.size()});
    return o;
}

Outcome ToOutcome(const ReadResult& r)
{
    Outcome o;
    o.Add("data", r.data).Add("reads_ok", r.reads_ok).Add("error", r.error);
    return o;
}

Outcome ToOutcome(const RecordsResult& r)
{
    Outcome o;
    o.Add("records", uint64_t{r.bodies.size()});
    for (size_t i = 0; i < r.bodies.size(); ++i) {
        o.Add("magic_" + std::to_string(i), r.magics[i]).Add("body_" + std::to_string(i), r.bodies[i]);
    }
    o.Add("error", r.error);
    return o;
}

// A property of the files, checked byte by byte on every input: no coverage feedback.
EQUIFUZZ_NO_COVERAGE bool NoPlaintext(const WriteJob& job, const Bytes& stream, const Bytes& disk)
{
    if (disk.empty()) return true;
    if (disk.size() < job.start) return false;
    for (uint64_t p = 0; p < job.start; ++p) {
        if (disk[p] != 0) return false;
    }
    const uint64_t landed{disk.size() - job.start};
    if (landed > stream.size()) return false;
    for (uint64_t i = 0; i < landed; ++i) {
        const uint64_t p{job.start + i};
        if (disk[p] != (stream[i] ^ job.key[p % KEY_SIZE])) return false;
    }
    return true;
}

Outcome FileReport(const WriteJob& job, const Bytes& stream, const WriteOutcome& side)
{
    const Bytes& disk{side.disk};
    Outcome detail{side.ToOutcome(false, false)};
    detail.Add("disk_size", uint64_t{disk.size()}).Add("stream_size", uint64_t{stream.size()});
    if (disk.empty() || disk.size() < job.start) return detail;
    const uint64_t landed{disk.size() - job.start};
    detail.Add("landed", landed);
    uint64_t first_bad{NO_LIMIT}, plaintext{0};
    for (uint64_t i = 0; i < landed; ++i) {
        const uint64_t p{job.start + i};
        const uint8_t k{job.key[p % KEY_SIZE]};
        const bool known{i < stream.size()};
        if (!known || disk[p] != (stream[i] ^ k)) {
            if (first_bad == NO_LIMIT) first_bad = p;
            if (known && k != 0 && disk[p] == stream[i]) ++plaintext;
        }
    }
    bool hole_ok{true};
    for (uint64_t p = 0; p < job.start; ++p) hole_ok = hole_ok && disk[p] == 0;
    detail.Add("first_bad_position", first_bad).Add("plaintext_bytes", plaintext).Add("hole_before_start_is_zero", hole_ok);
    if (first_bad != NO_LIMIT) {
        const uint64_t i{first_bad - job.start};
        detail.Add("disk_byte", uint64_t{disk[first_bad]});
        if (i < stream.size()) detail.Add("plain_byte", uint64_t{stream[i]}).Add("expected_byte", uint64_t{uint8_t(stream[i] ^ job.key[first_bad % KEY_SIZE])});
    }
    return detail;
}

uint64_t Landed(const WriteJob& job, const Bytes& disk)
{
    return disk.size() > job.start ? disk.size() - job.start : 0;
}

} // namespace equifuzz::blockfile
