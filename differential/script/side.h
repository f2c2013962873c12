// Script pair: the interface every side offers (spec section 2).
//
// One script interpreter (interpreter.inc) is compiled into each side with that side's
// configuration, so a mutant of the interpreter can be applied to one side only:
//   original  = the 520-byte limit everywhere (Bitcoin Core today);
//   optimized = Variant G: 8000 bytes for pushes and initial witness items, every sigversion;
//   variant_t = Variant T (BIP-360 text): tapscript initial witness items up to 8000 bytes,
//               pushes stay at 520, and an executed OP_DUP on a top item over 520 bytes fails
//               with DUP_ELEMENT_SIZE (our choice: the BIP names no error code).
// Variant T is defined in optimized.cpp beside Variant G (the optimized role holds both).
#pragma once

#include <equifuzz/harness.h>
#include <equifuzz/side.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace equifuzz::script {

using Stack = std::vector<Bytes>;

enum class SigVersion { BASE, WITNESS_V0, TAPSCRIPT };

//! Script verification flags (the subset script_tests.json and the fuzz targets use).
enum Flag : uint32_t {
    FLAG_NONE = 0,
    FLAG_P2SH = 1u << 0,
    FLAG_STRICTENC = 1u << 1,
    FLAG_DERSIG = 1u << 2,
    FLAG_LOW_S = 1u << 3,
    FLAG_NULLDUMMY = 1u << 4,
    FLAG_SIGPUSHONLY = 1u << 5,
    FLAG_MINIMALDATA = 1u << 6,
    FLAG_DISCOURAGE_UPGRADABLE_NOPS = 1u << 7,
    FLAG_CLEANSTACK = 1u << 8,
    FLAG_CHECKLOCKTIMEVERIFY = 1u << 9,
    FLAG_CHECKSEQUENCEVERIFY = 1u << 10,
    FLAG_WITNESS = 1u << 11,
    FLAG_DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM = 1u << 12,
    FLAG_MINIMALIF = 1u << 13,
    FLAG_NULLFAIL = 1u << 14,
    FLAG_WITNESS_PUBKEYTYPE = 1u << 15,
    FLAG_CONST_SCRIPTCODE = 1u << 16,
    FLAG_TAPROOT = 1u << 17,
    FLAG_DISCOURAGE_OP_SUCCESS = 1u << 18,
    FLAG_DISCOURAGE_UPGRADABLE_PUBKEYTYPE = 1u << 19,
    FLAG_DISCOURAGE_UPGRADABLE_TAPROOT_VERSION = 1u << 20,
};
inline constexpr uint32_t ALL_FLAGS{(1u << 21) - 1};

//! Parses "P2SH,STRICTENC" (empty or NONE = no flags). Returns false on an unknown name.
bool ParseFlags(const std::string& text, uint32_t& flags);
std::string FlagsToString(uint32_t flags);

// The error names are script_tests.json's (ScriptErrorString without the SCRIPT_ERR_ prefix).
#define EQUIFUZZ_SCRIPT_ERRORS(X)                                                                  \
    X(OK) X(UNKNOWN_ERROR) X(EVAL_FALSE) X(OP_RETURN) X(SCRIPT_SIZE) X(PUSH_SIZE) X(OP_COUNT)      \
    X(STACK_SIZE) X(SIG_COUNT) X(PUBKEY_COUNT) X(VERIFY) X(EQUALVERIFY) X(CHECKMULTISIGVERIFY)     \
    X(CHECKSIGVERIFY) X(NUMEQUALVERIFY) X(BAD_OPCODE) X(DISABLED_OPCODE) X(INVALID_STACK_OPERATION) \
    X(INVALID_ALTSTACK_OPERATION) X(UNBALANCED_CONDITIONAL) X(NEGATIVE_LOCKTIME)                   \
    X(UNSATISFIED_LOCKTIME) X(SIG_HASHTYPE) X(SIG_DER) X(MINIMALDATA) X(SIG_PUSHONLY)             \
    X(SIG_HIGH_S) X(SIG_NULLDUMMY) X(PUBKEYTYPE) X(CLEANSTACK) X(MINIMALIF) X(NULLFAIL)            \
    X(DISCOURAGE_UPGRADABLE_NOPS) X(DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM)                         \
    X(DISCOURAGE_OP_SUCCESS) X(DISCOURAGE_UPGRADABLE_PUBKEYTYPE) X(WITNESS_PROGRAM_WRONG_LENGTH)   \
    X(WITNESS_PROGRAM_WITNESS_EMPTY) X(WITNESS_PROGRAM_MISMATCH) X(WITNESS_MALLEATED)              \
    X(WITNESS_MALLEATED_P2SH) X(WITNESS_UNEXPECTED) X(WITNESS_PUBKEYTYPE) X(SCHNORR_SIG_SIZE)      \
    X(SCHNORR_SIG_HASHTYPE) X(SCHNORR_SIG) X(TAPSCRIPT_VALIDATION_WEIGHT)                          \
    X(TAPSCRIPT_CHECKMULTISIG) X(TAPSCRIPT_MINIMALIF) X(TAPSCRIPT_EMPTY_PUBKEY) X(OP_CODESEPARATOR) \
    X(SIG_FINDANDDELETE) X(SCRIPTNUM) X(TAPROOT_WRONG_CONTROL_SIZE)                               \
    X(DISCOURAGE_UPGRADABLE_TAPROOT_VERSION) X(DUP_ELEMENT_SIZE)

enum class ScriptError {
#define EQUIFUZZ_SCRIPT_ERROR_ENUM(name) name,
    EQUIFUZZ_SCRIPT_ERRORS(EQUIFUZZ_SCRIPT_ERROR_ENUM)
#undef EQUIFUZZ_SCRIPT_ERROR_ENUM
};
const char* ErrorName(ScriptError e);

//! What a BIP-341/342 signature hash commits to beyond the transaction: the spend path, and for a
//! script path the leaf and the position of the last executed OP_CODESEPARATOR.
struct TaprootContext {
    bool script_path{false};
    Bytes tapleaf_hash;               //!< script path only
    uint32_t codesep_pos{0xffffffff}; //!< opcode index of the last executed OP_CODESEPARATOR
    bool annex_present{false};
    Bytes annex;
};

//! What the interpreter asks of the transaction it runs in.
class Checker
{
public:
    virtual ~Checker() = default;
    //! `sig` includes the hash-type byte; `script_code` is already cut at the last
    //! CODESEPARATOR (and, for BASE, cleaned of the signature).
    virtual bool CheckECDSASignature(const Bytes& sig, const Bytes& pubkey, const Bytes& script_code, SigVersion sigversion) const = 0;
    //! Taproot key path or tapscript: a 32-byte key and a non-empty signature. On false, `error`
    //! says why.
    virtual bool CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext& context, ScriptError& error) const = 0;
    virtual bool CheckLockTime(int64_t locktime) const = 0;
    virtual bool CheckSequence(int64_t sequence) const = 0;
};

//! The codes three failures get, which Bitcoin Core changed in 2025-26 (our models give today's by
//! default). A Core tree from before a change reports the older code; the shim finds out which
//! (core/shim.cpp) and the comparison runs the model in that tree's codes (ScopedErrorCodes).
struct ErrorCodes {
    //! OP_IF/OP_NOTIF executed on an empty stack: UNBALANCED_CONDITIONAL before Core #32143.
    ScriptError if_on_empty_stack{ScriptError::INVALID_STACK_OPERATION};
    //! A number operand that does not decode: UNKNOWN_ERROR (EvalScript's catch-all) before Core
    //! #34381 added SCRIPT_ERR_SCRIPTNUM.
    ScriptError bad_script_number{ScriptError::SCRIPTNUM};
    //! Tapscript CHECKSIG/CHECKSIGADD with an empty public key: PUBKEYTYPE before Core #33961
    //! added SCRIPT_ERR_TAPSCRIPT_EMPTY_PUBKEY.
    ScriptError tapscript_empty_pubkey{ScriptError::TAPSCRIPT_EMPTY_PUBKEY};
    bool operator==(const ErrorCodes&) const = default;
};
//! The codes our models give on this thread (today's unless a ScopedErrorCodes is alive).
const ErrorCodes& CurrentErrorCodes();
//! Makes our models give `codes` until it goes out of scope.
class ScopedErrorCodes
{
public:
    explicit ScopedErrorCodes(const ErrorCodes& codes);
    ~ScopedErrorCodes();
    ScopedErrorCodes(const ScopedErrorCodes&) = delete;
    ScopedErrorCodes& operator=(const ScopedErrorCodes&) = delete;

private:
    ErrorCodes m_before;
};

//! The limits a side is configured with.
struct Config {
    const char* name;
    size_t max_push_size;            //!< EvalScript's check on every push
    size_t max_witness_item_base;    //!< initial witness items, witness v0 (P2WPKH/P2WSH)
    size_t max_witness_item_tapscript; //!< initial witness items, tapscript
    bool dup_rule;                   //!< BIP-360: executed OP_DUP of a > 520-byte item fails
};

//! One EvalScript call (or, with `as_witness_script`, ExecuteWitnessScript: the initial
//! witness-stack checks, then EvalScript, then the implicit clean stack).
struct EvalInput {
    Bytes script;
    Stack stack;
    uint32_t flags{0};
    SigVersion sigversion{SigVersion::BASE};
    bool as_witness_script{false};
};

struct EvalResult {
    bool ok{false};
    ScriptError error{ScriptError::UNKNOWN_ERROR};
    Stack stack;    //!< the stack when evaluation stopped (success or failure)
    Stack altstack;
    uint64_t opcodes_read{0};   //!< opcodes parsed before stopping
    //! Largest item an executed OP_DUP copied (0 if none): lets a target check Variant T's rule.
    uint64_t max_dup_item{0};
    bool operator==(const EvalResult&) const = default;
};

//! A full spend: VerifyScript(scriptSig, scriptPubKey, witness, flags).
struct SpendInput {
    Bytes script_sig;
    Bytes script_pubkey;
    Stack witness;
    uint32_t flags{0};
};

struct VerifyResult {
    bool ok{false};
    ScriptError error{ScriptError::UNKNOWN_ERROR};
    Stack stack; //!< the stack after the last script evaluated
    uint64_t max_dup_item{0};
    bool operator==(const VerifyResult&) const = default;
};

//! What a side must offer. Pure functions: no state survives a call.
struct Side {
    const char* name;
    Config config;
    VerifyResult (*verify)(const SpendInput& in, const Checker& checker);
    EvalResult (*eval)(const EvalInput& in, const Checker& checker);
    //! The codes this side gives for the failures whose code changed (a Core side's tree may be
    //! older than a change); nullptr: today's, as our models give them.
    const ErrorCodes* (*error_codes)(){nullptr};
};

// original_side(): 520 everywhere; optimized_side(): Variant G; core_original_side(): Bitcoin
// Core's interpreter as it is; core_optimized_side(): Core's interpreter at 8000-byte elements.
// Sides() lists ours and Core's (when built); Variant T is not among them (a relation, not an
// equality, ties it to the others).
EQUIFUZZ_DECLARE_SIDES();
const Side& variant_t_side(); //!< Variant T (defined in optimized.cpp)

inline constexpr size_t MAX_SCRIPT_ELEMENT_SIZE{520};
inline constexpr size_t LARGE_ELEMENT_SIZE{8000};

} // namespace equifuzz::script
