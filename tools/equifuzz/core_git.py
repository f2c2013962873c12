"""Bitcoin Core trees from git, pinned by commit.

A tree is the `src/` (and top-level CMakeLists.txt) of one commit, unpacked once per machine into
a cache outside every build directory:

    $EQUIFUZZ_CORE_CACHE (default $XDG_CACHE_HOME/equifuzz or ~/.cache/equifuzz)
        git/                 a bare repository the commits are fetched into (depth 1)
        trees/<commit>/      the unpacked tree, tree.json beside src/ once it is whole

The remote is $EQUIFUZZ_CORE_GIT_REMOTE, else the lock file's (differential/core/commits.json):
a URL or a local clone, for a machine without network. A commit is fetched by its id
(`git fetch --depth 1 <remote> <commit>`), or through the ref the lock file names for it when the
remote will not serve a bare id; the commit that arrives must be the one asked for.

CMake calls `python3 -m equifuzz.core_git tree --spec SPEC` (cmake/CoreTrees.cmake) and reads the
JSON it prints; the CLI resolves `--pr N` and `pr:N` here too. Every failure is a CoreGitError with
one sentence; as a command it prints that sentence and exits 2 (a spec or commit that is wrong) or
3 (a remote that cannot be reached).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "differential" / "core" / "commits.json"
SHA_RE = re.compile(r"^[0-9a-f]{40}$")
SHORT_SHA_RE = re.compile(r"^[0-9a-fA-F]{4,39}$")
# Paths of a commit that the Core sides read: src/, and the top-level CMakeLists.txt for the version.
TREE_PATHS = ("src", "CMakeLists.txt")


class CoreGitError(Exception):
    """One sentence for the user. `unreachable`: the remote could not be reached at all (exit 3)."""

    def __init__(self, message: str, unreachable: bool = False):
        super().__init__(message)
        self.unreachable = unreachable


@dataclass
class Tree:
    commit: str
    date: str      # committer date, YYYY-MM-DD
    subject: str
    src: str       # the unpacked src/ directory
    spec: str      # what was asked for

    def label(self, what: str = "") -> str:
        return f"Bitcoin Core {self.commit[:10]} ({self.date}{', ' + what if what else ''}), from git"


def load_lock(path: Path = LOCK) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise CoreGitError(f"the lock file {path} could not be read ({e}).")


def default_remote(lock: dict | None = None) -> str:
    return absolute_remote(os.environ.get("EQUIFUZZ_CORE_GIT_REMOTE") or (lock or load_lock())["remote"])


def absolute_remote(remote: str) -> str:
    """A local clone given as a relative path works from the cache repository too."""
    return str(Path(remote).resolve()) if "://" not in remote and Path(remote).exists() else remote


def cache_root() -> Path:
    if os.environ.get("EQUIFUZZ_CORE_CACHE"):
        return Path(os.environ["EQUIFUZZ_CORE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "equifuzz"


def _git(repo: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "LC_ALL": "C"}
    try:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=timeout, env=env)
    except FileNotFoundError:
        raise CoreGitError("git is not installed (Debian package git).")
    except subprocess.TimeoutExpired:
        raise CoreGitError(f"'git {' '.join(args[:2])}' took more than {timeout} s.", unreachable=True)


def _last_line(proc: subprocess.CompletedProcess) -> str:
    """git's own reason: its first fatal/error line, else its last line."""
    lines = [l.strip() for l in (proc.stderr or proc.stdout).splitlines() if l.strip()]
    first = next((l for l in lines if l.startswith(("fatal:", "error:"))), None)
    return (first or (lines[-1] if lines else f"exit {proc.returncode}")).rstrip(".")


def _cache_repo() -> Path:
    repo = cache_root() / "git"
    if not (repo / "HEAD").is_file():
        repo.mkdir(parents=True, exist_ok=True)
        proc = _git(repo, "init", "--quiet", "--bare")
        if proc.returncode != 0:
            raise CoreGitError(f"could not make the tree cache's git repository in {repo} ({_last_line(proc)}).")
    return repo


def _looks_unreachable(message: str) -> bool:
    return any(s in message for s in ("Could not resolve host", "does not appear to be a git repository",
                                      "unable to access", "Connection refused", "Could not read from remote",
                                      "No such file or directory", "not a git repository"))


def _fetch(repo: Path, remote: str, what: str) -> subprocess.CompletedProcess:
    return _git(repo, "fetch", "--quiet", "--no-tags", "--depth", "1", remote, what)


def reachable(remote: str) -> str:
    """'' when the remote answers, else why not (one clause)."""
    proc = _git(_cache_repo(), "ls-remote", "--heads", remote, "refs/heads/master", timeout=60)
    return "" if proc.returncode == 0 else _last_line(proc)


def resolve(remote: str, spec: str, ref_hint: str = "") -> str:
    """The 40-hex commit id a spec names on the remote, fetched into the cache repository.
    spec: a full commit id, or a ref (a branch, tag or refs/... path)."""
    repo = _cache_repo()
    if SHA_RE.match(spec):
        if _git(repo, "cat-file", "-e", f"{spec}^{{commit}}").returncode == 0:
            return spec
        proc = _fetch(repo, remote, spec)
        if proc.returncode != 0 and ref_hint:
            # A remote that serves only advertised refs: fetch the ref the lock names, then the id
            # must be its tip (or, fetched deeper, below it).
            proc = _git(repo, "fetch", "--quiet", "--no-tags", remote, ref_hint)
        if proc.returncode != 0:
            why = _last_line(proc)
            if _looks_unreachable(why):
                raise CoreGitError(f"the git remote {remote} could not be reached ({why}).", True)
            raise CoreGitError(f"commit {spec} could not be fetched from {remote} ({why}).")
        if _git(repo, "cat-file", "-e", f"{spec}^{{commit}}").returncode != 0:
            raise CoreGitError(f"{remote} did not give commit {spec}: what it gave for {ref_hint or spec} is another commit.")
        return spec
    if SHORT_SHA_RE.match(spec):
        full = _expand_short(repo, remote, spec)
        if full:
            return resolve(remote, full, ref_hint)
    if spec.startswith("-") or not spec or any(c in spec for c in " \t\n~^:?*[\\"):
        raise CoreGitError(f"'{spec}' is neither a commit id (40 hex digits) nor a branch or tag name.")
    proc = _fetch(repo, remote, spec)
    if proc.returncode != 0:
        why = _last_line(proc)
        if _looks_unreachable(why):
            raise CoreGitError(f"the git remote {remote} could not be reached ({why}).", True)
        raise CoreGitError(f"{remote} has no branch, tag or ref '{spec}' ({why}).")
    commit = _git(repo, "rev-parse", "--verify", "FETCH_HEAD^{commit}").stdout.strip()
    if not SHA_RE.match(commit):
        raise CoreGitError(f"'{spec}' on {remote} is not a commit.")
    return commit


def _expand_short(repo: Path, remote: str, spec: str) -> str:
    """The whole id of an abbreviated commit id, from the cache repository or a local clone as
    remote; '' when spec could be a branch or tag instead (none of them has it). A git server
    fetches whole ids only, so a short one it cannot expand is an error that says so."""
    for where in (repo, Path(remote)):
        if where != repo and ("://" in remote or not where.exists()):
            continue
        proc = _git(where, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
        if proc.returncode == 0 and SHA_RE.match(proc.stdout.strip()):
            return proc.stdout.strip()
        # Ambiguous: git says so on stderr even with --quiet.
        ambiguous = _git(where, "rev-parse", "--disambiguate=" + spec.lower())
        if len(ambiguous.stdout.split()) > 1:
            raise CoreGitError(f"the short commit id {spec} names {len(ambiguous.stdout.split())} objects in {where}: give more of its digits.")
    if _fetch(repo, remote, spec).returncode == 0:  # a branch or tag that only looks like hex
        return ""
    how = ("a git server serves only whole commit ids" if "://" in remote or not Path(remote).exists()
           else f"{remote} has no commit that starts with it")
    raise CoreGitError(f"'{spec}' is a short commit id and {how}: give all 40 hex digits (git rev-parse {spec} in a checkout that has it prints them).")


def materialize(remote: str, spec: str, ref_hint: str = "") -> Tree:
    """The tree of spec's commit, unpacked once into the cache (atomically: a tree.json marks it whole)."""
    want = spec.lower() if SHA_RE.match(spec.lower()) else spec
    trees = cache_root() / "trees"
    if SHA_RE.match(want) and (trees / want / "tree.json").is_file():
        info = json.loads((trees / want / "tree.json").read_text())
        return Tree(**{**info, "spec": spec})
    commit = resolve(remote, want, ref_hint)
    dest = trees / commit
    if not (dest / "tree.json").is_file():
        repo = _cache_repo()
        meta = _git(repo, "show", "-s", "--format=%cs%n%s", commit).stdout.splitlines()
        date, subject = (meta + ["", ""])[:2]
        trees.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}-", dir=trees))
        try:
            listed = _git(repo, "ls-tree", "--name-only", commit).stdout.split()
            paths = [p for p in TREE_PATHS if p in listed]
            if "src" not in paths:
                raise CoreGitError(f"commit {commit} has no src/ directory: it is not a Bitcoin Core tree.")
            archive = tmp / "tree.tar"
            proc = _git(repo, "archive", "--format=tar", "-o", str(archive), commit, *paths)
            if proc.returncode != 0:
                raise CoreGitError(f"git archive of {commit} failed ({_last_line(proc)}).")
            with tarfile.open(archive) as tar:
                tar.extractall(tmp, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(tmp)
            archive.unlink()
            if not (tmp / "src" / "streams.h").is_file():
                raise CoreGitError(f"commit {commit} has no src/streams.h: it is not a Bitcoin Core tree.")
            (tmp / "tree.json").write_text(json.dumps({"commit": commit, "date": date, "subject": subject,
                                                       "src": str(dest / "src")}, indent=1) + "\n")
            try:
                tmp.rename(dest)
            except OSError:
                if not (dest / "tree.json").is_file():  # not another configure that won the race
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    info = json.loads((dest / "tree.json").read_text())
    return Tree(**{**info, "spec": spec})


def lock_entry(key: str, lock: dict | None = None) -> dict:
    lock = lock or load_lock()
    if key not in lock["trees"]:
        raise CoreGitError(f"the lock file has no trees named '{key}' (it has {', '.join(sorted(lock['trees']))}).")
    return lock["trees"][key]


def seed_pr(number: int, lock: dict | None = None) -> tuple[str, dict] | None:
    """The lock entry of a seed PR, the pair's own first (a PR can have more than one entry)."""
    lock = lock or load_lock()
    hits = [(k, e) for k, e in lock["trees"].items() if e.get("pr") == number]
    hits.sort(key=lambda ke: ke[0] not in lock.get("pairs", {}).values())
    return hits[0] if hits else None


def pr_commits(remote: str, number: int, lock: dict | None = None) -> tuple[str, str, str]:
    """(before, after, where from) for PR <number>: a seed PR's pinned commits, else the remote's
    refs/pull/<N>/head against its merge-base with master."""
    hit = seed_pr(number, lock)
    if hit:
        key, e = hit
        return e["before"]["commit"], e["after"]["commit"], f"#{number}'s commits pinned in commits.json ({key})"
    repo = _cache_repo()
    ref = f"refs/pull/{number}/head"
    proc = _git(repo, "fetch", "--quiet", "--no-tags", "--filter=tree:0", remote,
                f"+{ref}:refs/equifuzz/pull/{number}", "+refs/heads/master:refs/equifuzz/master")
    if proc.returncode != 0 and "filter" in _last_line(proc):
        proc = _git(repo, "fetch", "--quiet", "--no-tags", remote, f"+{ref}:refs/equifuzz/pull/{number}",
                    "+refs/heads/master:refs/equifuzz/master")
    if proc.returncode != 0:
        why = _last_line(proc)
        if _looks_unreachable(why):
            raise CoreGitError(f"the git remote {remote} could not be reached ({why}).", True)
        raise CoreGitError(f"{remote} has no {ref} and master to compare it with ({why}).")
    head = _git(repo, "rev-parse", f"refs/equifuzz/pull/{number}").stdout.strip()
    base = _meeting(repo, remote, f"refs/equifuzz/pull/{number}", [f"+{ref}:refs/equifuzz/pull/{number}"])
    if not SHA_RE.match(head) or not base:
        raise CoreGitError(f"no merge-base of {ref} with master on {remote}.")
    return base, head, f"{ref} on {remote} and its merge-base with master"


def _meeting(repo: Path, remote: str, tip: str, refspecs: list[str]) -> str:
    """The merge-base of `tip` with refs/equifuzz/master in the cache repository, or ''. The cache
    is shallow (each pinned commit is fetched alone, --depth 1), and a fetch keeps the boundaries
    it already has: the two histories are deepened until they meet."""
    base = _git(repo, "merge-base", tip, "refs/equifuzz/master").stdout.strip()
    for depth in (200, 2000, 20000):
        if SHA_RE.match(base) or _git(repo, "rev-parse", "--is-shallow-repository").stdout.strip() != "true":
            break
        _git(repo, "fetch", "--quiet", "--no-tags", f"--deepen={depth}", remote, *refspecs,
             "+refs/heads/master:refs/equifuzz/master")
        base = _git(repo, "merge-base", tip, "refs/equifuzz/master").stdout.strip()
    return base if SHA_RE.match(base) else ""


def merge_base_with_master(remote: str, commit: str, ref: str = "") -> str:
    """The commit where `commit` (of the remote, fetched already by resolve; `ref` the branch or
    tag it came from, when it did) leaves the remote's master: the "before" of a branch when only
    its "after" is named."""
    repo = _cache_repo()
    proc = _git(repo, "fetch", "--quiet", "--no-tags", remote, "+refs/heads/master:refs/equifuzz/master")
    if proc.returncode != 0:
        why = _last_line(proc)
        if _looks_unreachable(why):
            raise CoreGitError(f"the git remote {remote} could not be reached ({why}).", True)
        raise CoreGitError(f"{remote} has no master to compare {commit[:12]} with ({why}).")
    base = _meeting(repo, remote, commit, [ref or commit])
    if not base:
        raise CoreGitError(f"{commit[:12]} and master on {remote} have no commit in common.")
    return base


def changed_paths(before: str, after: str) -> list[str] | None:
    """The paths under src/ that differ between two commits of the tree cache (`git diff
    --name-only`), or None when the cache lacks either. The trees unpacked from them differ in
    more: `git archive` writes each commit's own id into src/clientversion.cpp (export-subst)."""
    repo = cache_root() / "git"
    if not repo.is_dir():
        return None
    proc = _git(repo, "diff", "--name-only", "--no-renames", before, after, "--", "src")
    if proc.returncode != 0:
        return None
    return sorted(l.strip() for l in proc.stdout.splitlines() if l.strip())


def parse_spec(spec: str, remote: str, role: str) -> tuple[str, str]:
    """A --core-<role> value that names git: 'git:<ref>' or 'pr:<N>'. Returns (commit spec, what)."""
    if spec.startswith("git:"):
        return spec[4:], spec
    if spec.startswith("pr:"):
        number = spec[3:]
        if not number.isdigit():
            raise CoreGitError(f"'{spec}' is not pr:<number>.")
        before, after, where = pr_commits(remote, int(number))
        return (before if role == "original" else after), f"PR #{number} {'before' if role == 'original' else 'after'}, {where}"
    raise CoreGitError(f"'{spec}' is neither git:<ref> nor pr:<N>.")


def declared_pairs(root: Path = ROOT) -> list[str]:
    """Every pair the build declares: differential/<pair>/CMakeLists.txt calls equifuzz_add_pair(<pair>."""
    pairs = []
    for cmake in sorted((root / "differential").glob("*/CMakeLists.txt")):
        m = re.search(r"^\s*equifuzz_add_pair\(\s*(\w+)", cmake.read_text(), re.M)
        if m:
            pairs.append(m.group(1))
    return pairs


def pinned_pairs(lock: dict | None = None, root: Path = ROOT) -> tuple[list[tuple[str, str]], list[str]]:
    """(pair, its pinned "after" commit) for every declared pair the lock file pins, and one line
    for each pin that names no pair (a second change of a pair, for verify --pr) and each pair
    without a pin: nothing is left out in silence."""
    trees = (lock or load_lock())["trees"]
    pairs = declared_pairs(root)
    pinned = [(pair, trees[pair]["after"]["commit"]) for pair in pairs if pair in trees]
    notes = [f"{key}: a pin{' of #' + str(trees[key]['pr']) if trees[key].get('pr') else ''} that names no pair "
             "(for verify --pr), not checked against master" for key in trees if key not in pairs]
    notes += [f"{pair}: no pinned commit in {LOCK.relative_to(ROOT)}, not checked against master"
              for pair in pairs if pair not in trees]
    return pinned, notes


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m equifuzz.core_git", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)
    t = sub.add_parser("tree", help="unpack one commit's tree into the cache and print it as JSON")
    t.add_argument("--spec", required=True, help="a commit id, git:<ref>, or pr:<N> (with --role)")
    t.add_argument("--ref", default="", help="the ref to fetch when the remote will not serve the bare commit id")
    t.add_argument("--role", choices=("original", "optimized"), default="original")
    t.add_argument("--remote", default="", help="default: $EQUIFUZZ_CORE_GIT_REMOTE, else the lock file's")
    r = sub.add_parser("reachable", help="exit 0 when the remote answers; else print why and exit 3")
    r.add_argument("--remote", default="")
    sub.add_parser("pins", help="print '<pair> <pinned after commit>' for every pair the lock file pins; "
                                "what it leaves out goes to stderr, a line each")
    args = p.parse_args(argv)
    if args.verb == "pins":
        try:
            pinned, notes = pinned_pairs()
        except CoreGitError as e:
            print(str(e), file=sys.stderr)
            return 2
        for pair, commit in pinned:
            print(pair, commit)
        for note in notes:
            print(note, file=sys.stderr)
        return 0
    try:
        remote = absolute_remote(args.remote) if args.remote else default_remote()
        if args.verb == "reachable":
            why = reachable(remote)
            if why:
                print(f"{remote}: {why}", file=sys.stderr)
                return 3
            return 0
        spec, what = args.spec, ""
        if spec.startswith(("git:", "pr:")):
            spec, what = parse_spec(spec, remote, args.role)
        tree = materialize(remote, spec, args.ref)
        print(json.dumps({**asdict(tree), "what": what, "remote": remote}))
        return 0
    except CoreGitError as e:
        print(str(e), file=sys.stderr)
        return 3 if e.unreachable else 2
    except OSError as e:  # the cache cannot be written: as unreachable as a remote
        print(f"the tree cache {cache_root()} cannot be used ({e.strerror or e}).", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
