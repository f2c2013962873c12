"""The one place a target binary's sanitizer environment is written (issue: one way per job).

Every caller that runs a target binary takes its ASAN_OPTIONS, UBSAN_OPTIONS and TSAN_OPTIONS from
`harness_env`, by what the run is for:

  replay    every input once (replay, reproduce, mutants, corpus checks): an abort is a finding the
            harness reports (handle_abort), leaks are checked when the process ends
  listing   as replay, without the leak check (the field listing and the recorded reports: a run
            over a whole corpus keeps its databases from input to input)
  campaign  a libFuzzer campaign: as replay, and an allocation that fails returns null (a target
            asked for too much memory is not a crash of the code under test)
  afl       an AFL++ campaign: abort on the first error, no symbolizing (afl-fuzz reads the signal)
  rerun     one crash input of an AFL++ campaign run once more to tell what it was: as listing

A user's own ASAN_OPTIONS (or UBSAN_OPTIONS) in the environment wins for `replay`, as it always
did; the campaigns and the listing set theirs. TSAN_OPTIONS gets clang 19's own symbolizer (the
harness's race suppressions match symbolized frames; ci/tsan.sh says why) in front of the user's.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

ASAN = {
    "replay": "handle_abort=1:detect_leaks=1",
    "listing": "handle_abort=1:detect_leaks=0",
    "campaign": "handle_abort=1:detect_leaks=1:allocator_may_return_null=1",
    "afl": "abort_on_error=1:symbolize=0:detect_leaks=0",
    "rerun": "handle_abort=1:detect_leaks=0",
}
UBSAN = "print_stacktrace=1"
TSAN_SYMBOLIZER = Path("/usr/lib/llvm-19/bin/llvm-symbolizer")
#: Purposes whose options yield to the user's own.
USER_WINS = {"replay"}


def tsan_options(current: str) -> str:
    """TSAN_OPTIONS with clang 19's symbolizer first, when it is installed and not named already."""
    if TSAN_SYMBOLIZER.is_file() and "external_symbolizer_path" not in current:
        return f"external_symbolizer_path={TSAN_SYMBOLIZER}" + (f":{current}" if current else "")
    return current


def harness_env(purpose: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) with the sanitizer options for `purpose`."""
    if purpose not in ASAN:
        raise ValueError(f"no sanitizer environment for '{purpose}': one of {', '.join(ASAN)}")
    env = dict(os.environ if base is None else base)
    if purpose in USER_WINS:
        env.setdefault("ASAN_OPTIONS", ASAN[purpose])
        env.setdefault("UBSAN_OPTIONS", UBSAN)
    else:
        env["ASAN_OPTIONS"] = ASAN[purpose]
        if purpose != "afl":
            env["UBSAN_OPTIONS"] = UBSAN
    tsan = tsan_options(env.get("TSAN_OPTIONS", ""))
    if tsan:
        env["TSAN_OPTIONS"] = tsan
    return env


def use_tsan_symbolizer() -> None:
    """This process's TSAN_OPTIONS (inherited by every binary it runs) with clang 19's symbolizer."""
    tsan = tsan_options(os.environ.get("TSAN_OPTIONS", ""))
    if tsan:
        os.environ["TSAN_OPTIONS"] = tsan
