// The replay driver: linked instead of a fuzzing engine, it runs every file named on the command
// line (a directory means every regular file below it, in sorted order; "-" means standard input)
// through the target's LLVMFuzzerTestOneInput. This is how corpora replay as tests and how a
// reviewer reproduces a crash with any compiler.
#include <equifuzz/harness.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" const char* EquifuzzTargetName();

namespace fs = std::filesystem;

namespace {

int Usage(const char* argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--list] [-q] PATH...\n"
                 "Replays each file (a directory: every file below it; '-': standard input) through target '%s'.\n",
                 argv0, EquifuzzTargetName());
    return 2;
}

bool ReadFile(const fs::path& p, std::vector<uint8_t>& out)
{
    std::ifstream f{p, std::ios::binary};
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>{f}, std::istreambuf_iterator<char>{});
    return !f.bad();
}

} // namespace

int main(int argc, char** argv)
{
    bool quiet{false};
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        const std::string a{argv[i]};
        if (a == "--list") {
            std::printf("%s\n", EquifuzzTargetName());
            return 0;
        } else if (a == "-q") {
            quiet = true;
        } else if (a == "-h" || a == "--help") {
            Usage(argv[0]);
            return 0;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            // libFuzzer-style flags (-runs=, -seed=) are accepted and ignored so one command line
            // works for both builds.
            continue;
        } else {
            args.push_back(a);
        }
    }
    if (args.empty()) return Usage(argv[0]);

    // Collect every input first, so a missing path is reported before anything runs.
    std::vector<fs::path> files;
    bool read_stdin{false};
    for (const std::string& a : args) {
        if (a == "-") {
            read_stdin = true;
            continue;
        }
        std::error_code ec;
        const fs::path p{a};
        if (fs::is_directory(p, ec)) {
            std::vector<fs::path> found;
            for (auto it = fs::recursive_directory_iterator{p, ec}; !ec && it != fs::recursive_directory_iterator{}; it.increment(ec)) {
                if (it->is_regular_file(ec)) found.push_back(it->path());
            }
            if (ec) {
                std::fprintf(stderr, "equifuzz: cannot read directory %s: %s\n", a.c_str(), ec.message().c_str());
                return 2;
            }
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(p, ec)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "equifuzz: no such file or directory: %s\n", a.c_str());
            return 2;
        }
    }

    size_t runs{0};
    std::vector<uint8_t> buf;
    if (read_stdin) {
        buf.assign(std::istreambuf_iterator<char>{std::cin}, std::istreambuf_iterator<char>{});
        equifuzz::detail::SetInputOrigin("standard input");
        LLVMFuzzerTestOneInput(buf.data(), buf.size());
        ++runs;
    }
    for (const fs::path& p : files) {
        if (!ReadFile(p, buf)) {
            std::fprintf(stderr, "equifuzz: cannot read %s\n", p.c_str());
            return 2;
        }
        equifuzz::detail::SetInputOrigin(p.string());
        // Copy into an exactly-sized heap block so ASan sees any read past the input's end.
        std::vector<uint8_t> exact(buf.begin(), buf.end());
        LLVMFuzzerTestOneInput(exact.data(), exact.size());
        ++runs;
        if (!quiet && files.size() <= 20) std::fprintf(stderr, "equifuzz: %s ok\n", p.c_str());
    }
    if (const char* dir{std::getenv("EQUIFUZZ_FINDINGS_DIR")}; dir && *dir) {
        std::fprintf(stderr, "equifuzz: target %s replayed %zu input%s; findings, if any, recorded in %s\n", EquifuzzTargetName(), runs,
                     runs == 1 ? "" : "s", dir);
    } else {
        std::fprintf(stderr, "equifuzz: target %s replayed %zu input%s, no mismatch\n", EquifuzzTargetName(), runs,
                     runs == 1 ? "" : "s");
    }
    return 0;
}
