// afl_mutator/<target>: loads lib<target>_afl_mutator.so as afl-fuzz does (dlopen, the three
// afl_custom_* symbols) and drives it over the target's seed inputs. It fails when a symbol is
// missing, when a call leaves the output buffer null, writes past max_size, changes the input
// buffer or returns the input unchanged as a mutation, when the same seed does not give the same
// mutations, or when no call mutates anything (a library that only declines would add nothing).
//
//     afl_mutator_check <library> <seed folder>...
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using InitFn = void* (*)(void*, unsigned int);
using FuzzFn = size_t (*)(void*, uint8_t*, size_t, uint8_t**, uint8_t*, size_t, size_t);
using DeinitFn = void (*)(void*);

constexpr size_t MAX_SIZE{1 << 20};
constexpr size_t CALLS_PER_INPUT{40};
constexpr size_t MAX_INPUTS{60};

int Fail(const std::string& why)
{
    std::fprintf(stderr, "afl_mutator_check: %s\n", why.c_str());
    return 1;
}

std::vector<std::vector<uint8_t>> ReadInputs(int argc, char** argv)
{
    std::vector<std::filesystem::path> files;
    for (int i = 2; i < argc; ++i) {
        if (!std::filesystem::is_directory(argv[i])) continue;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i])) {
            if (entry.is_regular_file()) files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    if (files.size() > MAX_INPUTS) files.resize(MAX_INPUTS);
    std::vector<std::vector<uint8_t>> inputs;
    for (const auto& file : files) {
        std::ifstream in{file, std::ios::binary};
        inputs.emplace_back(std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{});
    }
    return inputs;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) return Fail("usage: afl_mutator_check <library> <seed folder>...");
    void* lib{dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)};
    if (!lib) return Fail(std::string{"dlopen failed: "} + dlerror());
    const auto init{reinterpret_cast<InitFn>(dlsym(lib, "afl_custom_init"))};
    const auto fuzz{reinterpret_cast<FuzzFn>(dlsym(lib, "afl_custom_fuzz"))};
    const auto deinit{reinterpret_cast<DeinitFn>(dlsym(lib, "afl_custom_deinit"))};
    if (!init || !fuzz || !deinit) return Fail(std::string{argv[1]} + " lacks afl_custom_init, afl_custom_fuzz or afl_custom_deinit");
    const auto inputs{ReadInputs(argc, argv)};
    if (inputs.empty()) return Fail("no seed inputs in the folders given");

    // One pass over every input: each call's output, empty where the library declined.
    std::string error;
    const auto pass{[&](unsigned int seed) {
        std::vector<std::vector<uint8_t>> outputs;
        void* state{init(nullptr, seed)};
        for (const auto& input : inputs) {
            for (size_t i = 0; i < CALLS_PER_INPUT && error.empty(); ++i) {
                std::vector<uint8_t> buf{input};
                uint8_t* out{nullptr};
                const size_t size{fuzz(state, buf.data(), buf.size(), &out, nullptr, 0, MAX_SIZE)};
                if (out == nullptr) error = "a call left the output buffer null (afl-fuzz stops on that)";
                else if (buf != input) error = "a call changed the input buffer";
                else if (size > MAX_SIZE) error = "a call returned more than max_size bytes";
                else if (size > 0 && std::equal(out, out + size, input.begin(), input.end())) error = "a call returned the input unchanged";
                outputs.emplace_back(out != nullptr && size > 0 ? std::vector<uint8_t>(out, out + size) : std::vector<uint8_t>{});
            }
        }
        deinit(state);
        return outputs;
    }};
    const auto first{pass(7)};
    if (!error.empty()) return Fail(error);
    const auto mutated{static_cast<size_t>(std::count_if(first.begin(), first.end(), [](const auto& o) { return !o.empty(); }))};
    if (mutated == 0) return Fail(std::to_string(first.size()) + " calls over " + std::to_string(inputs.size()) + " seed inputs mutated nothing");
    if (pass(7) != first) return Fail(error.empty() ? "the same seed gave different mutations" : error);
    std::printf("afl_mutator_check: %zu seed inputs, %zu calls, %zu mutated (%.0f %%), the same again from the same seed\n",
                inputs.size(), first.size(), mutated, 100.0 * static_cast<double>(mutated) / static_cast<double>(first.size()));
    dlclose(lib);
    return 0;
}
