// CheckTransaction pair: decoders and outcomes.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/mutator.h>

#include <optional>

namespace equifuzz::tx_check {

//! A transaction composed from fuzz choices: input counts 0..400, prevouts drawn from shapes that
//! matter (null, zero hash with another n, n = 0xffffffff with another hash, high bytes that
//! a signed comparison would misorder, exact and near duplicates), coinbase shapes with
//! scriptSig lengths around 2 and 100, output values around 0 and MAX_MONEY, and now and then a
//! stripped size within a few bytes of the 1,000,000-byte limit.
Transaction BuildTransaction(FuzzedDataProvider& fdp);

//! A block: raw bytes (a serialized block) or composed transactions, first usually a coinbase.
std::optional<Block> DecodeBlock(FuzzedDataProvider& fdp);

//! tx_check_raw's structured mutation: the input read as a transaction (or, when it is not one,
//! a small transaction of 1-4 inputs), then one to three changes the duplicate and null
//! rules care about (an outpoint spent again, the null outpoint or its zero hash, an input copied, added or
//! removed, the same hash with another index, output values at their boundaries or all small),
//! serialized again.
bool MutateRawTransaction(Mutation& m);
//! tx_check_block's: the same changes to one transaction of the raw form's block (or a block
//! composed of a coinbase and small transactions), or a transaction repeated.
bool MutateRawBlock(Mutation& m);

Description Describe(const Transaction& tx);
Description Describe(const Block& block);

Outcome ToOutcome(const TxVerdict& v);
Outcome ToOutcome(const BlockVerdict& v);

} // namespace equifuzz::tx_check
