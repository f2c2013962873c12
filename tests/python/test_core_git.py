"""Bitcoin Core trees from git, pinned by commit (tools/equifuzz/core_git.py, cmake/CoreTrees.cmake).

No network: each test makes a throw-away git repository and uses it as the remote, as a machine
without network uses a local clone. The cache of unpacked trees is the test's own
(EQUIFUZZ_CORE_CACHE), so nothing here reads or writes the user's ~/.cache/equifuzz.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, planted_tree

sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import core_git, manifest, verify  # noqa: E402
from equifuzz.project import declared_targets  # noqa: E402

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ninja") is None,
                                 reason="needs cmake and ninja")


def git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t", GIT_COMMITTER_DATE="2026-01-02T03:04:05Z", GIT_AUTHOR_DATE="2026-01-02T03:04:05Z")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout.strip()


def make_remote(path: Path, trees: list[tuple[str, dict[str, str]]]) -> list[str]:
    """A repository on branch master with one commit per (message, {path: text}); returns the ids."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "master")
    ids = []
    for message, files in trees:
        for rel, text in files.items():
            (path / rel).parent.mkdir(parents=True, exist_ok=True)
            (path / rel).write_text(text)
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", message)
        ids.append(git(path, "rev-parse", "HEAD"))
    return ids


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("EQUIFUZZ_CORE_CACHE", str(d))
    return d


TINY = {"src/streams.h": "// a stand-in for Core's streams.h\n", "CMakeLists.txt": "set(CLIENT_VERSION_MAJOR 99)\n"}


@needs_git
def test_a_commit_is_unpacked_once_and_then_served_from_the_cache(tmp_path, cache):
    remote = tmp_path / "remote"
    first, second = make_remote(remote, [("one", TINY), ("two", {"src/streams.h": "// changed\n"})])
    tree = core_git.materialize(str(remote), first)
    assert tree.commit == first and tree.date == "2026-01-02" and tree.subject == "one"
    assert (Path(tree.src) / "streams.h").read_text() == TINY["src/streams.h"]
    assert Path(tree.src) == cache / "trees" / first / "src"
    # A branch resolves to its tip; the tip's tree is its own.
    tip = core_git.materialize(str(remote), "master")
    assert tip.commit == second and (Path(tip.src) / "streams.h").read_text() == "// changed\n"
    # Served from the cache once unpacked: the remote is no longer needed for a pinned commit.
    shutil.rmtree(remote)
    assert core_git.materialize(str(remote), first).src == tree.src


@needs_git
def test_a_commit_the_remote_does_not_have_is_refused_in_one_sentence(tmp_path, cache):
    remote = tmp_path / "remote"
    make_remote(remote, [("one", TINY)])
    with pytest.raises(core_git.CoreGitError) as e:
        core_git.materialize(str(remote), "0123456789abcdef0123456789abcdef01234567")
    assert not e.value.unreachable
    assert str(e.value).startswith(f"commit 0123456789abcdef0123456789abcdef01234567 could not be fetched from {remote} (")
    with pytest.raises(core_git.CoreGitError) as e:
        core_git.materialize(str(remote), "no-such-branch")
    assert f"{remote} has no branch, tag or ref 'no-such-branch'" in str(e.value)
    with pytest.raises(core_git.CoreGitError) as e:
        core_git.materialize(str(tmp_path / "nowhere"), "master")
    assert e.value.unreachable and "could not be reached" in str(e.value)


@needs_git
def test_a_short_commit_id_is_expanded_from_a_local_clone_and_an_unknown_one_refused(tmp_path, cache):
    remote = tmp_path / "remote"
    first, second = make_remote(remote, [("one", TINY), ("two", {"src/streams.h": "// changed\n"})])
    assert core_git.materialize(str(remote), first[:8]).commit == first
    assert core_git.materialize(str(remote), second[:12].upper()).commit == second
    unknown = next(p for p in ("0000000", "1111111", "2222222") if not first.startswith(p) and not second.startswith(p))
    with pytest.raises(core_git.CoreGitError) as e:
        core_git.materialize(str(remote), unknown)
    assert "short commit id" in str(e.value) and "40 hex digits" in str(e.value) and not e.value.unreachable
    # A server (a URL) cannot expand one: the sentence says to give the whole id.
    with pytest.raises(core_git.CoreGitError) as e:
        core_git._expand_short(core_git._cache_repo(), "file:///nonexistent/remote.git", unknown)
    assert "whole commit ids" in str(e.value)


@needs_git
def test_a_commit_without_a_core_tree_is_refused(tmp_path, cache):
    remote = tmp_path / "remote"
    (commit,) = make_remote(remote, [("not core", {"README": "hello\n"})])
    with pytest.raises(core_git.CoreGitError, match=f"commit {commit} has no src/ directory"):
        core_git.materialize(str(remote), commit)
    assert not (cache / "trees" / commit).exists()


@needs_git
def test_a_seed_pr_resolves_through_the_lock_and_any_other_through_its_merge_base(tmp_path, cache):
    lock = core_git.load_lock()
    # A seed PR never asks the remote: its commits are pinned.
    before, after, where = core_git.pr_commits(str(tmp_path / "nowhere"), 31682)
    assert (before, after) == (lock["trees"]["tx_check"]["before"]["commit"], lock["trees"]["tx_check"]["after"]["commit"])
    assert "pinned" in where
    # #31868 has two entries (the PR's head and an earlier revision): the pair's own comes first.
    assert core_git.pr_commits(str(tmp_path / "nowhere"), 31868)[1] == lock["trees"]["serialize"]["after"]["commit"]
    # Any other PR: refs/pull/<N>/head against its merge-base with master.
    remote = tmp_path / "remote"
    base, pr_head = make_remote(remote, [("base", TINY), ("the PR", {"src/streams.h": "// PR\n"})])
    git(remote, "update-ref", "refs/pull/7/head", pr_head)
    git(remote, "reset", "-q", "--hard", base)
    (remote / "other").write_text("master moved on\n")
    git(remote, "add", "-A")
    git(remote, "commit", "-q", "-m", "master moves on")
    assert core_git.pr_commits(str(remote), 7)[:2] == (base, pr_head)
    with pytest.raises(core_git.CoreGitError, match="has no refs/pull/8/head"):
        core_git.pr_commits(str(remote), 8)


@needs_git
def test_with_only_the_after_tree_named_the_before_tree_is_where_it_leaves_master(tmp_path, cache, monkeypatch, capsys):
    # Nothing merged to master before the branch was made is charged to the branch: "before" is
    # the merge-base, for a git: ref of the remote and for a checkout (with its own master); the
    # pinned commits only when asked.
    from types import SimpleNamespace
    from equifuzz import building
    remote = tmp_path / "remote"
    base, branch_tip = make_remote(remote, [("base", TINY), ("the change", {"src/streams.h": "// changed\n"})])
    git(remote, "branch", "my-change", branch_tip)
    git(remote, "reset", "-q", "--hard", base)
    (remote / "src" / "coins.cpp").write_text("master moved on\n")
    git(remote, "add", "-A")
    git(remote, "commit", "-q", "-m", "master moves on")
    monkeypatch.setenv("EQUIFUZZ_CORE_GIT_REMOTE", str(remote))
    args = lambda **kw: SimpleNamespace(**{"core_original": None, "core_optimized": None, "pr": None, **kw})  # noqa: E731
    out = building.core_tree_args(args(core_optimized="git:my-change"))
    assert out[:2] == [f"-DEQUIFUZZ_CORE_ORIGINAL_SRC=git:{base}", "-DEQUIFUZZ_CORE_OPTIMIZED_SRC=git:my-change"]
    assert f"equifuzz: Core original side: git:{base}, where my-change leaves master" in capsys.readouterr().err
    # A checkout of the branch, whose master is its own.
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", "-b", "my-change", str(remote), str(checkout)], check=True)
    out = building.core_tree_args(args(core_optimized=str(checkout)))
    assert out[:2] == [f"-DEQUIFUZZ_CORE_ORIGINAL_SRC=git:{base}", f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={checkout}"]
    assert f"leaves origin/master" in capsys.readouterr().err
    assert (cache / "trees" / base / "src" / "streams.h").read_text() == TINY["src/streams.h"]
    # Asked for: each pair's pinned commit. A copy without history: the pinned commits, said.
    assert building.core_tree_args(args(core_original="pinned", core_optimized="git:my-change"))[0] == \
        "-DEQUIFUZZ_CORE_ORIGINAL_SRC="
    plain = tmp_path / "plain"
    shutil.copytree(checkout / "src", plain / "src")
    assert building.core_tree_args(args(core_optimized=str(plain)))[0] == "-DEQUIFUZZ_CORE_ORIGINAL_SRC="
    assert "each pair's pinned commit: " in capsys.readouterr().err
    # A ref master does not meet: one sentence.
    git(remote, "checkout", "-q", "--orphan", "island")
    git(remote, "commit", "-q", "-m", "an island")
    with pytest.raises(Exception, match="where it leaves master is not known"):
        building.core_tree_args(args(core_optimized="git:island"))


def test_every_lock_entry_is_two_full_commit_ids_and_every_pair_has_one():
    lock = core_git.load_lock()
    for key, e in lock["trees"].items():
        for when in ("before", "after"):
            assert core_git.SHA_RE.match(e[when]["commit"]), (key, when)
            assert e[when]["ref"].startswith("refs/"), (key, when)
    # Every pair of fuzz_targets/CMakeLists.txt with Core sides names its entry in its directory.
    declared = set(declared_targets().values())
    named = {p.parent.name: line.split()[1].rstrip(")") for p in (ROOT / "differential").glob("*/CMakeLists.txt")
             for line in p.read_text().splitlines() if line.strip().startswith("CORE_COMMITS ")}
    assert declared == set(named)
    assert set(named) <= declared
    assert all(entry in lock["trees"] for entry in named.values())
    assert lock["pairs"] == named


# --- through CMake ---------------------------------------------------------------------------------
def configure(build: Path, *options: str, env: dict | None = None):
    return subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DEQUIFUZZ_TESTS=OFF", "-DEQUIFUZZ_BENCH=OFF",
                           *options], capture_output=True, text=True, env=env)


def registry_tree(build_dir: Path, version: str) -> Path:
    tree = build_dir / "core-trees" / f"kernel-{version}"
    if not (tree / "src" / "streams.h").is_file():
        pytest.skip(f"the build in {build_dir} has no Core tree kernel-{version} (Core sides off)")
    return tree.resolve()


@needs_git
@needs_cmake
def test_without_a_reachable_remote_the_pairs_take_the_registry_trees_and_say_so(tmp_path, cache, build_dir):
    registry_tree(build_dir, "0.1.1")  # the registry is reachable here
    env = dict(os.environ, EQUIFUZZ_CORE_GIT_REMOTE=str(tmp_path / "nowhere"))
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_MUTANTS=OFF", env=env)
    assert cfg.returncode == 0, cfg.stderr
    out = " ".join((cfg.stdout + cfg.stderr).split())
    assert "equifuzz: Core trees from git unavailable (" in out
    assert "every pair's Core sides are the registry trees, not the pair's commits in differential/core/commits.json" in out
    assert "equifuzz: pair xor: Core original side from kernel-0.0.20" in out
    assert manifest.read(tmp_path / "b").core_trees_from == f"registry (git remote {tmp_path / 'nowhere'} unreachable)"
    # The build keeps that remote when its configure runs again from a shell without the variable
    # (ninja does so after a CMakeLists.txt changes).
    env_without = {k: v for k, v in os.environ.items() if k != "EQUIFUZZ_CORE_GIT_REMOTE"}
    cfg = subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "b"], capture_output=True, text=True, env=env_without)
    assert cfg.returncode == 0, cfg.stderr
    assert manifest.read(tmp_path / "b").core_trees_from == f"registry (git remote {tmp_path / 'nowhere'} unreachable)"
    # Asked for git explicitly, the same remote is an error, in one sentence.
    cfg = configure(tmp_path / "b2", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_MUTANTS=OFF", "-DEQUIFUZZ_CORE_TREE_SOURCE=git", env=env)
    assert cfg.returncode != 0
    assert "EQUIFUZZ_CORE_TREE_SOURCE=git, but the git remote cannot be reached" in " ".join(cfg.stderr.split())


@needs_git
@needs_cmake
def test_a_remote_whose_commits_do_not_match_the_lock_leaves_each_pair_on_the_registry_tree_with_a_line(tmp_path, cache, build_dir):
    registry_tree(build_dir, "0.1.1")
    remote = tmp_path / "remote"
    make_remote(remote, [("one", TINY)])
    env = dict(os.environ, EQUIFUZZ_CORE_GIT_REMOTE=str(remote))
    cfg = configure(tmp_path / "b", "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_MUTANTS=OFF", env=env)
    assert cfg.returncode == 0, cfg.stderr
    out = " ".join((cfg.stdout + cfg.stderr).split())
    xor_after = core_git.load_lock()["trees"]["xor"]["after"]["commit"]
    # The remote serves its master when asked for the lock's ref; that is another commit: refused.
    assert (f"equifuzz: pair xor: Core optimized side from kernel-0.1.1 instead of commit {xor_after}: "
            f"{remote} did not give commit {xor_after}: what it gave for refs/heads/master is another commit.") in out


@needs_git
@needs_cmake
def test_a_bug_in_a_git_commit_is_caught_its_parent_is_clean_and_a_mutant_it_edits_is_not_applicable(tmp_path, cache, build_dir):
    # The remote: kernel 0.1.1's tree (after #31144), then one commit that leaves Obfuscation's
    # tail unobfuscated. That commit edits the very line the Core mutant core_obfuscation_tail_skipped
    # replaces, as a PR branch may: the mutant is listed as not applicable, and the build goes on.
    tree = registry_tree(build_dir, "0.1.1")
    remote = tmp_path / "remote"
    remote.mkdir()
    shutil.copytree(tree / "src", remote / "src")
    shutil.copy(tree / "CMakeLists.txt", remote / "CMakeLists.txt")
    header = remote / "src" / "util" / "obfuscation.h"
    clean_text = header.read_text()
    assert clean_text.count("XorWord(target, rot_key);") == 1
    git(remote, "init", "-q", "-b", "master")
    git(remote, "add", "-A")
    git(remote, "commit", "-q", "-m", "the tree")
    clean = git(remote, "rev-parse", "HEAD")
    header.write_text(clean_text.replace("XorWord(target, rot_key);", "/* the tail is forgotten */"))
    git(remote, "commit", "-q", "-am", "obfuscation: forget the tail")
    buggy = git(remote, "rev-parse", "HEAD")

    env = dict(os.environ, EQUIFUZZ_CORE_GIT_REMOTE=str(remote))
    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_CORE_TREE_SOURCE=registry", "-DEQUIFUZZ_MUTANT_TARGETS=caught-by",
                    f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC=git:{buggy}", env=env)
    assert cfg.returncode == 0, cfg.stderr
    out = " ".join((cfg.stdout + cfg.stderr).split())
    assert (f"equifuzz: Core tree user-optimized: Bitcoin Core v30.99 (master) commit {buggy} (2026-01-02), "
            f"git:{buggy} from {remote} (EQUIFUZZ_CORE_OPTIMIZED_SRC)") in out
    assert ("equifuzz: mutant xor/core_obfuscation_tail_skipped not applicable: tree user-optimized's "
            "util/obfuscation.h has the line it replaces 0 times, not once") in out
    m = manifest.read(build)
    xor = m.pairs["xor"]
    assert [n.name for n in xor.mutants_not_applicable] == ["core_obfuscation_tail_skipped"]
    optimized = next(c for c in xor.core if c.role == "core-optimized")
    assert optimized.tree == "user-optimized" and optimized.commit == buggy
    variants = {v.name for t in m.targets if t.pair == "xor" for v in t.variants}
    assert "core_obfuscation_tail_skipped" not in variants and "core_obfuscation_rotation_left" in variants

    def replay():
        b = subprocess.run(["cmake", "--build", build, "--target", "xor_apply", "xor_apply__core_obfuscation_rotation_left"],
                           capture_output=True, text=True)
        assert b.returncode == 0, b.stdout[-3000:]
        return subprocess.run([build / "fuzz_targets" / "xor_apply", "-q", ROOT / "corpora" / "xor_apply"],
                              capture_output=True, text=True, env={"ASAN_OPTIONS": "handle_abort=1"})

    run = replay()
    assert run.returncode != 0
    assert "signature: equifuzz-mismatch xor_apply:oneshot" in run.stderr and "core-optimized" in run.stderr
    # Asked for by name, the mutant that does not apply is said to be unchecked, not passed over.
    proc = subprocess.run([sys.executable, ROOT / "equifuzz", "--build-dir", build, "mutants", "--pair", "xor",
                           "--mutant", "core_obfuscation_tail_skipped"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 3
    assert proc.stderr == ("equifuzz: mutant 'core_obfuscation_tail_skipped' is not applicable to this build's Core trees "
                           "(tree user-optimized's util/obfuscation.h has the line it replaces 0 times, not once): it was "
                           "not built, so it was not checked.\n")

    # The commit before the bug, by its id: clean; the mutant that applies again is built.
    cfg = configure(build, f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC=git:{clean}", env=env)
    assert cfg.returncode == 0, cfg.stderr
    assert "mutant xor/core_obfuscation_tail_skipped not applicable" not in cfg.stdout + cfg.stderr
    run = replay()
    assert run.returncode == 0, run.stderr[-3000:]


@needs_git
def test_the_cli_refuses_a_commit_the_remote_does_not_have_in_one_sentence(tmp_path, cache):
    remote = tmp_path / "remote"
    make_remote(remote, [("one", TINY)])
    env = dict(os.environ, EQUIFUZZ_CORE_GIT_REMOTE=str(remote), EQUIFUZZ_CORE_CACHE=str(cache))
    bad = "0123456789abcdef0123456789abcdef01234567"
    proc = subprocess.run([sys.executable, ROOT / "equifuzz", "build", "--core-optimized", f"git:{bad}"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"equifuzz: --core-optimized git:{bad}: commit {bad} could not be fetched from {remote} (")
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    env["EQUIFUZZ_CORE_GIT_REMOTE"] = str(tmp_path / "nowhere")
    proc = subprocess.run([sys.executable, ROOT / "equifuzz", "build", "--pr", "4242"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 3 and "could not be reached" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, ROOT / "equifuzz", "build", "--pr", "31682", "--core-original", "git:master"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 2 and "--pr names both Core trees" in proc.stderr


@needs_cmake
def test_a_named_tree_a_pair_cannot_use_makes_the_verdict_incomplete_exit_3(tmp_path, build_dir):
    # A "PR tree" whose AutoFile takes neither a key vector nor an Obfuscation: the blockfile
    # pair's shim cannot serve it. Named by the user, that is not a clean result for blockfile.
    tree = registry_tree(build_dir, "0.1.1")
    pr = planted_tree(tree, tmp_path / "bitcoin-pr", "streams.h", "explicit AutoFile(std::FILE* file, const Obfuscation&",
                      "explicit AutoFile(std::FILE* file, const NewKeyType&")
    build = tmp_path / "b"
    cfg = configure(build, "-DEQUIFUZZ_SANITIZERS=", "-DEQUIFUZZ_MUTANTS=OFF", "-DEQUIFUZZ_CORE_TREE_SOURCE=registry",
                    f"-DEQUIFUZZ_CORE_OPTIMIZED_SRC={pr}")
    assert cfg.returncode == 0, cfg.stderr
    sides = verify.sides_of(manifest.read(build))
    (left,) = sides["blockfile"].left_out
    assert left["role"] == "core-optimized" and left["tree"] == "user-optimized" and "lacks AutoFile" in left["why"]
    facts = {"targets": {"blockfile_write": {"pair": "blockfile", "replay": {"ok": True, "inputs": 3}, "campaign": {}}},
             "sides": {"blockfile": sides["blockfile"].to_json()}, "budget": {"seconds_per_target": 5}, "mutants": []}
    verdict, code = verify.verdict_of(facts)
    assert code == 3
    assert verdict.startswith("INCOMPLETE: pair blockfile: your Core optimized tree was not used (tree user-optimized lacks AutoFile")
    # The registry's own tree for the other side is no problem of the user's: only named trees count.
    facts["sides"]["blockfile"]["left_out"] = [dict(left, tree="kernel-0.1.1")]
    assert verify.verdict_of(facts)[1] == 0


def test_a_failed_configure_is_told_by_cmakes_own_message_in_one_line():
    from equifuzz.tree_check import cmake_error
    output = ("-- Configuring incomplete\nCMake Error at cmake/CoreTrees.cmake:161 (message):\n"
              "  EQUIFUZZ_CORE_ORIGINAL_SRC=git:zz: 'zz' is neither a commit id (40 hex digits) nor a\n"
              "  branch or tag name.\nCall Stack (most recent call first):\n  CMakeLists.txt:9 (include)\n\n"
              "-- Configuring incomplete, errors occurred!\n")
    assert cmake_error(output) == ("EQUIFUZZ_CORE_ORIGINAL_SRC=git:zz: 'zz' is neither a commit id (40 hex digits) "
                                   "nor a branch or tag name.")
    assert cmake_error("CMake Error at x.cmake:1 (message):\n  equifuzz: pair p: broken\n") == "pair p: broken"
    assert cmake_error("nothing useful\n") == "see cmake's output"


def test_the_master_check_takes_every_pinned_pair_and_says_what_it_leaves_out(tmp_path):
    root = tmp_path / "repo"
    for pair in ("alpha", "beta"):
        (root / "differential" / pair).mkdir(parents=True)
        (root / "differential" / pair / "CMakeLists.txt").write_text(f"equifuzz_add_pair({pair}\n  ORIGINAL x.cpp)\n")
    (root / "differential" / "common").mkdir()
    (root / "differential" / "common" / "CMakeLists.txt").write_text("add_library(common STATIC a.cpp)\n")
    lock = {"trees": {"alpha": {"pr": 1, "after": {"commit": "a" * 40}},
                      "alpha_second": {"pr": 2, "after": {"commit": "b" * 40}}}}
    assert core_git.declared_pairs(root) == ["alpha", "beta"]
    pinned, notes = core_git.pinned_pairs(lock, root)
    assert pinned == [("alpha", "a" * 40)]
    assert any(n.startswith("alpha_second: a pin of #2 that names no pair") for n in notes)
    assert any(n.startswith("beta: no pinned commit") for n in notes)
    # This repository: every pair declared, each pinned (a new pair without a pin would be said).
    pinned, notes = core_git.pinned_pairs()
    assert {p for p, _ in pinned} == set(core_git.declared_pairs()) and "coins_view" in dict(pinned)
    assert not [n for n in notes if "no pinned commit" in n]


def test_the_nightly_resolves_master_once_and_lists_no_pair_by_hand():
    script = (ROOT / "ci" / "nightly.sh").read_text()
    assert script.count("--spec git:master") == 1 and "--core-optimized git:master" not in script
    assert "core_git pins" in script
    assert '"xor","blockfile"' not in script
