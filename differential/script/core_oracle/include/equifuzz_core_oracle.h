/* equifuzz's Bitcoin Core oracle: Bitcoin Core 26.0's consensus script verifier
 * (libbitcoinconsensus, via the `bitcoinconsensus` crate) behind one C function.
 * Implemented in src/lib.rs; built by cargo as a static library when CMake finds a Rust
 * toolchain (EQUIFUZZ_CORE_ORACLE). */
#ifndef EQUIFUZZ_CORE_ORACLE_H
#define EQUIFUZZ_CORE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const uint8_t* script_pubkey;
    size_t script_pubkey_len;
    int64_t value;
} EquifuzzCoreUtxo;

enum {
    EQUIFUZZ_CORE_VALID = 0,               /* the spend is valid */
    EQUIFUZZ_CORE_SCRIPT_FAILED = 1,       /* the script failed (no reason is given) */
    EQUIFUZZ_CORE_TX_INDEX = 2,            /* the library refused the call: ... */
    EQUIFUZZ_CORE_TX_SIZE_MISMATCH = 3,
    EQUIFUZZ_CORE_TX_DESERIALIZE = 4,
    EQUIFUZZ_CORE_AMOUNT_REQUIRED = 5,
    EQUIFUZZ_CORE_INVALID_FLAGS = 6,
    EQUIFUZZ_CORE_SPENT_OUTPUTS_REQUIRED = 7,
    EQUIFUZZ_CORE_SPENT_OUTPUTS_MISMATCH = 8,
    EQUIFUZZ_CORE_TOO_LARGE = 9
};

/* The verification flags the library accepts (Core's SCRIPT_VERIFY_* bit positions). */
uint32_t equifuzz_core_consensus_flags(void);
/* libbitcoinconsensus's API version. */
uint32_t equifuzz_core_api_version(void);

/* Verifies input `input_index` of the serialized transaction `tx`, which spends `script_pubkey`
 * holding `amount` satoshis. `spent` lists the outputs every input spends (needed with TAPROOT;
 * may be NULL/0 otherwise). Returns one of the values above. */
int equifuzz_core_verify(const uint8_t* script_pubkey, size_t script_pubkey_len, int64_t amount,
                         const uint8_t* tx, size_t tx_len, const EquifuzzCoreUtxo* spent,
                         size_t spent_len, uint32_t input_index, uint32_t flags);

#ifdef __cplusplus
}
#endif

#endif
