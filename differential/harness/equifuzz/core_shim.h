// Helpers for the Core sides' shims (differential/<pair>/core/shim.cpp): small things every shim
// needs when it turns Core's answers into a pair's outcome types. Ours; no Core code.
#pragma once

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

} // namespace equifuzz

//! Core's node chooses its SHA-256 code once at start-up (SHA256AutoDetect: SSE4 assembly on an
//! x86-64 with SSE4.1, the portable rounds otherwise) and a test that hashes calls it too. A shim
//! whose Core side hashes (CTransaction's txid, a sighash) does the same, inside its anonymous
//! namespace, with crypto/sha256_sse4.cpp in its CORE_SOURCES and <crypto/sha256.h> included;
//! without it every hash runs the portable rounds under ASan (42 % of tx_check_block's CPU time).
//! No pair tests SHA-256, and the digests are the same either way: the call ends with Core's
//! self-test of the implementation it chose.
#define EQUIFUZZ_CORE_SHA256_AUTODETECT() \
    [[maybe_unused]] const std::string g_equifuzz_sha256_implementation { SHA256AutoDetect() }
