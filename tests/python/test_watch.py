"""The watch over open pull requests (tools/equifuzz/watch.py, ci/watch.sh), offline: a local
stand-in for GitHub's REST API (JSON pages served by this test), a local git remote with
refs/pull/<N>/head for five pull requests (three change files a pair's Core side compiles, two do
not), and a stand-in for `./equifuzz verify` that writes a report and notes each call."""
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import watch  # noqa: E402

from test_core_git import git  # noqa: E402

INDEX = {"pairs": {"coins_view": ["src/coins.cpp", "src/coins.h", "src/txdb.cpp"], "xor": ["src/util/obfuscation.h"]}}
STUB = '''import json, pathlib, sys
pr, out, calls = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
verdict = "MISMATCH: a difference" if pr == "12" else "CLEAN: 1 targets ...; reached 3 of 4 changed lines in Core after (75.0 %)"
side = lambda reached, executable: {"changed_lines": 5, "executable": executable, "reached": reached, "files": [], "unreached": []}
reach = {"coins_view": {"sides": {"core-optimized": side(3, 4), "core-original": side(2, 2)}, "one_tree": False}}
(out / "report.json").write_text(json.dumps({"verdict": verdict, "reach": reach}))
with calls.open("a") as f:
    f.write(pr + "\\n")
sys.exit(1 if pr == "12" else 0)
'''


class Api:
    """GitHub's `pulls` endpoint over a list that a test changes between runs."""

    def __init__(self):
        self.pulls: list[dict] = []
        self.pages_asked = 0
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                url = urlparse(self.path)
                q = parse_qs(url.query)
                assert url.path == "/repos/bitcoin/bitcoin/pulls" and q["state"] == ["open"]
                per, page = int(q["per_page"][0]), int(q["page"][0])
                api.pages_asked += 1
                body = json.dumps(api.pulls[(page - 1) * per:page * per]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"


@pytest.fixture
def stand_ins(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUIFUZZ_CORE_CACHE", str(tmp_path / "cache"))
    remote = tmp_path / "remote"
    remote.mkdir()
    git(remote, "init", "-q", "-b", "master")
    for rel in ("src/coins.cpp", "src/util/obfuscation.h", "doc/README.md", "src/wallet/wallet.cpp"):
        (remote / rel).parent.mkdir(parents=True, exist_ok=True)
        (remote / rel).write_text("// master\n")
    git(remote, "add", "-A")
    git(remote, "commit", "-q", "-m", "master")
    master = git(remote, "rev-parse", "HEAD")
    # Five pull requests: 11 and 12 change coins.cpp, 13 the obfuscation header (xor), 14 the docs,
    # 15 the wallet: the last two change no file a pair compiles.
    touched = {11: "src/coins.cpp", 12: "src/coins.cpp", 13: "src/util/obfuscation.h", 14: "doc/README.md",
               15: "src/wallet/wallet.cpp"}
    api = Api()
    for n, rel in touched.items():
        git(remote, "checkout", "-q", "-b", f"pr{n}", master)
        (remote / rel).write_text(f"// pull request {n}\n")
        git(remote, "commit", "-q", "-am", f"pr {n}")
        head = git(remote, "rev-parse", "HEAD")
        git(remote, "update-ref", f"refs/pull/{n}/head", head)
        api.pulls.append({"number": n, "title": f"change {n}", "head": {"sha": head},
                          "updated_at": f"2026-11-{n:02d}T00:00:00Z"})
    git(remote, "checkout", "-q", "master")
    index = tmp_path / "compiled-files.json"
    index.write_text(json.dumps(INDEX))
    stub = tmp_path / "verify_stub.py"
    stub.write_text(STUB)
    yield {"remote": remote, "api": api, "index": index, "stub": stub, "tmp": tmp_path}
    api.server.shutdown()


def run_watch(s, out: str, *extra: str) -> tuple[int, dict]:
    calls = s["tmp"] / "calls.txt"
    rc = watch.main(["run", "--index", str(s["index"]), "--state", str(s["tmp"] / "state"), "--out", str(s["tmp"] / out),
                     "--api", s["api"].url, "--per-page", "2", "--remote", str(s["remote"]), *extra,
                     "--verify-command", sys.executable, str(s["stub"]), "{pr}", "{out}", str(calls)])
    records = json.loads((s["tmp"] / out / "watch.json").read_text())["pull_requests"]
    return rc, {r["number"]: r for r in records}


def calls(s) -> list[str]:
    path = s["tmp"] / "calls.txt"
    return path.read_text().split() if path.is_file() else []


def test_three_pull_requests_that_touch_pairs_are_verified_and_two_are_skipped_with_a_reason(stand_ins):
    s = stand_ins
    rc, prs = run_watch(s, "night1")
    assert rc == 0
    assert s["api"].pages_asked == 3  # five pull requests, two a page: every page, and no more
    assert sorted(calls(s)) == ["11", "12", "13"]
    assert prs[11]["pairs"] == ["coins_view"] and prs[13]["pairs"] == ["xor"]
    assert prs[11]["status"] == "verified" and prs[11]["verdict"] == "CLEAN"
    # Read from the report's structured reach, not from its verdict's words.
    assert prs[11]["reach"] == "coins_view: after 3/4 (75.0 %), before 2/2 (100.0 %)"
    assert prs[12]["verdict"] == "MISMATCH"  # a finding is the pull request's, in the summary; the run is fine
    for n, what in ((14, "doc/README.md"), (15, "src/wallet/wallet.cpp")):
        assert prs[n]["status"] == "skipped" and "changes no file a pair's Core side compiles" in prs[n]["reason"]
        assert what in prs[n]["reason"]
    summary = (s["tmp"] / "night1" / "summary.md").read_text()
    assert "verified now 3, verified before 0, waiting 0, skipped 2" in summary
    assert "| #12 | change 12 |" in summary and "MISMATCH" in summary

    # The next night: no head changed, nothing is verified again.
    rc, prs = run_watch(s, "night2")
    assert rc == 0 and sorted(calls(s)) == ["11", "12", "13"]
    assert all(prs[n]["status"] == "verified before" for n in (11, 12, 13))
    assert prs[12]["verdict"] == "MISMATCH"

    # Pull request 11 pushed again: its new head is verified, the others are not.
    remote = s["remote"]
    git(remote, "checkout", "-q", "pr11")
    (remote / "src" / "coins.cpp").write_text("// pull request 11, again\n")
    git(remote, "commit", "-q", "-am", "pr 11 again")
    head = git(remote, "rev-parse", "HEAD")
    git(remote, "update-ref", "refs/pull/11/head", head)
    git(remote, "checkout", "-q", "master")
    s["api"].pulls[0]["head"]["sha"] = head
    rc, prs = run_watch(s, "night3")
    assert rc == 0 and sorted(calls(s)) == ["11", "11", "12", "13"]
    assert prs[11]["status"] == "verified" and prs[11]["head"] == head[:40]


def test_a_budget_verifies_the_longest_waiting_first_and_by_hand_one_pull_request(stand_ins):
    s = stand_ins
    rc, prs = run_watch(s, "night", "--max", "2")
    assert rc == 0 and sorted(calls(s)) == ["11", "12"]  # the oldest updates first
    assert prs[13]["status"] == "waiting" and "budget of 2" in prs[13]["reason"]
    rc, prs = run_watch(s, "by-hand", "--pr", "13")
    assert rc == 0 and calls(s)[-1] == "13" and list(prs) == [13]


def test_an_api_that_cannot_be_reached_is_one_sentence_and_exit_3(stand_ins, capsys):
    s = stand_ins
    rc = watch.main(["run", "--index", str(s["index"]), "--state", str(s["tmp"] / "st"), "--out", str(s["tmp"] / "o"),
                     "--api", "http://127.0.0.1:9", "--remote", str(s["remote"])])
    assert rc == 3
    err = capsys.readouterr().err.strip()
    assert err.startswith("watch: the pull requests of bitcoin/bitcoin could not be listed") and "Traceback" not in err


def test_the_ci_script_runs_the_watch_with_the_index_and_the_pull_requests_it_is_given(stand_ins, tmp_path):
    # ci/watch.sh as the workflow calls it (pull requests from WATCH_PRS and its arguments, the
    # budget from WATCH_MAX), the API, remote and verify the stand-ins (WATCH_ARGS).
    s = stand_ins
    env = {**os.environ, "WATCH_SKIP_DEPS": "1", "WATCH_INDEX": str(s["index"]), "WATCH_STATE": str(tmp_path / "st"),
           "WATCH_OUT": str(tmp_path / "out"), "WATCH_PRS": "13 14", "WATCH_MAX": "1", "WATCH_MINUTES": "0.5",
           "WATCH_ARGS": " ".join(["--api", s["api"].url, "--remote", str(s["remote"]), "--verify-command", sys.executable,
                                   str(s["stub"]), "{pr}", "{out}", str(tmp_path / "calls.txt")])}
    proc = subprocess.run([str(ROOT / "ci" / "watch.sh"), "11"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    prs = {r["number"]: r for r in json.loads((tmp_path / "out" / "watch.json").read_text())["pull_requests"]}
    assert sorted(prs) == [11, 13, 14]
    assert prs[11]["status"] == "verified" and prs[13]["status"] == "waiting" and prs[14]["status"] == "skipped"
    assert (tmp_path / "calls.txt").read_text().split() == ["11"]
