// The script pair's relations between the 520 side, Variant G and Variant T (spec 2b-2d), and
// the flag monotonicity of the 520 side: what the targets assert beyond equality.
#include "pair.h"

#include "opcodes.h"
#include "script_util.h"

#include <algorithm>

namespace equifuzz::script {
namespace {

//! Tapscript's OP_SUCCESSx (spec 2d).
bool IsOpSuccess(uint8_t op)
{
    return op == 0x50 || op == 0x62 || (op >= 0x7e && op <= 0x81) || (op >= 0x83 && op <= 0x86) || op == 0x89 || op == 0x8a ||
           op == 0x8d || op == 0x8e || (op >= 0x95 && op <= 0x99) || (op >= 0xbb && op <= 0xfe);
}

//! Pushes of `script` in order, up to the first truncated one. `truncated` reports one;
//! `op_success`, an OP_SUCCESSx before it.
std::vector<size_t> PushSizes(std::span<const uint8_t> s, bool* truncated = nullptr, bool* op_success = nullptr)
{
    std::vector<size_t> sizes;
    if (truncated) *truncated = false;
    if (op_success) *op_success = false;
    size_t pc{0};
    while (pc < s.size()) {
        const std::optional<ScriptOp> op{ReadOp(s, pc)};
        if (!op) {
            if (truncated) *truncated = true;
            break;
        }
        if (op_success && IsOpSuccess(op->opcode)) *op_success = true;
        if (op->opcode <= OP_PUSHDATA4) sizes.push_back(op->data.size());
    }
    return sizes;
}

size_t MaxItem(const Stack& items)
{
    size_t m{0};
    for (const Bytes& b : items) m = std::max(m, b.size());
    return m;
}

//! Tapscript, initial items over 520 and at most 8000 bytes: T runs exactly as G until it meets
//! OP_DUP of an item over 520 bytes (DUP_ELEMENT_SIZE) or a push over 520 bytes (PUSH_SIZE, checked
//! on every push, executed or not). So T fails with DUP_ELEMENT_SIZE exactly when G duplicated such
//! an item before any large push, and T ends any other way only if it equals G.
void CheckTapscriptTAgainstG(const DescribeFn& desc, size_t max_push, const auto& g, const auto& t)
{
    if (max_push <= MAX_SCRIPT_ELEMENT_SIZE) {
        if (g.max_dup_item > MAX_SCRIPT_ELEMENT_SIZE) {
            Require(t.error == ScriptError::DUP_ELEMENT_SIZE, "T-fails-OP_DUP-over-520", desc, t);
        } else {
            Compare(desc, {{Model("G"), g}, {Model("T"), t}});
        }
        return;
    }
    if (t.error == ScriptError::DUP_ELEMENT_SIZE) {
        Require(g.max_dup_item > MAX_SCRIPT_ELEMENT_SIZE, "T-DUP_ELEMENT_SIZE-only-after-G-duplicated-a-large-item", desc, g);
    } else if (t.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{Model("G"), g}, {Model("T"), t}});
    }
}

} // namespace

size_t MaxPush(std::span<const uint8_t> script)
{
    const auto sizes{PushSizes(script)};
    return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

void CheckEvalRelations(const EvalInput& in, const DescribeFn& desc, const EvalResult& o, const EvalResult& g, const EvalResult& t)
{
    const size_t max_push{MaxPush(in.script)};
    const size_t max_item{MaxItem(in.stack)};
    const bool small{max_push <= MAX_SCRIPT_ELEMENT_SIZE && max_item <= MAX_SCRIPT_ELEMENT_SIZE};
    // The 520 side's own rule: an initial witness item over 520 bytes that reaches the element
    // check fails it (tapscript: unless the OP_SUCCESS pre-scan or the stack size decided first).
    if (in.as_witness_script && max_item > MAX_SCRIPT_ELEMENT_SIZE) {
        bool truncated{false}, op_success{false};
        PushSizes(in.script, &truncated, &op_success);
        const bool prescan_decides{in.sigversion == SigVersion::TAPSCRIPT && (truncated || op_success || in.stack.size() > 1000)};
        if (!prescan_decides) Require(o.error == ScriptError::PUSH_SIZE, "520-fails-large-witness-item", desc, o);
        // Tapscript's pre-scan (OP_SUCCESSx, BAD_OPCODE) and stack-size check come before any
        // size check, so they decide alike at every limit.
        if (prescan_decides && max_item <= LARGE_ELEMENT_SIZE) {
            Compare(desc, {{Model("520"), o}, {Model("G"), g}, {Model("T"), t}});
            return;
        }
    }
    if (small || o.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{Model("520"), o}, {Model("G"), g}, {Model("T"), t}});
        return;
    }
    if (max_push <= LARGE_ELEMENT_SIZE && max_item <= LARGE_ELEMENT_SIZE) {
        Require(g.error != ScriptError::PUSH_SIZE, "G-accepts-elements-up-to-8000", desc, g);
    }
    if (in.sigversion != SigVersion::TAPSCRIPT || max_item <= MAX_SCRIPT_ELEMENT_SIZE) {
        // T differs from the 520 side only through tapscript's initial items (and OP_DUP of one).
        Compare(desc, {{Model("520"), o}, {Model("T"), t}});
    } else if (max_item <= LARGE_ELEMENT_SIZE) {
        CheckTapscriptTAgainstG(desc, max_push, g, t);
    }
}

void CheckSpendRelations(const SpendInput& in, const DescribeFn& desc, const VerifyResult& o, const VerifyResult& g, const VerifyResult& t)
{
    // Every element the spend can put on a stack: pushes of both scripts, of any pushed script
    // (a redeemScript), the witness items and the pushes of any witness item (a witnessScript).
    size_t max_element{std::max(MaxPush(in.script_sig), MaxPush(in.script_pubkey))};
    for (const Bytes& item : in.witness) max_element = std::max({max_element, item.size(), MaxPush(item)});
    // Each push of the scriptSig, scanned as a redeemScript.
    size_t pc{0};
    while (const std::optional<ScriptOp> op{ReadOp(in.script_sig, pc)}) {
        if (op->opcode <= OP_PUSHDATA4) max_element = std::max(max_element, MaxPush(op->data));
    }
    // Could the spend run a tapscript? (TAPROOT and WITNESS, a v1 32-byte program, two or more
    // witness items besides an annex.) If not, Variant T (which changes only tapscript) is the
    // 520 side, whatever the sizes.
    size_t tap_items{in.witness.size()};
    if (tap_items >= 2 && !in.witness.back().empty() && in.witness.back()[0] == 0x50) --tap_items;
    const bool tapscript{(in.flags & FLAG_TAPROOT) && (in.flags & FLAG_WITNESS) && in.script_pubkey.size() == 34 &&
                         in.script_pubkey[0] == OP_1 && in.script_pubkey[1] == 32 && tap_items >= 2};
    if (!tapscript) Compare(desc, {{Model("520"), o}, {Model("T"), t}});
    if (max_element <= MAX_SCRIPT_ELEMENT_SIZE || o.error != ScriptError::PUSH_SIZE) {
        Compare(desc, {{Model("520"), o}, {Model("G"), g}, {Model("T"), t}});
    } else {
        if (max_element <= LARGE_ELEMENT_SIZE) {
            Require(g.error != ScriptError::PUSH_SIZE, "G-accepts-elements-up-to-8000", desc, g);
        }
        if (tapscript) {
            // The initial stack: the items before the leaf script and control block (and annex).
            const Stack items(in.witness.begin(), in.witness.begin() + static_cast<std::ptrdiff_t>(tap_items - 2));
            if (MaxItem(items) <= MAX_SCRIPT_ELEMENT_SIZE) {
                Compare(desc, {{Model("520"), o}, {Model("T"), t}});
            } else if (MaxItem(items) <= LARGE_ELEMENT_SIZE) {
                CheckTapscriptTAgainstG(desc, MaxPush(in.witness[tap_items - 2]), g, t);
            }
        }
    }
}

void CheckFlagMonotonicity(const SpendInput& in, uint32_t extra, const DescribeFn& desc, const VerifyResult& o, const Checker& checker)
{
    SpendInput other{in};
    other.flags = o.ok ? FillFlags(in.flags & ~extra) : FillFlags(in.flags | extra);
    const VerifyResult m{original_side().verify(other, checker)};
    Require(m.ok == o.ok, o.ok ? "removing-flags-keeps-pass" : "adding-flags-keeps-fail", desc,
            [&] { return ToOutcome(m).Add("other_flags", FlagsToString(other.flags)); });
}

} // namespace equifuzz::script
