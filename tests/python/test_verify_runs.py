"""The scripts that run verify over a list of changes (bench/real_changes/run.py,
bench/refactor_verify.py): their tables read the committed results, and without the git remote
they say so in one sentence, exit 2."""
import os
import subprocess
import sys

from conftest import ROOT

SCRIPTS = {"bench/real_changes/run.py": "bench/results/2026-11-26-real-changes.jsonl",
           "bench/refactor_verify.py": "bench/results/2026-11-28-refactor-verify.jsonl"}


def run(*args, env=None):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env)


def test_the_tables_read_the_committed_results():
    for script, results in SCRIPTS.items():
        proc = run(script, "--table", results)
        lines = proc.stdout.splitlines()
        assert proc.returncode == 0 and lines[1].startswith("|---") and len(lines) > 3, proc.stderr
        assert len(lines) - 2 == len(open(ROOT / results).read().strip().splitlines())


def test_without_the_git_remote_it_is_one_sentence(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "EQUIFUZZ_CORE_GIT_REMOTE"}
    for script in SCRIPTS:
        proc = run(script, tmp_path / "out.jsonl", env=env)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1
        assert "set EQUIFUZZ_CORE_GIT_REMOTE to a clone of Bitcoin Core" in proc.stderr
        assert not (tmp_path / "out.jsonl").exists()
