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
