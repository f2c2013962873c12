// The environment both sides run in (not the routine under test): a file object over a real
// FILE that can fail after a chosen number of bytes, and the byte-wise obfuscation definition.
#pragma once

#include <blockfile/side.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace equifuzz::blockfile {

//! data[i] ^= key[(offset + i) mod 8], byte by byte (spec 2.1 for an 8-byte key).
inline void Obfuscate(std::span<uint8_t> data, const Key& key, uint64_t offset)
{
    size_t j{static_cast<size_t>(offset % KEY_SIZE)};
    for (uint8_t& b : data) {
        b ^= key[j];
        if (++j == KEY_SIZE) j = 0;
    }
}

inline bool IsZero(const Key& key)
{
    return std::all_of(key.begin(), key.end(), [](uint8_t b) { return b == 0; });
}

//! fwrite/fread/fseek/ftell over a FILE, with the faults of a FaultPlan and stdio-like flags.
class FaultyFile
{
public:
    FaultyFile(std::FILE* file, const FaultPlan& plan) : m_file{file}, m_plan{plan} {}

    //! Returns how many bytes reached the file.
    size_t Write(const uint8_t* data, size_t n)
    {
        size_t land{n};
        if (!(m_write_failed && !m_plan.sticky)) {
            const uint64_t left{m_plan.fail_after > m_written ? m_plan.fail_after - m_written : 0};
            if (n > left) {
                m_write_failed = true;
                land = m_plan.short_write ? static_cast<size_t>(left) : 0;
            }
        }
        const size_t done{land == 0 ? 0 : std::fwrite(data, 1, land, m_file)};
        m_written += done;
        return done;
    }

    //! Returns how many bytes were read; sets the end-of-file or error flag on a short read.
    size_t Read(uint8_t* data, size_t n)
    {
        size_t want{n};
        bool faulted{false};
        const uint64_t left{m_plan.read_fail_after > m_read ? m_plan.read_fail_after - m_read : 0};
        if (want > left) {
            want = static_cast<size_t>(left);
            faulted = true;
        }
        const size_t got{want == 0 ? 0 : std::fread(data, 1, want, m_file)};
        m_read += got;
        if (got < want) m_eof = true;
        if (got < n && !m_eof && faulted) m_error = true;
        return got;
    }

    void Seek(uint64_t pos)
    {
        std::fseek(m_file, static_cast<long>(pos), SEEK_SET);
        m_eof = false;
    }
    uint64_t Tell() const { return static_cast<uint64_t>(std::ftell(m_file)); }
    bool Eof() const { return m_eof; }
    bool Error() const { return m_error; }

private:
    std::FILE* m_file;
    FaultPlan m_plan;
    uint64_t m_written{0};
    uint64_t m_read{0};
    bool m_write_failed{false};
    bool m_eof{false};
    bool m_error{false};
};

//! AutoFile's reading half, which #31551 leaves as it was: reads at the file position, each XORed
//! at the position it was read from. Each side's AutoFile adds its writing half.
class AutoFileReader
{
public:
    AutoFileReader(FaultyFile& file, const Key& key, uint64_t position) : m_file{file}, m_key{key}, m_obfuscate{!IsZero(key)}, m_position{position} {}

    void seek(uint64_t pos)
    {
        m_file.Seek(pos);
        m_position = pos;
    }
    uint64_t position() const { return m_position; }

    size_t detail_fread(std::span<uint8_t> dst)
    {
        const size_t got{m_file.Read(dst.data(), dst.size())};
        if (m_obfuscate) Obfuscate(dst.first(got), m_key, m_position);
        m_position += got;
        return got;
    }

    void read(std::span<uint8_t> dst)
    {
        if (detail_fread(dst) != dst.size()) throw std::runtime_error{m_file.Eof() ? READ_EOF : READ_FAILED};
    }

protected:
    FaultyFile& m_file;
    Key m_key;
    bool m_obfuscate;
    uint64_t m_position;
};

inline void PutLE32(Bytes& out, uint32_t v)
{
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline uint32_t GetLE32(std::span<const uint8_t> b)
{
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}

} // namespace equifuzz::blockfile
