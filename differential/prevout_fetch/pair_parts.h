// The prevout_fetch pair's own pieces shared by its source files (not the pair's interface, pair.h):
// what the decoder (decode.cpp), its mirror the encoder (encode.cpp) and the seed program
// (seeds.cpp) read alike: every range of the input, declared once, and the rules the decoder
// applies while it reads (no cycle in the block, the callers' contracts).
#pragma once

#include "pair.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace equifuzz::prevout_fetch::parts {

inline constexpr int64_t MAX_MONEY{2'100'000'000'000'000};
//! A coin's amount: "small" amounts (a bool first) are read in [0, SMALL_AMOUNT], others in [0, MAX_MONEY].
inline constexpr int64_t SMALL_AMOUNT{100'000};
//! A coin's height is read in [0, MAX_HEIGHT].
inline constexpr uint32_t MAX_HEIGHT{1'000'000};
//! A raw script's longest length.
inline constexpr size_t MAX_RAW_SCRIPT{40};
//! An external outpoint: a txid of a byte in [1, EXTERNAL_IDS] repeated, an output in [0, MAX_N]
//! (the same range names an output of one of the block's transactions).
inline constexpr uint8_t EXTERNAL_IDS{6};
inline constexpr uint32_t MAX_N{3};
//! The database's coins, the middle cache's operations, the block's transactions (the coinbase
//! among them), a transaction's inputs and outputs: at most so many.
inline constexpr size_t MAX_DB_COINS{8};
inline constexpr size_t MAX_MIDDLE_OPS{6};
inline constexpr size_t MAX_TXS{6};
inline constexpr size_t MAX_INPUTS{4};
inline constexpr size_t MAX_OUTPUTS{3};

//! Whether transaction `from` spends (directly or through others) an output of `to`.
inline bool Reaches(const std::vector<std::set<size_t>>& deps, size_t from, size_t to)
{
    if (from == to) return true;
    std::vector<size_t> todo{from};
    std::set<size_t> seen{from};
    while (!todo.empty()) {
        const size_t at{todo.back()};
        todo.pop_back();
        for (const size_t next : deps[at]) {
            if (next == to) return true;
            if (seen.insert(next).second) todo.push_back(next);
        }
    }
    return false;
}

//! Unspendable as CScript::IsUnspendable: OP_RETURN first, or longer than MAX_SCRIPT_SIZE.
inline bool UnspendableScript(const Bytes& script) { return (!script.empty() && script[0] == 0x6a) || script.size() > 10'000; }

//! What the middle cache shows its caller at each outpoint as the scenario's middle operations
//! run: whether an unspent coin is visible (in the cache, or in the database below it).
struct VisibleCoins {
    std::set<Ref> db;                 //!< outpoints the database holds (spendable coins only)
    std::map<Ref, bool> middle;       //!< outpoints the middle cache has touched -> unspent there
    bool Unspent(const Ref& at) const
    {
        const auto it{middle.find(at)};
        return it != middle.end() ? it->second : db.contains(at);
    }
    //! Applies one operation; returns the broken contract, if any.
    std::string Apply(const MiddleOp& op)
    {
        switch (op.kind) {
        case MiddleOp::Kind::ADD_FRESH:
            if (UnspendableScript(op.coin.script)) return {};
            if (Unspent(op.at)) {
                return "the middle cache's AddCoin without possible_overwrite over " + RefName(op.at) +
                       ", which the cache or the database below holds unspent";
            }
            middle[op.at] = true;
            return {};
        case MiddleOp::Kind::ADD_DIRTY:
            if (!UnspendableScript(op.coin.script)) middle[op.at] = true;
            return {};
        case MiddleOp::Kind::SPEND:
            middle[op.at] = false;
            return {};
        case MiddleOp::Kind::ACCESS:
            return {};
        }
        return {};
    }
};

} // namespace equifuzz::prevout_fetch::parts
