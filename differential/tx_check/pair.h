// CheckTransaction pair: decoders and outcomes.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>

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

Description Describe(const Transaction& tx);
Description Describe(const Block& block);

Outcome ToOutcome(const TxVerdict& v);
Outcome ToOutcome(const BlockVerdict& v);

} // namespace equifuzz::tx_check
