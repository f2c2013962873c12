// Script pair: decoders (fuzz bytes -> typed input), the three sides' outcomes, and the exact
// relations between them (spec 2c):
//   * every element <= 520 bytes, or the 520 side did not fail with PUSH_SIZE: all three sides
//     give the same result, error and final stacks;
//   * legacy, witness v0 and taproot key-path spends: Variant T equals the 520 side exactly,
//     whatever the sizes;
//   * otherwise Variant G never fails with PUSH_SIZE while every element is <= 8000 bytes, and in
//     tapscript, with every push <= 520 bytes, Variant T equals Variant G except that T fails
//     with DUP_ELEMENT_SIZE exactly when G duplicated an item over 520 bytes with OP_DUP;
//   * the 520 side fails with PUSH_SIZE whenever an initial witness item over 520 bytes reaches
//     the element check (checked from the input alone, so a side that skips the check is seen).
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

namespace equifuzz::script {

//! Deterministic stand-in for signature and lock-time checks: fast, and both outcomes reachable.
//! ECDSA/Schnorr signatures verify iff the low bit of the first byte of signature and key agree;
//! lock times up to 1000 and relative lock times with (value & 0xffff) <= 1000 are satisfied.
class FakeChecker final : public Checker
{
public:
    bool CheckECDSASignature(const Bytes& sig, const Bytes& pubkey, const Bytes& script_code, SigVersion sigversion) const override;
    bool CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext& context, ScriptError& error) const override;
    bool CheckLockTime(int64_t locktime) const override;
    bool CheckSequence(int64_t sequence) const override;
};

//! The largest push payload in `script`, reading pushes up to the first truncated one.
size_t MaxPush(const Bytes& script);

// --- EvalScript / ExecuteWitnessScript ------------------------------------------------------

//! script_eval: raw script bytes. script_build: a script built from opcodes and sized pushes.
EvalInput DecodeEvalRaw(FuzzedDataProvider& fdp);
EvalInput DecodeEvalBuilt(FuzzedDataProvider& fdp);
Description Describe(const EvalInput& in);
Outcome ToOutcome(const EvalResult& r);

//! Runs the 520 side, Variant G and Variant T and checks every relation above.
void RunAndCheckEval(const EvalInput& in, const DescribeFn& desc);

// --- VerifyScript ---------------------------------------------------------------------------

//! script_spend: bare, P2SH, P2WSH, P2SH-P2WSH, P2WPKH, P2SH-P2WPKH, P2TR script-path (a
//! single-leaf tree, see SingleLeafTaproot) or raw spends with witness
//! stacks, under flag sets that keep Core's invariants (CLEANSTACK implies P2SH and WITNESS, WITNESS
//! implies P2SH).
SpendInput DecodeSpend(FuzzedDataProvider& fdp);
Description Describe(const SpendInput& in);
Outcome ToOutcome(const VerifyResult& r);

//! Runs the three sides and checks the relations above, then flag monotonicity on the 520 side
//! (removing flags never breaks a passing spend; adding flags never fixes a failing one).
void RunAndCheckSpend(const SpendInput& in, FuzzedDataProvider& fdp, const DescribeFn& desc);

//! Adds what the flag set implies (CLEANSTACK needs P2SH and WITNESS; WITNESS needs P2SH).
uint32_t FillFlags(uint32_t flags);

} // namespace equifuzz::script
