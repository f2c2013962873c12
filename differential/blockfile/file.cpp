// The scratch file every side writes to and reads from (TempFile, pair.h): in memory where the
// system allows, so that no input pays for a file system.
#include "pair.h"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <stdexcept>

namespace equifuzz::blockfile {

namespace {
//! A real file with a real descriptor, but in memory (memfd): every read, write, seek and flush is
//! still a system call on a stdio stream, without ext4 creating, journaling and unlinking an inode
//! for every input (which was most of blockfile_write's time). Falls back to std::tmpfile().
std::FILE* OpenScratchFile()
{
#ifdef __linux__
    if (const int fd{memfd_create("equifuzz-blockfile", MFD_CLOEXEC)}; fd >= 0) {
        if (std::FILE* f{fdopen(fd, "w+b")}) return f;
        close(fd);
    }
#endif
    return std::tmpfile();
}
} // namespace

TempFile::TempFile() : m_file{OpenScratchFile()}
{
    if (!m_file) throw std::runtime_error{"equifuzz: could not open a scratch file"};
}

Bytes TempFile::Contents() const
{
    std::fflush(m_file.get());
    std::fseek(m_file.get(), 0, SEEK_END);
    const long size{std::ftell(m_file.get())};
    Bytes out(size > 0 ? static_cast<size_t>(size) : 0);
    std::fseek(m_file.get(), 0, SEEK_SET);
    if (!out.empty() && std::fread(out.data(), 1, out.size(), m_file.get()) != out.size()) throw std::runtime_error{"equifuzz: reading back the temp file failed"};
    return out;
}

void TempFile::Replace(std::span<const uint8_t> bytes)
{
    std::fseek(m_file.get(), 0, SEEK_SET);
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), m_file.get()) != bytes.size()) throw std::runtime_error{"equifuzz: writing the temp file failed"};
    std::fflush(m_file.get());
}

} // namespace equifuzz::blockfile
