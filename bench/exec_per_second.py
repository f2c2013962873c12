#!/usr/bin/env python3
"""Exec/s of fuzz targets in two builds, on the same files: every seed and regression input of each
target as committed at one commit, each run `RUNS` times in libFuzzer's individual-file mode
(`<binary> -runs=RUNS <files...>`), the wall clock around the whole run; rounds alternate which
build goes first. One line per run: `<round> <label> <target> <exec/s>`.

  bench/exec_per_second.py BEFORE_ROOT AFTER_ROOT --files-at COMMIT [--targets t1,t2] [--rounds 4] [--runs 20]

Each ROOT is a checkout with a libFuzzer build in build/libfuzzer (the `libfuzzer` preset).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def corpus_files(commit: str, target: str, into: Path) -> list[Path]:
    """The target's seeds and regressions as committed at `commit`, written under `into`."""
    files = []
    for d in (f"corpora/{target}", f"corpora/regressions/{target}"):
        listing = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", commit, d],
                                 capture_output=True, text=True, check=True).stdout.split()
        for rel in listing:
            out = into / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{rel}"], capture_output=True,
                                           check=True).stdout)
            files.append(out)
    return sorted(files)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--files-at", required=True, help="the commit whose committed corpora both builds run")
    p.add_argument("--targets", help="comma-separated targets (default: every target both builds have)")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--runs", type=int, default=20)
    args = p.parse_args()
    binaries = lambda root: root / "build" / "libfuzzer" / "fuzz_targets"  # noqa: E731
    targets = (args.targets.split(",") if args.targets else
               sorted(b.name for b in binaries(args.before).iterdir()
                      if b.is_file() and os.access(b, os.X_OK) and "__" not in b.name and (binaries(args.after) / b.name).is_file()))
    with tempfile.TemporaryDirectory(prefix="equifuzz-execs-") as tmp:
        files = {t: corpus_files(args.files_at, t, Path(tmp)) for t in targets}
        for r in range(args.rounds):
            order = (("before", args.before), ("after", args.after))
            for t in targets:
                for label, root in (order if r % 2 == 0 else order[::-1]):
                    start = time.monotonic()
                    proc = subprocess.run([binaries(root) / t, f"-runs={args.runs}", *files[t]], capture_output=True,
                                          text=True, errors="replace")
                    took = time.monotonic() - start
                    if proc.returncode != 0:
                        print(f"{r} {label} {t} failed (exit {proc.returncode})", flush=True)
                        continue
                    print(f"{r} {label} {t} {args.runs * len(files[t]) / took:.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
