"""The watch over Bitcoin Core's open pull requests: which of them change a file a pair's Core side
compiles, and a `./equifuzz verify --pr <N>` of each head not verified before.

    python3 -m equifuzz.watch index --build-dir build/replay [--configure] --out compiled-files.json
    python3 -m equifuzz.watch run --index compiled-files.json --state DIR --out DIR [--max K] [--pr N]

`index` writes, pair by pair, the files under src/ that the pair's Core sides compiled (sources
and headers, from the compiler's dependency files of a configured build): what the no-pair
`verify` picks pairs by. `run`:

1. lists the open pull requests of the repository (GitHub's REST API, `pulls?state=open`, 100 a
   page, every page; $GITHUB_TOKEN when set), or takes the one `--pr` names;
2. fetches their heads from the git remote ($EQUIFUZZ_CORE_GIT_REMOTE, else the lock file's) into
   the tree cache's repository, `refs/pull/<N>/head` in batches, with master;
3. takes each head's changed files against its merge-base with master and keeps the pull
   requests that change a file of the index, with the pairs whose files they change;
4. skips a head verified before (the results are kept by head commit in `--state`, which CI keeps
   in its cache): a pull request pushed again has a new head and is verified again;
5. verifies at most `--max` of the rest, the longest unverified first (oldest update), each with
   `./equifuzz verify --pr <N> --minutes M` into `<out>/pr-<N>/`;
6. writes `<out>/watch.json` (one record per pull request) and `<out>/summary.md` (one line per
   pull request: number, title, head, pairs, what was done and the verdict with its reach), which
   also goes to $GITHUB_STEP_SUMMARY when set.

Nothing is posted anywhere: the token only reads. Exit 0 when every step could run (whatever the
verdicts: they are the pull requests' own, in the summary), 3 when the API, the remote or a
verify could not.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from . import core_git
from .manifest import FILE as MANIFEST_FILE, configured, read as read_manifest
from .project import EquifuzzError, InfraError
from .report import Report

ROOT = Path(__file__).resolve().parents[2]
API = "https://api.github.com"
REPO = "bitcoin/bitcoin"
FETCH_BATCH = 50


class WatchError(Exception):
    """One sentence: the API or the remote could not be used (exit 3)."""


def open_pull_requests(api: str, repo: str, token: str = "", per_page: int = 100) -> list[dict]:
    """Every open pull request: {number, title, head (commit), updated (ISO time)}, page by page."""
    found: list[dict] = []
    page = 1
    while True:
        url = f"{api.rstrip('/')}/repos/{repo}/pulls?state=open&per_page={per_page}&page={page}"
        request = urllib.request.Request(url, headers={"Accept": "application/vnd.github+json",
                                                       **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                batch = json.load(response)
        except urllib.error.HTTPError as e:
            raise WatchError(f"the pull requests of {repo} could not be listed ({url}: HTTP {e.code}).")
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise WatchError(f"the pull requests of {repo} could not be listed ({url}: {getattr(e, 'reason', e)}).")
        found += [{"number": int(p["number"]), "title": p.get("title", ""), "head": p["head"]["sha"],
                   "updated": p.get("updated_at", "")} for p in batch]
        if len(batch) < per_page:
            return found
        page += 1


def fetch_heads(remote: str, numbers: list[int]) -> dict[int, str]:
    """The head commit of each pull request the remote has, fetched with master into the cache."""
    repo = core_git._cache_repo()
    heads: dict[int, str] = {}
    for start in range(0, len(numbers), FETCH_BATCH):
        batch = numbers[start:start + FETCH_BATCH]
        specs = [f"+refs/pull/{n}/head:refs/equifuzz/pull/{n}" for n in batch]
        proc = core_git._git(repo, "fetch", "--quiet", "--no-tags", remote, *specs, "+refs/heads/master:refs/equifuzz/master")
        if proc.returncode != 0:
            why = core_git._last_line(proc)
            if core_git._looks_unreachable(why):
                raise WatchError(f"the git remote {remote} could not be reached ({why}).")
            # One missing ref fails the whole batch: fetch its refs one by one.
            for n, spec in zip(batch, specs):
                core_git._git(repo, "fetch", "--quiet", "--no-tags", remote, spec, "+refs/heads/master:refs/equifuzz/master")
        for n in batch:
            sha = core_git._git(repo, "rev-parse", "--verify", "--quiet", f"refs/equifuzz/pull/{n}^{{commit}}").stdout.strip()
            if core_git.SHA_RE.match(sha):
                heads[n] = sha
    return heads


def changed_files(remote: str, number: int) -> list[str] | None:
    """The files the pull request's head changes against its merge-base with master (None: no merge-base)."""
    repo = core_git._cache_repo()
    tip = f"refs/equifuzz/pull/{number}"
    base = core_git._meeting(repo, remote, tip, [f"+refs/pull/{number}/head:{tip}"])
    if not base:
        return None
    proc = core_git._git(repo, "diff", "--name-only", "--no-renames", base, tip)
    return sorted(line for line in proc.stdout.splitlines() if line)


def load_index(path: Path) -> dict[str, set[str]]:
    try:
        data = json.loads(path.read_text())
        return {pair: set(files) for pair, files in data["pairs"].items()}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise WatchError(f"the index of compiled files {path} could not be read ({e}); write it with "
                         "python3 -m equifuzz.watch index.")


def verdict_of(report: Path, rc: int) -> tuple[str, str]:
    """(verdict, reach) from a verify report.json, read through the report's own type: the verdict's
    first word, and per pair the changed executable lines each Core side ran ("coins_view: after
    36/45 (80.0 %), before 31/40 (77.5 %)"), or why reach was not measured."""
    try:
        rep = Report.read(report)
    except EquifuzzError:
        return f"no report (exit {rc})", ""
    word = rep.verdict.split(":")[0].strip() or f"exit {rc}"
    parts = []
    for pair, r in sorted((rep.reach or {}).items()):
        if not r:
            continue
        sides = []
        for role, name in (("core-optimized", "after"), ("core-original", "before")):
            side = (r.get("sides") or {}).get(role)
            if side and side.get("executable"):
                sides.append(f"{name} {side['reached']}/{side['executable']} ({100 * side['reached'] / side['executable']:.1f} %)")
            elif side is not None:
                sides.append(f"{name}: no changed executable line")
        if sides:
            parts.append(f"{pair}: " + ", ".join(sides))
    reach = "; ".join(parts) or (f"not measured: {rep.reach_note}" if rep.reach_note else "")
    return word, reach


def run(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    state_dir = Path(args.state)
    state_dir.mkdir(parents=True, exist_ok=True)
    state_file = state_dir / "verified.json"
    state: dict[str, dict] = json.loads(state_file.read_text()) if state_file.is_file() else {}
    index = load_index(Path(args.index))
    remote = core_git.absolute_remote(args.remote) if args.remote else core_git.default_remote()
    if args.pr:  # by hand: these pull requests, open or not, without asking the API
        listed = [{"number": n, "title": "", "head": "", "updated": ""} for n in dict.fromkeys(args.pr)]
    else:
        listed = open_pull_requests(args.api, args.repo, os.environ.get("GITHUB_TOKEN", ""), args.per_page)
    heads = fetch_heads(remote, [p["number"] for p in listed])
    records, candidates = [], []
    for p in sorted(listed, key=lambda p: p["number"]):
        rec = {"number": p["number"], "title": p["title"], "head": heads.get(p["number"], p["head"]), "pairs": [],
               "status": "", "reason": "", "verdict": "", "reach": "", "report": ""}
        records.append(rec)
        if p["number"] not in heads:
            rec.update(status="skipped", reason=f"the remote has no refs/pull/{p['number']}/head")
            continue
        if p["head"] and p["head"] != heads[p["number"]]:
            rec["reason"] = f"the API names head {p['head'][:10]}, the remote {heads[p['number']][:10]}: the remote's is verified"
        files = changed_files(remote, p["number"])
        if files is None:
            rec.update(status="skipped", reason="its head and master have no commit in common on the remote")
            continue
        rec["pairs"] = sorted(pair for pair, compiled in index.items() if compiled & set(files))
        if not rec["pairs"]:
            shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
            rec.update(status="skipped", reason=f"changes no file a pair's Core side compiles ({shown or 'no file'})")
            continue
        before = state.get(rec["head"])
        if before:
            rec.update(status="verified before", verdict=before["verdict"], reach=before.get("reach", ""),
                       reason=f"head verified on {before.get('when', '?')}")
            continue
        candidates.append((p.get("updated", ""), rec))
    candidates.sort(key=lambda c: (c[0], c[1]["number"]))
    infra = False
    for i, (_, rec) in enumerate(candidates):
        if i >= args.max:
            rec.update(status="waiting", reason=f"over this run's budget of {args.max} verifications")
            continue
        report_dir = out / f"pr-{rec['number']}"
        command = [arg.format(pr=rec["number"], out=report_dir, head=rec["head"], minutes=args.minutes)
                   for arg in (args.verify_command or [sys.executable, str(ROOT / "equifuzz"), "verify", "--pr", "{pr}",
                                                       "--minutes", "{minutes}", "--no-keep", "--quiet", "--out", "{out}"])]
        print(f"watch: #{rec['number']} ({', '.join(rec['pairs'])}): {' '.join(command)}", file=sys.stderr, flush=True)
        proc = subprocess.run(command, env={**os.environ, "EQUIFUZZ_CORE_GIT_REMOTE": remote})
        verdict, reach = verdict_of(report_dir / "report.json", proc.returncode)
        rec.update(status="verified", verdict=verdict, reach=reach, report=str(report_dir / "report.md"))
        if proc.returncode not in (0, 1) and verdict.startswith("no report"):
            infra = True  # verify itself could not run: not recorded, so the next run tries again
            continue
        state[rec["head"]] = {"pr": rec["number"], "verdict": verdict, "reach": reach,
                              "when": time.strftime("%Y-%m-%d", time.gmtime())}
    state_file.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    (out / "watch.json").write_text(json.dumps({"repo": args.repo, "remote": remote, "pull_requests": records}, indent=1) + "\n")
    summary = summary_table(records)
    (out / "summary.md").write_text(summary)
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a") as f:
            f.write(summary)
    print(summary)
    return 3 if infra else 0


def summary_table(records: list[dict]) -> str:
    rows = ["| PR | title | head | pairs | done | verdict | reach | why |", "|---|---|---|---|---|---|---|---|"]
    for r in records:
        cells = [f"#{r['number']}", r["title"].replace("|", "/"), r["head"][:10], ", ".join(r["pairs"]) or "—",
                 r["status"], r["verdict"] or "—", r["reach"] or "—", (r["reason"] or "—").replace("|", "/")]
        rows.append("| " + " | ".join(cells) + " |")
    counts = {s: sum(r["status"] == s for r in records) for s in ("verified", "verified before", "waiting", "skipped")}
    return (f"Open pull requests: {len(records)}; verified now {counts['verified']}, verified before "
            f"{counts['verified before']}, waiting {counts['waiting']}, skipped {counts['skipped']}.\n\n"
            + "\n".join(rows) + "\n")


def index(args) -> int:
    from . import core_build
    bdir = Path(args.build_dir).resolve()
    if args.configure and not configured(bdir):
        # Only the Core sides are built (side_files builds them): no mutant, test or benchmark.
        proc = subprocess.run(["cmake", "--preset", "replay", "-B", str(bdir), "-DEQUIFUZZ_MUTANTS=OFF",
                               "-DEQUIFUZZ_TESTS=OFF", "-DEQUIFUZZ_BENCH=OFF"], cwd=ROOT)
        if proc.returncode != 0:
            raise WatchError(f"the build the index is read from ({bdir}) could not be configured.")
    if not configured(bdir):
        raise WatchError(f"{bdir} is not a configured build (no {MANIFEST_FILE}); configure one or pass --configure.")
    try:
        manifest = read_manifest(bdir)
    except InfraError as e:
        raise WatchError(str(e))
    files = core_build.side_files(bdir, manifest)
    pairs: dict[str, set[str]] = {}
    for (pair, _role), found in files.items():
        pairs.setdefault(pair, set()).update(found)
    Path(args.out).write_text(json.dumps({"pairs": {p: sorted(f) for p, f in sorted(pairs.items())}}, indent=1) + "\n")
    print(f"watch: the files {len(pairs)} pairs' Core sides compile, in {args.out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m equifuzz.watch", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)
    i = sub.add_parser("index", help="write the files each pair's Core sides compile (a configured build's)")
    i.add_argument("--build-dir", default=str(ROOT / "build" / "replay"))
    i.add_argument("--out", required=True)
    i.add_argument("--configure", action="store_true", help="configure the build (replay preset, no mutants) when it is not")
    r = sub.add_parser("run", help="list the open pull requests, keep those that touch a pair, verify new heads")
    r.add_argument("--index", required=True, help="the file `index` wrote")
    r.add_argument("--state", required=True, help="where the verified heads are kept between runs")
    r.add_argument("--out", required=True, help="where watch.json, summary.md and each report go")
    r.add_argument("--max", type=int, default=3, help="verifications in this run (default 3)")
    r.add_argument("--minutes", type=float, default=10, help="each verify's budget (default 10)")
    r.add_argument("--pr", type=int, action="append", default=[], help="only this pull request (may be repeated)")
    r.add_argument("--api", default=API)
    r.add_argument("--repo", default=REPO)
    r.add_argument("--per-page", type=int, default=100)
    r.add_argument("--remote", default="", help="default: $EQUIFUZZ_CORE_GIT_REMOTE, else the lock file's")
    r.add_argument("--verify-command", nargs="+", help="instead of ./equifuzz verify (tests): {pr}, {out}, {head}, {minutes}")
    args = p.parse_args(argv)
    try:
        return index(args) if args.verb == "index" else run(args)
    except (WatchError, core_git.CoreGitError) as e:
        print(f"watch: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
