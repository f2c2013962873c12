// What a Core side over CCoinsViewDB needs to read its database back (utxo_flush, coins_view):
// the CDBWrapper behind the view, every key and value as bytes, de-obfuscated by Core. Ours; no
// Core code. Include it in a shim after Core's <txdb.h> and <dbwrapper.h>, inside nothing (it
// opens its own anonymous namespace: each side keeps its own copy).
#pragma once

#include <dbwrapper.h>
#include <span.h>
#include <txdb.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {
namespace equifuzz_coins_db {

using Bytes = std::vector<uint8_t>;
using Content = std::map<Bytes, Bytes>;

// CCoinsViewDB is final and keeps its wrapper protected; an explicit instantiation may name it
// (access is not checked there), which gives its member pointer without changing a Core header.
template <typename Tag, typename Tag::type M>
struct Reach {
    friend typename Tag::type Member(Tag) { return M; }
};
struct DbMember {
    using type = std::unique_ptr<CDBWrapper> CCoinsViewDB::*;
    friend type Member(DbMember);
};
template struct Reach<DbMember, &CCoinsViewDB::m_db>;

inline CDBWrapper& Wrapper(CCoinsViewDB& view) { return *(view.*Member(DbMember{})); }

//! Reads whatever is left of a stream: a key or a value as bytes.
struct AllBytes {
    Bytes* out;
    template <typename Stream>
    void Unserialize(Stream& s)
    {
        out->resize(s.size());
        s.read(MakeWritableByteSpan(*out));
    }
};

//! A key written as its bytes (CDBWrapper serializes what it is given).
struct RawKey {
    const Bytes* bytes;
    template <typename Stream>
    void Serialize(Stream& s) const
    {
        s.write(MakeByteSpan(*bytes));
    }
};

//! The obfuscation key's own entry: the string "\0obfuscate_key" serialized (length 14 first).
inline const Bytes& ObfuscationEntry()
{
    static const Bytes entry{[] {
        Bytes b{14, 0};
        const char* name{"obfuscate_key"};
        b.insert(b.end(), name, name + 13);
        return b;
    }()};
    return entry;
}

//! Every key and value of the database, the obfuscation key's entry left out.
inline Content Dump(CCoinsViewDB& view)
{
    Content content;
    std::unique_ptr<CDBIterator> it{Wrapper(view).NewIterator()};
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
        Bytes key, value;
        AllBytes k{&key}, v{&value};
        if (!it->GetKey(k)) throw std::runtime_error{"a key could not be read back"};
        if (key == ObfuscationEntry()) continue;
        if (!it->GetValue(v)) throw std::runtime_error{"a value could not be read back"};
        content.emplace(std::move(key), std::move(value));
    }
    return content;
}

} // namespace equifuzz_coins_db
} // namespace
