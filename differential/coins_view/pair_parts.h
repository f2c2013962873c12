// The coins_view pair's own pieces shared by its source files (not the pair's interface, pair.h):
// what the decoder (decode.cpp) and its mirror, the encoder (encode.cpp), both need to read and write
// the same bytes: the ranges of a coin's fields and which calls take an outpoint or a level.
#pragma once

#include "model.h"
#include "pair.h"
#include "side.h"

#include <cstddef>
#include <cstdint>
#include <set>

namespace equifuzz::coins_view::parts {

inline constexpr int64_t MAX_MONEY{2'100'000'000'000'000};
//! A coin's amount: "small" amounts (a bool first) are read in [0, SMALL_AMOUNT].
inline constexpr int64_t SMALL_AMOUNT{100'000};
//! A coin's height is read in [0, MAX_HEIGHT].
inline constexpr uint32_t MAX_HEIGHT{1'000'000};
//! A raw script's longest length: a real P2PK output with an uncompressed key (67 bytes) fits.
inline constexpr size_t MAX_RAW_SCRIPT{80};
//! An outpoint's txid is a byte in [1, TXIDS] repeated.
inline constexpr uint8_t TXIDS{4};
//! A database holds at most this many coins at the start.
inline constexpr size_t MAX_DB_COINS{8};

inline bool TakesOutpoint(Op::Kind k)
{
    switch (k) {
    case Op::Kind::ADD:
    case Op::Kind::SPEND:
    case Op::Kind::EMPLACE:
    case Op::Kind::ACCESS:
    case Op::Kind::GET:
    case Op::Kind::PEEK:
    case Op::Kind::HAVE:
    case Op::Kind::HAVE_IN_CACHE:
    case Op::Kind::UNCACHE:
        return true;
    default:
        return false;
    }
}

//! Whether a caller makes the call while the top cache is detached (its backend the empty view):
//! reads, and Uncache; anything else it makes after setting the backend back, as mempool
//! acceptance does.
inline bool WhileDetached(Op::Kind k)
{
    switch (k) {
    case Op::Kind::ACCESS:
    case Op::Kind::GET:
    case Op::Kind::PEEK:
    case Op::Kind::HAVE:
    case Op::Kind::HAVE_IN_CACHE:
    case Op::Kind::GET_BEST:
    case Op::Kind::GET_HEADS:
    case Op::Kind::MEMORY:
    case Op::Kind::CURSOR:
    case Op::Kind::UNCACHE:
    case Op::Kind::DETACH:
    case Op::Kind::ATTACH:
        return true;
    default:
        return false;
    }
}

//! Whether a call is a lookup of one outpoint whose answer Core promises (Answer::coin or flag).
inline bool LooksUp(Op::Kind k) { return k == Op::Kind::ACCESS || k == Op::Kind::GET || k == Op::Kind::PEEK || k == Op::Kind::HAVE; }

//! Whether a call may go to the database itself (a read CCoinsViewDB offers).
inline bool ReadsDatabase(Op::Kind k)
{
    return k == Op::Kind::ACCESS || k == Op::Kind::GET || k == Op::Kind::PEEK || k == Op::Kind::HAVE || k == Op::Kind::GET_BEST;
}

//! Where a call goes without a level read from the input: the top cache (writes, Reset, the
//! backend's swap), or the stack as a whole (view 0: the database's own calls, restarts, pushes);
//! nullopt for the calls that read a Level.
inline std::optional<uint8_t> FixedView(Op::Kind k, size_t depth)
{
    switch (k) {
    case Op::Kind::ADD:
    case Op::Kind::SPEND:
    case Op::Kind::EMPLACE:
    case Op::Kind::RESET:
    case Op::Kind::DETACH:
    case Op::Kind::ATTACH:
        return static_cast<uint8_t>(depth);
    case Op::Kind::GET_HEADS:
    case Op::Kind::CURSOR:
    case Op::Kind::REOPEN:
    case Op::Kind::RESIZE:
    case Op::Kind::COMPACT:
    case Op::Kind::PUSH:
    case Op::Kind::POP:
        return 0;
    default:
        return std::nullopt;
    }
}

//! The calls Decode skips and EncodeScenario leaves out: a push on a full stack, a pop of the last
//! cache, a detach of a detached cache or an attach of an attached one, a restart or resize past
//! MAX_REOPENS (each reopens the database, which costs more than a whole scenario otherwise), a
//! compaction past MAX_COMPACTIONS. Counts the restarts and compactions it lets through.
struct Admission {
    size_t reopens{0};
    size_t compactions{0};
    bool Admit(Op::Kind kind, size_t depth, bool detached)
    {
        if (kind == Op::Kind::PUSH && depth == MAX_CACHES) return false;
        if (kind == Op::Kind::POP && depth == 1) return false;
        if (kind == Op::Kind::DETACH && detached) return false;
        if (kind == Op::Kind::ATTACH && !detached) return false;
        if (kind == Op::Kind::REOPEN || kind == Op::Kind::RESIZE) {
            if (reopens == MAX_REOPENS) return false;
            ++reopens;
        }
        if (kind == Op::Kind::COMPACT) {
            if (compactions == MAX_COMPACTIONS) return false;
            ++compactions;
        }
        return true;
    }
};

//! A write as Decode makes it within the callers' contracts, at the top cache of `model` where the
//! scenario named `named` before it: a snapshot's load writes each coin once, into a cache that has
//! never seen it, and only coins of the UTXO set, so an EmplaceCoinInternalDANGER at a named
//! outpoint (the cache may hold it) or of an unspendable coin (not in a snapshot) is an AddCoin with
//! possible_overwrite instead (DIRTY, not FRESH; an unspendable coin left out); and an AddCoin
//! without possible_overwrite where the top cache shows an unspent coin gets it (FRESH only for a
//! coin no view below holds).
inline void KeepWithinContract(Op& op, const Model& model, const std::set<Outpoint>& named)
{
    if (op.kind == Op::Kind::EMPLACE && (named.contains(op.at) || Unspendable(op.coin.script))) {
        op.kind = Op::Kind::ADD;
        op.possible_overwrite = true;
    }
    if (op.kind == Op::Kind::ADD && !op.possible_overwrite && model.Visible(model.Depth(), op.at)) op.possible_overwrite = true;
}

inline uint8_t ResolveView(Level level, Op::Kind kind, size_t depth)
{
    switch (level) {
    case Level::TOP: return static_cast<uint8_t>(depth);
    case Level::BELOW_TOP: return static_cast<uint8_t>(depth > 1 ? depth - 1 : 1);
    case Level::BOTTOM: return 1;
    case Level::DATABASE: return ReadsDatabase(kind) ? 0 : 1;
    }
    return 1;
}

} // namespace equifuzz::coins_view::parts
