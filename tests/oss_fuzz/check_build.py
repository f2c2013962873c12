#!/usr/bin/env python3
r"""Builds the fuzz targets as ClusterFuzzLite and OSS-Fuzz do, from .clusterfuzzlite/Dockerfile and
.clusterfuzzlite/build.sh but without Docker; then checks what build.sh left in $OUT, as OSS-Fuzz's
check_build would, and runs every binary on its seed zip.

    tests/oss_fuzz/check_build.py --sanitizer address|undefined --work DIR

The image is emulated under DIR (kept between runs), the Dockerfile read instruction by instruction:
- `COPY . $SRC/equifuzz`: $SRC is DIR/src-<sanitizer>, made afresh on every run; $SRC/equifuzz
  gets the repository's tracked files (`git ls-files`) with their working-tree contents, modes and
  times; nothing untracked, and no .git (nothing in the build reads it). ClusterFuzzLite's build
  context is a fresh checkout, which holds the same files.
- `COPY .clusterfuzzlite/build.sh $SRC/`: copied the same way.
- `WORKDIR $SRC/equifuzz`: where the RUN lines after it and build.sh run.
- `RUN for tree in differential/core/trees/*/; do cargo fetch ...`: run as written, by /bin/sh,
  with CARGO_HOME=DIR/cargo-home-<sanitizer>. base-builder-rust sets CARGO_HOME (/rust), which
  holds none of this project's crates before this line, so the host's ~/.cargo is not used: a
  tree or crate this line does not fetch is missing when build.sh runs cargo offline, and the
  test fails. That cargo home is emptied whenever the Dockerfile or a Cargo.toml or Cargo.lock of
  the copy changed since it was filled (Docker would rerun the layer), else kept.
Not run, each printed with its reason at the start of the output:
- `FROM gcr.io/oss-fuzz-base/base-builder-rust`: no Docker here. The toolchain is the host's:
  clang-19 and libc++-19 with the flags that base-builder and `compile` set (below), and the host's
  cargo and rustc.
- `RUN apt-get update && apt-get install -y --no-install-recommends ninja-build pkg-config && \
      pip3 install --no-cache-dir "cmake==3.31.6"`: it installs packages; the host's ninja,
  pkg-config and cmake (3.25 or newer) stand in.
- `RUN git clone --depth 1 --branch openssl-3.0.15 https://github.com/openssl/openssl.git $SRC/openssl && \
      git clone --depth 1 --branch v0.5.1 https://github.com/bitcoin-core/secp256k1.git $SRC/secp256k1`:
  GitHub is not assumed reachable. Instead $WORK/deps-<sanitizer> is filled from the host's Debian
  packages libssl-dev and libsecp256k1-dev (headers, static libraries, .pc files rewritten to that
  prefix), laid out as build.sh's install leaves it, and marked .built; build.sh then skips its
  block that builds OpenSSL and libsecp256k1 (printed too). So those two libraries are Debian's
  versions, built by Debian without the sanitizer's flags, not OpenSSL 3.0.15 and libsecp256k1
  0.5.1 built by build.sh; the host's libsecp256k1 must have schnorrsig and extrakeys (checked).
Any other instruction fails the test until this script runs it or lists it here.

Then `compile`: `bash -eux $SRC/build.sh` in the WORKDIR, with OSS-Fuzz's environment for
libFuzzer on x86_64 (base-builder's CFLAGS, the sanitizer's flags, -fsanitize=fuzzer-no-link,
-stdlib=libc++, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, the RUSTFLAGS `compile` exports, $SRC $WORK
$OUT $SANITIZER, CARGO_HOME as above), clang-19 as CC/CXX. `compile`'s copy of llvm-symbolizer
into $OUT is not done: $OUT is left to build.sh alone, which the checks below are about.
Checks, each of which fails the test with one line saying what is wrong:
- every target of fuzz_targets/CMakeLists.txt is in $OUT as an executable, and nothing else is
  (no mutant or helper binaries);
- each carries libFuzzer's entry point and the sanitizer asked for (its runtime symbols), and the
  compile commands used $CXX and the sanitizer flags (the contract was honoured, not bypassed);
- <target>_seed_corpus.zip holds exactly the target's seed and regression files;
- <target>.dict and <target>.options are there exactly when fuzz_targets/ has them;
- every binary runs every input of its zip once and exits 0 (ClusterFuzz's sanitizer options);
- the XOR and SipHash sides were compiled without comparison tracing, their decoders with it
  (the pairs' NO_TRACE_CMP).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz.project import declared_targets  # noqa: E402  (the one reader of fuzz_targets/CMakeLists.txt)

BASE_CFLAGS = "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
# base-builder's SANITIZER_FLAGS_<sanitizer> (OSS-Fuzz's infra/base-images/base-builder/Dockerfile):
# the -fsanitize set is the -fno-sanitize-recover set plus unsigned-integer-overflow, which runs
# silenced (UBSAN_OPTIONS below) as an extra coverage signal; float-divide-by-zero is in neither.
_UBSAN_CHECKS = ("array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,"
                 "returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr")
SANITIZER_FLAGS = {
    "address": "-fsanitize=address -fsanitize-address-use-after-scope",
    "undefined": (f"-fsanitize={_UBSAN_CHECKS.replace('signed-integer-overflow,', 'signed-integer-overflow,unsigned-integer-overflow,')} "
                  f"-fno-sanitize-recover={_UBSAN_CHECKS}"),
}
# What OSS-Fuzz's `compile` exports as RUSTFLAGS before build.sh (the oracle's Rust code is built
# with them): the sanitizer itself only for address (UBSan has no Rust counterpart). -Z needs a
# nightly rustc, which OSS-Fuzz's image has; here RUSTC_BOOTSTRAP=1 lets a stable one take it.
RUSTFLAGS = {
    "address": "--cfg fuzzing -Zsanitizer=address -Cdebuginfo=1 -Cforce-frame-pointers",
    "undefined": "--cfg fuzzing -Cdebuginfo=1 -Cforce-frame-pointers",
}
# The runtime symbol each sanitizer leaves in a binary.
RUNTIME_SYMBOL = {"address": "__asan_init", "undefined": "__ubsan_handle_"}
# ClusterFuzz's options when it runs a target (unsigned overflow is reported only where asked).
RUN_ENV = {
    "ASAN_OPTIONS": "alloc_dealloc_mismatch=0:allocator_may_return_null=1:detect_leaks=1:detect_stack_use_after_return=1:"
                    "handle_abort=1:symbolize=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:symbolize=1",
}


def rustflags(sanitizer: str) -> str:
    """OSS-Fuzz's RUSTFLAGS for the sanitizer, as far as the Rust toolchain here can build them:
    -Zsanitizer=address needs the toolchain's Rust ASan runtime (librustc-*_rt.asan.a), which
    rustup's toolchains ship and Debian's rustc-web does not. Without it the flag is left out and
    the check says so: the oracle's Rust is then built with OSS-Fuzz's other flags only."""
    flags = RUSTFLAGS[sanitizer]
    if "-Zsanitizer=" not in flags:
        return flags
    rustc = os.environ.get("RUSTC") or shutil.which("rustc")
    sysroot = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, text=True).stdout.strip() if rustc else ""
    runtime = sorted((Path(sysroot) / "lib" / "rustlib" / "x86_64-unknown-linux-gnu" / "lib").glob("librustc-*_rt.asan.a")) if sysroot else []
    if runtime:
        return flags
    print(f"check_build: note: {rustc or 'rustc'} has no Rust ASan runtime (Debian's rustc-web ships none), so the oracle's "
          "Rust is built without -Zsanitizer=address; OSS-Fuzz's nightly toolchain builds it with that flag.")
    return " ".join(f for f in flags.split() if not f.startswith("-Zsanitizer="))


def fail(message: str) -> None:
    print(f"check_build: {message}", file=sys.stderr)
    sys.exit(1)


def corpus_files(tree: Path, target: str) -> list[Path]:
    out = []
    for folder in (tree / "corpora" / target, tree / "corpora" / "regressions" / target):
        if folder.is_dir():
            out += [p for p in folder.rglob("*") if p.is_file()]
    return out


DOCKERFILE = ROOT / ".clusterfuzzlite" / "Dockerfile"
BUILD_SH = ROOT / ".clusterfuzzlite" / "build.sh"
TRIPLET = "x86_64-linux-gnu"


def normalized(text: str) -> str:
    """An instruction or a quoted one with its line continuations and runs of blanks made single spaces."""
    return " ".join(re.sub(r"\\[ \t]*\n", " ", text).split())


# The Dockerfile's instructions this emulation does not run, and why (the docstring lists the same).
NOT_RUN = {
    normalized("FROM gcr.io/oss-fuzz-base/base-builder-rust"):
        "no Docker here; the toolchain is the host's clang-19 and libc++-19 with base-builder's and compile's flags, and the host's cargo and rustc",
    normalized('RUN apt-get update && apt-get install -y --no-install-recommends ninja-build pkg-config && \\\n'
               '    pip3 install --no-cache-dir "cmake==3.31.6"'):
        "it installs packages; the host's ninja, pkg-config and cmake stand in",
    normalized("RUN git clone --depth 1 --branch openssl-3.0.15 https://github.com/openssl/openssl.git $SRC/openssl && \\\n"
               "    git clone --depth 1 --branch v0.5.1 https://github.com/bitcoin-core/secp256k1.git $SRC/secp256k1"):
        "GitHub is not assumed reachable; $WORK/deps-$SANITIZER comes from the host's libssl-dev and libsecp256k1-dev "
        "instead (Debian's versions, not sanitizer-built), marked .built",
}
# The RUN instructions run here as written (anything else unknown fails the test).
RUN_HERE = {
    normalized('RUN for tree in differential/core/trees/*/; do cargo fetch --locked --manifest-path "$tree/Cargo.toml"; done && \\\n'
               "    cargo fetch --locked --manifest-path differential/script/core_oracle/Cargo.toml"),
}


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(where, instruction) for each instruction of the Dockerfile, continuation lines joined;
    where is "Dockerfile:<first line>[-<last line>]"."""
    lines = DOCKERFILE.read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        if not lines[i].strip() or lines[i].lstrip().startswith("#"):
            i += 1
            continue
        first, parts = i, [lines[i]]
        while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            if not lines[i].lstrip().startswith("#"):  # Docker drops comment lines inside an instruction
                parts.append(lines[i])
        where = f"Dockerfile:{first + 1}" + (f"-{i + 1}" if i > first else "")
        out.append((where, normalized("\n".join(parts))))
        i += 1
    return out


def build_sh_deps_block() -> str:
    """build.sh's lines that build OpenSSL and libsecp256k1 ("build.sh:<first>-<last>"), which the
    prepared $WORK/deps-$SANITIZER/.built makes it skip."""
    lines = BUILD_SH.read_text().splitlines()
    start = next((n for n, line in enumerate(lines) if line.strip() == 'if [[ ! -f "$deps/.built" ]]; then'), None)
    end = next((n for n in range(start or 0, len(lines)) if lines[n].strip() == "fi"), None) if start is not None else None
    if start is None or end is None:
        fail('.clusterfuzzlite/build.sh no longer has its `if [[ ! -f "$deps/.built" ]]; then ... fi` block, which this '
             "emulation skips by preparing $WORK/deps-$SANITIZER: update tests/oss_fuzz/check_build.py.")
    return f"build.sh:{start + 1}-{end + 1}"


def package_files(package: str) -> list[Path]:
    proc = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"the Debian package {package} is not installed (dpkg -L {package}): the emulated image takes OpenSSL and "
             "libsecp256k1 from libssl-dev and libsecp256k1-dev, which ci/install-deps.sh installs.")
    return [Path(line) for line in proc.stdout.splitlines() if line.startswith("/usr/")]


def rewritten_pc(text: str, prefix: Path) -> str:
    """A Debian .pc file with its prefix moved to the deps directory and libdir to <prefix>/lib."""
    out = []
    for line in text.splitlines():
        if line.startswith("prefix="):
            line = f"prefix={prefix}"
        elif line.startswith("libdir="):
            line = "libdir=${prefix}/lib"
        elif line.startswith("includedir="):
            line = "includedir=${prefix}/include"
        out.append(line)
    return "\n".join(out) + "\n"


def prepare_deps(deps: Path) -> list[str]:
    """Fills $WORK/deps-$SANITIZER as build.sh's own install would (include/, lib/*.a,
    lib/pkgconfig/*.pc) from the host's libssl-dev and libsecp256k1-dev, and marks it .built.
    Returns one line per library saying what it holds."""
    shutil.rmtree(deps, ignore_errors=True)
    (deps / "lib" / "pkgconfig").mkdir(parents=True)
    (deps / "include").mkdir()
    said = []
    for package, lib_names in (("libssl-dev", ("libcrypto", "libssl")), ("libsecp256k1-dev", ("libsecp256k1",))):
        files = [f for f in package_files(package) if f.is_file() or f.is_symlink()]
        for f in files:
            rel = f.relative_to("/usr")
            if rel.parts[0] == "include":
                # Debian puts the configuration headers under include/<triplet>/; an install has one include/.
                inner = rel.parts[2:] if len(rel.parts) > 2 and rel.parts[1] == TRIPLET else rel.parts[1:]
                dst = deps / "include" / Path(*inner)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, dst)
            elif f.name.endswith(".pc") and f.parent.name == "pkgconfig":
                (deps / "lib" / "pkgconfig" / f.name).write_text(rewritten_pc(f.read_text(), deps))
        for name in lib_names:
            static = Path("/usr/lib") / TRIPLET / f"{name}.a"
            if static in files:
                shutil.copy2(static, deps / "lib" / static.name)
                kind = "static"
            else:
                # No static library in the package: the shared one (and its soname link) instead.
                shared = Path("/usr/lib") / TRIPLET / f"{name}.so"
                if not shared.exists():
                    fail(f"{package} has neither {name}.a nor {name}.so.")
                real = shared.resolve()
                shutil.copy2(real, deps / "lib" / real.name)
                (deps / "lib" / shared.name).symlink_to(real.name)
                kind = f"shared ({package} has no {name}.a)"
            said.append(f"{name} {pc_version(deps, name)} from {package}, {kind}")
    # The script pair needs schnorrsig and extrakeys, which build.sh turns on (v0.5.1's cmake options).
    lib = next((deps / "lib").glob("libsecp256k1.*"))
    nm = shutil.which("llvm-nm-19") or shutil.which("nm")
    defined = subprocess.run([nm, "--defined-only", "-D" if lib.suffix != ".a" else "-g", str(lib)],
                             capture_output=True, text=True, errors="replace").stdout
    for module, symbol, header in (("schnorrsig", "secp256k1_schnorrsig_verify", "secp256k1_schnorrsig.h"),
                                   ("extrakeys", "secp256k1_xonly_pubkey_tweak_add_check", "secp256k1_extrakeys.h")):
        if symbol not in defined or not (deps / "include" / header).is_file():
            fail(f"the host's libsecp256k1 ({lib.name} from libsecp256k1-dev) lacks its {module} module ({symbol} or "
                 f"{header}), which build.sh's libsecp256k1 has (SECP256K1_ENABLE_MODULE_{module.upper()}=ON) and the "
                 "script pair calls: this emulation cannot stand in for build.sh's libsecp256k1 here.")
    (deps / ".built").touch()
    return said


def pc_version(deps: Path, name: str) -> str:
    pc = deps / "lib" / "pkgconfig" / f"{name}.pc"
    match = re.search(r"^Version:\s*(\S+)", pc.read_text(), re.M) if pc.is_file() else None
    return match.group(1) if match else "(no version)"


def tracked_files() -> list[str]:
    proc = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"git ls-files failed in {ROOT}: the image's `COPY .` is emulated with the repository's tracked files.")
    return [f for f in proc.stdout.split("\0") if f]


def docker_copy(source: str, dest_text: str) -> None:
    """COPY <source> <dest> from the build context (the repository's tracked files)."""
    files, dest = tracked_files(), Path(dest_text)
    if source == ".":
        for rel in files:
            src = ROOT / rel
            if src.is_file() or src.is_symlink():  # a tracked file deleted in the working tree is not in a checkout either
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / rel, follow_symlinks=False)
        return
    if source not in files:
        fail(f"COPY {source}: not a tracked file of the repository (the build context).")
    target = dest / Path(source).name if dest_text.endswith("/") or dest.is_dir() else dest
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / source, target)


def cargo_inputs_stamp(tree: Path) -> str:
    """What the cargo fetch layer depends on: the Dockerfile and every Cargo.toml and Cargo.lock of the copy."""
    h = hashlib.sha256(DOCKERFILE.read_bytes())
    for f in sorted(tree.rglob("Cargo.*")):
        if f.name in ("Cargo.toml", "Cargo.lock"):
            h.update(str(f.relative_to(tree)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def announce_not_run() -> list[tuple[str, str]]:
    """Prints, one line each, the Dockerfile's instructions (and build.sh's and compile's lines)
    that the emulation does not run, and why; fails on an instruction it does not know. Returns the
    Dockerfile's instructions."""
    instructions = dockerfile_instructions()
    doc = normalized(__doc__ or "")
    for where, text in instructions:
        if text in NOT_RUN:
            if text not in doc:
                fail(f"{where}: `{text}` is not run but the docstring of tests/oss_fuzz/check_build.py does not list it.")
            print(f"check_build: not run: {where}: `{text}`: {NOT_RUN[text]}.")
        elif not (text.split(" ", 1)[0] in ("COPY", "WORKDIR") or text in RUN_HERE):
            fail(f"{where}: `{text}` is an instruction this emulation neither runs nor lists as not run: "
                 "update tests/oss_fuzz/check_build.py (NOT_RUN or RUN_HERE, and its docstring).")
    print(f"check_build: not run: {build_sh_deps_block()} (builds OpenSSL and libsecp256k1 from $SRC/openssl and "
          "$SRC/secp256k1): skipped by build.sh itself, since $WORK/deps-$SANITIZER/.built is there.")
    print("check_build: not run: compile's `cp $(which llvm-symbolizer) $OUT/`: $OUT is left to build.sh.")
    sys.stdout.flush()
    return instructions


def emulate_image_and_compile(sanitizer: str, work: Path, out: Path, compile_env: dict[str, str],
                              instructions: list[tuple[str, str]]) -> None:
    """Lays out $SRC as the Dockerfile does, runs the RUN lines that can run here, prepares
    $WORK/deps-$SANITIZER, then runs build.sh as `compile` does."""
    src = work / f"src-{sanitizer}"
    cargo_home = work / f"cargo-home-{sanitizer}"
    deps = work / f"deps-{sanitizer}"

    def expand(text: str, where: str) -> str:
        value = text.replace("${SRC}", str(src)).replace("$SRC", str(src))
        if "$" in value:
            fail(f"{where}: `{text}` uses a variable this emulation does not set (it sets $SRC).")
        return value

    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    # The image's environment while it is built: no RUSTFLAGS yet (compile exports them), and cargo online.
    image_env = {k: v for k, v in compile_env.items() if k not in ("RUSTFLAGS", "RUSTC_BOOTSTRAP", "CARGO_NET_OFFLINE")}
    workdir = Path("/")
    for where, text in instructions:
        keyword, _, rest = text.partition(" ")
        if text in NOT_RUN:
            continue
        if keyword == "COPY":
            args = rest.split(" ")
            if len(args) != 2 or args[0].startswith("--"):
                fail(f"{where}: `{text}`: this emulation copies one source to one destination, with no options.")
            dest_text = expand(args[1], where)
            dest = Path(dest_text)
            if dest != src and src not in dest.parents:
                fail(f"{where}: `{text}` copies outside $SRC, which this emulation does not lay out.")
            docker_copy(args[0], dest_text)
            if args[0] == ".":
                print(f"check_build: {where}: `{text}`: the repository's tracked files (git ls-files, working-tree contents) "
                      f"copied to {dest}.")
        elif keyword == "WORKDIR":
            workdir = Path(expand(rest, where))
            workdir.mkdir(parents=True, exist_ok=True)
        else:  # one of RUN_HERE
            stamp = cargo_inputs_stamp(workdir)
            stamp_file = cargo_home / ".check_build-stamp"
            if not stamp_file.is_file() or stamp_file.read_text() != stamp:
                shutil.rmtree(cargo_home, ignore_errors=True)
                state = "empty (the Dockerfile or a Cargo.toml/Cargo.lock changed since it was filled, or first run)"
            else:
                state = "as the same layer left it"
            cargo_home.mkdir(parents=True, exist_ok=True)
            print(f"check_build: {where}: run by /bin/sh in {workdir}, CARGO_HOME={cargo_home} {state}.")
            sys.stdout.flush()
            proc = subprocess.run(["/bin/sh", "-c", text.split(" ", 1)[1]], cwd=workdir, env=image_env,
                                  capture_output=True, text=True, errors="replace")
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
                fail(f"{where} failed (exit {proc.returncode}); its output is above.")
            stamp_file.write_text(stamp)

    if not (src / "build.sh").is_file():
        fail("the Dockerfile did not put build.sh in $SRC.")
    for line in prepare_deps(deps):
        print(f"check_build: {deps}: {line}.")
    # $WORK is kept between runs; a build tree configured from another source directory (this
    # script ran ci/oss-fuzz-build.sh from the repository before it emulated the image) is dropped.
    cache = work / f"equifuzz-{sanitizer}" / "CMakeCache.txt"
    if cache.is_file() and f"CMAKE_HOME_DIRECTORY:INTERNAL={src / 'equifuzz'}\n" not in cache.read_text():
        shutil.rmtree(cache.parent)
    print(f"check_build: compile: `bash -eux $SRC/build.sh` in {workdir} (SANITIZER={sanitizer}).")
    sys.stdout.flush()
    proc = subprocess.run(["bash", "-eux", str(src / "build.sh")], env=compile_env, cwd=workdir,
                          capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        fail(f".clusterfuzzlite/build.sh failed (exit {proc.returncode}) with SANITIZER={sanitizer}; its output is above.")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sanitizer", choices=sorted(SANITIZER_FLAGS), required=True)
    ap.add_argument("--work", required=True, help="scratch directory ($WORK; kept, so a second run is incremental)")
    args = ap.parse_args()
    instructions = announce_not_run()

    clang = shutil.which("clang++-19")
    if not clang:
        fail("clang++-19 is not installed (ci/install-deps.sh installs it).")
    libcxx = Path("/usr/lib/llvm-19/include/c++/v1/vector").is_file()
    if not libcxx:
        fail("libc++-19-dev is not installed: OSS-Fuzz builds with -stdlib=libc++ (ci/install-deps.sh installs it).")

    work = Path(args.work).resolve()
    out = work / f"out-{args.sanitizer}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    cflags = f"{BASE_CFLAGS} {SANITIZER_FLAGS[args.sanitizer]} -fsanitize=fuzzer-no-link"
    env = {**os.environ, "CC": "clang-19", "CXX": "clang++-19", "CFLAGS": cflags, "CXXFLAGS": f"{cflags} -stdlib=libc++",
           # OSS-Fuzz's clang ships libFuzzer with a private C++ runtime; Debian's is built against
           # libstdc++, so here the engine brings libstdc++ along ($LIB_FUZZING_ENGINE is the
           # engine's link line; our code and Core's stay on libc++, as on OSS-Fuzz).
           "LIB_FUZZING_ENGINE": "-fsanitize=fuzzer -l:libstdc++.so.6", "SANITIZER": args.sanitizer, "FUZZING_ENGINE": "libfuzzer",
           "ARCHITECTURE": "x86_64", "OUT": str(out), "WORK": str(work), "SRC": str(work / f"src-{args.sanitizer}"),
           "CARGO_HOME": str(work / f"cargo-home-{args.sanitizer}"),
           "RUSTFLAGS": rustflags(args.sanitizer), "RUSTC_BOOTSTRAP": "1"}
    emulate_image_and_compile(args.sanitizer, work, out, env, instructions)
    tree = work / f"src-{args.sanitizer}" / "equifuzz"  # what the build saw: the checks compare $OUT with it

    # The contract was honoured: every compile used $CXX and the sanitizer's flags.
    commands = json.loads((work / f"equifuzz-{args.sanitizer}" / "compile_commands.json").read_text())
    first_flag = SANITIZER_FLAGS[args.sanitizer].split()[0]
    stray = [c["file"] for c in commands if "clang++-19" not in c["command"] or first_flag not in c["command"]
             or "-stdlib=libc++" not in c["command"]]
    if stray:
        fail(f"{len(stray)} of {len(commands)} compile commands ignored $CXX or $CXXFLAGS, e.g. {stray[0]}.")

    # NO_TRACE_CMP (cmake/Equifuzz.cmake): the XOR and SipHash sides, ours and Core's, carry edge
    # counters but no comparison tracing; the pairs' decoders and checks keep both.
    build = work / f"equifuzz-{args.sanitizer}"
    nm = shutil.which("llvm-nm-19") or shutil.which("nm")

    def coverage_hooks(obj: Path) -> tuple[bool, bool]:
        """(has inline 8-bit edge counters, calls a trace-cmp hook) for one object file."""
        if not obj.is_file():
            fail(f"{obj.relative_to(build)} was not built.")
        symbols = subprocess.run([nm, str(obj)], capture_output=True, text=True, errors="replace").stdout
        return "__sancov_cntrs" in symbols, re.search(r" U __sanitizer_cov_trace_(const_)?cmp", symbols) is not None

    for pair in ("xor", "siphash"):
        objs = build / "differential" / pair / "CMakeFiles"
        for side in (objs / f"equifuzz_side_{pair}_default_original.dir" / "original.cpp.o",
                     objs / f"equifuzz_side_{pair}_default_optimized.dir" / "optimized.cpp.o",
                     objs / f"equifuzz_core_{pair}_default_original_objs.dir" / "core" / "shim.cpp.o"):
            counters, traced = coverage_hooks(side)
            if traced or not counters:
                fail(f"{side.relative_to(build)} should have edge counters and no comparison tracing (NO_TRACE_CMP): "
                     f"counters {counters}, trace-cmp {traced}.")
        counters, traced = coverage_hooks(objs / f"equifuzz_pair_{pair}_shared.dir" / "decode.cpp.o")
        if not (counters and traced):
            fail(f"differential/{pair}/decode.cpp (the decoders) should keep comparison tracing: counters {counters}, trace-cmp {traced}.")

    targets = sorted(declared_targets())
    executables = sorted(p.name for p in out.iterdir() if p.is_file() and os.access(p, os.X_OK))
    if executables != sorted(targets):
        fail(f"$OUT should hold one binary per target and nothing else: missing {sorted(set(targets) - set(executables))}, "
             f"unexpected {sorted(set(executables) - set(targets))}.")

    for t in targets:
        symbols = subprocess.run([nm, str(out / t)], capture_output=True, text=True, errors="replace").stdout
        # libFuzzer's driver (fuzzer::FuzzerDriver) and the entry point it calls; the sanitizer's runtime.
        for needed in ("LLVMFuzzerTestOneInput", "6fuzzer12FuzzerDriver", RUNTIME_SYMBOL[args.sanitizer]):
            if needed not in symbols:
                fail(f"{t} lacks {needed}: not a libFuzzer binary with {args.sanitizer} as OSS-Fuzz asked.")
        expected = sorted(p.name for p in corpus_files(tree, t))
        zpath = out / f"{t}_seed_corpus.zip"
        if not zpath.is_file():
            fail(f"{zpath.name} is missing.")
        with zipfile.ZipFile(zpath) as z:
            names = z.namelist()
            if sorted(n.split("-", 1)[1] for n in names) != expected or not names:
                fail(f"{zpath.name} holds {len(names)} files, not the {len(expected)} seed and regression files of {t}.")
            with tempfile.TemporaryDirectory() as tmp:
                z.extractall(tmp)
                files = sorted(str(p) for p in Path(tmp).iterdir())
                # Each input once, in batches (individual-file mode: libFuzzer runs them, it does not fuzz).
                for i in range(0, len(files), 200):
                    run = subprocess.run([str(out / t), "-runs=1", *files[i:i + 200]], env={**os.environ, **RUN_ENV},
                                         capture_output=True, text=True, errors="replace", timeout=1800)
                    if run.returncode != 0:
                        sys.stderr.write(run.stderr[-6000:])
                        fail(f"{t} ({args.sanitizer}) failed on its own seed corpus (exit {run.returncode}); its report is above.")
        for ext in ("dict", "options"):
            src, dst = tree / "fuzz_targets" / f"{t}.{ext}", out / f"{t}.{ext}"
            if src.is_file() != dst.is_file() or (src.is_file() and src.read_bytes() != dst.read_bytes()):
                fail(f"$OUT/{t}.{ext} should be there exactly when fuzz_targets/{t}.{ext} is, and equal to it.")
    print(f"check_build: SANITIZER={args.sanitizer}: .clusterfuzzlite/build.sh, in the emulated image, left {len(targets)} "
          f"targets, their seed zips, dictionaries and options in {out}; every binary ran its whole seed corpus cleanly.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
