//! equifuzz's Bitcoin Core oracle: one C function in front of the `bitcoinconsensus` crate
//! (Bitcoin Core 26.0's libbitcoinconsensus). The C declarations are in
//! `include/equifuzz_core_oracle.h`; keep the two in step.
//!
//! Outcomes (`equifuzz_core_verify`'s return value):
//!   0  the spend is valid;
//!   1  the script failed (libbitcoinconsensus reports no reason beyond that);
//!   2+ the library refused the call (bad index, bad transaction bytes, flags it does not accept,
//!      ...), numbered as `Refusal` below. A caller that built its call correctly never sees one.

use std::os::raw::{c_int, c_uint};

/// One spent output, as the caller passes it.
#[repr(C)]
pub struct EquifuzzCoreUtxo {
    pub script_pubkey: *const u8,
    pub script_pubkey_len: usize,
    pub value: i64,
}

pub const VALID: c_int = 0;
pub const SCRIPT_FAILED: c_int = 1;

/// Why the library refused a call (2 + the library's own error number, less one).
fn refusal(error: bitcoinconsensus::Error) -> c_int {
    use bitcoinconsensus::Error::*;
    match error {
        ERR_SCRIPT => SCRIPT_FAILED,
        ERR_TX_INDEX => 2,
        ERR_TX_SIZE_MISMATCH => 3,
        ERR_TX_DESERIALIZE => 4,
        ERR_AMOUNT_REQUIRED => 5,
        ERR_INVALID_FLAGS => 6,
        ERR_SPENT_OUTPUTS_REQUIRED => 7,
        ERR_SPENT_OUTPUTS_MISMATCH => 8,
    }
}

/// Lengths beyond what the library's `unsigned int` parameters hold.
const TOO_LARGE: c_int = 9;

unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

/// The flags libbitcoinconsensus accepts (every other bit is refused with outcome 6).
#[no_mangle]
pub extern "C" fn equifuzz_core_consensus_flags() -> u32 {
    bitcoinconsensus::VERIFY_ALL_PRE_TAPROOT | bitcoinconsensus::VERIFY_TAPROOT
}

/// libbitcoinconsensus's API version.
#[no_mangle]
pub extern "C" fn equifuzz_core_api_version() -> u32 {
    bitcoinconsensus::version()
}

/// Verifies input `input_index` of `tx` (serialized, with witness data if it has any), which
/// spends `script_pubkey` holding `amount`. `spent` lists every output the transaction spends,
/// in input order (taproot's signature hash commits to them all); it may be empty when `flags`
/// lacks TAPROOT.
///
/// # Safety
/// Every pointer is null with a zero length or points to at least that many readable bytes
/// (for `spent`, that many `EquifuzzCoreUtxo` values, each valid in the same way).
#[no_mangle]
pub unsafe extern "C" fn equifuzz_core_verify(
    script_pubkey: *const u8,
    script_pubkey_len: usize,
    amount: i64,
    tx: *const u8,
    tx_len: usize,
    spent: *const EquifuzzCoreUtxo,
    spent_len: usize,
    input_index: u32,
    flags: u32,
) -> c_int {
    if script_pubkey_len > c_uint::MAX as usize || tx_len > c_uint::MAX as usize || spent_len > c_uint::MAX as usize {
        return TOO_LARGE;
    }
    let spk = bytes(script_pubkey, script_pubkey_len);
    let tx = bytes(tx, tx_len);
    let mut utxos: Vec<bitcoinconsensus::Utxo> = Vec::with_capacity(spent_len);
    if !spent.is_null() {
        for u in std::slice::from_raw_parts(spent, spent_len) {
            if u.script_pubkey_len > c_uint::MAX as usize {
                return TOO_LARGE;
            }
            let script = bytes(u.script_pubkey, u.script_pubkey_len);
            utxos.push(bitcoinconsensus::Utxo {
                script_pubkey: script.as_ptr(),
                script_pubkey_len: script.len() as c_uint,
                value: u.value,
            });
        }
    }
    let spent_outputs = if utxos.is_empty() { None } else { Some(&utxos[..]) };
    // The library takes the amount as Core's int64 under a u64 name: same bits.
    match bitcoinconsensus::verify_with_flags(spk, amount as u64, tx, spent_outputs, input_index as usize, flags) {
        Ok(()) => VALID,
        Err(e) => refusal(e),
    }
}
