"""./equifuzz minimize"""
from __future__ import annotations

from pathlib import Path

from .. import corpus
from ..building import ensure_built
from ..mutants import variant_binary
from ..project import EXIT_CLEAN, build_dir, select, validate_names

NAME = "minimize"
ORDER = 80
SUMMARY = "shrink one crash input, keeping its mismatch signature"
DESCRIPTION = ("Runs libFuzzer's -minimize_crash=1 on a crash input for --seconds and keeps the result (<input>.min) "
               "only when it still shows the signature: the first the input shows, or --signature's (an input that "
               "shows several is shrunk for one, the harness aborting only on inputs that show it; the result is "
               "<input>.<signature>.min).")
EXAMPLES = ["./equifuzz minimize xor_apply build/campaigns/libfuzzer/xor_apply/crashes/crash-0123 --seconds 30"]


def arguments(p) -> None:
    p.add_argument("target", help="a target name")
    p.add_argument("input", help="the crash input")
    p.add_argument("--seconds", type=int, default=30, help="minimization budget (default 30)")
    p.add_argument("--mutant", help="minimize against this mutant's variant (in a build with mutants)")
    p.add_argument("--signature", help="the signature to keep (target:field:side|side, as a finding line prints it; "
                                       "default: the first the input shows)")


def run(args) -> int:
    validate_names([args.target])
    bdir = build_dir("libfuzzer", args.build_dir)
    (t,) = select(ensure_built("libfuzzer", bdir), [args.target], exact=True)
    binary = variant_binary(t, args.mutant, f" in {bdir}")
    r = corpus.minimize(t, Path(args.input), args.seconds, binary, signature=args.signature)
    if r["minimized"]:
        print(f"equifuzz: {r['input']} ({r['size']} bytes) minimized to {r['minimized']} ({r['minimized_size']} bytes), "
              f"same signature {r['signature']}.")
    else:
        print(f"equifuzz: {r['input']} ({r['size']} bytes) kept as it is: {r['note']}.")
    return EXIT_CLEAN
