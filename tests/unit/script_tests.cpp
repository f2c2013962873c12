// Script pair: Bitcoin Core's script_tests.json as a conformance suite (spec 2e), run against the
// 520 side (every row: expected result and error), Variant T (the same, no row is tapscript-
// dependent here) and Variant G (the same, except that the two PUSH_SIZE rows become OK), plus
// known answers for the rules only the variants have.
#include <catch2/catch.hpp>
#include <common/json.h>
#include <script/core_side.h>
#include <script/crypto.h>
#include <script/opcodes.h>
#include <script/pair.h>
#include <script/script_util.h>
#include <script/signed.h>
#include <script/stress.h>
#include <script/tx.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <variant>

using namespace equifuzz;
using namespace equifuzz::script;

namespace {

using Json = json::Value;
using JsonArray = json::Array;

const Json& ScriptTests()
{
    static const Json tests{json::ParseFile(std::string{EQUIFUZZ_DATA_DIR} + "/bitcoin/script_tests.json")};
    return tests;
}

struct Row {
    size_t index;
    Stack witness;
    int64_t amount{0};
    Bytes script_sig, script_pubkey;
    uint32_t flags{0};
    std::string expected, comment, text;
};

//! Parses one row; returns a reason to skip it (empty if it can run).
std::string ParseRow(const JsonArray& raw, size_t index, Row& row)
{
    row.index = index;
    size_t pos{0};
    // Taproot placeholders (as Core's harness builds them): "#SCRIPT# <asm>" is a leaf script,
    // "#CONTROLBLOCK#" its control block and "#TAPROOTOUTPUT#" the output key, for a tree that
    // holds only that leaf under a fixed internal key.
    Bytes leaf, output_key, control;
    bool has_leaf{false};
    if (raw[0].IsArray()) {
        const JsonArray& w{raw[0].AsArray()};
        for (size_t i = 0; i + 1 < w.size(); ++i) {
            const std::string& item{w[i].AsString()};
            if (item.rfind("#SCRIPT#", 0) == 0) {
                const auto script{ParseAsm(item.substr(8))};
                if (!script || !SingleLeafTaproot(*script, output_key, control)) return "#SCRIPT# this parser does not read";
                leaf = *script;
                has_leaf = true;
                row.witness.push_back(leaf);
                continue;
            }
            if (item == "#CONTROLBLOCK#") {
                if (!has_leaf) return "#CONTROLBLOCK# before #SCRIPT#";
                row.witness.push_back(control);
                continue;
            }
            const auto bytes{ParseHex(item)};
            if (!bytes) return "witness item is not hex";
            row.witness.push_back(*bytes);
        }
        row.amount = std::llround(w.back().AsNumber().AsDouble() * 1e8);
        pos = 1;
    }
    std::string sig_text{raw[pos].AsString()}, spk_text{raw[pos + 1].AsString()}, flags_text{raw[pos + 2].AsString()};
    if (const size_t at{spk_text.find("#TAPROOTOUTPUT#")}; at != std::string::npos) {
        if (!has_leaf) return "#TAPROOTOUTPUT# without #SCRIPT#";
        spk_text.replace(at, 15, "0x" + Hex(output_key));
    }
    row.expected = raw[pos + 3].AsString();
    if (raw.size() > pos + 4) row.comment = raw[pos + 4].AsString();
    row.text = "[" + sig_text + "] [" + spk_text + "] " + flags_text + " -> " + row.expected + " (" + row.comment + ")";
    if (!ParseFlags(flags_text, row.flags)) return "unknown flag in '" + flags_text + "'";
    const auto sig{ParseAsm(sig_text)}, spk{ParseAsm(spk_text)};
    if (!sig || !spk) return "script text this parser does not read";
    row.script_sig = *sig;
    row.script_pubkey = *spk;
    row.flags = FillFlags(row.flags);
    return "";
}

VerifyResult RunRow(const Side& side, const Row& row)
{
    const Transaction credit{BuildCreditingTransaction(row.script_pubkey, row.amount)};
    const Transaction spend{BuildSpendingTransaction(row.script_sig, row.witness, credit)};
    const TransactionChecker checker{spend, 0, row.amount, {TxOut{row.amount, row.script_pubkey}}};
    return side.verify(SpendInput{row.script_sig, row.script_pubkey, row.witness, row.flags}, checker);
}

} // namespace

TEST_CASE("script_tests.json: every row at 520 gives the expected result and error and G and T as the spec says")
{
    const JsonArray& rows{ScriptTests().AsArray()};
    size_t passed{0}, failed{0}, skipped{0};
    std::map<std::string, size_t> skip_reasons;
    std::vector<std::string> failures;
    for (size_t i = 0; i < rows.size(); ++i) {
        const JsonArray& raw{rows[i].AsArray()};
        if (raw.size() == 1) continue; // a comment
        Row row;
        const std::string skip{ParseRow(raw, i, row)};
        if (!skip.empty()) {
            ++skipped;
            ++skip_reasons[skip];
            std::cout << "skipped row " << i << ": " << skip << "\n";
            continue;
        }
        const VerifyResult o{RunRow(original_side(), row)};
        const VerifyResult g{RunRow(optimized_side(), row)};
        const VerifyResult t{RunRow(variant_t_side(), row)};
        const std::string expected_g{row.expected == "PUSH_SIZE" ? "OK" : row.expected};
        // Every error must be the file's exactly. (Until Bitcoin Core #32143, Core gave
        // UNBALANCED_CONDITIONAL for IF/NOTIF on an empty stack; master and this file say
        // INVALID_STACK_OPERATION, and so does our interpreter.)
        const auto name_ok = [](ScriptError e, const std::string& want) { return ErrorName(e) == want; };
        std::string problem;
        if (!name_ok(o.error, row.expected)) problem += std::string{" 520 gave "} + ErrorName(o.error) + ";";
        if (!name_ok(t.error, row.expected)) problem += std::string{" T gave "} + ErrorName(t.error) + ";";
        if (!name_ok(g.error, expected_g)) problem += std::string{" G gave "} + ErrorName(g.error) + " (want " + expected_g + ");";
        if (o.ok != (row.expected == "OK")) problem += " 520 ok flag disagrees with its error;";
        if (problem.empty()) {
            ++passed;
        } else {
            ++failed;
            failures.push_back("row " + std::to_string(i) + ": " + row.text + ":" + problem);
        }
    }
    for (const std::string& f : failures) std::cout << "FAILED " << f << "\n";
    std::cout << "script_tests.json: " << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
    for (const auto& [reason, count] : skip_reasons) std::cout << "  skipped " << count << ": " << reason << "\n";
    CHECK(passed > 1100);
    REQUIRE(failed == 0);
}

#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
TEST_CASE("script_tests.json through Bitcoin Core 26.0's verifier: our 520 side gives Core's verdict on every consensus-flag row")
{
    REQUIRE(CoreOracleAvailable());
    const JsonArray& rows{ScriptTests().AsArray()};
    size_t agree{0}, disagree{0}, not_applicable{0}, core_vs_file{0}, cut_agree{0}, cut_disagree{0};
    std::vector<std::string> disagreements;
    for (size_t i = 0; i < rows.size(); ++i) {
        const JsonArray& raw{rows[i].AsArray()};
        if (raw.size() == 1) continue; // a comment
        Row row;
        if (!ParseRow(raw, i, row).empty()) {
            ++not_applicable;
            continue;
        }
        // A row with a policy flag (STRICTENC, MINIMALDATA...) has no Core verdict under its own
        // flags; it still runs with the flags cut to the consensus set, counted apart.
        const bool consensus_only{(row.flags & ~CoreConsensusFlags()) == 0};
        if (!consensus_only) {
            ++not_applicable;
            row.flags = CoreFlags(row.flags);
        }
        CoreContext ctx;
        ctx.amount = row.amount;
        const SpendInput spend{row.script_sig, row.script_pubkey, row.witness, row.flags};
        const CoreAnswer core{CoreVerify(spend, ctx)};
        const VerifyResult ours{RunRow(original_side(), row)};
        REQUIRE(core.verdict != CoreVerdict::REFUSED);
        const bool core_valid{core.verdict == CoreVerdict::VALID};
        if (consensus_only && core_valid != (row.expected == "OK")) ++core_vs_file;
        if (core_valid == ours.ok) {
            ++(consensus_only ? agree : cut_agree);
        } else {
            ++(consensus_only ? disagree : cut_disagree);
            disagreements.push_back("row " + std::to_string(i) + ": " + row.text + (consensus_only ? "" : " (flags cut to " + FlagsToString(row.flags) + ")") +
                                    ": Core " + (core_valid ? "valid" : "invalid") + ", ours " + (ours.ok ? "valid" : "invalid") +
                                    " (" + ErrorName(ours.error) + ")");
        }
    }
    for (const std::string& d : disagreements) std::cout << "DISAGREE " << d << "\n";
    std::cout << "script_tests.json against Bitcoin Core 26.0: " << agree << " agree, " << disagree << " disagree, "
              << not_applicable << " not applicable (policy flags)\n"
              << "  the " << not_applicable << " rows with policy flags, run with those flags removed: " << cut_agree << " agree, "
              << cut_disagree << " disagree\n"
              << "  Core's verdict differs from the file's expected result on " << core_vs_file << " consensus-flag rows\n";
    CHECK(agree > 200);
    CHECK(core_vs_file == 0);
    CHECK(cut_disagree == 0);
    REQUIRE(disagree == 0);
}
#endif

namespace {

EvalResult Eval(const Side& side, const std::string& asm_text, Stack stack, SigVersion sv, bool as_witness, uint32_t flags = 0)
{
    const FakeChecker checker;
    EvalInput in;
    in.script = *ParseAsm(asm_text);
    in.stack = std::move(stack);
    in.sigversion = sv;
    in.as_witness_script = as_witness;
    in.flags = flags;
    return side.eval(in, checker);
}

Bytes PushOf(size_t n)
{
    Bytes s;
    AppendPush(s, Bytes(n, 0x62));
    return s;
}

} // namespace

TEST_CASE("element limits: 520 side, Variant G and Variant T (spec 2a-2c)")
{
    const Bytes p520{PushOf(520)}, p521{PushOf(521)};
    const auto eval_raw = [](const Side& side, Bytes script, Stack stack, SigVersion sv, bool as_witness) {
        const FakeChecker checker;
        return side.eval(EvalInput{std::move(script), std::move(stack), 0, sv, as_witness}, checker);
    };
    for (const SigVersion sv : {SigVersion::BASE, SigVersion::WITNESS_V0, SigVersion::TAPSCRIPT}) {
        CHECK(eval_raw(original_side(), p520, {}, sv, false).error == ScriptError::OK);
        CHECK(eval_raw(original_side(), p521, {}, sv, false).error == ScriptError::PUSH_SIZE);
        CHECK(eval_raw(optimized_side(), p521, {}, sv, false).error == ScriptError::OK);
        CHECK(eval_raw(variant_t_side(), p521, {}, sv, false).error == ScriptError::PUSH_SIZE);
        // A push in an unexecuted branch still counts: 0 IF <521> ENDIF 1.
        Bytes dead{0x00, 0x63};
        dead.insert(dead.end(), p521.begin(), p521.end());
        dead.push_back(0x68);
        dead.push_back(0x51);
        CHECK(eval_raw(original_side(), dead, {}, sv, false).error == ScriptError::PUSH_SIZE);
        CHECK(eval_raw(optimized_side(), dead, {}, sv, false).error == ScriptError::OK);
    }
    // Initial witness items: v0 stays 520 under T; tapscript takes 8000 under T and G.
    const Stack big{Bytes(8000, 1)};
    CHECK(Eval(original_side(), "SIZE 8000 EQUALVERIFY DROP 1", big, SigVersion::WITNESS_V0, true).error == ScriptError::PUSH_SIZE);
    CHECK(Eval(variant_t_side(), "SIZE 8000 EQUALVERIFY DROP 1", big, SigVersion::WITNESS_V0, true).error == ScriptError::PUSH_SIZE);
    CHECK(Eval(optimized_side(), "SIZE 8000 EQUALVERIFY DROP 1", big, SigVersion::WITNESS_V0, true).error == ScriptError::OK);
    CHECK(Eval(original_side(), "SIZE 8000 EQUALVERIFY DROP 1", big, SigVersion::TAPSCRIPT, true).error == ScriptError::PUSH_SIZE);
    CHECK(Eval(variant_t_side(), "SIZE 8000 EQUALVERIFY DROP 1", big, SigVersion::TAPSCRIPT, true).error == ScriptError::OK);
    CHECK(Eval(optimized_side(), "SIZE 8000 EQUALVERIFY DROP 1", {Bytes(8001, 1)}, SigVersion::TAPSCRIPT, true).error == ScriptError::PUSH_SIZE);
    // BIP-360's OP_DUP rule: only T, only over 520, only OP_DUP.
    CHECK(Eval(variant_t_side(), "DUP EQUAL", big, SigVersion::TAPSCRIPT, true).error == ScriptError::DUP_ELEMENT_SIZE);
    CHECK(Eval(optimized_side(), "DUP EQUAL", big, SigVersion::TAPSCRIPT, true).error == ScriptError::OK);
    CHECK(Eval(variant_t_side(), "DUP EQUAL", {Bytes(520, 1)}, SigVersion::TAPSCRIPT, true).error == ScriptError::OK);
    CHECK(Eval(variant_t_side(), "2DUP DROP EQUAL", big, SigVersion::TAPSCRIPT, true).error == ScriptError::INVALID_STACK_OPERATION);
    CHECK(Eval(variant_t_side(), "1 PICK EQUAL", {Bytes(600, 1), Bytes(600, 1)}, SigVersion::TAPSCRIPT, true).error == ScriptError::CLEANSTACK);
    // OP_SUCCESS overrides the limits; the stack-size check comes before the element check.
    CHECK(Eval(original_side(), "0x50", big, SigVersion::TAPSCRIPT, true).error == ScriptError::OK);
    CHECK(Eval(original_side(), "1", Stack(1001, Bytes(600, 1)), SigVersion::TAPSCRIPT, true).error == ScriptError::STACK_SIZE);
    // Minimal IF is consensus in tapscript, a flag in v0.
    CHECK(Eval(original_side(), "IF 1 ENDIF", {Bytes{2}}, SigVersion::TAPSCRIPT, true).error == ScriptError::TAPSCRIPT_MINIMALIF);
    CHECK(Eval(original_side(), "IF 1 ENDIF", {Bytes{2}}, SigVersion::WITNESS_V0, true, FLAG_MINIMALIF).error == ScriptError::MINIMALIF);
    CHECK(Eval(original_side(), "IF 1 ENDIF", {Bytes{2}}, SigVersion::WITNESS_V0, true).error == ScriptError::OK);
}

TEST_CASE("error codes: the three failures whose code Core changed give today's codes, and an older tree's under ScopedErrorCodes")
{
    const auto errors = [] {
        return std::vector<ScriptError>{
            Eval(original_side(), "IF 1 ENDIF", {}, SigVersion::BASE, false).error,
            Eval(original_side(), "0x05 0x0000000001 1ADD", {}, SigVersion::BASE, false).error,
            Eval(original_side(), "0 0 CHECKSIG", {}, SigVersion::TAPSCRIPT, true).error,
            Eval(optimized_side(), "IF 1 ENDIF", {}, SigVersion::BASE, false).error,
        };
    };
    CHECK(errors() == std::vector{ScriptError::INVALID_STACK_OPERATION, ScriptError::SCRIPTNUM, ScriptError::TAPSCRIPT_EMPTY_PUBKEY, ScriptError::INVALID_STACK_OPERATION});
    {
        const ScopedErrorCodes older{ErrorCodes{ScriptError::UNBALANCED_CONDITIONAL, ScriptError::UNKNOWN_ERROR, ScriptError::PUBKEYTYPE}};
        CHECK(errors() == std::vector{ScriptError::UNBALANCED_CONDITIONAL, ScriptError::UNKNOWN_ERROR, ScriptError::PUBKEYTYPE, ScriptError::UNBALANCED_CONDITIONAL});
        // Only those failures: another empty-stack failure keeps its code.
        CHECK(Eval(original_side(), "DROP 1", {}, SigVersion::BASE, false).error == ScriptError::INVALID_STACK_OPERATION);
    }
    CHECK(errors()[0] == ScriptError::INVALID_STACK_OPERATION);
}

TEST_CASE("taproot script path: the commitment is checked and Variant T takes 8000-byte witness items")
{
    const FakeChecker checker;
    const Bytes leaf{*ParseAsm("SIZE 8000 EQUALVERIFY DROP 1")};
    Bytes output_key, control;
    REQUIRE(SingleLeafTaproot(leaf, output_key, control));
    SpendInput in;
    in.script_pubkey = {0x51};
    AppendPush(in.script_pubkey, output_key);
    in.flags = FLAG_P2SH | FLAG_WITNESS | FLAG_TAPROOT;
    in.witness = {Bytes(8000, 7), leaf, control};
    CHECK(original_side().verify(in, checker).error == ScriptError::PUSH_SIZE);
    CHECK(variant_t_side().verify(in, checker).error == ScriptError::OK);
    CHECK(optimized_side().verify(in, checker).error == ScriptError::OK);
    // The same leaf with OP_DUP: T refuses to duplicate the 8000-byte item.
    const Bytes dup_leaf{*ParseAsm("DUP EQUALVERIFY 1")};
    REQUIRE(SingleLeafTaproot(dup_leaf, output_key, control));
    in.script_pubkey = {0x51};
    AppendPush(in.script_pubkey, output_key);
    in.witness = {Bytes(8000, 7), dup_leaf, control};
    CHECK(variant_t_side().verify(in, checker).error == ScriptError::DUP_ELEMENT_SIZE);
    CHECK(optimized_side().verify(in, checker).error == ScriptError::OK);
    // A control block for another key, a wrong parity bit, a bad size.
    Bytes wrong{control};
    wrong[5] ^= 1;
    in.witness = {Bytes(10, 7), dup_leaf, wrong};
    CHECK(original_side().verify(in, checker).error == ScriptError::WITNESS_PROGRAM_MISMATCH);
    wrong = control;
    wrong[0] ^= 1;
    in.witness = {Bytes(10, 7), dup_leaf, wrong};
    CHECK(original_side().verify(in, checker).error == ScriptError::WITNESS_PROGRAM_MISMATCH);
    wrong = control;
    wrong.push_back(0);
    in.witness = {Bytes(10, 7), dup_leaf, wrong};
    CHECK(original_side().verify(in, checker).error == ScriptError::TAPROOT_WRONG_CONTROL_SIZE);
    // Without TAPROOT a v1 program is anyone-can-spend.
    in.flags = FLAG_P2SH | FLAG_WITNESS;
    CHECK(original_side().verify(in, checker).error == ScriptError::OK);
}

TEST_CASE("stress: 8000-byte items hashed and copied to the stack limit run clean (ASan+UBSan) with the expected results")
{
    const FakeChecker checker;
    const auto run = [&](const Side& side, size_t element) {
        std::map<std::string, std::string> got;
        for (const StressScenario& s : StressScenarios(element)) got[s.name] = ErrorName(side.eval(s.input, checker).error);
        return got;
    };
    const std::map<std::string, std::string> ok_but_limit{
        {"SHA256", "OK"}, {"SHA256 x100", "OK"}, {"DUP x999", "OK"}, {"0 PICK, 2DUP x499", "OK"},
        {"DUP DUP TOALTSTACK x499", "OK"}, {"1000 items, DUP", "STACK_SIZE"}};
    CHECK(run(original_side(), 520) == ok_but_limit);
    CHECK(run(optimized_side(), 520) == ok_but_limit);
    CHECK(run(variant_t_side(), 520) == ok_but_limit);
    CHECK(run(optimized_side(), 8000) == ok_but_limit);
    // Variant T: OP_DUP of an item over 520 bytes fails, but PICK and 2DUP still copy it 1000
    // times (spec 2: the BIP names OP_DUP only).
    CHECK(run(variant_t_side(), 8000) == std::map<std::string, std::string>{
        {"SHA256", "OK"}, {"SHA256 x100", "OK"}, {"DUP x999", "DUP_ELEMENT_SIZE"}, {"0 PICK, 2DUP x499", "OK"},
        {"DUP DUP TOALTSTACK x499", "DUP_ELEMENT_SIZE"}, {"1000 items, DUP", "DUP_ELEMENT_SIZE"}});
    for (const auto& [name, error] : run(original_side(), 521)) CHECK(error == "PUSH_SIZE");
}

TEST_CASE("signed spends: the decoder's signatures verify with our checker, and spoiling one fails it")
{
    FuzzedDataProvider empty{nullptr, 0};
    const SignedSpend plain{DecodeSignedSpend(empty)}; // P2PK, bare, SIGHASH_ALL, not spoiled
    const Transaction tx{CoreSpendingTransaction(plain.spend, plain.ctx)};
    const TransactionChecker checker{tx, 0, plain.ctx.amount};
    INFO(plain.recipe.Text());
    CHECK(original_side().verify(plain.spend, checker).ok);
    SignedSpend spoiled{plain};
    spoiled.spend.script_sig[5] ^= 0x01; // a byte of r inside the DER signature
    CHECK(!original_side().verify(spoiled.spend, checker).ok);

    // Taproot: our BIP-341 signature hash and Schnorr check accept the decoder's unspoiled
    // key-path and script-path spends and refuse the spoiled ones.
    std::mt19937 rng{42};
    size_t taproot_unspoiled{0}, taproot_unspoiled_valid{0}, taproot_spoiled_valid{0};
    for (int i = 0; i < 1000; ++i) {
        Bytes input(static_cast<size_t>(8 + i % 40));
        for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{input.data(), input.size()};
        const SignedSpend s{DecodeSignedSpend(fdp)};
        const std::string recipe{s.recipe.Text()};
        if (recipe.rfind("P2TR", 0) != 0 || !(s.spend.flags & FLAG_TAPROOT) || !(s.spend.flags & FLAG_WITNESS)) continue;
        const bool unspoiled{recipe.find("spoiled: none") != std::string::npos};
        const bool valid_type{recipe.find("hash type 4") == std::string::npos && recipe.find("hash type 132") == std::string::npos};
        const bool ok{OursVerify(s.spend, s.ctx).ok};
        if (unspoiled && valid_type && s.ctx.outputs > 0) {
            ++taproot_unspoiled;
            taproot_unspoiled_valid += ok;
        }
        if (!unspoiled) taproot_spoiled_valid += ok;
    }
    CHECK(taproot_unspoiled > 50);
    CHECK(taproot_unspoiled_valid == taproot_unspoiled);
    CHECK(taproot_spoiled_valid == 0);
}

#ifdef EQUIFUZZ_HAVE_CORE_ORACLE
TEST_CASE("signed spends: Bitcoin Core 26.0 and our 520 side give the same verdict on 2000 of them, most valid")
{
    std::mt19937 rng{20261122};
    size_t core_valid{0}, disagree{0};
    for (int i = 0; i < 2000; ++i) {
        Bytes input(static_cast<size_t>(8 + i % 40));
        for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
        FuzzedDataProvider fdp{input.data(), input.size()};
        const SignedSpend s{DecodeSignedSpend(fdp)};
        const CoreAnswer core{CoreVerify(s.spend, s.ctx)};
        const VerifyResult ours{OursVerify(s.spend, s.ctx)};
        REQUIRE(core.verdict != CoreVerdict::REFUSED);
        core_valid += core.verdict == CoreVerdict::VALID;
        if ((core.verdict == CoreVerdict::VALID) != ours.ok) {
            ++disagree;
            std::cout << "DISAGREE " << s.recipe.Text() << ": Core " << CoreCodeName(core.code) << ", ours " << ErrorName(ours.error) << "\n";
        }
    }
    std::cout << "signed spends against Bitcoin Core 26.0: " << 2000 - disagree << " agree (" << core_valid << " valid), "
              << disagree << " disagree\n";
    CHECK(core_valid > 500);
    REQUIRE(disagree == 0);
}
#endif

TEST_CASE("PushPiece: one well-formed push of a length that matters, sometimes in a branch that does not run", "[mutator]")
{
    size_t over_520{0}, over_8000{0}, in_branch{0};
    for (uint32_t seed = 0; seed < 400; ++seed) {
        Bytes script;
        Mutation m{script, 20000, seed};
        script = PushPiece(m);
        // The script reads to its end: the push (and the branch around it) is whole.
        std::vector<ScriptOp> ops;
        size_t pc{0};
        while (const auto op{ReadOp(script, pc)}) ops.push_back(*op);
        REQUIRE(pc == script.size());
        const bool branch{ops.size() == 4};
        REQUIRE((ops.size() == 1 || branch));
        const ScriptOp& push{ops[branch ? 2 : 0]};
        REQUIRE(push.opcode <= OP_PUSHDATA4);
        if (branch) {
            CHECK(((ops[0].opcode == OP_0 && ops[1].opcode == OP_IF) || (ops[0].opcode == OP_1 && ops[1].opcode == OP_NOTIF)));
            CHECK(ops[3].opcode == OP_ENDIF);
        }
        over_520 += push.data.size() > 520;
        over_8000 += push.data.size() > 8000;
        in_branch += branch;
    }
    CHECK(over_520 > 100);
    CHECK(over_8000 > 0);
    CHECK(in_branch > 50);
}

TEST_CASE("EncodeEvalRaw is DecodeEvalRaw's mirror; MutateEval keeps scripts whole", "[mutator]")
{
    std::mt19937 rng{7};
    const auto decode{[](const Bytes& b) { FuzzedDataProvider fdp{b.data(), b.size()}; return DecodeEvalRaw(fdp); }};
    const auto same{[](const EvalInput& a, const EvalInput& b) {
        return a.script == b.script && a.stack == b.stack && a.flags == b.flags && a.sigversion == b.sigversion &&
               a.as_witness_script == b.as_witness_script;
    }};
    size_t long_items{0}, changed{0};
    for (int i = 0; i < 400; ++i) {
        Bytes raw(std::uniform_int_distribution<size_t>{0, 1200}(rng));
        for (uint8_t& b : raw) b = static_cast<uint8_t>(rng());
        const EvalInput first{decode(raw)};
        CHECK(same(decode(EncodeEvalRaw(first)), first));
        // A script that read to its end still does after the change (or it lost its last truncated push's tail).
        size_t pc{0};
        while (ReadOp(first.script, pc)) {}
        const bool whole{pc == first.script.size()};
        Bytes mutated{raw};
        Mutation m{mutated, 20000, static_cast<uint32_t>(i)};
        if (!MutateEval(m)) continue;
        const EvalInput after{decode(mutated)};
        changed += !same(after, first);
        for (const Bytes& item : after.stack) long_items += item.size() > 520;
        if (whole) {
            size_t pc2{0};
            while (ReadOp(after.script, pc2)) {}
            CHECK(pc2 == after.script.size());
        }
    }
    CHECK(changed > 300);
    CHECK(long_items > 5);
}

TEST_CASE("EncodeRawSpend is DecodeSpend's mirror for raw spends; EncodeElement cuts an item to the largest size it can give", "[mutator]")
{
    std::mt19937 rng{35};
    size_t with_witness{0};
    for (int i = 0; i < 400; ++i) {
        SpendInput in;
        const auto bytes{[&](size_t n) {
            Bytes b(n);
            for (uint8_t& x : b) x = static_cast<uint8_t>(rng());
            return b;
        }};
        in.script_sig = bytes(rng() % 65);
        in.script_pubkey = bytes(rng() % 65);
        // Items of sizes the decoder gives whole: small ones, and the special and near-520 sizes.
        static constexpr size_t sizes[]{0, 1, 7, 20, 33, 65, 80, 255, 256, 515, 520, 521, 1000, 8000};
        for (size_t k = rng() % 4; k > 0; --k) in.witness.push_back(bytes(sizes[rng() % std::size(sizes)]));
        in.flags = FillFlags(static_cast<uint32_t>(rng()) & ALL_FLAGS);
        const Bytes once{EncodeRawSpend(in)};
        FuzzedDataProvider fdp{once.data(), once.size()};
        const SpendInput back{DecodeSpend(fdp)};
        REQUIRE(back.script_sig == in.script_sig);
        REQUIRE(back.script_pubkey == in.script_pubkey);
        REQUIRE(back.witness == in.witness);
        REQUIRE(back.flags == in.flags);
        with_witness += !in.witness.empty();
    }
    CHECK(with_witness > 200);
    // A witness script of 105 bytes (no form gives it whole): cut to SMALL's 80, the largest below it.
    SpendInput in;
    in.witness = {Bytes(105, 0x52)};
    in.witness[0][3] = 0x53;
    const Bytes once{EncodeRawSpend(in)};
    FuzzedDataProvider fdp{once.data(), once.size()};
    CHECK(DecodeSpend(fdp).witness == Stack{Bytes(in.witness[0].begin(), in.witness[0].begin() + 80)});
}

TEST_CASE("MutateSpend writes P2SH-wrapped witness spends, some malleated, that the 520 side refuses as such", "[mutator]")
{
    std::mt19937 rng{141};
    const FakeChecker checker;
    size_t malleated{0}, single_push{0};
    for (int i = 0; i < 300; ++i) {
        Bytes bytes(std::uniform_int_distribution<size_t>{0, 400}(rng));
        for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
        Mutation m{bytes, 1 << 16, static_cast<uint32_t>(i)};
        REQUIRE(MutateSpend(m));
        FuzzedDataProvider fdp{bytes.data(), bytes.size()};
        const SpendInput in{DecodeSpend(fdp)};
        // A P2SH scriptPubKey whose redeemScript (the scriptSig's last push) is a witness program.
        REQUIRE(in.script_pubkey.size() == 23);
        REQUIRE(in.script_pubkey[0] == OP_HASH160);
        if (!(in.flags & FLAG_P2SH) || !(in.flags & FLAG_WITNESS)) continue;
        size_t pc{0}, pushes{0};
        Bytes last;
        while (const auto op{ReadOp(in.script_sig, pc)}) {
            ++pushes;
            last.assign(op->data.begin(), op->data.end());
        }
        const bool one_minimal_push{pushes == 1 && in.script_sig.size() == last.size() + 1};
        const VerifyResult r{original_side().verify(in, checker)};
        if (one_minimal_push) {
            ++single_push;
            CHECK(r.error != ScriptError::WITNESS_MALLEATED_P2SH);
        } else if (pushes == 1 && (in.flags & FLAG_MINIMALDATA)) { // a wider form than needed
            CHECK(r.error == ScriptError::MINIMALDATA);
        } else {
            ++malleated;
            CHECK(r.error == ScriptError::WITNESS_MALLEATED_P2SH);
        }
    }
    CHECK(malleated > 50);
    CHECK(single_push > 20);
}
