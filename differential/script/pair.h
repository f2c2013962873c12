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
#include <equifuzz/mutator.h>

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
size_t MaxPush(std::span<const uint8_t> script);

// --- EvalScript / ExecuteWitnessScript ------------------------------------------------------

//! script_eval's structured mutation: the input decoded, one to three changes (a push, an opcode
//! or a number of up to 6 bytes inserted between whole operations, an operation removed, the script
//! cut after an operation, another script version, a flag toggled, an initial stack item added,
//! resized to 520/521/8000 or removed), written back with EncodeEvalRaw.
bool MutateEval(Mutation& m);
//! One well-formed push of a length that matters (around 520 and 8000, over 520 (mostly by a
//! little), or small), in any push form, sometimes inside a branch that does not run (0 IF ... ENDIF).
Bytes PushPiece(Mutation& m);
//! script_spend's structured mutation: the spend written again in the decoder's raw form as a
//! P2SH-wrapped witness program (P2SH-P2WPKH or P2SH-P2WSH, its own or a new one) whose scriptSig
//! is the one push of the redeemScript, or not quite (another push before it, a wider push form,
//! the push twice: the malleation BIP-141 forbids), usually with P2SH and WITNESS on.
bool MutateSpend(Mutation& m);
Bytes PushOfLength(Mutation& m, size_t length);

//! script_eval: raw script bytes. script_build: a script built from opcodes and sized pushes.
EvalInput DecodeEvalRaw(FuzzedDataProvider& fdp);
//! The bytes DecodeEvalRaw reads back as `in` (a stack item of a size it cannot give is cut).
Bytes EncodeEvalRaw(const EvalInput& in);
EvalInput DecodeEvalBuilt(FuzzedDataProvider& fdp);
Description Describe(const EvalInput& in);
Outcome ToOutcome(const EvalResult& r);

//! The element-size relations among the 520 side (o), Variant G (g) and Variant T (t) for one
//! EvalScript input (spec 2b-2d): equal where no element is over 520 bytes; otherwise 520 fails
//! PUSH_SIZE, G accepts up to 8000, T differs from 520 only through tapscript's initial items.
void CheckEvalRelations(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const EvalResult& t);
//! Bitcoin Core's interpreter, when built: Core as it is equals the 520 side, Core at 8000-byte
//! elements equals Variant G (result, error, and the final stack of a non-witness evaluation).
void CompareEvalWithCore(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const Checker& checker);

// --- VerifyScript ---------------------------------------------------------------------------

//! script_spend: bare, P2SH, P2WSH, P2SH-P2WSH, P2WPKH, P2SH-P2WPKH, P2TR script-path (a
//! single-leaf tree, see SingleLeafTaproot) or raw spends with witness
//! stacks, under flag sets that keep Core's invariants (CLEANSTACK implies P2SH and WITNESS, WITNESS
//! implies P2SH).
SpendInput DecodeSpend(FuzzedDataProvider& fdp);
//! What DecodeSpend reads back as `in` in its raw form (SpendKind::RAW: scriptSig and scriptPubKey
//! of up to 64 bytes, the last three witness items); the target's later choices are left at their
//! defaults (mutate.cpp).
Bytes EncodeRawSpend(const SpendInput& in);
Description Describe(const SpendInput& in);
Outcome ToOutcome(const VerifyResult& r);

//! The element-size relations among the three sides for a whole spend (as for EvalScript, over
//! every element the spend can put on a stack).
void CheckSpendRelations(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const VerifyResult& t);
//! Bitcoin Core's VerifyScript, when built: as it is equals the 520 side, at 8000 equals Variant G.
void CompareSpendWithCore(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const Checker& checker);
//! The flags to toggle for the monotonicity check (lock-time flags excluded).
uint32_t ConsumeFlagToggle(FuzzedDataProvider& fdp);
//! Flag monotonicity on the 520 side (Core's script_tests harness): removing the toggled flags
//! never breaks a passing spend (o), adding them never fixes a failing one.
void CheckFlagMonotonicity(const SpendInput& in, uint32_t toggle, const DescribeFn& desc, const VerifyResult& o, const Checker& checker);

//! Adds what the flag set implies (CLEANSTACK needs P2SH and WITNESS; WITNESS needs P2SH).
uint32_t FillFlags(uint32_t flags);

} // namespace equifuzz::script
