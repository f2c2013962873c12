// prevector pair: decoders (fuzz bytes -> op programs, script inputs), the std::vector oracle,
// and the reference model of the capacity rules (spec 1a) that each side's storage must match.
#pragma once

#include "side.h"

#include <equifuzz/fuzz_util.h>
#include <equifuzz/harness.h>

#include <functional>
#include <vector>

namespace equifuzz::prevec {

//! An op program, decoded so sizes often sit at the inline boundaries of both sides (27..38).
OpProgram DecodeProgram(FuzzedDataProvider& fdp);
//! DecodeProgram's mirror (encode.cpp), for the seed program: the bytes it reads back as
//! `program` (a parameter past 65,535 keeps its low 16 bits; a range's values follow its first
//! two, as the decoder makes them: value, value + step, ...; at most 99 of them, step at most 3).
Bytes EncodeProgram(const OpProgram& program);
Description Describe(const OpProgram& program);
//! One operation as the reports write it: its kind and parameters, e.g. "InsertCount(3,40)".
std::string OpText(const Op& op);

//! std::vector<uint8_t> / std::vector<Wide> running the program: the contents oracle.
OpsResult RunOracle(const OpProgram& program, TraceDigest digest);
OpsResult RunOracleWide(const OpProgram& program, TraceDigest digest);

//! One program run by the std::vector oracle and by every side (in Sides() order), all with the
//! same TraceDigest.
struct ProgramRuns {
    OpsResult oracle;
    std::vector<OpsResult> sides;
};

//! The storage a prevector<n> must have after every op of `program` (capacity, inline or heap,
//! allocated_memory for elements of `element_size` bytes), computed from the rules alone.
std::vector<StorageState> ModelStorage(const OpProgram& program, unsigned n, size_t element_size);

//! The first op whose storage differs from the model, as an Outcome for a report.
Outcome StorageMismatch(const std::vector<StorageState>& seen, const std::vector<StorageState>& model, const OpProgram& program);

//! Every side's run against the std::vector oracle's: the same trace (sizes, positions, element
//! digests), final contents, serialization and self-checks. `runs` are made with TraceDigest::Fast;
//! on a difference, run_all(TraceDigest::Fnv1a) makes the runs the report shows (FNV-1a digests),
//! and if those all agree (a side that does not repeat itself), `runs` are reported as they are.
void CompareWithOracle(const DescribeFn& desc, const ProgramRuns& runs, const std::function<ProgramRuns(TraceDigest)>& run_all);
//! What each side must show for its own N: storage after every op as the capacity model says
//! (elements of `element_size` bytes), operator< size-first (from the oracle's data), sizeof 32
//! and 40 on x86-64, and our original at 28, our optimized at 36.
void CheckStorage(const DescribeFn& desc, const OpProgram& program, const OpsResult& oracle, std::span<const OpsResult> runs,
                  size_t element_size);

ScriptInput DecodeScript(FuzzedDataProvider& fdp);
//! DecodeScript's mirror (encode.cpp): every length as a 16-bit one, at most six pushes, the
//! data last (the decoder keeps 256 bytes of it).
Bytes EncodeScript(const ScriptInput& in);
Description Describe(const ScriptInput& in);
//! The oracle: the script's bytes by plain concatenation, and the queries on them.
ScriptFacts BuildScriptOracle(const ScriptInput& in);

//! The spec's expected storage of a script of `size` bytes built by appends for inline size n.
bool ExpectInline(size_t size, unsigned n);

} // namespace equifuzz::prevec
