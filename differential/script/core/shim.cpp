// The script pair's Bitcoin Core sides: Core's own interpreter (script/interpreter.cpp), compiled
// from a Core tree (cmake/CoreObjects.cmake builds this file once per side, its symbols kept apart).
// No registry tree raises MAX_SCRIPT_ELEMENT_SIZE, so both sides are the same tree: core-original
// as it is (520 bytes), core-optimized with script/script.h's constant raised to 8000 (the pair's
// CORE_EDIT, what the element-size study did to Core). Our 520 side must agree with the first
// and our Variant G with the second: result, error code and, for EvalScript, the final stack,
// under every flag, policy flags included.
//
// interpreter.cpp is included whole, so that ExecuteWitnessScript (static there: the initial
// witness-stack checks, EvalScript, the implicit clean stack) can be called as our eval mode does.
// Signatures and lock times are checked by the pair's Checker (the same FakeChecker as our sides)
// through a BaseSignatureChecker; Core's own transaction checker is never used.
#include "../crypto.h"
#include "../side.h"

#include <equifuzz/core_shim.h>

#include <script/interpreter.cpp>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

#include <crypto/sha256.h>
#include <pubkey.h>
#include <script/script.h>
#include <script/script_error.h>

#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace equifuzz::script {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

using CoreStack = std::vector<std::vector<unsigned char>>;
#ifdef EQUIFUZZ_CORE_HAS_INTERPRETER_STD_SPAN
template <typename T>
using InterpreterSpan = std::span<T>;
#else
template <typename T>
using InterpreterSpan = ::Span<T>;
#endif

// Our error enum names Core's SCRIPT_ERR_* without the prefix; DUP_ELEMENT_SIZE is Variant T's
// own and has no Core counterpart; script_tests.json (and so our enum) calls SIG_NULLFAIL NULLFAIL.
constexpr ::ScriptError SCRIPT_ERR_DUP_ELEMENT_SIZE{SCRIPT_ERR_ERROR_COUNT};
constexpr ::ScriptError SCRIPT_ERR_NULLFAIL{SCRIPT_ERR_SIG_NULLFAIL};

// Codes our models give that an older tree lacks (ErrorCodes in side.h: the tree gave a coarser
// code instead). Here they stand for values such a tree never reports.
#ifndef EQUIFUZZ_CORE_HAS_SCRIPT_ERR_SCRIPTNUM
constexpr ::ScriptError SCRIPT_ERR_SCRIPTNUM{static_cast<::ScriptError>(SCRIPT_ERR_ERROR_COUNT + 1)};
#endif
#ifndef EQUIFUZZ_CORE_HAS_SCRIPT_ERR_TAPSCRIPT_EMPTY_PUBKEY
constexpr ::ScriptError SCRIPT_ERR_TAPSCRIPT_EMPTY_PUBKEY{static_cast<::ScriptError>(SCRIPT_ERR_ERROR_COUNT + 2)};
#endif

ScriptError FromCore(::ScriptError e)
{
#define EQUIFUZZ_FROM_CORE_ERROR(name) \
    if (e == SCRIPT_ERR_##name) return ScriptError::name;
    EQUIFUZZ_SCRIPT_ERRORS(EQUIFUZZ_FROM_CORE_ERROR)
#undef EQUIFUZZ_FROM_CORE_ERROR
    return ScriptError::UNKNOWN_ERROR;
}

::ScriptError ToCore(ScriptError e)
{
#define EQUIFUZZ_TO_CORE_ERROR(name) \
    if (e == ScriptError::name) return SCRIPT_ERR_##name;
    EQUIFUZZ_SCRIPT_ERRORS(EQUIFUZZ_TO_CORE_ERROR)
#undef EQUIFUZZ_TO_CORE_ERROR
    return SCRIPT_ERR_UNKNOWN_ERROR;
}

#ifdef EQUIFUZZ_CORE_HAS_VERIFY_FLAGS_CLASS
using CoreFlags = script_verify_flags;
#else
using CoreFlags = unsigned int;
#endif

//! Our flag bits are not Core's bit positions (the last three differ): map them by name.
CoreFlags ToCoreFlags(uint32_t flags)
{
    CoreFlags f{SCRIPT_VERIFY_NONE};
#define EQUIFUZZ_FLAG(name) \
    if (flags & FLAG_##name) f = f | SCRIPT_VERIFY_##name;
    EQUIFUZZ_FLAG(P2SH) EQUIFUZZ_FLAG(STRICTENC) EQUIFUZZ_FLAG(DERSIG) EQUIFUZZ_FLAG(LOW_S) EQUIFUZZ_FLAG(NULLDUMMY)
    EQUIFUZZ_FLAG(SIGPUSHONLY) EQUIFUZZ_FLAG(MINIMALDATA) EQUIFUZZ_FLAG(DISCOURAGE_UPGRADABLE_NOPS) EQUIFUZZ_FLAG(CLEANSTACK)
    EQUIFUZZ_FLAG(CHECKLOCKTIMEVERIFY) EQUIFUZZ_FLAG(CHECKSEQUENCEVERIFY) EQUIFUZZ_FLAG(WITNESS)
    EQUIFUZZ_FLAG(DISCOURAGE_UPGRADABLE_WITNESS_PROGRAM) EQUIFUZZ_FLAG(MINIMALIF) EQUIFUZZ_FLAG(NULLFAIL)
    EQUIFUZZ_FLAG(WITNESS_PUBKEYTYPE) EQUIFUZZ_FLAG(CONST_SCRIPTCODE) EQUIFUZZ_FLAG(TAPROOT) EQUIFUZZ_FLAG(DISCOURAGE_OP_SUCCESS)
    EQUIFUZZ_FLAG(DISCOURAGE_UPGRADABLE_PUBKEYTYPE) EQUIFUZZ_FLAG(DISCOURAGE_UPGRADABLE_TAPROOT_VERSION)
#undef EQUIFUZZ_FLAG
    return f;
}

::SigVersion ToCore(SigVersion v)
{
    switch (v) {
    case SigVersion::BASE: return ::SigVersion::BASE;
    case SigVersion::WITNESS_V0: return ::SigVersion::WITNESS_V0;
    case SigVersion::TAPSCRIPT: return ::SigVersion::TAPSCRIPT;
    }
    return ::SigVersion::BASE;
}

SigVersion FromCore(::SigVersion v)
{
    switch (v) {
    case ::SigVersion::WITNESS_V0: return SigVersion::WITNESS_V0;
    case ::SigVersion::TAPSCRIPT: return SigVersion::TAPSCRIPT;
    default: return SigVersion::BASE;
    }
}

//! Core's interpreter asks the pair's Checker.
class CheckerBridge final : public BaseSignatureChecker
{
public:
    explicit CheckerBridge(const Checker& checker) : m_checker{checker} {}

    bool CheckECDSASignature(const std::vector<unsigned char>& sig, const std::vector<unsigned char>& pubkey, const CScript& script_code, ::SigVersion sigversion) const override
    {
        return m_checker.CheckECDSASignature(sig, pubkey, Bytes(script_code.begin(), script_code.end()), FromCore(sigversion));
    }

    bool CheckSchnorrSignature(InterpreterSpan<const unsigned char> sig, InterpreterSpan<const unsigned char> pubkey, ::SigVersion sigversion, ScriptExecutionData& execdata, ::ScriptError* serror) const override
    {
        TaprootContext context;
        context.script_path = sigversion == ::SigVersion::TAPSCRIPT;
        if (execdata.m_tapleaf_hash_init) context.tapleaf_hash.assign(execdata.m_tapleaf_hash.begin(), execdata.m_tapleaf_hash.end());
        if (execdata.m_codeseparator_pos_init) context.codesep_pos = execdata.m_codeseparator_pos;
        context.annex_present = execdata.m_annex_init && execdata.m_annex_present;
        ScriptError error{ScriptError::SCHNORR_SIG};
        if (m_checker.CheckSchnorrSignature(Bytes(sig.begin(), sig.end()), Bytes(pubkey.begin(), pubkey.end()), context, error)) return true;
        if (serror) *serror = ToCore(error);
        return false;
    }

    bool CheckLockTime(const CScriptNum& locktime) const override { return m_checker.CheckLockTime(locktime.GetInt64()); }
    bool CheckSequence(const CScriptNum& sequence) const override { return m_checker.CheckSequence(sequence.GetInt64()); }

private:
    const Checker& m_checker;
};

CScript ToScript(const Bytes& b) { return CScript(b.begin(), b.end()); }

//! What our eval mode sets up: tapscript's signature budget from the witness it would come in
//! (the stack, the script and a 33-byte control block), no annex, no leaf hash of consequence.
ScriptExecutionData ExecData(const EvalInput& in)
{
    ScriptExecutionData execdata;
    CScriptWitness witness;
    witness.stack.assign(in.stack.begin(), in.stack.end());
    witness.stack.emplace_back(in.script.begin(), in.script.end());
    witness.stack.emplace_back(33, 0xc0);
    execdata.m_validation_weight_left = static_cast<int64_t>(::GetSerializeSize(witness.stack)) + VALIDATION_WEIGHT_OFFSET;
    execdata.m_validation_weight_left_init = true;
    execdata.m_tapleaf_hash_init = true;
    execdata.m_annex_present = false;
    execdata.m_annex_init = true;
    execdata.m_codeseparator_pos = 0xFFFFFFFFUL;
    execdata.m_codeseparator_pos_init = true;
    return execdata;
}

EvalResult Eval(const EvalInput& in, const Checker& checker)
{
    EvalResult out;
    const CheckerBridge bridge{checker};
    ScriptExecutionData execdata{ExecData(in)};
    ::ScriptError error{SCRIPT_ERR_UNKNOWN_ERROR};
    CoreStack stack{in.stack.begin(), in.stack.end()};
    if (in.as_witness_script) {
        // ExecuteWitnessScript works on its own copy: the final stack is not observable here.
        out.ok = ExecuteWitnessScript(InterpreterSpan<const valtype>{stack}, ToScript(in.script), ToCoreFlags(in.flags), ToCore(in.sigversion), bridge, execdata, &error);
    } else {
        out.ok = EvalScript(stack, ToScript(in.script), ToCoreFlags(in.flags), bridge, ToCore(in.sigversion), execdata, &error);
        out.stack.assign(stack.begin(), stack.end());
    }
    out.error = out.ok ? ScriptError::OK : FromCore(error);
    return out;
}

VerifyResult Verify(const SpendInput& in, const Checker& checker)
{
    VerifyResult out;
    const CheckerBridge bridge{checker};
    CScriptWitness witness;
    witness.stack.assign(in.witness.begin(), in.witness.end());
    ::ScriptError error{SCRIPT_ERR_UNKNOWN_ERROR};
    out.ok = VerifyScript(ToScript(in.script_sig), ToScript(in.script_pubkey), &witness, ToCoreFlags(in.flags), bridge, &error);
    out.error = out.ok ? ScriptError::OK : FromCore(error);
    return out;
}

//! The codes this tree gives where they changed: the two newer codes by whether the tree declares
//! them (a probe at configure time), OP_IF on an empty stack by asking the tree's own EvalScript
//! once (the change, #32143, kept the code's name).
const ErrorCodes* TreeErrorCodes()
{
    static const ErrorCodes codes{[] {
        ErrorCodes c;
#ifndef EQUIFUZZ_CORE_HAS_SCRIPT_ERR_SCRIPTNUM
        c.bad_script_number = ScriptError::UNKNOWN_ERROR;
#endif
#ifndef EQUIFUZZ_CORE_HAS_SCRIPT_ERR_TAPSCRIPT_EMPTY_PUBKEY
        c.tapscript_empty_pubkey = ScriptError::PUBKEYTYPE;
#endif
        CoreStack stack;
        ScriptExecutionData execdata;
        ::ScriptError error{SCRIPT_ERR_OK};
        const BaseSignatureChecker no_signatures;
        const CScript if_alone{CScript() << OP_IF << OP_ENDIF};
        if (!EvalScript(stack, if_alone, ToCoreFlags(0), no_signatures, ::SigVersion::BASE, execdata, &error)) c.if_on_empty_stack = FromCore(error);
        return c;
    }()};
    return &codes;
}

const Side CORE{"Bitcoin Core interpreter.cpp (" EQUIFUZZ_CORE_TREE ")",
                Config{"Bitcoin Core", MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_ELEMENT_SIZE, MAX_SCRIPT_ELEMENT_SIZE, false},
                Verify, Eval, TreeErrorCodes};

} // namespace
} // namespace equifuzz::script

EQUIFUZZ_EXPORT_SIDE(equifuzz::script, equifuzz::script::CORE)

// Key operations live in Core's pubkey.cpp, which needs a libsecp256k1 with modules newer than
// the system's (ellswift). The interpreter needs three of them; they are answered here with the
// system libsecp256k1, making the calls pubkey.cpp makes:
//   * CheckLowS (SCRIPT_VERIFY_LOW_S): pubkey.cpp reads the signature with its lax DER parser,
//     which copies R and S into a 64-byte compact signature and, when either is longer than 32
//     bytes or not below the group order (parse_compact fails), uses the all-zero signature
//     instead; then secp256k1_ecdsa_signature_normalize says whether S was high. It is only
//     reached with a signature that passed the strict DER encoding check, so R and S are where
//     that check found them;
//   * CheckTapTweak (BIP-341): the output key is internal + TaggedHash("TapTweak", internal ||
//     merkle root)·G with the given parity (secp256k1_xonly_pubkey_tweak_add_check);
//   * Verify / VerifySchnorr belong to Core's transaction checker, which this side never uses
//     (the pair's Checker answers signatures): never called.
namespace {
const secp256k1_context* Secp()
{
    static secp256k1_context* const ctx{secp256k1_context_create(SECP256K1_CONTEXT_NONE)};
    return ctx;
}

//! Copies a DER integer (strictly encoded) into the 32 bytes at `out`; false if it is longer.
bool CopyInteger(const unsigned char* p, size_t len, unsigned char* out)
{
    while (len > 0 && *p == 0) {
        ++p;
        --len;
    }
    if (len > 32) return false;
    std::memcpy(out + 32 - len, p, len);
    return true;
}
} // namespace

bool CPubKey::CheckLowS(const std::vector<unsigned char>& sig)
{
    // 0x30 total 0x02 len_r R 0x02 len_s S (the hash type byte is already gone).
    if (sig.size() < 8) return false;
    const size_t len_r{sig[3]};
    if (sig.size() < 6 + len_r) return false;
    const size_t len_s{sig[5 + len_r]};
    if (sig.size() < 6 + len_r + len_s) return false;
    unsigned char compact[64]{};
    bool overflow{!CopyInteger(&sig[4], len_r, compact) || !CopyInteger(&sig[6 + len_r], len_s, compact + 32)};
    secp256k1_ecdsa_signature parsed;
    if (!overflow) overflow = !secp256k1_ecdsa_signature_parse_compact(Secp(), &parsed, compact);
    if (overflow) {
        std::memset(compact, 0, sizeof(compact));
        secp256k1_ecdsa_signature_parse_compact(Secp(), &parsed, compact);
    }
    return !secp256k1_ecdsa_signature_normalize(Secp(), nullptr, &parsed);
}

bool XOnlyPubKey::CheckTapTweak(const XOnlyPubKey& internal, const uint256& merkle_root, bool parity) const
{
    equifuzz::Bytes data(internal.begin(), internal.end());
    data.insert(data.end(), merkle_root.begin(), merkle_root.end());
    const equifuzz::Bytes tweak{equifuzz::script::TaggedHash("TapTweak", data)};
    secp256k1_xonly_pubkey base;
    if (!secp256k1_xonly_pubkey_parse(Secp(), &base, internal.data())) return false;
    return secp256k1_xonly_pubkey_tweak_add_check(Secp(), begin(), parity, &base, tweak.data()) == 1;
}

bool CPubKey::Verify(const uint256&, const std::vector<unsigned char>&) const { std::abort(); }
#ifdef EQUIFUZZ_CORE_HAS_PUBKEY_STD_SPAN
bool XOnlyPubKey::VerifySchnorr(const uint256&, std::span<const unsigned char>) const { std::abort(); }
#else
bool XOnlyPubKey::VerifySchnorr(const uint256&, Span<const unsigned char>) const { std::abort(); }
#endif
