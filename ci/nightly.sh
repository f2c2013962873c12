#!/usr/bin/env bash
# CI, nightly: longer campaigns on both engines (and ThreadSanitizer's build of the threaded pairs)
# from the corpus the last night left (CI restores
# build/campaigns/ from its cache and saves it again), the new coverage merged into corpora/ (the
# workflow uploads the diff for a maintainer to commit), the reviewer's verify report, and the
# OSS-Fuzz build check with UBSan's flags (left out of .ci/run for time).
#   ci/nightly.sh [PART]  (or NIGHTLY_PART=PART; the workflow runs each part as a job of its own)
#     all (default)  every part below, in this order, on one machine
#     libfuzzer      the OSS-Fuzz build check with UBSan's flags, the libFuzzer build, its campaigns
#                    (with the reach of each pair's pinned change), and merge
#     afl            the AFL++ build and its campaigns
#     tsan           ci/tsan.sh, then the tsan build's targets fuzzed
#     verify         ./equifuzz verify of the pinned commits
#     trees          ./equifuzz trees: every pair's Core side on the trees of tree-check.json
#     master         per pair: verify with the pair's pinned "after" commit as Core original and
#                    the git remote's master as Core optimized, so that a behaviour change merged
#                    since the pin shows up the next morning; NIGHTLY_PAIR names one pair and
#                    NIGHTLY_MASTER the commit (ci/master-pairs.sh resolves both once for the
#                    night); without them, master is resolved here and every pinned pair checked
#   NIGHTLY_SECONDS      libFuzzer budget per target (default 600)
#   NIGHTLY_AFL_SECONDS  AFL++ budget per target (default 300; 0 leaves AFL++ out)
#   NIGHTLY_VERIFY_MINUTES  verify's fuzzing budget (default 30; 0 leaves verify out)
#   NIGHTLY_MASTER_MINUTES  the master check's budget per pair (default 2; 0 leaves it out; needs
#                        the git remote, $EQUIFUZZ_CORE_GIT_REMOTE or github.com/bitcoin/bitcoin)
#   ARTIFACTS_DIR        summaries, crash inputs, the merged corpus and the verify report
#                        (default build/artifacts/nightly)
# Exit: 1 if any step found a mismatch, a sanitizer report or a missed mutant; else 3 if a step
# could not build or run; else 0. Every step runs even when an earlier one found something.
# A master check's outcome also goes to $GITHUB_STEP_SUMMARY when set: its verdict, or the first
# compiler error when master no longer builds with the pair's shim.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${NIGHTLY_SECONDS:-600} afl_seconds=${NIGHTLY_AFL_SECONDS:-300} verify_minutes=${NIGHTLY_VERIFY_MINUTES:-30}
artifacts=${ARTIFACTS_DIR:-build/artifacts/nightly}
part=${1:-${NIGHTLY_PART:-all}}
case $part in
  all|libfuzzer|afl|tsan|verify|trees|master) ;;
  *) echo "nightly: no part '$part'; the parts are all, libfuzzer, afl, tsan, verify, trees and master." >&2; exit 2 ;;
esac
runs() { [[ $part == all || $part == "$1" ]]; }
mkdir -p "$artifacts"
ci/install-deps.sh || exit 3  # everything: AFL++ and llvm-19 (coverage) as well as the tests' packages

finding=0 infra=0
step() {  # step NAME COMMAND...: runs it, logs to the artifacts, remembers the worst outcome
  local name=$1; shift
  echo "nightly: $name: $*"
  "$@" 2>&1 | tee "$artifacts/$name.log"
  local rc=${PIPESTATUS[0]}
  case $rc in
    0) ;;
    1) finding=1; echo "nightly: $name found something (exit 1); see $artifacts/$name.log" ;;
    *) infra=1; echo "nightly: $name could not complete (exit $rc); see $artifacts/$name.log" ;;
  esac
}
contract() {  # contract NAME COMMAND...: a check of the build contract; any failure is infrastructure
  local name=$1; shift
  echo "nightly: $name: $*"
  "$@" 2>&1 | tee "$artifacts/$name.log"
  local rc=${PIPESTATUS[0]}
  if ((rc != 0)); then
    infra=1; echo "nightly: $name: the OSS-Fuzz build contract does not hold (exit $rc); see $artifacts/$name.log"
  fi
}

master_check() {  # master_check PAIR COMMAND...: a step, except that NOT REACHED (master changed
  # nothing this pair's inputs execute) is said, not counted as a step that could not complete
  local pair=$1; shift
  echo "nightly: master-$pair: $*"
  "$@" 2>&1 | tee "$artifacts/master-$pair.log"
  local rc=${PIPESTATUS[0]}
  if ((rc == 3)) && python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("verdict", "")[:11] != "NOT REACHED")' \
      "$artifacts/master/$pair/report.json" 2>/dev/null; then
    echo "nightly: master-$pair: NOT REACHED: the inputs ran none of the lines master changed in this pair's files"
  elif ((rc == 1)); then finding=1; echo "nightly: master-$pair found something (exit 1); see $artifacts/master-$pair.log"
  elif ((rc != 0)); then infra=1; echo "nightly: master-$pair could not complete (exit $rc); see $artifacts/master-$pair.log"
  fi
  # One line for the job's summary: the verdict, or why there is none (master's first compiler
  # error against the pair's shim, else the log's last line).
  local verdict first_error
  verdict=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"])' "$artifacts/master/$pair/report.json" 2>/dev/null || true)
  first_error=$(grep -m1 -E '(^|: )(fatal )?error: ' "$artifacts/master-$pair.log" || true)
  {
    echo "### master check: $pair (exit $rc)"
    if [[ -n "$verdict" && $rc -ne 3 || -n "$verdict" && -z "$first_error" ]]; then echo "$verdict"
    elif [[ -n "$first_error" ]]; then echo "master does not build with the pair's shim; the first compiler error:"; echo; echo "    $first_error"
    else echo "no verdict: $(tail -n 1 "$artifacts/master-$pair.log")"
    fi
  } >> "${GITHUB_STEP_SUMMARY:-$artifacts/master-$pair.summary.md}"
}

touch "$artifacts/.started"
if runs libfuzzer; then
  # The OSS-Fuzz build check with UBSan's flags (ctest label "nightly"; .ci/run runs the ASan one).
  # Its exit 1 is a broken contract (a missing binary, a stray flag, a seed that does not run), not
  # a finding of the fuzzers: it counts as a step that could not complete.
  contract oss-fuzz-undefined python3 tests/oss_fuzz/check_build.py --sanitizer undefined --work build/oss-fuzz
  step build-libfuzzer ./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF
  step fuzz-libfuzzer ./equifuzz fuzz --all --seconds "$seconds" --quiet --reach
  ci/collect-crashes.sh libfuzzer "$artifacts/libfuzzer" "$artifacts/.started"
  touch "$artifacts/.before-merge"
  step merge ./equifuzz merge
  # What merge added to corpora/ (merged-<sha1> files), for a maintainer to review and commit.
  find corpora -type f -name 'merged-*' -newer "$artifacts/.before-merge" | sort > "$artifacts/merged-corpora.txt"
  if [[ -s "$artifacts/merged-corpora.txt" ]]; then
    tar -czf "$artifacts/merged-corpora.tar.gz" -T "$artifacts/merged-corpora.txt"
  fi
  echo "nightly: merge added $(wc -l < "$artifacts/merged-corpora.txt") input(s) to corpora/"
fi
if runs afl && [[ "$afl_seconds" -gt 0 ]]; then
  step build-afl ./equifuzz build afl
  step fuzz-afl ./equifuzz fuzz --engine afl --all --seconds "$afl_seconds" --quiet
  ci/collect-crashes.sh afl "$artifacts/afl" "$artifacts/.started"
fi
if runs tsan; then
  # ThreadSanitizer: the pairs whose Core code runs threads, replayed and their race mutants
  # checked (ci/tsan.sh, as the test suite does), then fuzzed; a race is a finding like a mismatch.
  # Its campaigns live apart from the ASan ones (build/campaigns/tsan/), so a race is collected as its own.
  step tsan ci/tsan.sh
  step fuzz-tsan env EQUIFUZZ_CAMPAIGNS_DIR=build/campaigns/tsan ./equifuzz --build-dir build/tsan fuzz --all --seconds "$seconds" --quiet
  EQUIFUZZ_CAMPAIGNS_DIR=build/campaigns/tsan ci/collect-crashes.sh libfuzzer "$artifacts/tsan" "$artifacts/.started"
fi
if runs verify && [[ "$verify_minutes" -gt 0 ]]; then
  step verify ./equifuzz verify --minutes "$verify_minutes" --no-keep --quiet --out "$artifacts/verify"
fi
if runs trees; then
  # Every pair's Core side on every tree of differential/core/tree-check.json (a master commit per
  # month from 2024-08, the pinned commits and their parents): a shim that no longer follows Core's API fails here.
  step core-trees ./equifuzz trees
fi
master_minutes=${NIGHTLY_MASTER_MINUTES:-2}
if runs master && [[ "$master_minutes" != 0 ]]; then
  pins=()
  if [[ -n "${NIGHTLY_PAIR:-}" ]]; then
    # One cell of the workflow's matrix: the pair and the night's master from ci/master-pairs.sh.
    master=${NIGHTLY_MASTER:?NIGHTLY_PAIR needs NIGHTLY_MASTER, the commit ci/master-pairs.sh resolved}
    if after=$(PYTHONPATH=tools python3 -m equifuzz.core_git pins | awk -v p="$NIGHTLY_PAIR" '$1 == p {print $2}') && [[ -n "$after" ]]; then
      pins=("$NIGHTLY_PAIR $after")
    else
      infra=1
      echo "nightly: master check: $NIGHTLY_PAIR has no pinned commit (python3 -m equifuzz.core_git pins)"
    fi
  # master resolved once for the night: every pair is checked against the same commit.
  elif master=$(PYTHONPATH=tools python3 -m equifuzz.core_git tree --spec git:master | python3 -c 'import json, sys; print(json.load(sys.stdin)["commit"])'); then
    # Every pair the build declares that differential/core/commits.json pins (the others are said).
    mapfile -t pins < <(PYTHONPATH=tools python3 -m equifuzz.core_git pins 2> >(sed 's/^/nightly: master check: /' >&2))
    if ((${#pins[@]} == 0)); then
      infra=1
      echo "nightly: master check: no pinned pair could be listed (python3 -m equifuzz.core_git pins)"
    fi
  else
    infra=1
    echo "nightly: master check: the remote's master could not be had; no pair was checked against it"
  fi
  [[ -n "${master:-}" ]] && echo "nightly: master is $master"
  for pin in "${pins[@]}"; do
    read -r pair after <<< "$pin"
    master_check "$pair" ./equifuzz verify "$pair" --core-original "git:$after" --core-optimized "git:$master" \
      --minutes "$master_minutes" --no-keep --quiet --out "$artifacts/master/$pair"
  done
  # The summary: each pair's verdict on pinned → master, with the reach of what master changed.
  echo "nightly: pinned → master, per pair:"
  for report in "$artifacts"/master/*/report.json; do
    [[ -f "$report" ]] && python3 -c 'import json, sys; print(f"  {sys.argv[2]}: {json.load(open(sys.argv[1])).get(\"verdict\", \"no verdict\")}")' \
      "$report" "$(basename "$(dirname "$report")")"
  done | tee "$artifacts/master-summary.txt"
fi
echo "nightly: done; artifacts in $artifacts"
if ((finding)); then exit 1; fi
if ((infra)); then exit 3; fi
exit 0
