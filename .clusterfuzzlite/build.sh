#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: the project's own script under OSS-Fuzz's contract ($CC $CXX
# $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT $SANITIZER): one binary per target in $OUT, with
# <target>_seed_corpus.zip, <target>.dict and <target>.options.
#
# First the script pair's runtime dependencies, from the sources the Dockerfile cloned, with this
# build's compiler and sanitizer flags (not its coverage flags: their edges are not ours to
# explore), static, into $WORK/deps-$SANITIZER; CMake finds them there.
deps="$WORK/deps-$SANITIZER"
dep_cflags="${CFLAGS//-fsanitize=fuzzer-no-link/}"
if [[ ! -f "$deps/.built" ]]; then
  rm -rf "$deps" "$WORK/openssl-build" "$WORK/secp256k1-build"
  mkdir -p "$deps" "$WORK/openssl-build"
  (cd "$WORK/openssl-build" && CC="$CC" CFLAGS="$dep_cflags" "$SRC/openssl/Configure" --prefix="$deps" --libdir=lib \
     no-shared no-tests no-module && make -j"$(nproc)" build_libs >/dev/null && make install_dev >/dev/null)
  cmake -S "$SRC/secp256k1" -B "$WORK/secp256k1-build" -G Ninja -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$dep_cflags" \
        -DCMAKE_INSTALL_PREFIX="$deps" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
        -DSECP256K1_ENABLE_MODULE_SCHNORRSIG=ON -DSECP256K1_ENABLE_MODULE_EXTRAKEYS=ON \
        -DSECP256K1_BUILD_TESTS=OFF -DSECP256K1_BUILD_EXHAUSTIVE_TESTS=OFF -DSECP256K1_BUILD_BENCHMARK=OFF
  cmake --build "$WORK/secp256k1-build" && cmake --install "$WORK/secp256k1-build" >/dev/null
  touch "$deps/.built"
fi
export OPENSSL_ROOT_DIR="$deps" OPENSSL_USE_STATIC_LIBS=TRUE PKG_CONFIG_PATH="$deps/lib/pkgconfig"
# The image holds the pinned Core trees and crates (Dockerfile): nothing is fetched now, and a
# missing one stops the build with one sentence instead of a smaller build.
export CARGO_NET_OFFLINE=true
exec "$SRC/equifuzz/ci/oss-fuzz-build.sh"
