// A reader for the test-vector files in tests/data/bitcoin (script_tests.json, tx_valid.json,
// ...): arrays, strings and numbers, which is all they hold. Header-only, for the unit tests and
// the seed programs; a file with objects, literals or escapes beyond \" and \\ is refused with
// std::runtime_error.
#pragma once

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace equifuzz::json {

struct Value;
using Array = std::vector<Value>;
struct Value {
    std::variant<std::string, double, Array> v;
    bool IsString() const { return std::holds_alternative<std::string>(v); }
    bool IsArray() const { return std::holds_alternative<Array>(v); }
    const std::string& Str() const { return std::get<std::string>(v); }
    double Num() const { return std::get<double>(v); }
    const Array& Arr() const { return std::get<Array>(v); }
};

class Reader
{
public:
    explicit Reader(std::string text) : m_s{std::move(text)} {}
    Value Read()
    {
        Skip();
        if (m_pos >= m_s.size()) throw std::runtime_error{"unexpected end of JSON"};
        const char c{m_s[m_pos]};
        if (c == '[') {
            ++m_pos;
            Array arr;
            Skip();
            if (At() == ']') {
                ++m_pos;
                return Value{arr};
            }
            while (true) {
                arr.push_back(Read());
                Skip();
                if (At() == ',') {
                    ++m_pos;
                    continue;
                }
                if (At() == ']') {
                    ++m_pos;
                    return Value{arr};
                }
                throw std::runtime_error{"bad JSON array at offset " + std::to_string(m_pos)};
            }
        }
        if (c == '"') {
            ++m_pos;
            std::string out;
            while (At() != '"') {
                if (At() == '\\') {
                    ++m_pos;
                    if (At() != '"' && At() != '\\') throw std::runtime_error{"a JSON escape this reader does not read at offset " + std::to_string(m_pos)};
                }
                out += m_s[m_pos++];
            }
            ++m_pos;
            return Value{out};
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            size_t used{0};
            const double d{std::stod(m_s.substr(m_pos, 32), &used)};
            m_pos += used;
            return Value{d};
        }
        throw std::runtime_error{"a JSON value this reader does not read at offset " + std::to_string(m_pos)};
    }

private:
    char At() const
    {
        if (m_pos >= m_s.size()) throw std::runtime_error{"unexpected end of JSON"};
        return m_s[m_pos];
    }
    void Skip()
    {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos]))) ++m_pos;
    }
    std::string m_s;
    size_t m_pos{0};
};

//! The file at `path`, read whole.
inline Value ReadFile(const std::string& path)
{
    std::ifstream f{path};
    if (!f) throw std::runtime_error{"cannot read " + path};
    std::stringstream ss;
    ss << f.rdbuf();
    return Reader{ss.str()}.Read();
}

} // namespace equifuzz::json
