// The hooks a Core side must define because it compiles Core's code without the rest of the node:
// where log lines go, whether a debug category is on, and what a failed assertion does. Core has
// declared each of them differently over the years; which declaration a tree has is probed by
// cmake/CoreObjects.cmake (EQUIFUZZ_CORE_HOOK_PROBES, the EQUIFUZZ_CORE_HOOK_* definitions, for every
// object of every side), so this file defines the one the tree declares, and a tree declaring none
// we know stops here with one #error naming the hook, not with a mismatched definition.
//
// It also names the tree's span type (equifuzz::core_hooks::Span) for a shim that defines one of
// Core's functions taking a span. Include it in exactly one source of a side (its shim), which defines:
//   bool equifuzz::core_hooks::LogCategoryEnabled(uint64_t category);  // a debug/trace category
//   void equifuzz::core_hooks::OnLogLine(std::string_view line);       // every line Core logs
// Assertions print Core's usual line and abort.
#pragma once

#include <logging.h>
#include <span.h>
#include <util/check.h>
#if defined(EQUIFUZZ_CORE_HOOK_LOG_ENTRY) || defined(EQUIFUZZ_CORE_HOOK_SHOULD_DEBUG_LOG) || defined(EQUIFUZZ_CORE_HOOK_SHOULD_LOG)
#include <util/log.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <source_location>
#include <span>
#include <string_view>

namespace equifuzz::core_hooks {
bool LogCategoryEnabled(uint64_t category);
void OnLogLine(std::string_view line);

//! The span type of the tree's declarations (random.h's fillrand, GetRandBytes...): Core's own
//! Span template until early 2025, std::span since. A shim defining such a function spells its
//! parameter with this.
#if defined(EQUIFUZZ_CORE_HOOK_CORE_SPAN)
template <typename T>
using Span = ::Span<T>;
#else
template <typename T>
using Span = std::span<T>;
#endif
} // namespace equifuzz::core_hooks

// --- Where a log line goes ------------------------------------------------------------------------
#if defined(EQUIFUZZ_CORE_HOOK_LOG_ENTRY)
// Since 2026-02: the log macros build a util::log::Entry and hand it to util::log::Log.
void util::log::Log(util::log::Entry entry) { equifuzz::core_hooks::OnLogLine(entry.message); }
#elif defined(EQUIFUZZ_CORE_HOOK_LOG_SOURCE_LOCATION_CLASS)
void BCLog::Logger::LogPrintStr(std::string_view str, SourceLocation&&, BCLog::LogFlags, BCLog::Level, bool)
{
    equifuzz::core_hooks::OnLogLine(str);
}
#elif defined(EQUIFUZZ_CORE_HOOK_LOG_SOURCE_LOCATION)
void BCLog::Logger::LogPrintStr(std::string_view str, std::source_location&&, BCLog::LogFlags, BCLog::Level, bool)
{
    equifuzz::core_hooks::OnLogLine(str);
}
#elif defined(EQUIFUZZ_CORE_HOOK_LOG_PRINT_STR)
void BCLog::Logger::LogPrintStr(std::string_view str, std::string_view, std::string_view, int, BCLog::LogFlags, BCLog::Level)
{
    equifuzz::core_hooks::OnLogLine(str);
}
#else
#error "equifuzz: this Core tree's logging hook is none equifuzz knows (util::log::Log(Entry) or BCLog::Logger::LogPrintStr); add its probe to EQUIFUZZ_CORE_HOOK_PROBES in cmake/CoreObjects.cmake and its definition here"
#endif

// --- Whether a category logs ----------------------------------------------------------------------
#if defined(EQUIFUZZ_CORE_HOOK_SHOULD_DEBUG_LOG)
// Since 2026-05: LogDebug and LogTrace ask these free functions.
bool util::log::ShouldDebugLog(util::log::Category category) { return equifuzz::core_hooks::LogCategoryEnabled(category); }
#if defined(EQUIFUZZ_CORE_HOOK_SHOULD_TRACE_LOG)
bool util::log::ShouldTraceLog(util::log::Category category) { return equifuzz::core_hooks::LogCategoryEnabled(category); }
#endif
#elif defined(EQUIFUZZ_CORE_HOOK_SHOULD_LOG)
// 2026-02 to 2026-05: one free function for every category and level.
bool util::log::ShouldLog(util::log::Category category, util::log::Level) { return equifuzz::core_hooks::LogCategoryEnabled(category); }
#endif
#if defined(EQUIFUZZ_CORE_HOOK_WILL_LOG_CATEGORY_LEVEL)
// Before that, and still declared after: the logger instance answers.
bool BCLog::Logger::WillLogCategoryLevel(BCLog::LogFlags category, BCLog::Level) const
{
    return equifuzz::core_hooks::LogCategoryEnabled(static_cast<uint64_t>(category));
}
#endif
#if defined(EQUIFUZZ_CORE_HOOK_LOG_INSTANCE)
BCLog::Logger& LogInstance()
{
    static BCLog::Logger* const logger{new BCLog::Logger{}};
    return *logger;
}
#endif

// --- A failed assertion ---------------------------------------------------------------------------
#if defined(EQUIFUZZ_CORE_HOOK_ASSERT_SOURCE_LOCATION)
void assertion_fail(const std::source_location& loc, std::string_view assertion)
{
    std::fprintf(stderr, "%s:%u %s: Assertion `%.*s' failed.\n", loc.file_name(), unsigned(loc.line()), loc.function_name(),
                 int(assertion.size()), assertion.data());
    std::abort();
}
#elif defined(EQUIFUZZ_CORE_HOOK_ASSERT_FILE_LINE)
void assertion_fail(std::string_view file, int line, std::string_view func, std::string_view assertion)
{
    std::fprintf(stderr, "%.*s:%d %.*s: Assertion `%.*s' failed.\n", int(file.size()), file.data(), line, int(func.size()),
                 func.data(), int(assertion.size()), assertion.data());
    std::abort();
}
#else
#error "equifuzz: this Core tree's assertion_fail is none equifuzz knows (util/check.h); add its probe to EQUIFUZZ_CORE_HOOK_PROBES in cmake/CoreObjects.cmake and its definition here"
#endif
