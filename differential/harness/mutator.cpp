#include <equifuzz/harness.h>
#include <equifuzz/mutator.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

//! libFuzzer's own mutations; absent (null) when another driver is linked.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

namespace equifuzz {

bool Mutation::Insert(size_t pos, std::span<const uint8_t> what)
{
    if (what.size() > Room()) return false;
    pos = std::min(pos, bytes.size());
    bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(pos), what.begin(), what.end());
    return true;
}

std::vector<uint8_t> Mutation::Filler(size_t n)
{
    if (OneIn(2)) return std::vector<uint8_t>(n, Byte());
    std::vector<uint8_t> out(n);
    for (uint8_t& b : out) b = Byte();
    return out;
}

void FdpEncoder::Integral(uint64_t value, uint64_t min, uint64_t max)
{
    const uint64_t range{max - min};
    const uint64_t offset{std::clamp(value, min, max) - min};
    size_t width{0};
    while (width < 8 && (range >> (8 * width)) > 0) ++width;
    for (size_t k = width; k-- > 0;) m_back.push_back(static_cast<uint8_t>(offset >> (8 * k)));
}

std::vector<uint8_t> FdpEncoder::Finish() const
{
    std::vector<uint8_t> out{m_front};
    out.insert(out.end(), m_back.rbegin(), m_back.rend());
    return out;
}

namespace detail {

EQUIFUZZ_NO_COVERAGE size_t CustomMutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed, unsigned one_in, StructuredMutation mutate)
{
    const auto engine_mutation{[&] { return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size; }};
    // EQUIFUZZ_STRUCTURED=0: the engine's mutations only (to measure what the structured ones add).
    static const bool structured{[] { const char* v{std::getenv("EQUIFUZZ_STRUCTURED")}; return !v || std::string_view{v} != "0"; }()};
    if (!structured || (one_in > 1 && seed % one_in != 0)) return engine_mutation();
    std::vector<uint8_t> bytes(data, data + size);
    Mutation m{bytes, max_size, seed / std::max(one_in, 1u)};
    if (!mutate(m) || bytes.size() > max_size || (bytes.size() == size && std::equal(bytes.begin(), bytes.end(), data))) {
        return engine_mutation();
    }
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
    return bytes.size();
}

} // namespace detail
} // namespace equifuzz
