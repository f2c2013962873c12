// The script pair's stand-in signature and lock-time checker (FakeChecker, pair.h).
#include "pair.h"

namespace equifuzz::script {

bool FakeChecker::CheckECDSASignature(const Bytes& sig, const Bytes& pubkey, const Bytes&, SigVersion) const
{
    return !sig.empty() && !pubkey.empty() && (sig[0] & 1) == (pubkey[0] & 1);
}

bool FakeChecker::CheckSchnorrSignature(const Bytes& sig, const Bytes& pubkey, const TaprootContext&, ScriptError& error) const
{
    if (sig.size() != 64 && sig.size() != 65) {
        error = ScriptError::SCHNORR_SIG_SIZE;
        return false;
    }
    if (sig.size() == 65 && sig[64] == 0x00) {
        error = ScriptError::SCHNORR_SIG_HASHTYPE;
        return false;
    }
    if ((sig[0] & 1) != (pubkey[0] & 1)) {
        error = ScriptError::SCHNORR_SIG;
        return false;
    }
    return true;
}

bool FakeChecker::CheckLockTime(int64_t locktime) const { return locktime <= 1000; }
bool FakeChecker::CheckSequence(int64_t sequence) const { return (sequence & 0xffff) <= 1000; }

} // namespace equifuzz::script
