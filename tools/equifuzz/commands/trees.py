"""./equifuzz trees"""
from __future__ import annotations

import sys
from pathlib import Path

from .. import core_git, tree_check
from ..output import table
from ..project import EXIT_FINDING, EXIT_INFRA, ROOT, InfraError

NAME = "trees"
ORDER = 96
SUMMARY = "check that every pair's Core side builds on every Core tree from v28.99 to master"
DESCRIPTION = ("Configures a scratch build (build/trees-check) with one Core tree as both Core sides and compiles "
               "each pair's shim against it (-fsyntax-only; --full builds and links the pair's first target: every "
               "Core source too, and every hook the side needs), for each tree of differential/core/tree-check.json (master as each month from "
               "2024-08 (v28.99) ended, the newest, every pinned commit and its first parent) from the git remote "
               "($EQUIFUZZ_CORE_GIT_REMOTE), or --registry: the registry trees, offline. Prints a table, tree by "
               "pair: ok, n/a (the tree lacks the pair's routine) or the first compiler error; exit 1 when any "
               "side that applies fails.")
EXAMPLES = ["./equifuzz trees --registry", "EQUIFUZZ_CORE_GIT_REMOTE=~/bitcoin ./equifuzz trees",
            "./equifuzz trees --tree git:master --tree ~/bitcoin-pr --full"]


def arguments(p) -> None:
    p.add_argument("--registry", action="store_true", help="the registry trees (kernel 0.0.10 to 0.4.1) instead of git")
    p.add_argument("--tree", action="append", default=[], metavar="TREE",
                   help="only this tree (a checkout's path or git:<ref>); may be given more than once")
    p.add_argument("--full", action="store_true", help="build and link each pair's first target, not only its shim (slower)")
    p.add_argument("--compiler", metavar="CXX", help="the C++ compiler (default: the replay preset's)")
    p.add_argument("--build-dir", metavar="DIR", help="the scratch build (default build/trees-check)")


def run(args) -> int:
    bdir = Path(args.build_dir).resolve() if args.build_dir else ROOT / "build" / "trees-check"
    if args.tree:
        trees = [(t, t if t.startswith(("git:", "pr:")) else str(Path(t).resolve())) for t in args.tree]
    elif args.registry:
        trees = tree_check.registry_paths(bdir)
    else:
        remote = core_git.default_remote()
        why = core_git.reachable(remote)
        if why:
            raise InfraError(f"the git remote {remote} cannot be reached ({why}); check the registry trees with "
                             "--registry, or set EQUIFUZZ_CORE_GIT_REMOTE to a clone that has the commits.")
        trees = tree_check.git_specs(tree_check.listed_commits())
    pairs: list[str] = []
    rows, failures, unusable = [], 0, 0
    for label, spec in trees:
        print(f"equifuzz trees: {label}", file=sys.stderr, flush=True)
        try:
            result = tree_check.check_tree(bdir, spec, args.full, args.compiler)
        except InfraError as e:
            print(f"equifuzz trees: {label}: not used: {e}", file=sys.stderr, flush=True)
            rows.append([label, f"tree not used: {e}"])
            unusable += 1
            continue
        pairs = pairs or list(result)
        cells = []
        for pair in pairs:
            r = result.get(pair, {"status": "n/a", "detail": "no Core side"})
            cells.append("ok" if r["status"] == "ok" else f"n/a: {r['detail']}" if r["status"] == "n/a"
                         else f"FAILED: {r['detail']}")
            failures += r["status"] == "FAILED"
        rows.append([label, *cells])
    columns = pairs or ["result"]  # no tree could be had: the reasons still get a column
    width = 1 + len(columns)
    print(table(["tree", *columns], [r if len(r) == width else r + [""] * (width - len(r)) for r in rows]))
    mode = "targets built and linked" if args.full else "shims (-fsyntax-only)"
    print(f"equifuzz trees: {len(trees)} trees, {len(pairs)} pairs, {mode}: {failures} failed"
          + (f", {unusable} tree(s) could not be had" if unusable else ""))
    if failures:
        return EXIT_FINDING
    return EXIT_INFRA if unusable else 0
