// A pair's seed program: the pair's own encoder writes every seed input of its targets, so the
// input format has one writer (the decoder's mirror) instead of a second one in Python.
//
// A pair that has one lists it in equifuzz_add_pair (SEED_WRITER differential/<pair>/seeds.cpp);
// a replay build links it as <pair>_seeds, and `./equifuzz seeds` runs it:
//
//     <pair>_seeds --data tests/data/bitcoin --out corpora [TARGET...]
//
// which writes corpora/<target>/<sha1 of the bytes> for each seed (TARGET: only those targets).
// A name with a '/' (a benchmark's inputs, not a target's seeds: coins_view's input_kinds/plain)
// is written only when named.
// The file defines WriteSeeds below; everything it draws comes from Stream, named by the target,
// so the same tree writes the same files on every machine and standard library.
#pragma once

#include <equifuzz/harness.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace equifuzz::seeds {

//! Bytes that look random and are the same everywhere: SHA-256 of the name and a counter.
//! (std::uniform_int_distribution and std::shuffle differ between standard libraries.)
class Stream
{
public:
    explicit Stream(std::string_view name) : m_name{name} {}
    uint8_t Byte();
    uint64_t U64();
    //! A number in [0, n) (n > 0).
    uint64_t Below(uint64_t n) { return U64() % n; }
    //! A number in [lo, hi].
    uint64_t InRange(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }
    //! True `percent` times in a hundred.
    bool Chance(unsigned percent) { return Below(100) < percent; }
    Bytes Take(size_t n);
    template <typename T>
    const T& Pick(std::span<const T> from) { return from[Below(from.size())]; }
    template <typename T>
    const T& Pick(const std::vector<T>& from) { return from[Below(from.size())]; }
    template <typename T>
    T Pick(std::initializer_list<T> from) { return from.begin()[Below(from.size())]; }
    //! Fisher-Yates with Below.
    template <typename T>
    void Shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[Below(i)]);
    }

private:
    std::string m_name;
    uint64_t m_counter{0};
    std::array<uint8_t, 32> m_block{};
    size_t m_used{32};
};

//! An output of a real block: its amount and script, its block's height (BIP 34's in the coinbase
//! where it has one, else the block's place among the data's blocks), and whether a coinbase made it.
struct RealCoin {
    int64_t amount{0};
    Bytes script;
    uint32_t height{0};
    bool coinbase{false};
};

//! A real coin as a pair's coin type (a struct with height, coinbase, amount and script).
template <typename C>
C CoinAs(const RealCoin& r)
{
    C c;
    c.height = r.height;
    c.coinbase = r.coinbase;
    c.amount = r.amount;
    c.script = r.script;
    return c;
}

//! Where the seeds go, and the real data they are made from.
class Writer
{
public:
    Writer(std::filesystem::path data, std::filesystem::path out, std::vector<std::string> only)
        : m_data{std::move(data)}, m_out{std::move(out)}, m_only{std::move(only)} {}
    //! The real Bitcoin data (tests/data/bitcoin).
    const std::filesystem::path& Data() const { return m_data; }
    //! Whether `target`'s seeds are asked for (a name with a '/' only when named).
    bool Wants(std::string_view target) const;
    //! Writes one seed of `target` (named by the SHA-1 of its bytes, as libFuzzer names inputs;
    //! the same bytes again are one file, counted once).
    void Add(std::string_view target, std::span<const uint8_t> input);
    //! Inputs of each length, their bytes from Stream(target).
    void AddRandom(std::string_view target, std::initializer_list<size_t> lengths);
    //! Inputs of each length made of one byte repeated, for each byte: the edge choices.
    void AddConstant(std::string_view target, std::initializer_list<uint8_t> bytes, std::initializer_list<size_t> lengths);
    //! `count` slices of a real block file (277647.dat as it is on disk: magic, length, block) of 1 to
    //! `max_len` - 1 bytes at places drawn from Stream(target + "/slices"): real bytes for targets
    //! that read raw bytes.
    void AddRealSlices(std::string_view target, size_t count, size_t max_len);
    //! Every block of the data's block-file layout files (blk_0_to_4.dat, then 277647.dat), raw.
    std::vector<Bytes> RealBlocks() const;
    //! Every output of those blocks whose script is at most `max_script` bytes, in block order.
    std::vector<RealCoin> RealCoins(size_t max_script) const;
    //! The serialized transactions of tx_valid.json and tx_invalid.json, then one Bitcoin
    //! transaction spending the 89 real outpoints of many_inputs_tx.hex (a Decred transaction: a
    //! one-byte tree follows each outpoint) with one output.
    std::vector<Bytes> TestVectorTransactions() const;
    //! A file of the real data, whole.
    Bytes ReadData(const std::string& name) const;
    //! How many seeds each target got, in the order first written.
    const std::vector<std::pair<std::string, size_t>>& Counts() const { return m_counts; }

private:
    std::filesystem::path m_data;
    std::filesystem::path m_out;
    std::vector<std::string> m_only;
    std::vector<std::pair<std::string, size_t>> m_counts;
    std::set<std::string> m_written;
};

//! The bytes of a hex string (either case); std::runtime_error on anything else.
Bytes FromHex(const std::string& hex);

//! Defined by the pair's seeds.cpp: every seed of every target of the pair (Writer::Wants skips
//! the ones not asked for).
void WriteSeeds(Writer& w);

} // namespace equifuzz::seeds
