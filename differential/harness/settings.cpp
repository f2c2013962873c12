// What the environment asks of the harness (EQUIFUZZ_*), each read once.
#include "internal.h"

#include <cstdlib>

namespace equifuzz::internal {

//! EQUIFUZZ_ALLOW: comma-separated field (or property) names whose differences are notes.
const std::set<std::string, std::less<>>& Allowed()
{
    static const std::set<std::string, std::less<>> allowed{[] {
        std::set<std::string, std::less<>> names;
        const char* env{std::getenv("EQUIFUZZ_ALLOW")};
        std::string item;
        for (const char* c = env ? env : ""; ; ++c) {
            if (*c == ',' || *c == '\0') {
                if (!item.empty()) names.insert(item);
                item.clear();
                if (*c == '\0') break;
            } else {
                item += *c;
            }
        }
        return names;
    }()};
    return allowed;
}

//! Whether the environment variable `name` is set to "1".
bool EnvFlag(const char* name)
{
    const char* env{std::getenv(name)};
    return env && std::string_view{env} == "1";
}

//! EQUIFUZZ_STRICT=1: a difference in an internal field counts as a promise's would.
bool Strict()
{
    static const bool strict{EnvFlag("EQUIFUZZ_STRICT")};
    return strict;
}

//! EQUIFUZZ_FINDINGS_DIR: where findings are recorded when fuzzing goes on after them (empty:
//! abort at the end of an input that has one).
const std::string& FindingsDir()
{
    static const std::string dir{[] {
        const char* env{std::getenv("EQUIFUZZ_FINDINGS_DIR")};
        return std::string{env ? env : ""};
    }()};
    return dir;
}

//! EQUIFUZZ_ONLY_SIGNATURE: "<target>:<signature>"; an input aborts only when it shows that one
//! (what `minimize` keeps while libFuzzer shrinks an input that shows several). Empty: any.
const std::string& OnlySignature()
{
    static const std::string only{[] {
        const char* env{std::getenv("EQUIFUZZ_ONLY_SIGNATURE")};
        return std::string{env ? env : ""};
    }()};
    return only;
}

} // namespace equifuzz::internal
