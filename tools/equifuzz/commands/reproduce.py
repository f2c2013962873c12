"""./equifuzz reproduce"""
from __future__ import annotations

from pathlib import Path

from ..building import ensure_built
from ..mutants import variant_binary
from .. import findings
from ..findings import first_stop
from ..project import (EXIT_FINDING, EquifuzzError, InfraError, build_dir, declared_targets, run_binary, select,
                       validate_names)

NAME = "reproduce"
ORDER = 50
SUMMARY = "run one input through a target and print its mismatch report"
DESCRIPTION = ("Runs one input file through a target (or a mutant's variant of it) and prints the mismatch report, "
               "or says that the sides agree. The 'reproduce:' line of every report is such a command.")
EXAMPLES = ["./equifuzz reproduce xor_apply build/campaigns/libfuzzer/xor_apply/crashes/crash-0123",
            "./equifuzz reproduce xor_apply corpora/regressions/xor_apply/mutant-tail_skipped-crash-0a1b --mutant tail_skipped"]


def arguments(p) -> None:
    p.add_argument("target", help="a target name")
    p.add_argument("input", help="the crash or corpus file")
    p.add_argument("--mutant", help="run the target built against this mutant (or adapter) instead")


def run(args) -> int:
    validate_names([args.target])
    if args.target not in declared_targets():
        raise EquifuzzError(f"'{args.target}' is a pair; name one of its targets.")
    path = Path(args.input)
    try:
        with open(path, "rb"):
            pass
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise EquifuzzError(f"{args.input} is not a file.")
    except OSError as e:
        raise EquifuzzError(f"{args.input} cannot be read ({e.strerror}).")
    bdir = build_dir("replay", args.build_dir)
    (target,) = select(ensure_built("replay", bdir), [args.target], exact=True)
    binary = variant_binary(target, args.mutant)
    proc = run_binary([binary, str(path)], timeout=300)
    if proc.returncode != 0 and "equifuzz: no such file" in proc.stderr:
        raise InfraError(f"{target.name} could not read {args.input}.")
    report = [l for l in proc.stderr.splitlines() if not l.startswith("equifuzz: ") or "no such" in l]
    if first_stop(proc.stderr):
        # The report is everything up to the sanitizer's abort banner.
        end = next((i for i, l in enumerate(report) if l.startswith("reproduce:")), len(report) - 1)
        print("\n".join(report[:end + 1]))
        print(f"\nequifuzz: {path} reproduces a mismatch in {target.name}" + (f" (variant {args.mutant})" if args.mutant else "") + ".")
        return EXIT_FINDING
    if proc.returncode != 0:
        print(proc.stderr)
        print(f"equifuzz: {path} crashes {target.name} (exit {proc.returncode}) without a mismatch report: "
              "a sanitizer finding, see above.")
        return EXIT_FINDING
    if notes := findings.in_text(proc.stderr):
        for line in (l for l in report if l.strip() and not l.startswith(findings.MARK)):
            print(line)
        for x in notes:
            print(f"{x['kind']}: {x['signature']}" + (f": {x['detail']}" if x["detail"] else ""))
        kinds = ", ".join(dict.fromkeys(x["kind"] for x in notes))
        print(f"\nequifuzz: {path} shows no counted difference in {target.name}, only notes ({kinds}): "
              "the differences above are listed, not counted.")
        return 0
    print(f"equifuzz: {path} does not reproduce a mismatch in {target.name}: both sides agree on it.")
    return 0
