// The script targets' seeds, written by the pair's encoders (EncodeEvalRaw, EncodeRawSpend;
// common/seeds.h), from the rows of tests/data/bitcoin/script_tests.json.
//
// script_eval: each row's scriptSig and scriptPubKey run as one script, or, for a row with a
// witness of at most five items, its witness script run by ExecuteWitnessScript as witness v0 and
// as tapscript over the row's other witness items; and items at the limits (519, 520, 521 and
// 8,000 bytes) duplicated, sized and hashed under every sigversion.
// script_spend: each row with scripts of at most 64 bytes and at most three witness items, as a
// whole spend. script_build and script_signed decode any bytes into a script or a signed spend,
// so their seeds are random strings of assorted lengths.
#include "pair.h"
#include "script_util.h"

#include <common/json.h>
#include <common/seeds.h>

#include <sstream>

namespace equifuzz::script {
namespace {

struct Row {
    Stack witness;
    Bytes script_sig, script_pubkey;
    uint32_t flags{0};
};

//! The rows the seeds are made from: those whose scripts ParseAsm reads and whose witness has no
//! taproot placeholder (#SCRIPT#, #CONTROLBLOCK#); a flag name ParseFlags does not know is left out.
std::vector<Row> Rows(const seeds::Writer& w)
{
    std::vector<Row> rows;
    const json::Value tests{json::ParseFile((w.Data() / "script_tests.json").string())};
    for (const json::Value& value : tests.AsArray()) {
        const json::Array& raw{value.AsArray()};
        if (raw.size() < 4) continue; // a comment
        Row row;
        size_t pos{0};
        if (raw[0].IsArray()) {
            const json::Array& items{raw[0].AsArray()};
            bool placeholder{false};
            for (size_t i = 0; i + 1 < items.size(); ++i) {
                const auto bytes{ParseHex(items[i].AsString())};
                placeholder |= items[i].AsString().find('#') != std::string::npos || !bytes;
                if (bytes) row.witness.push_back(*bytes);
            }
            if (placeholder) continue;
            pos = 1;
        }
        if (raw.size() < pos + 3) continue;
        const auto sig{ParseAsm(raw[pos].AsString())}, spk{ParseAsm(raw[pos + 1].AsString())};
        if (!sig || !spk) continue;
        row.script_sig = *sig;
        row.script_pubkey = *spk;
        std::stringstream names{raw[pos + 2].AsString()};
        for (std::string name; std::getline(names, name, ',');) {
            uint32_t flag{0};
            if (ParseFlags(name, flag)) row.flags |= flag;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

EvalInput Eval(SigVersion sigversion, bool as_witness_script, uint32_t flags, Stack stack, Bytes script)
{
    EvalInput in;
    in.sigversion = sigversion;
    in.as_witness_script = as_witness_script;
    in.flags = flags;
    in.stack = std::move(stack);
    in.script = std::move(script);
    return in;
}

} // namespace
} // namespace equifuzz::script

namespace equifuzz::seeds {

void WriteSeeds(Writer& w)
{
    using namespace script;
    const std::vector<Row> rows{Rows(w)};
    for (const Row& row : rows) {
        if (!row.witness.empty() && row.witness.size() <= 5) {
            // The witness script, run by ExecuteWitnessScript as witness v0 and as tapscript.
            const Stack stack(row.witness.begin(), row.witness.end() - 1);
            for (const SigVersion v : {SigVersion::WITNESS_V0, SigVersion::TAPSCRIPT}) {
                w.Add("script_eval", EncodeEvalRaw(Eval(v, true, row.flags, stack, row.witness.back())));
            }
        } else {
            Bytes both{row.script_sig};
            both.insert(both.end(), row.script_pubkey.begin(), row.script_pubkey.end());
            w.Add("script_eval", EncodeEvalRaw(Eval(SigVersion::BASE, false, row.flags, {}, both)));
        }
    }
    // Items at the limits under every sigversion: DUP, SIZE, NIP, SHA256, DROP, EQUAL of one item.
    const Bytes dup_size_hash{0x76, 0x82, 0x77, 0xa8, 0x75, 0x87};
    for (const auto& [v, as_witness_script] : {std::pair{SigVersion::BASE, false}, std::pair{SigVersion::WITNESS_V0, false},
                                               std::pair{SigVersion::TAPSCRIPT, false}, std::pair{SigVersion::WITNESS_V0, true},
                                               std::pair{SigVersion::TAPSCRIPT, true}}) {
        for (const size_t size : {519, 520, 521, 8000}) {
            w.Add("script_eval", EncodeEvalRaw(Eval(v, as_witness_script, 0, {Bytes(size, 0x61)}, dup_size_hash)));
        }
    }

    for (const Row& row : rows) {
        if (row.script_sig.size() > 64 || row.script_pubkey.size() > 64 || row.witness.size() > 3) continue;
        SpendInput in;
        in.script_sig = row.script_sig;
        in.script_pubkey = row.script_pubkey;
        in.witness = row.witness;
        in.flags = row.flags;
        w.Add("script_spend", EncodeRawSpend(in));
    }

    w.AddRandom("script_build", {8, 16, 32, 48, 64, 96, 128, 200, 300, 400});
    Stream sized{"script_build/sized"};
    for (int i = 0; i < 40; ++i) w.Add("script_build", sized.Take(sized.InRange(16, 255)));

    w.AddRandom("script_signed", {0});
    for (int round = 0; round < 12; ++round) {
        Stream r{"script_signed/" + std::to_string(round)};
        for (const size_t n : {8, 12, 16, 24, 32}) w.Add("script_signed", r.Take(n));
    }
}

} // namespace equifuzz::seeds
