// Helpers for the Core sides' shims (differential/<pair>/core/shim.cpp): small things every shim
// needs when it turns Core's answers into a pair's outcome types. Ours; no Core code.
#pragma once

#if defined(__x86_64__) || defined(__amd64__)
#include <cpuid.h>
#endif
#include <exception>
#include <ios>
#include <string>
#include <string_view>

namespace equifuzz {

//! The message of an exception Core threw. For an ios_base::failure the standard library appends
//! ": " and its error code's message (libstdc++: ": iostream error"; libc++, which OSS-Fuzz builds
//! with: ": unspecified iostream_category error"); Core's own text is what precedes it, and that is
//! what the models reproduce.
inline std::string CoreMessage(const std::exception& e)
{
    std::string what{e.what()};
    if (const auto* failure{dynamic_cast<const std::ios_base::failure*>(&e)}) {
        const std::string suffix{": " + failure->code().message()};
        if (what.size() >= suffix.size() && what.compare(what.size() - suffix.size(), suffix.size(), suffix) == 0) {
            what.resize(what.size() - suffix.size());
        }
    }
    return what;
}

//! True on an x86-64 CPU with SSE4.1 and the SHA extensions (CPUID leaf 1 ECX bit 19, leaf 7
//! EBX bit 29).
inline bool CpuHasShaNi()
{
#if defined(__x86_64__) || defined(__amd64__)
    unsigned a{0}, b{0}, c{0}, d{0};
    if (!__get_cpuid(1, &a, &b, &c, &d) || ((c >> 19) & 1) == 0) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return ((b >> 29) & 1) != 0;
#else
    return false;
#endif
}
} // namespace equifuzz

//! Core's node chooses its SHA-256 code once at start-up (SHA256AutoDetect) and a test that hashes
//! calls it too; without it every hash runs the portable rounds, the largest cost of a hashing
//! target under ASan (bench/results/2026-11-24-throughput.md). A shim whose Core side hashes
//! (CTransaction's txid, a sighash) writes this inside its anonymous namespace, with
//! <crypto/sha256.h> included. It calls SHA256AutoDetect only where it will choose SHA-NI (the tree
//! built with ENABLE_X86_SHANI, cmake/CoreObjects.cmake, and a CPU that has it): the SSE4 assembly it
//! would choose elsewhere crashes in its self-test under g++ with ASan, so other machines keep the
//! portable rounds. No pair tests SHA-256, and the call ends with Core's self-test of the back end
//! it chose.
#if defined(ENABLE_X86_SHANI)
#define EQUIFUZZ_CORE_SHA256_AUTODETECT()                                     \
    [[maybe_unused]] const std::string g_equifuzz_sha256_implementation       \
    {                                                                          \
        ::equifuzz::CpuHasShaNi() ? SHA256AutoDetect() : std::string{"standard"} \
    }
#else
#define EQUIFUZZ_CORE_SHA256_AUTODETECT() [[maybe_unused]] const std::string g_equifuzz_sha256_implementation{"standard"}
#endif
