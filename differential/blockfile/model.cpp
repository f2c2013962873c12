// The definition every side is held to (spec 2.1 and 2.5): the plain stream a job writes, and the
// file it must leave, obfuscated at each byte's position.
#include "pair.h"
#include "file.h"

#include <algorithm>

namespace equifuzz::blockfile {

Bytes OpStream(const WriteOp& op)
{
    Bytes out;
    switch (op.kind) {
    case WriteOp::Kind::WRITE: return op.data;
    case WriteOp::Kind::SEEK:
    case WriteOp::Kind::FLUSH: return out;
    case WriteOp::Kind::BLOCK:
    case WriteOp::Kind::UNDO:
        out.assign(MAGIC.begin(), MAGIC.end());
        PutLE32(out, static_cast<uint32_t>(op.data.size()));
        out.insert(out.end(), op.data.begin(), op.data.end());
        if (op.kind == WriteOp::Kind::UNDO) {
            Bytes hashed{op.prev_hash.begin(), op.prev_hash.end()};
            hashed.insert(hashed.end(), op.data.begin(), op.data.end());
            const Hash256 checksum{DoubleSha256(hashed)};
            out.insert(out.end(), checksum.begin(), checksum.end());
        }
        return out;
    }
    return out;
}

WriteModel ModelWrite(const WriteJob& job)
{
    // A file that was never written past is empty; a write past the end leaves zeros before it.
    WriteModel m;
    uint64_t pos{job.start};
    for (const WriteOp& op : job.ops) {
        if (op.kind == WriteOp::Kind::SEEK) {
            pos = op.pos;
        } else {
            Bytes bytes{OpStream(op)};
            Obfuscate(bytes, job.key, pos);
            if (!bytes.empty()) {
                if (m.disk.size() < pos + bytes.size()) m.disk.resize(pos + bytes.size(), 0);
                std::copy(bytes.begin(), bytes.end(), m.disk.begin() + static_cast<ptrdiff_t>(pos));
            }
            pos += bytes.size();
        }
        m.positions.push_back(pos);
    }
    return m;
}

Bytes PlainStream(const WriteJob& job)
{
    Bytes stream;
    for (const WriteOp& op : job.ops) {
        const Bytes s{OpStream(op)};
        stream.insert(stream.end(), s.begin(), s.end());
    }
    return stream;
}

} // namespace equifuzz::blockfile
