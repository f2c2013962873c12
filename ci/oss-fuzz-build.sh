#!/usr/bin/env bash
# Builds every fuzz target under OSS-Fuzz's build contract, for OSS-Fuzz's and ClusterFuzzLite's
# build.sh (.clusterfuzzlite/build.sh calls this) or by hand with the same variables:
#   CC CXX CFLAGS CXXFLAGS   the compilers and flags, sanitizer and coverage flags included
#   LIB_FUZZING_ENGINE       what links the engine (-fsanitize=fuzzer, or a libFuzzingEngine.a)
#   SANITIZER                address, undefined, coverage, memory or none (recorded; the flags decide)
#   OUT                      where the results go:
#     $OUT/<target>                    one binary per target, nothing patched into it
#     $OUT/<target>_seed_corpus.zip    corpora/<target>/ and corpora/regressions/<target>/
#     $OUT/<target>.dict, .options     when fuzz_targets/ has them
#   WORK                     scratch (build tree, cargo's target directory); default a temp dir
# Bitcoin Core's sides come from the pinned registry trees (cargo fetches them by checksum, or the
# Dockerfile did: with CARGO_NET_OFFLINE=true, as .clusterfuzzlite/build.sh sets it, only what
# cargo's cache holds), and the script pair's Core 26.0 oracle from its locked crate. Both are
# required: a build without them would pass ClusterFuzzLite's bad-build check with a fraction of
# what it should fuzz, so the configure stops with one sentence instead.
# SANITIZER=memory leaves the script, utxo_flush, prevout_fetch and coins_view targets out (OpenSSL and libsecp256k1 are not
# MSan-built; the coin compressor asks libsecp256k1 about uncompressed keys) and says so; every
# other target is built.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

for var in CXX OUT LIB_FUZZING_ENGINE; do
  if [[ -z "${!var:-}" ]]; then
    echo "oss-fuzz-build: \$$var is not set: this script follows OSS-Fuzz's build contract (CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE OUT SANITIZER)." >&2
    exit 2
  fi
done
sanitizer=${SANITIZER:-address}
case "$sanitizer" in
  address|undefined|coverage|memory|none|introspector) ;;
  *) echo "oss-fuzz-build: SANITIZER=$sanitizer is not one this project builds (address, undefined, coverage, memory, none)." >&2; exit 2 ;;
esac
work=${WORK:-$(mktemp -d)}
build="$work/equifuzz-$sanitizer"
mkdir -p "$OUT" "$build"

python3=$(command -v python3 || true)
if [[ -z "$python3" ]]; then echo "oss-fuzz-build: python3 is needed (zip files, the manifest)." >&2; exit 2; fi

exclude=()
if [[ "$sanitizer" == "memory" ]]; then
  echo "oss-fuzz-build: SANITIZER=memory: the script, utxo_flush, prevout_fetch and coins_view targets are left out (OpenSSL and libsecp256k1 are not built with MSan here)."
  exclude=(script utxo_flush prevout_fetch coins_view)  # pairs
fi

# EQUIFUZZ_ENGINE=external: no flags of our own beyond warnings; $CXXFLAGS decides, the link
# takes $LIB_FUZZING_ENGINE. No mutant binaries, tests or benchmarks: the fuzz targets only.
if ! cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DEQUIFUZZ_ENGINE=external -DEQUIFUZZ_LINK_ENGINE="$LIB_FUZZING_ENGINE" \
  -DEQUIFUZZ_SANITIZERS= -DEQUIFUZZ_OPT= \
  -DEQUIFUZZ_MUTANTS=OFF -DEQUIFUZZ_TESTS=OFF -DEQUIFUZZ_BENCH=OFF \
  -DEQUIFUZZ_CARGO_TARGET_DIR="$work/cargo-$sanitizer" \
  -DEQUIFUZZ_CORE_SIDES=ON -DEQUIFUZZ_CORE_ORACLE=ON -DEQUIFUZZ_CORE_TREE_SOURCE=registry \
  -DEQUIFUZZ_CORE_ORIGINAL_SRC= -DEQUIFUZZ_CORE_OPTIMIZED_SRC=; then
  echo "oss-fuzz-build: the configure failed (its last lines are above; Bitcoin Core's trees and oracle are required here)." >&2
  exit 1
fi
cmake --build "$build" -- -j"${JOBS:-$(nproc)}"

# Copy what the manifest lists: binaries, seed zips (both corpus folders, flattened), dict, options.
"$python3" - "$build" "$OUT" "$root" "${exclude[@]}" <<'PY'
import shutil, sys, zipfile
from pathlib import Path
build, out, root, exclude = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), set(sys.argv[4:])
sys.path.insert(0, str(root / "tools"))
from equifuzz.errors import InfraError
from equifuzz.manifest import read
try:
    targets = [t for t in read(build).targets if t.pair not in exclude]
except InfraError as e:
    sys.exit(f"oss-fuzz-build: {e}")
for t in targets:
    name = t.name
    shutil.copy2(t.binary, out / name)
    with zipfile.ZipFile(out / f"{name}_seed_corpus.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for folder in (t.corpus, t.regressions):
            if folder.is_dir():
                for f in sorted(p for p in folder.rglob("*") if p.is_file()):
                    z.write(f, ("regression-" if folder == t.regressions else "seed-") + f.name)
    for ext in ("dict", "options"):
        src = root / "fuzz_targets" / f"{name}.{ext}"
        if src.is_file():
            shutil.copy2(src, out / f"{name}.{ext}")
print(f"oss-fuzz-build: {len(targets)} targets in {out}: " + ", ".join(t.name for t in targets))
PY
