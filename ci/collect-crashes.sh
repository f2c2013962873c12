#!/usr/bin/env bash
# Copies the crash inputs of one engine's campaigns into an artifacts directory:
#   ci/collect-crashes.sh ENGINE DIR [STAMP]  ->  DIR/crashes/<target>/<file>, and DIR/crashes/README.txt
# with the command that reproduces each. Only the targets' own campaigns count (not the mutant
# hunts' <target>__<mutant> directories), and with STAMP only files newer than it (the run's own).
# Campaigns live in build/campaigns/<engine>/<target>/ (or $EQUIFUZZ_CAMPAIGNS_DIR/<engine>/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."
engine=$1 dir=$2 stamp=${3:-}
root=${EQUIFUZZ_CAMPAIGNS_DIR:-build/campaigns}/$engine
mkdir -p "$dir/crashes"
found=0
shopt -s nullglob
for target_dir in "$root"/*/; do
  target=$(basename "$target_dir")
  [[ "$target" == *__* ]] && continue
  # libFuzzer: <target>/crashes/*; AFL++: <target>/out/<instance>/crashes/id:*
  for f in "$target_dir"crashes/* "$target_dir"out/*/crashes/id:*; do
    [[ -f "$f" ]] || continue
    [[ -n "$stamp" && ! "$f" -nt "$stamp" ]] && continue
    # AFL++ names inputs id:000000,sig:06,...: keep the instance in a name any file system takes.
    name=$(basename "$f" | tr ':,' '__')
    [[ "$f" == */out/* ]] && name="$(basename "$(dirname "$(dirname "$f")")")-$name"
    mkdir -p "$dir/crashes/$target"
    cp "$f" "$dir/crashes/$target/$name"
    echo "./equifuzz reproduce $target crashes/$target/$name" >> "$dir/crashes/README.txt"
    found=$((found + 1))
  done
done
echo "collect-crashes: $found crash input(s) of this run's $engine campaigns copied to $dir/crashes"
