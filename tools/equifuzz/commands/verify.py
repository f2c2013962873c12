"""./equifuzz verify"""
from __future__ import annotations

from .. import allow, verify
from ..building import add_core_tree_args

NAME = "verify"
ORDER = 130
SUMMARY = "the reviewer's certificate: replay, fuzz, mutants, and a report to paste into a PR"
DESCRIPTION = ("Builds the libFuzzer build (with each mutant in the target that catches it), replays every seed and "
               "regression input, fuzzes every named target from its seeds (JOBS at a time, sharing the --minutes "
               "budget), checks that every mutant is caught, measures line and branch coverage of every side (the coverage "
               "build, replaying every seed, regression and campaign input) and the change's reach (how many of the "
               "executable lines the change adds, removes or modifies each Core side executed: NOT REACHED, exit 3, "
               "when a side executed none of them), and writes report.md, report.json, coverage.png and "
               "mutants.png (with --from-empty, survival.png: mutants hunted from an empty corpus) into the report directory (default build/verify/<time>). A mismatch or a sanitizer report "
               "is a finding (exit 1); the report then lists its reproducer first. A missed mutant is the targets' "
               "failure, not the change's: INCOMPLETE (exit 3). The pairs whose Core "
               "code runs threads (prevout_fetch, utxo_flush, coins_view) run a second time in a ThreadSanitizer build "
               "(build/verify-tsan, the same trees: <target>@tsan, replayed, fuzzed for its share of the budget, its "
               "mutants checked): a data race is a finding like a crash. Each pair's Core sides are "
               "built on their own first: one that does not compile on its tree is left out with its first compiler "
               "error and the verdict is INCOMPLETE (exit 3), while the other pairs run. With Core trees named and no "
               "target, the pairs are picked from the change (the files each Core side compiles, from the compiler's "
               "dependency files, that differ between the two trees); a change that touches none of them exits 3.")
EXAMPLES = ["./equifuzz verify --minutes 1", "./equifuzz verify xor siphash --minutes 10 -j 2 --out /tmp/report",
            "./equifuzz verify script --minutes 5 --from-empty 3",
            "./equifuzz verify xor --core-optimized ~/bitcoin-pr --minutes 5",
            "EQUIFUZZ_CORE_GIT_REMOTE=~/bitcoin ./equifuzz verify tx_check --pr 31682",
            "./equifuzz verify --core-original git:master --core-optimized git:my-branch --minutes 10"]


def arguments(p) -> None:
    p.add_argument("targets", nargs="*", help="target or pair names (default: every target; with --pr, --core-original or "
                                              "--core-optimized, the pairs whose Core sides compile a file the change touches)")
    p.add_argument("--minutes", type=float, default=10, help="wall-clock fuzzing budget, shared by the targets (default 10)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="campaigns at once (default: every core)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer seed (default 1): same seed and budget, same verdict")
    p.add_argument("--out", metavar="DIR", help="report directory (default build/verify/<time>)")
    add_core_tree_args(p)
    p.add_argument("--no-coverage", action="store_true",
                   help="leave out the coverage of every side (it needs the coverage build, build/verify-coverage)")
    p.add_argument("--min-reach", type=float, default=0.0, metavar="PCT",
                   help="the least share (in %%) of the change's executable lines each Core side must execute for a "
                        "CLEAN verdict (default 0: any; a side that executed none is NOT REACHED, exit 3)")
    p.add_argument("--no-keep", action="store_true",
                   help="do not copy findings into corpora/regressions/ (by default each new signature's input is kept)")
    p.add_argument("--from-empty", type=int, default=0, metavar="TRIALS",
                   help="also hunt every mutant from an EMPTY corpus TRIALS times (fuzzing power: a table and the "
                        "survival curve in the report; default 0, not measured)")
    p.add_argument("--from-empty-seconds", type=int, default=60, metavar="S",
                   help="with --from-empty: the budget of each hunt (default 60)")
    p.add_argument("--no-tsan", action="store_true",
                   help="leave out the ThreadSanitizer build of the pairs whose Core code runs threads (prevout_fetch, "
                        "utxo_flush, coins_view); the verdict then says data races were not checked")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    allow.add_allow_arguments(p)
    allow.add_minimize_arguments(p)


def run(args) -> int:
    return verify.cmd_verify(args)
