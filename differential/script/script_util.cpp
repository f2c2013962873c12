#include "script_util.h"

#include "crypto.h"

#include <array>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace equifuzz::script {
namespace {

// Names of opcodes 0x61 (NOP) .. 0xb9 (NOP10), in order.
constexpr std::array<const char*, 0xb9 - 0x61 + 1> OPCODE_NAMES{
    "NOP", "VER", "IF", "NOTIF", "VERIF", "VERNOTIF", "ELSE", "ENDIF", "VERIFY", "RETURN",
    "TOALTSTACK", "FROMALTSTACK", "2DROP", "2DUP", "3DUP", "2OVER", "2ROT", "2SWAP", "IFDUP",
    "DEPTH", "DROP", "DUP", "NIP", "OVER", "PICK", "ROLL", "ROT", "SWAP", "TUCK", "CAT", "SUBSTR",
    "LEFT", "RIGHT", "SIZE", "INVERT", "AND", "OR", "XOR", "EQUAL", "EQUALVERIFY", "RESERVED1",
    "RESERVED2", "1ADD", "1SUB", "2MUL", "2DIV", "NEGATE", "ABS", "NOT", "0NOTEQUAL", "ADD", "SUB",
    "MUL", "DIV", "MOD", "LSHIFT", "RSHIFT", "BOOLAND", "BOOLOR", "NUMEQUAL", "NUMEQUALVERIFY",
    "NUMNOTEQUAL", "LESSTHAN", "GREATERTHAN", "LESSTHANOREQUAL", "GREATERTHANOREQUAL", "MIN", "MAX",
    "WITHIN", "RIPEMD160", "SHA1", "SHA256", "HASH160", "HASH256", "CODESEPARATOR", "CHECKSIG",
    "CHECKSIGVERIFY", "CHECKMULTISIG", "CHECKMULTISIGVERIFY", "NOP1", "CHECKLOCKTIMEVERIFY",
    "CHECKSEQUENCEVERIFY", "NOP4", "NOP5", "NOP6", "NOP7", "NOP8", "NOP9", "NOP10"};

std::optional<uint8_t> OpcodeByName(std::string name)
{
    if (name.rfind("OP_", 0) == 0) name = name.substr(3);
    if (name == "RESERVED") return 0x50;
    if (name == "NOP2") return 0xb1;
    if (name == "NOP3") return 0xb2;
    for (size_t i = 0; i < OPCODE_NAMES.size(); ++i) {
        if (name == OPCODE_NAMES[i]) return static_cast<uint8_t>(0x61 + i);
    }
    return std::nullopt;
}

const std::array<std::pair<const char*, uint32_t>, 21> FLAG_NAMES{{
    {"P2SH", FLAG_P2SH}, {"STRICTENC", FLAG_STRICTENC}, {"DERSIG", FLAG_DERSIG}, {"LOW_S", FLAG_LOW_S},
    {"NULLDUMMY", FLAG_NULLDUMMY}, {"SIGPUSHONLY", FLAG_SIGPUSHONLY}, {"MINIMALDATA", FLAG_MINIMALDATA},
    {"DISCOURAGE_UPGRADABLE_NOPS", FLAG_DISCOURAGE_UPGRADABLE_NOPS}, {"CLEANSTACK", FLAG_CLEANSTACK},
    {"CHECKLOCKTIMEVERIFY", FLAG_CHECKLOCKTIMEVERIFY}, {"CHECKSEQUENCEVERIFY", FLAG_CHECKSEQUENCEVERIFY},
    {"WITNESS", FLAG_WITNESS}, {"DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM", FLAG_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM},
    {"MINIMALIF", FLAG_MINIMALIF}, {"NULLFAIL", FLAG_NULLFAIL}, {"WITNESS_PUBKEYTYPE", FLAG_WITNESS_PUBKEYTYPE},
    {"CONST_SCRIPTCODE", FLAG_CONST_SCRIPTCODE}, {"TAPROOT", FLAG_TAPROOT},
    {"DISCOURAGE_OP_SUCCESS", FLAG_DISCOURAGE_OP_SUCCESS},
    {"DISCOURAGE_UPGRADABLE_PUBKEYTYPE", FLAG_DISCOURAGE_UPGRADABLE_PUBKEYTYPE},
    {"DISCOURAGE_UPGRADABLE_TAPROOT_VERSION", FLAG_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION},
}};

} // namespace

const char* ErrorName(ScriptError e)
{
    switch (e) {
#define EQUIFUZZ_SCRIPT_ERROR_NAME(name) \
    case ScriptError::name: return #name;
        EQUIFUZZ_SCRIPT_ERRORS(EQUIFUZZ_SCRIPT_ERROR_NAME)
#undef EQUIFUZZ_SCRIPT_ERROR_NAME
    }
    return "?";
}

namespace {
thread_local ErrorCodes g_error_codes{};
} // namespace

const ErrorCodes& CurrentErrorCodes() { return g_error_codes; }

ScopedErrorCodes::ScopedErrorCodes(const ErrorCodes& codes) : m_before{g_error_codes} { g_error_codes = codes; }
ScopedErrorCodes::~ScopedErrorCodes() { g_error_codes = m_before; }

bool ParseFlags(const std::string& text, uint32_t& flags)
{
    flags = 0;
    std::stringstream ss{text};
    std::string name;
    while (std::getline(ss, name, ',')) {
        if (name.empty() || name == "NONE") continue;
        bool found{false};
        for (const auto& [n, f] : FLAG_NAMES) {
            if (name == n) {
                flags |= f;
                found = true;
            }
        }
        if (!found) return false;
    }
    return true;
}

std::string FlagsToString(uint32_t flags)
{
    std::string out;
    for (const auto& [n, f] : FLAG_NAMES) {
        if (flags & f) out += (out.empty() ? "" : ",") + std::string{n};
    }
    return out;
}

std::optional<Bytes> ParseHex(const std::string& hex)
{
    if (hex.size() % 2) return std::nullopt;
    Bytes out;
    for (size_t i = 0; i < hex.size(); i += 2) {
        if (!std::isxdigit(static_cast<unsigned char>(hex[i])) || !std::isxdigit(static_cast<unsigned char>(hex[i + 1]))) return std::nullopt;
        out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    return out;
}

std::optional<Bytes> ParseAsm(const std::string& text)
{
    Bytes out;
    std::stringstream ss{text};
    std::string tok;
    while (ss >> tok) {
        const bool numeric{!tok.empty() && (std::isdigit(static_cast<unsigned char>(tok[0])) ||
                                            (tok[0] == '-' && tok.size() > 1 && std::isdigit(static_cast<unsigned char>(tok[1]))))};
        bool all_digits{numeric};
        for (size_t i = 1; i < tok.size() && all_digits; ++i) all_digits = std::isdigit(static_cast<unsigned char>(tok[i])) != 0;
        if (all_digits) {
            const long long n{std::strtoll(tok.c_str(), nullptr, 10)};
            if (n == 0) {
                out.push_back(0x00);
            } else if (n == -1) {
                out.push_back(0x4f);
            } else if (n >= 1 && n <= 16) {
                out.push_back(static_cast<uint8_t>(0x50 + n));
            } else {
                // A script number, pushed.
                Bytes num;
                uint64_t abs{n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n)};
                while (abs) { num.push_back(static_cast<uint8_t>(abs & 0xff)); abs >>= 8; }
                if (num.back() & 0x80) num.push_back(n < 0 ? 0x80 : 0x00); else if (n < 0) num.back() |= 0x80;
                AppendPush(out, num);
            }
        } else if (tok.size() > 2 && tok[0] == '0' && tok[1] == 'x') {
            const auto raw{ParseHex(tok.substr(2))};
            if (!raw) return std::nullopt;
            out.insert(out.end(), raw->begin(), raw->end());
        } else if (tok.size() >= 2 && tok.front() == '\'' && tok.back() == '\'') {
            const std::string s{tok.substr(1, tok.size() - 2)};
            AppendPush(out, Bytes{s.begin(), s.end()});
        } else if (const auto op{OpcodeByName(tok)}) {
            out.push_back(*op);
        } else {
            return std::nullopt;
        }
    }
    return out;
}

} // namespace equifuzz::script
