// The seed programs' shared part (seeds.h): the stream, the writer, the real data, and main().
#include <common/seeds.h>

#include <common/digest.h>
#include <common/json.h>
#include <common/transaction.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace equifuzz::seeds {

namespace fs = std::filesystem;

uint8_t Stream::Byte()
{
    if (m_used == m_block.size()) {
        Bytes message{m_name.begin(), m_name.end()};
        for (int i = 0; i < 8; ++i) message.push_back(static_cast<uint8_t>(m_counter >> (8 * i)));
        ++m_counter;
        Digest(DigestKind::Sha256, message, m_block.data());
        m_used = 0;
    }
    return m_block[m_used++];
}

uint64_t Stream::U64()
{
    uint64_t v{0};
    for (int i = 0; i < 8; ++i) v = (v << 8) | Byte();
    return v;
}

Bytes Stream::Take(size_t n)
{
    Bytes out(n);
    for (uint8_t& b : out) b = Byte();
    return out;
}

bool Writer::Wants(std::string_view target) const
{
    if (m_only.empty()) return target.find('/') == std::string_view::npos;
    return std::find(m_only.begin(), m_only.end(), target) != m_only.end();
}

void Writer::Add(std::string_view target, std::span<const uint8_t> input)
{
    if (!Wants(target)) return;
    std::array<uint8_t, 20> sha1{};
    Digest(DigestKind::Sha1, input, sha1.data());
    std::string name;
    for (uint8_t b : sha1) {
        static constexpr char HEX[]{"0123456789abcdef"};
        name += HEX[b >> 4];
        name += HEX[b & 15];
    }
    const fs::path dir{m_out / std::string{target}};
    if (!m_written.insert((dir / name).string()).second) return; // the same bytes twice: one file
    fs::create_directories(dir);
    std::ofstream f{dir / name, std::ios::binary};
    f.write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
    if (!f) throw std::runtime_error{"cannot write " + (dir / name).string()};
    const auto it{std::find_if(m_counts.begin(), m_counts.end(), [&](const auto& c) { return c.first == target; })};
    if (it == m_counts.end()) {
        m_counts.emplace_back(std::string{target}, 1);
    } else {
        ++it->second;
    }
}

void Writer::AddRandom(std::string_view target, std::initializer_list<size_t> lengths)
{
    Stream s{target};
    for (size_t n : lengths) Add(target, s.Take(n));
}

void Writer::AddConstant(std::string_view target, std::initializer_list<uint8_t> bytes, std::initializer_list<size_t> lengths)
{
    for (uint8_t b : bytes) {
        for (size_t n : lengths) Add(target, Bytes(n, b));
    }
}

void Writer::AddRealSlices(std::string_view target, size_t count, size_t max_len)
{
    if (!Wants(target)) return;
    const Bytes blob{ReadData("277647.dat")};
    Stream r{std::string{target} + "/slices"};
    for (size_t i = 0; i < count; ++i) {
        const size_t n{r.InRange(1, max_len - 1)};
        const size_t start{r.Below(blob.size() - n)};
        Add(target, std::span{blob}.subspan(start, n));
    }
}

Bytes FromHex(const std::string& hex)
{
    const auto nibble{[&](char c) -> uint8_t {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        throw std::runtime_error{"not hex: " + hex.substr(0, 40)};
    }};
    if (hex.size() % 2 != 0) throw std::runtime_error{"odd hex length: " + hex.substr(0, 40)};
    Bytes out;
    for (size_t i = 0; i < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
    return out;
}

std::vector<Bytes> Writer::TestVectorTransactions() const
{
    std::vector<Bytes> txs;
    for (const char* name : {"tx_valid.json", "tx_invalid.json"}) {
        const json::Value file{json::ParseFile((m_data / name).string())};
        for (const json::Value& entry : file.AsArray()) {
            const json::Array& row{entry.AsArray()};
            if (row.size() >= 2 && row[0].IsArray()) txs.push_back(FromHex(row[1].AsString()));
        }
    }
    const Bytes text{ReadData("many_inputs_tx.hex")};
    std::string hex(text.begin(), text.end());
    while (!hex.empty() && std::isspace(static_cast<unsigned char>(hex.back()))) hex.pop_back();
    const Bytes decred{FromHex(hex)};
    const size_t n{decred.at(4)}; // a one-byte CompactSize: 89 inputs
    Bytes tx{0x01, 0x00, 0x00, 0x00, static_cast<uint8_t>(n)};
    for (size_t k = 0; k < n; ++k) {
        const auto prevout{decred.begin() + 5 + 41 * k};
        tx.insert(tx.end(), prevout, prevout + 36);
        tx.insert(tx.end(), {0x00, 0xff, 0xff, 0xff, 0xff}); // an empty scriptSig, the final sequence
    }
    tx.insert(tx.end(), {0x01, 0xe8, 0x03, 0, 0, 0, 0, 0, 0, 0x01, 0x51, 0, 0, 0, 0}); // 1,000 sat to OP_TRUE
    txs.push_back(tx);
    return txs;
}

Bytes Writer::ReadData(const std::string& name) const
{
    std::ifstream f{m_data / name, std::ios::binary};
    if (!f) throw std::runtime_error{"cannot read " + (m_data / name).string()};
    return Bytes{std::istreambuf_iterator<char>{f}, std::istreambuf_iterator<char>{}};
}

std::vector<Bytes> Writer::RealBlocks() const
{
    std::vector<Bytes> blocks;
    for (const char* name : {"blk_0_to_4.dat", "277647.dat"}) {
        const Bytes blob{ReadData(name)};
        // The block-file layout: the network's magic, the block's length (LE32), the block.
        for (size_t i = 0; i + 8 <= blob.size();) {
            const size_t size{blob[i + 4] | blob[i + 5] << 8 | blob[i + 6] << 16 | size_t{blob[i + 7]} << 24};
            if (i + 8 + size > blob.size()) throw std::runtime_error{(m_data / name).string() + " ends inside a block"};
            blocks.emplace_back(blob.begin() + i + 8, blob.begin() + i + 8 + size);
            i += 8 + size;
        }
    }
    return blocks;
}

std::vector<RealCoin> Writer::RealCoins(size_t max_script) const
{
    std::vector<RealCoin> coins;
    uint32_t place{0};
    for (const Bytes& raw : RealBlocks()) {
        ByteReader r{raw};
        const Block block{ReadBlock(r)};
        uint32_t height{place++};
        const Bytes& sig{block.txs.at(0).vin.at(0).script_sig};
        if (sig.size() >= 4 && sig[0] == 3) height = sig[1] | sig[2] << 8 | sig[3] << 16; // BIP 34: a 3-byte push
        for (size_t i = 0; i < block.txs.size(); ++i) {
            for (const TxOut& out : block.txs[i].vout) {
                if (out.script_pubkey.size() <= max_script && out.value >= 0 && out.value <= MAX_MONEY) {
                    coins.push_back({out.value, out.script_pubkey, height, i == 0});
                }
            }
        }
    }
    return coins;
}

} // namespace equifuzz::seeds

int main(int argc, char** argv)
{
    using namespace equifuzz::seeds;
    fs::path data, out;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i) {
        const std::string a{argv[i]};
        if ((a == "--data" || a == "--out") && i + 1 < argc) {
            (a == "--data" ? data : out) = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            data.clear();
            break;
        } else {
            only.push_back(a);
        }
    }
    if (data.empty() || out.empty()) {
        std::fprintf(stderr, "usage: %s --data DIR --out CORPORA [TARGET...]\n"
                             "Writes the pair's seed inputs to CORPORA/<target>/<sha1>, from the real Bitcoin data in DIR.\n",
                     argv[0]);
        return 2;
    }
    try {
        Writer w{data, out, only};
        WriteSeeds(w);
        for (const std::string& target : only) {
            if (std::none_of(w.Counts().begin(), w.Counts().end(), [&](const auto& c) { return c.first == target; })) {
                throw std::runtime_error{"this program writes no seeds for '" + target + "' (not a target of its pair)"};
            }
        }
        for (const auto& [target, n] : w.Counts()) std::printf("%s %zu\n", target.c_str(), n);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "equifuzz: the seeds were not written: %s\n", e.what());
        return 1;
    }
    return 0;
}
