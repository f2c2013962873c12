// Names and text forms shared by the decoders, the conformance test and the seeds: error and
// flag names, and the short assembly of script_tests.json.
#pragma once

#include "side.h"

#include <optional>
#include <string>

namespace equifuzz::script {

//! Parses script_tests.json's short assembly (decimal numbers, 0x raw bytes, 'text' pushes,
//! opcode names with or without OP_). Returns nullopt on a token it does not know.
std::optional<Bytes> ParseAsm(const std::string& text);

//! Parses lowercase or uppercase hex; nullopt if malformed.
std::optional<Bytes> ParseHex(const std::string& hex);

} // namespace equifuzz::script
