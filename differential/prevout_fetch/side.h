// The prevout fetch pair (#35295): what every side offers. A side runs a scenario: coins in a
// database, a few entries in the cache over it (the node's "middle" cache), and one block whose
// transactions are connected through an overlay cache over the middle one, in ConnectBlock's
// access order (or a permuted one, or stopping early), then the overlay flushed into the middle
// cache or reset. Our sides run it on the model (model.h): the serial overlay (original) and the
// overlay with the prefetch queue (optimized); Bitcoin Core's sides (core/shim.cpp) on
// CoinsViewOverlay over CCoinsViewCache over a memory-only CCoinsViewDB, the merge's with a
// ThreadPool of the input's worker count.
#pragma once

#include <equifuzz/choices/prevout_fetch.h>
#include <equifuzz/side.h>

// Coin, Bytes, Hash: the coins the UTXO flush pair already models (relative: Core sides see no
// include path of ours but the harness).
#include "../utxo_flush/model.h"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace equifuzz::prevout_fetch {

using utxo_flush::Bytes;
using utxo_flush::Coin;
using utxo_flush::Hash;

//! The height every output of the block is added at (AddCoins' nHeight).
inline constexpr uint32_t BLOCK_HEIGHT{900'000};
//! The worker counts an input chooses from: none (the serial path), one, two, the node's default
//! (DEFAULT_PREVOUTFETCH_THREADS) and its maximum (MAX_PREVOUTFETCH_THREADS).
inline constexpr uint8_t WORKER_CHOICES[]{0, 1, 2, 8, 16};
//! The block hash the overlay is given before its flush (ConnectBlock's SetBestBlock); its
//! ToString, a run of one digit, is the same in either byte order.
inline constexpr uint8_t BLOCK_HASH_BYTE{0x77};
inline constexpr uint8_t DB_TIP_BYTE{0x11};

//! An outpoint, named without its txid: an external coin (a txid of `id` repeated) or output
//! `n` of the block's transaction `tx` (whose txid only Core's hashing knows).
struct Ref {
    static constexpr uint8_t EXTERNAL{0xff};
    uint8_t tx{EXTERNAL};
    uint8_t id{0};
    uint32_t n{0};
    bool External() const { return tx == EXTERNAL; }
    auto operator<=>(const Ref&) const = default;
};

//! One entry the middle cache gets before the block: through AddCoin (FRESH, or DIRTY with
//! possible_overwrite), SpendCoin (a database coin marked spent and DIRTY) or AccessCoin (clean).
struct MiddleOp {
    using Kind = MiddleOpKind;  // choices.json
    Kind kind{Kind::ACCESS};
    Ref at;
    Coin coin;
    bool operator==(const MiddleOp&) const = default;
};

struct Tx {
    std::vector<Ref> vin;    //!< empty for the coinbase (its one null input)
    std::vector<Coin> vout;  //!< amount and script; height and coinbase flag are AddCoins'
    bool operator==(const Tx&) const = default;
};

struct Scenario {
    std::vector<std::pair<Ref, Coin>> db;  //!< written to the database first
    std::vector<MiddleOp> middle;          //!< then applied to the middle cache
    std::vector<Tx> vtx;                   //!< vtx[0] is the coinbase
    uint8_t workers{0};
    //! choices.json: CONNECT (ConnectBlock's order), PERMUTED (the same steps, transactions in
    //! `order`), STOP (ConnectBlock's order, stopped after `stop_after` transactions: the guard resets).
    using Pattern = prevout_fetch::Pattern;
    Pattern pattern{Pattern::CONNECT};
    std::vector<uint8_t> order;  //!< the transactions in the order they are connected
    size_t stop_after{0};
    bool flush{true};            //!< flush the overlay into the middle cache when the block completes
    //! The pool was interrupted before the block (ThreadPool::Interrupt, as a node shutting down
    //! does): it still has workers, but StartFetching's Submit fails, so the overlay logs a
    //! warning, drops its queue and fetches serially. Only with workers.
    bool interrupted{false};
    bool operator==(const Scenario&) const = default;
};

//! One call on the overlay and what it returned.
struct Access {
    enum class Kind : uint8_t { HAVE, ACCESS, SPEND, ADD };
    Kind kind{Kind::HAVE};
    Ref at;
    bool flag{false};           //!< HAVE: HaveCoin; SPEND: SpendCoin; ADD: AddCoin threw
    std::optional<Coin> coin;   //!< ACCESS: AccessCoin's coin, nullopt for the empty coin
    bool operator==(const Access&) const = default;
};

//! A cache's content as its public calls show it: the unspent coin each named outpoint has in
//! the cache itself (nullopt: none, or a spent entry), and how many entries it holds (spent ones too).
struct Snapshot {
    std::vector<std::optional<Coin>> coins;  //!< in the order of NamedRefs(scenario)
    size_t entries{0};
    bool operator==(const Snapshot&) const = default;
};

//! What one side observed.
struct Result {
    std::vector<Access> accesses;
    std::string stopped;       //!< "", "tx <i> input <k> missing" or "stopped after <k> txs"
    Snapshot overlay;          //!< before the flush (or the reset)
    bool flushed{false};
    std::string flush_error;   //!< what the overlay's Flush threw, if anything
    Snapshot middle;           //!< after the flush (or the reset)
    //! The prefetch queue (sides that have one): whether every queued input was consumed when the
    //! block's accesses ended (AllInputsConsumed), and the warnings logged, in order.
    std::optional<bool> consumed;
    std::vector<std::string> warnings;
    //! A build where a failed Assume aborts (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION or
    //! ABORT_ON_FAILED_ASSUME) cannot flush an overlay with unconsumed inputs: the shim resets it
    //! instead and says so here; the check then leaves the middle cache out of the comparison.
    bool flush_withheld{false};
};

//! What the benchmark reads: a real block through the overlay (bench/prevout_fetch_bench.cpp).
struct ReadBlockCost {
    uint64_t inputs{0};   //!< inputs read (AccessCoin), their coins unspent
    uint64_t missing{0};  //!< inputs HaveCoin did not find
    int64_t amount{0};    //!< the sum of their amounts, to be consumed
    bool consumed{true};  //!< AllInputsConsumed at the end (a side without the queue: true)
};

struct Side {
    const char* name;
    //! Whether the side has the prefetch queue (our optimized model, a Core tree with StartFetching
    //! but the registry fallback's stand-in for the tree before it).
    bool fetches;
    Result (*run)(const Scenario& scenario, uint8_t workers);
    //! Bitcoin Core's sides only (ours leave it null): connects the serialized block `block`
    //! (block-file body) the way ConnectBlock reads it, through the overlay over an empty cache
    //! over an on-disk database freshly opened (its cache cold) that holds a made-up coin for
    //! every outpoint the block spends from elsewhere (written once per process), with a pool of
    //! `workers` started once and kept, as a node keeps it.
    ReadBlockCost (*read_block)(const std::vector<uint8_t>& block, uint8_t workers){nullptr};
    //! Whether read_block takes `workers` (the merge's tree); the tree before it is serial.
    bool read_block_fetches{false};
};

EQUIFUZZ_DECLARE_SIDES();

//! Every outpoint the scenario names, each once, in Ref order: the database's, the middle
//! cache's, every input's and every output of the block.
inline std::vector<Ref> NamedRefs(const Scenario& s)
{
    std::vector<Ref> refs;
    for (const auto& [at, coin] : s.db) refs.push_back(at);
    for (const MiddleOp& op : s.middle) refs.push_back(op.at);
    for (size_t i = 0; i < s.vtx.size(); ++i) {
        for (const Ref& r : s.vtx[i].vin) refs.push_back(r);
        for (uint32_t n = 0; n < s.vtx[i].vout.size(); ++n) refs.push_back({static_cast<uint8_t>(i), 0, n});
    }
    std::sort(refs.begin(), refs.end());
    refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
    return refs;
}

//! The coin AddCoins gives output `n` of transaction `tx`.
inline Coin OutputCoin(const Scenario& s, size_t tx, size_t n)
{
    Coin c{s.vtx[tx].vout[n]};
    c.height = BLOCK_HEIGHT;
    c.coinbase = tx == 0;
    return c;
}

//! Runs the block's accesses on `view` as ConnectBlock makes them (its HaveInputs, the
//! AccessCoin calls of its checks, UpdateCoins' SpendCoin and AddCoins), the transactions in the
//! scenario's order; returns why it stopped early ("" when every transaction was connected). The
//! same driver runs every side: the pattern is the input, the results are the sides'.
//! View: bool Have(Ref), std::optional<Coin> Get(Ref), bool Spend(Ref), bool Add(Ref, Coin, bool)
//! (true: AddCoin threw).
template <typename View>
std::string Drive(const Scenario& s, View& view, std::vector<Access>& out)
{
    for (size_t step = 0; step < s.order.size(); ++step) {
        if (s.pattern == Scenario::Pattern::STOP && step == s.stop_after) return "stopped after " + std::to_string(step) + " txs";
        const size_t i{s.order[step]};
        const Tx& tx{s.vtx[i]};
        if (i != 0) {
            // HaveInputs stops at the first missing input: the block is invalid and ConnectTip's
            // guard discards the overlay.
            for (size_t k = 0; k < tx.vin.size(); ++k) {
                const bool have{view.Have(tx.vin[k])};
                out.push_back({.kind = Access::Kind::HAVE, .at = tx.vin[k], .flag = have, .coin = {}});
                if (!have) return "tx " + std::to_string(i) + " input " + std::to_string(k) + " missing";
            }
            for (const Ref& r : tx.vin) out.push_back({.kind = Access::Kind::ACCESS, .at = r, .flag = false, .coin = view.Get(r)});
            for (const Ref& r : tx.vin) out.push_back({.kind = Access::Kind::SPEND, .at = r, .flag = view.Spend(r), .coin = {}});
        }
        for (uint32_t n = 0; n < tx.vout.size(); ++n) {
            const Ref at{static_cast<uint8_t>(i), 0, n};
            // Only a coinbase may overwrite (AddCoins without its check).
            out.push_back({.kind = Access::Kind::ADD, .at = at, .flag = view.Add(at, OutputCoin(s, i, n), i == 0), .coin = {}});
        }
    }
    return "";
}

} // namespace equifuzz::prevout_fetch
