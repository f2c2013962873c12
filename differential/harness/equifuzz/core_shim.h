// Helpers for the Core sides' shims (differential/<pair>/core/shim.cpp): small things every shim
// needs when it turns Core's answers into a pair's outcome types. Ours; no Core code.
#pragma once

#include <exception>
#include <string>
#include <string_view>

namespace equifuzz {

//! The message of an exception Core threw. libstdc++ appends ": iostream error" to an
//! ios_base::failure's message; Core's own text is what precedes it, and that is what the models
//! reproduce.
inline std::string CoreMessage(const std::exception& e)
{
    std::string what{e.what()};
    constexpr std::string_view suffix{": iostream error"};
    if (what.size() >= suffix.size() && what.compare(what.size() - suffix.size(), suffix.size(), suffix) == 0) {
        what.resize(what.size() - suffix.size());
    }
    return what;
}

} // namespace equifuzz
