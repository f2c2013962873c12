// A directory of its own under a temporary root, removed with everything in it when the object
// goes: a Core side's on-disk database (utxo_flush's shim, prevout_fetch's benchmark).
#pragma once

#include <stdlib.h> // mkdtemp

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace equifuzz {

class TempDir
{
public:
    //! <root>/<prefix>-XXXXXX, made with a name no other directory has; throws when it cannot be made.
    explicit TempDir(std::string_view prefix, const std::filesystem::path& root = std::filesystem::temp_directory_path())
    {
        std::string pattern{(root / (std::string{prefix} + "-XXXXXX")).string()};
        if (!mkdtemp(pattern.data())) throw std::runtime_error{"cannot create a temporary directory under " + root.string()};
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace equifuzz
