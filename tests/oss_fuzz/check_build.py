#!/usr/bin/env python3
"""Runs ci/oss-fuzz-build.sh the way OSS-Fuzz's builder runs a project's build.sh, then checks
what it left in $OUT, as OSS-Fuzz's check_build would, and runs every binary on its seed zip.

    tests/oss_fuzz/check_build.py --sanitizer address|undefined --work DIR

The environment is OSS-Fuzz's for libFuzzer on x86_64 (base-builder's CFLAGS, the sanitizer's
flags, -fsanitize=fuzzer-no-link, -stdlib=libc++, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, and the
RUSTFLAGS its `compile` exports), with clang-19 as CC/CXX. Checks, each of which fails the test with one line saying what is wrong:
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


def corpus_files(target: str) -> list[Path]:
    out = []
    for folder in (ROOT / "corpora" / target, ROOT / "corpora" / "regressions" / target):
        if folder.is_dir():
            out += [p for p in folder.rglob("*") if p.is_file()]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sanitizer", choices=sorted(SANITIZER_FLAGS), required=True)
    ap.add_argument("--work", required=True, help="scratch directory ($WORK; kept, so a second run is incremental)")
    args = ap.parse_args()

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
           "ARCHITECTURE": "x86_64", "OUT": str(out), "WORK": str(work), "SRC": str(ROOT.parent),
           "RUSTFLAGS": rustflags(args.sanitizer), "RUSTC_BOOTSTRAP": "1"}
    proc = subprocess.run(["bash", str(ROOT / "ci" / "oss-fuzz-build.sh")], env=env, cwd=ROOT,
                          capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        fail(f"ci/oss-fuzz-build.sh failed (exit {proc.returncode}) with SANITIZER={args.sanitizer}; its output is above.")

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
        counters, traced = coverage_hooks(objs / f"equifuzz_pair_{pair}_shared.dir" / "pair.cpp.o")
        if not (counters and traced):
            fail(f"differential/{pair}/pair.cpp (the decoder) should keep comparison tracing: counters {counters}, trace-cmp {traced}.")

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
        expected = sorted(p.name for p in corpus_files(t))
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
            src, dst = ROOT / "fuzz_targets" / f"{t}.{ext}", out / f"{t}.{ext}"
            if src.is_file() != dst.is_file() or (src.is_file() and src.read_bytes() != dst.read_bytes()):
                fail(f"$OUT/{t}.{ext} should be there exactly when fuzz_targets/{t}.{ext} is, and equal to it.")
    print(f"check_build: SANITIZER={args.sanitizer}: {len(targets)} targets, their seed zips, dictionaries and options in "
          f"{out}; every binary ran its whole seed corpus cleanly.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
