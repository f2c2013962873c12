// A small JSON reader for the test data files in tests/data/bitcoin, for the unit tests and the
// seed programs: values, arrays, objects, strings with \u escapes, numbers as text. Throws
// std::runtime_error on malformed input.
#pragma once

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace equifuzz::json {

struct Value;
using Array = std::vector<Value>;
using Object = std::map<std::string, Value>;

struct Number {
    std::string text;
    double AsDouble() const { return std::stod(text); }
    int64_t AsInt() const { return std::stoll(text); }
};

struct Value {
    std::variant<std::nullptr_t, bool, Number, std::string, std::shared_ptr<Array>, std::shared_ptr<Object>> v;
    bool IsArray() const { return std::holds_alternative<std::shared_ptr<Array>>(v); }
    bool IsString() const { return std::holds_alternative<std::string>(v); }
    bool IsNumber() const { return std::holds_alternative<Number>(v); }
    bool IsObject() const { return std::holds_alternative<std::shared_ptr<Object>>(v); }
    const Array& AsArray() const { return *std::get<std::shared_ptr<Array>>(v); }
    const Object& AsObject() const { return *std::get<std::shared_ptr<Object>>(v); }
    const std::string& AsString() const { return std::get<std::string>(v); }
    const Number& AsNumber() const { return std::get<Number>(v); }
};

class Parser
{
public:
    explicit Parser(std::string text) : m_s{std::move(text)} {}
    Value Parse()
    {
        Value v{ParseValue()};
        Skip();
        if (m_i != m_s.size()) Fail("trailing characters");
        return v;
    }

private:
    [[noreturn]] void Fail(const std::string& what) { throw std::runtime_error{"JSON: " + what + " at offset " + std::to_string(m_i)}; }
    void Skip() { while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i]))) ++m_i; }
    char Peek() { Skip(); if (m_i >= m_s.size()) Fail("unexpected end"); return m_s[m_i]; }
    void Expect(char c) { if (Peek() != c) Fail(std::string{"expected "} + c); ++m_i; }
    bool Literal(const char* word)
    {
        const std::string w{word};
        if (m_s.compare(m_i, w.size(), w) != 0) return false;
        m_i += w.size();
        return true;
    }
    Value ParseValue()
    {
        const char c{Peek()};
        if (c == '[') {
            ++m_i;
            auto a{std::make_shared<Array>()};
            if (Peek() == ']') { ++m_i; return {a}; }
            while (true) {
                a->push_back(ParseValue());
                if (Peek() == ',') { ++m_i; continue; }
                Expect(']');
                return {a};
            }
        }
        if (c == '{') {
            ++m_i;
            auto o{std::make_shared<Object>()};
            if (Peek() == '}') { ++m_i; return {o}; }
            while (true) {
                Value key{ParseValue()};
                if (!key.IsString()) Fail("object key must be a string");
                Expect(':');
                (*o)[key.AsString()] = ParseValue();
                if (Peek() == ',') { ++m_i; continue; }
                Expect('}');
                return {o};
            }
        }
        if (c == '"') return {ParseString()};
        if (Literal("true")) return {true};
        if (Literal("false")) return {false};
        if (Literal("null")) return {nullptr};
        const size_t start{m_i};
        while (m_i < m_s.size() && (std::isdigit(static_cast<unsigned char>(m_s[m_i])) || std::string{"+-.eE"}.find(m_s[m_i]) != std::string::npos)) ++m_i;
        if (start == m_i) Fail("unexpected character");
        return {Number{m_s.substr(start, m_i - start)}};
    }
    std::string ParseString()
    {
        ++m_i;
        std::string out;
        while (true) {
            if (m_i >= m_s.size()) Fail("unterminated string");
            const char c{m_s[m_i++]};
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            if (m_i >= m_s.size()) Fail("bad escape");
            const char e{m_s[m_i++]};
            switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                if (m_i + 4 > m_s.size()) Fail("bad \\u escape");
                const unsigned cp{static_cast<unsigned>(std::stoul(m_s.substr(m_i, 4), nullptr, 16))};
                m_i += 4;
                if (cp < 0x80) { out += static_cast<char>(cp); }
                else if (cp < 0x800) { out += static_cast<char>(0xc0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3f)); }
                else { out += static_cast<char>(0xe0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f)); out += static_cast<char>(0x80 | (cp & 0x3f)); }
                break;
            }
            default: out += e;
            }
        }
    }
    std::string m_s;
    size_t m_i{0};
};

inline Value ParseFile(const std::string& path)
{
    std::ifstream f{path};
    if (!f) throw std::runtime_error{"cannot open " + path};
    std::stringstream ss;
    ss << f.rdbuf();
    return Parser{ss.str()}.Parse();
}

} // namespace equifuzz::json
