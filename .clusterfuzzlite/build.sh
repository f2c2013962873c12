#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: the project's own script under OSS-Fuzz's contract ($CC $CXX
# $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT $SANITIZER): one binary per target in $OUT, with
# <target>_seed_corpus.zip, <target>.dict and <target>.options.
exec "$SRC/equifuzz/ci/oss-fuzz-build.sh"
