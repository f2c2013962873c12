#!/usr/bin/env bash
# Installs what equifuzz needs from Debian 12's packages, and only what is missing.
# Idempotent: a second run installs nothing. Says what it installs; fails with one sentence and
# exit 3 (could not set up: the tool's code for a run that could not build or run, never 1, a finding).
#   ci/install-deps.sh            everything (replay, libFuzzer, AFL++, coverage, tests, benchmarks)
#   ci/install-deps.sh --tests    only what the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

# program-or-file  Debian package
required_tests=(
  "cmake:cmake" "ninja:ninja-build" "g++:g++" "patch:patch" "pkg-config:pkg-config" "python3:python3"
  "git:git" "/etc/ssl/certs/ca-certificates.crt:ca-certificates"
  "/usr/include/catch2/catch.hpp:catch2" "/usr/include/openssl/sha.h:libssl-dev"
  "/usr/include/secp256k1.h:libsecp256k1-dev" "/usr/include/benchmark/benchmark.h:libbenchmark-dev"
  "clang++-19:clang-19" "/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-19-dev"
  "/usr/lib/llvm-19/include/c++/v1/vector:libc++-19-dev" "/usr/lib/llvm-19/lib/libc++abi.so:libc++abi-19-dev"
  # clang 19's symbolizer: ThreadSanitizer's suppressions match symbolized frames (ci/tsan.sh),
  # and verify's coverage step needs llvm-profdata and llvm-cov.
  "/usr/lib/llvm-19/bin/llvm-symbolizer:llvm-19"
)
# AFL++ (its runtime and driver; our afl build compiles with clang 19), and clang 14's ASan runtime
# and lld-14 for AFL++'s own afl-clang-fast++ (clang 14; LTO mode), for whoever builds with it.
required_all=(
  "${required_tests[@]}" "afl-clang-fast++:afl++"
  "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a:libclang-rt-14-dev" "ld.lld-14:lld-14"
  "valgrind:valgrind"
)
if [[ "${1:-}" == "--tests" ]]; then required=("${required_tests[@]}"); else required=("${required_all[@]}"); fi

missing=()
for entry in "${required[@]}"; do
  thing=${entry%%:*}; pkg=${entry#*:}
  if [[ "$thing" == /* ]]; then [[ -e "$thing" ]] && continue; else command -v "$thing" >/dev/null 2>&1 && continue; fi
  [[ " ${missing[*]:-} " == *" $pkg "* ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "install-deps: these Debian packages are missing and I am not root: ${missing[*]}." >&2; exit 3; fi
  else SUDO=; fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: no apt-get here; install these Debian 12 packages (or equivalents): ${missing[*]}." >&2; exit 3
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/equifuzz-apt.log 2>&1; then
    echo "install-deps: apt-get could not install ${missing[*]}; its log is /tmp/equifuzz-apt.log." >&2; exit 3
  fi
else
  echo "install-deps: every Debian package is already installed"
fi

# Rust: cargo fetches Bitcoin Core's registry trees (by checksum) and builds the script pair's Core
# oracle. The Core trees' Cargo.lock files are version 4, which needs cargo 1.78 or newer; Debian 12's `cargo`
# package is 1.65, its `cargo-web` and `rustc-web` are current (and replace the old one). The
# configure takes the first new-enough cargo of PATH, ~/.cargo/bin and /usr/bin (cmake/Cargo.cmake).
# EQUIFUZZ_CORE=off leaves Bitcoin Core's code out on purpose (every summary then says so).
cargo_version() { "$1" --version 2>/dev/null | sed -n 's/^cargo \([0-9]*\.[0-9]*\).*/\1/p'; }
new_enough() {
  local v major minor; v=$(cargo_version "$1"); [[ -n "$v" ]] || return 1
  IFS=. read -r major minor <<<"$v"; ((major > 1 || (major == 1 && minor >= 78)))
}
find_cargo() {
  local c
  for c in "$(command -v cargo 2>/dev/null)" "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" /usr/bin/cargo; do
    [[ -n "$c" && -x "$c" ]] && new_enough "$c" && { echo "$c"; return 0; }
  done
  return 1
}
if [[ "${EQUIFUZZ_CORE:-}" == "off" ]]; then
  echo "install-deps: EQUIFUZZ_CORE=off: no Rust toolchain needed; Bitcoin Core's code will be left out of every build"
elif cargo=$(find_cargo); then
  echo "install-deps: cargo $(cargo_version "$cargo") is here ($cargo)"
else
  old=$(command -v cargo 2>/dev/null || true)
  if ! command -v apt-get >/dev/null 2>&1 || { [[ $(id -u) -ne 0 ]] && ! command -v sudo >/dev/null 2>&1; }; then
    echo "install-deps: Bitcoin Core's trees and oracle need cargo 1.78 or newer${old:+ (${old} is $(cargo_version "$old"))}; install Rust from rustup.rs, or set EQUIFUZZ_CORE=off to leave Core's code out." >&2
    exit 3
  fi
  SUDO_RUST=; [[ $(id -u) -eq 0 ]] || SUDO_RUST=sudo
  echo "install-deps: installing cargo-web rustc-web (Rust for Bitcoin Core's trees and oracle${old:+; replaces ${old} $(cargo_version "$old")})"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO_RUST apt-get install -y -qq --no-install-recommends cargo-web rustc-web >>/tmp/equifuzz-apt.log 2>&1 \
     || ! cargo=$(find_cargo); then
    echo "install-deps: apt-get could not install cargo-web and rustc-web (log: /tmp/equifuzz-apt.log); Bitcoin Core's trees and oracle need cargo 1.78 or newer, or set EQUIFUZZ_CORE=off to leave Core's code out." >&2
    exit 3
  fi
  echo "install-deps: cargo $(cargo_version "$cargo") is here ($cargo)"
  first=$(command -v cargo 2>/dev/null || true)
  if [[ -n "$first" && "$first" != "$cargo" ]]; then
    echo "install-deps: $first ($(cargo_version "$first")) comes first on PATH; the configure uses $cargo"
  fi
fi

# Python packages are pinned in one place, requirements.txt: pytest for the tests, matplotlib for
# the plots, check-jsonschema for the workflow lint. Use the interpreter's own when it has them all; otherwise a project venv (Debian's
# python3 refuses system-wide pip installs) that sees the system's packages and adds the pinned ones.
# ./equifuzz runs under .venv/bin/python when it exists, and ctest's pytest uses it too.
has_packages() { "$1" -c 'import pytest, matplotlib, check_jsonschema' 2>/dev/null; }
if has_packages python3; then
  echo "install-deps: python3 has pytest, matplotlib and check-jsonschema"
elif [[ -x .venv/bin/python ]] && has_packages .venv/bin/python; then
  echo "install-deps: .venv has pytest, matplotlib and check-jsonschema"
else
  echo "install-deps: installing requirements.txt into .venv"
  if ! python3 -m venv --system-site-packages .venv >/dev/null 2>&1; then
    ${SUDO:-} apt-get install -y -qq python3-venv >/dev/null 2>&1 && python3 -m venv --system-site-packages .venv \
      || { echo "install-deps: python3 cannot create a venv; install python3-venv." >&2; exit 3; }
  fi
  .venv/bin/pip install -q -r requirements.txt \
    || { echo "install-deps: pip could not install requirements.txt into .venv (is PyPI reachable?)." >&2; exit 3; }
fi

# actionlint, the workflows' lint (tests/python/test_workflows.py runs it over .github/workflows/):
# built from its pinned release with Go's module proxy into .tools/bin. It needs Go 1.25 or newer,
# which Debian 12 does not package; without one it is left out and said, and the lint test skips.
ACTIONLINT_VERSION=v1.7.12
go_for_actionlint() {
  local g v major minor
  for g in "$(command -v go 2>/dev/null)" /usr/local/go/bin/go; do
    [[ -n "$g" && -x "$g" ]] || continue
    v=$("$g" env GOVERSION 2>/dev/null | sed -n 's/^go\([0-9]*\.[0-9]*\).*/\1/p')
    [[ -n "$v" ]] || continue
    IFS=. read -r major minor <<<"$v"
    ((major > 1 || (major == 1 && minor >= 25))) && { echo "$g"; return 0; }
  done
  return 1
}
if [[ -x .tools/bin/actionlint ]] && [[ "$(.tools/bin/actionlint -version 2>/dev/null | head -1)" == "${ACTIONLINT_VERSION}" ]]; then
  echo "install-deps: actionlint ${ACTIONLINT_VERSION} is here (.tools/bin/actionlint)"
elif go=$(go_for_actionlint); then
  echo "install-deps: installing actionlint ${ACTIONLINT_VERSION} into .tools/bin (with $go)"
  if ! GOBIN="$PWD/.tools/bin" GOFLAGS=-mod=mod "$go" install "github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}" >/tmp/equifuzz-go.log 2>&1; then
    echo "install-deps: go install of actionlint ${ACTIONLINT_VERSION} failed (log: /tmp/equifuzz-go.log); the workflow lint test will skip." >&2
  fi
else
  echo "install-deps: actionlint left out: it needs Go 1.25 or newer (go.dev/dl), which is not here; the workflow lint test will skip"
fi
