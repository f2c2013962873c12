// Findings as the tools read them (tools/equifuzz/findings.py, their one reader): one JSON line
// per finding on standard error, and when fuzzing goes on after findings (EQUIFUZZ_FINDINGS_DIR)
// each signature's first input with its lines and every signature's hits.
#include "internal.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unistd.h>
#include <utility>

namespace equifuzz::internal {

//! The version of the finding lines below; tools/equifuzz/findings.py reads this one and refuses
//! another in one sentence.
constexpr int FINDING_PROTOCOL{1};

//! `text` as a JSON string: quoted, with '"', '\\' and the control characters escaped (other
//! bytes as they are: the fields are UTF-8 text).
std::string JsonString(std::string_view text)
{
    std::string out{"\""};
    for (const char c : text) {
        const auto u{static_cast<unsigned char>(c)};
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += HEX_DIGITS[u >> 4];
            out += HEX_DIGITS[u & 15];
        } else {
            out += c;
        }
    }
    return out + '"';
}

//! One finding as the line the tools read: "equifuzz-finding " and a JSON object (version
//! FINDING_PROTOCOL): v, i (its place among the input's findings, from 0), stop (whether the
//! run aborts on this input), kind, signature ("<target>:<signature>"), class, roles (which
//! sides differed, MismatchRoles), name (the field or the property) and detail (what differed,
//! when its report was printed).
void PrintFinding(FILE* out, const char* target, const Finding& f, size_t index, bool stop)
{
    std::string roles;
    for (size_t b = 0; b < f.roles.size();) {
        const size_t e{std::min(f.roles.find(',', b), f.roles.size())};
        if (e > b) roles += (roles.empty() ? "" : ",") + JsonString(std::string_view{f.roles}.substr(b, e - b));
        b = e + 1;
    }
    std::fprintf(out, "equifuzz-finding {\"v\":%d,\"i\":%zu,\"stop\":%s,\"kind\":%s,\"signature\":%s,\"class\":%s,\"roles\":[%s],\"name\":%s,\"detail\":%s}\n",
                 FINDING_PROTOCOL, index, stop ? "true" : "false", JsonString(f.kind).c_str(),
                 JsonString(std::string{target} + ":" + f.signature).c_str(), JsonString(FieldClassName(f.cls)).c_str(), roles.c_str(),
                 JsonString(f.name).c_str(), JsonString(f.detail).c_str());
}

//! When fuzzing goes on after findings (EQUIFUZZ_FINDINGS_DIR): each signature's first input is
//! written as <dir>/<pid>-<n>.input beside <pid>-<n>.findings (the input's finding lines, as
//! PrintFinding writes them), and every hit is counted in <dir>/<pid>.counts (one JSON object per
//! line: v, signature "<target>:<signature>", kind, hits), rewritten when a signature is new,
//! every 1024th hit and at exit. Each process has its own files.
struct Recorder {
    std::map<std::string, std::pair<uint64_t, const char*>> hits; //!< "<target>:<signature>" -> (hits, kind)
    uint64_t total{0};
    unsigned files{0};

    std::string Path(const std::string& name) const { return FindingsDir() + "/" + std::to_string(getpid()) + name; }

    void WriteCounts() const
    {
        const std::string path{Path(".counts")};
        const std::string tmp{path + ".tmp"};
        FILE* f{std::fopen(tmp.c_str(), "w")};
        if (!f) return;
        for (const auto& [signature, count] : hits) {
            std::fprintf(f, "{\"v\":%d,\"signature\":%s,\"kind\":%s,\"hits\":%llu}\n", FINDING_PROTOCOL, JsonString(signature).c_str(),
                         JsonString(count.second).c_str(), static_cast<unsigned long long>(count.first));
        }
        std::fclose(f);
        std::rename(tmp.c_str(), path.c_str());
    }

    void Add(const InputState& s)
    {
        bool new_signature{false};
        for (const Finding& f : s.findings) {
            auto [it, added]{hits.try_emplace(std::string{s.target} + ":" + f.signature, 0, f.kind)};
            ++it->second.first;
            new_signature |= added;
        }
        ++total;
        if (new_signature) {
            const std::string stem{"-" + std::to_string(++files)};
            if (FILE* f{std::fopen(Path(stem + ".input").c_str(), "wb")}) {
                if (s.size) std::fwrite(s.data, 1, s.size, f);
                std::fclose(f);
            }
            if (FILE* f{std::fopen(Path(stem + ".findings").c_str(), "w")}) {
                for (size_t i = 0; i < s.findings.size(); ++i) PrintFinding(f, s.target, s.findings[i], i, /*stop=*/false);
                std::fclose(f);
            }
        }
        if (new_signature || total % 1024 == 0) WriteCounts();
    }
};

Recorder& TheRecorder()
{
    static Recorder* recorder{[] {
        std::atexit([] { TheRecorder().WriteCounts(); });
        return new Recorder;
    }()};
    return *recorder;
}

bool RecordedBefore(const std::string& signature)
{
    return !FindingsDir().empty() && TheRecorder().hits.contains(std::string{State().target} + ":" + signature);
}

void RecordFindings()
{
    InputState& s{State()};
    TheRecorder().Add(s);
    s.findings.clear();
}

} // namespace equifuzz::internal
