// Hex text to bytes, for the known-answer tests' vectors (pairs of hex digits; a trailing odd
// digit is ignored).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace equifuzz::test {

inline std::vector<uint8_t> FromHex(const std::string& hex)
{
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

} // namespace equifuzz::test
