// Script pair: spends that carry valid signatures, for the Core side. Fuzzed bytes almost never
// make a valid signature, so without this the Core comparison sees signature checks fail only.
// Here the decoder builds a standard spend and signs it with fixed test keys over the signature
// hash our model computes:
//  - ECDSA: P2PK, P2PKH, 1..3-key multisig (bare, P2SH, P2WSH, P2SH-P2WSH) and P2WPKH (bare or in
//    P2SH), legacy or BIP-143 hashes;
//  - Schnorr: the taproot key path, and the script path with `<key> [CODESEPARATOR] CHECKSIG` or a
//    2-of-2 CHECKSIGADD leaf, alone or under a merkle path of 1-3 siblings, BIP-341 hashes, an
//    annex now and then;
// with a fuzzed hash type, an OP_CODESEPARATOR now and then and 0..2 outputs (so SIGHASH_SINGLE
// can point past the last), then perhaps spoils it (a wrong key, a flipped byte, another hash
// type signed, padding, a non-empty multisig dummy). Core must agree with our verdict: a wrong
// signature hash, FindAndDelete or scriptCode in our model shows as a disagreement.
#pragma once

#include "core_side.h"
#include "side.h"
#include "tx.h"

#include <equifuzz/fuzz_util.h>

namespace equifuzz::script {

//! What the decoder built, kept as its choices; Text() writes it out, only for a report.
struct Recipe {
    bool taproot{false};
    bool script_path{false}; //!< taproot: script path, else key path
    int keys{1};             //!< taproot: 2 for a 2-of-2 CHECKSIGADD leaf
    size_t leaf_depth{0};    //!< taproot script path: the leaf's depth in its tree
    bool annex{false};
    int kind{0};             //!< legacy and v0: P2PK, P2PKH, multisig, P2WPKH
    int wrap{0};             //!< bare, P2SH, P2WSH, P2SH-P2WSH
    int m{0}, n{0};          //!< m-of-n keys
    int hash_type{0};
    bool codesep{false};
    int spoil{0};            //!< 0: not spoiled
    std::string Text() const;
};

struct SignedSpend {
    SpendInput spend;
    CoreContext ctx;
    Recipe recipe; //!< what was built, for the report
};

SignedSpend DecodeSignedSpend(FuzzedDataProvider& fdp);

//! The spend, its recipe and its transaction's context, for a report.
Description Describe(const SignedSpend& in);

} // namespace equifuzz::script
