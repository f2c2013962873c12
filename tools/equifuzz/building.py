"""Building: the Core trees a command names, and CMake configure-and-build of a preset."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from . import core_build, core_git
from .manifest import Manifest, configured, read as read_manifest
from .project import (ROOT, EquifuzzError, InfraError, Target, check_toolchain, core_opt_out_args, load_manifest)


def add_core_tree_args(parser) -> None:
    """--core-original, --core-optimized and --pr, for the verbs that build Core's code."""
    parser.add_argument("--core-original", metavar="TREE",
                        help="every pair's Core original side: a checkout's path, git:<ref> of the git remote "
                             "($EQUIFUZZ_CORE_GIT_REMOTE, default github.com/bitcoin/bitcoin), pr:<N> (the commit the pull "
                             "request starts from), or pinned (each pair's pinned commit). Default: with --core-optimized "
                             "alone, where that tree leaves master (a git: ref's merge-base with the remote's master, a "
                             "checkout's with its own master); else the pinned commits")
    parser.add_argument("--core-optimized", metavar="TREE", help="every pair's Core optimized side: a path, git:<ref> or "
                                                                   "pr:<N> (the pull request's head)")
    parser.add_argument("--pr", type=int, metavar="N",
                        help="a pull request's trees as the Core sides: a seed PR's pinned commits, any other PR's "
                             "refs/pull/N/head against its merge-base with master")


#: --core-original pinned: each pair's own pinned "before" commit.
PINNED = "pinned"


def _checkout_base(path: Path) -> tuple[str, str]:
    """(the merge-base of a git checkout's HEAD with its master, which master) or ("", why not)."""
    def git(*a):
        return subprocess.run(["git", "-C", str(path), *a], capture_output=True, text=True)
    top = git("rev-parse", "--show-toplevel")
    # (A copy inside another repository, say a build directory, is not a checkout of its own.)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != path:
        return "", f"{path} is not a git checkout"
    for ref in ("upstream/master", "origin/master", "master"):
        base = git("merge-base", "HEAD", ref).stdout.strip()
        if len(base) == 40:
            return base, ref
    return "", f"{path} has no master (upstream/master, origin/master or master) to find where it starts"


def default_before(original: str | None, optimized: str | None, pr: int | None) -> str | None:
    """The Core original tree when only the optimized one is named: where the change leaves
    master (a git: ref's merge-base with the remote's master, a checkout's with its own master, a
    PR's base), said in one line, so that nothing merged before the change is charged to it. The
    pair's pinned commit only when asked (--core-original pinned), or when the tree has no
    history (said too)."""
    if original is not None or optimized is None or pr is not None:
        return original
    say = lambda msg: print(f"equifuzz: Core original side: {msg}", file=sys.stderr, flush=True)  # noqa: E731
    if optimized.startswith("pr:"):
        return optimized
    if optimized.startswith("git:") and len(optimized) > 4:
        remote = core_git.default_remote()
        try:
            commit = core_git.resolve(remote, core_git.parse_spec(optimized, remote, "optimized")[0])
        except core_git.CoreGitError as e:  # the tree itself: as core_tree_args says it
            raise (InfraError if e.unreachable else EquifuzzError)(f"--core-optimized {optimized}: {e}")
        try:
            base = core_git.merge_base_with_master(remote, commit, optimized[4:])
        except core_git.CoreGitError as e:
            raise (InfraError if e.unreachable else EquifuzzError)(
                f"--core-optimized {optimized}: where it leaves master is not known ({e}); name the before tree "
                "with --core-original git:<commit> (or --core-original pinned for each pair's pinned commit).")
        say(f"git:{base}, where {optimized[4:]} leaves master (--core-original names another; pinned: each pair's own)")
        return f"git:{base}"
    if not (Path(optimized) / "src" / "streams.h").is_file():
        return None  # not a checkout: core_tree_args says so
    base, why = _checkout_base(Path(optimized).resolve())
    if base:
        # Unpacked from the checkout itself into the tree cache, where the configure finds it: the
        # git remote need not have the checkout's master.
        try:
            core_git.materialize(str(Path(optimized).resolve()), base)
        except core_git.CoreGitError as e:
            raise EquifuzzError(f"--core-optimized {optimized}: its merge-base {base[:12]} with {why} could not be "
                                f"unpacked ({e}); name the before tree with --core-original.")
        say(f"git:{base}, where {optimized} leaves {why} (--core-original names another; pinned: each pair's own)")
        return f"git:{base}"
    say(f"each pair's pinned commit: {why} (name the before tree with --core-original)")
    return PINNED


def core_tree_args(args) -> list[str]:
    """-D options for the Core trees a command names (cmake/CoreTrees.cmake). Each role takes a
    checkout's path, git:<ref> (a branch, tag or commit of the git remote) or pr:<N>; --pr N is
    pr:N for both. Without one the pinned trees come back, so a build is always what its command
    line says."""
    pr = getattr(args, "pr", None)
    out: list[str] = []
    before = default_before(getattr(args, "core_original", None), getattr(args, "core_optimized", None), pr)
    for role in ("original", "optimized"):
        spec = before if role == "original" else getattr(args, f"core_{role}", None)
        if spec == PINNED:
            out.append(f"-DEQUIFUZZ_CORE_{role.upper()}_SRC=")
            continue
        if pr is not None:
            if spec is not None:
                raise EquifuzzError(f"--pr names both Core trees; it cannot be used with --core-{role}.")
            spec = f"pr:{pr}"
        if spec is None:
            out.append(f"-DEQUIFUZZ_CORE_{role.upper()}_SRC=")
            continue
        if spec.startswith("pr:") and not spec[3:].isdigit():
            raise EquifuzzError(f"--core-{role} {spec}: a pull request is pr:<number>, e.g. pr:31682.")
        if spec.startswith("git:") and len(spec) == 4:
            raise EquifuzzError(f"--core-{role} git: needs a branch, tag or commit after the colon, e.g. git:master.")
        if spec.startswith(("git:", "pr:")):
            # Fetched and checked here, so that a wrong ref or commit is one sentence, not a failed
            # configure; CMake finds the tree in the cache and names it.
            try:
                remote = core_git.default_remote()
                commit, _ = core_git.parse_spec(spec, remote, role)
                core_git.materialize(remote, commit)
            except core_git.CoreGitError as e:
                raise (InfraError if e.unreachable else EquifuzzError)(f"--core-{role} {spec}: {e}")
            except OSError as e:
                raise InfraError(f"--core-{role} {spec}: the tree cache {core_git.cache_root()} cannot be used "
                                 f"({e.strerror or e}).")
        else:
            path = Path(spec).resolve()
            if not (path / "src" / "streams.h").is_file() and not (path / "streams.h").is_file():
                raise EquifuzzError(f"--core-{role} {path} is not a Bitcoin Core checkout (no src/streams.h there), "
                                    "nor git:<ref> or pr:<N>.")
            spec = str(path)
        out.append(f"-DEQUIFUZZ_CORE_{role.upper()}_SRC={spec}")
    off = core_opt_out_args()
    if off and any(not o.endswith("_SRC=") for o in out):
        raise EquifuzzError("EQUIFUZZ_CORE=off leaves Bitcoin Core's code out, so no Core tree can be named with it.")
    return out + off


def cmake(step: list[str], quiet: bool = False, to_stderr: bool = True) -> None:
    """Runs one CMake step from the top directory. Its output goes to the terminal (standard error
    unless `to_stderr` is false); quiet keeps it and shows its end only when the step fails. A
    failure is one sentence (InfraError)."""
    if quiet:
        proc = subprocess.run(step, cwd=ROOT, capture_output=True, text=True, errors="replace")
    else:
        proc = subprocess.run(step, cwd=ROOT, stdout=sys.stderr if to_stderr else None, stderr=subprocess.STDOUT)
    if proc.returncode == 0:
        return
    if quiet:
        sys.stderr.write((proc.stdout or "")[-3000:] + (proc.stderr or "")[-3000:])
    shown = " ".join(map(str, step[:4])) + (" ..." if len(step) > 4 else "")
    hint = ("; to build without Bitcoin Core's code on purpose, set EQUIFUZZ_CORE=off"
            if "--preset" in step[:2] and not core_opt_out_args() else "")
    raise InfraError(f"'{shown}' failed (exit {proc.returncode}); {'the end of ' if quiet else ''}its output is above{hint}.")


def configure_with_sides(bdir: Path, configure: list[str], scope, quiet: bool, to_stderr: bool = True) -> Manifest:
    """Configures <bdir> with the <configure> command and builds the Core sides of the pairs
    <scope(manifest)> names (None: every pair), each on its own; a side that fails is left out by
    configuring again, with one line each. Returns the build's manifest; the caller builds the rest."""
    say = (lambda msg: None) if quiet else (lambda msg: print(f"equifuzz: {msg}", file=sys.stderr, flush=True))
    bdir.mkdir(parents=True, exist_ok=True)
    core_build.clear_unbuilt(bdir)
    cmake(configure, quiet=quiet, to_stderr=to_stderr)
    manifest = read_manifest(bdir)
    pairs = scope(manifest) if scope else None
    failed = core_build.build_sides(bdir, manifest, pairs, say)
    if failed:
        core_build.write_unbuilt(bdir, failed)
        cmake(configure, quiet=True)
        manifest = read_manifest(bdir)
        for line in core_build.left_out_lines(manifest, pairs):
            print(f"equifuzz: {line}", file=sys.stderr, flush=True)
    return manifest


def build_presets(configs: list[str], core: list[str], cmake_args: list[str]) -> None:
    """Configures and builds each preset into build/<config>."""
    for config in configs:
        check_toolchain(config)
        print(f"equifuzz: building {config} in build/{config}", file=sys.stderr)
        # Each pair's Core sides first, each on its own: one that does not compile on its tree is
        # left out (named in one line and in every summary), and the other pairs build.
        configure_with_sides(ROOT / "build" / config, ["cmake", "--preset", config, *core, *cmake_args], None,
                             quiet=False, to_stderr=False)
        cmake(["cmake", "--build", "--preset", config], to_stderr=False)


def ensure_built(config: str, bdir: Path) -> list[Target]:
    """The build's targets, configuring and building its preset (with the pinned trees) when it is missing."""
    if not configured(bdir):
        check_toolchain(config)
        build_presets([config], core_tree_args(object()), [])
    return load_manifest(bdir)


def jobs_arg(jobs: int | None) -> int:
    """-j: how many campaigns run at once (default: every core)."""
    if jobs is None:
        return os.cpu_count() or 1
    if jobs < 1:
        raise EquifuzzError("-j must be at least 1.")
    return jobs
