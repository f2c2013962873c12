#!/usr/bin/env python3
"""Verifies real Bitcoin Core changes as a reviewer would, with no pair named: for each change of
changes.json, `./equifuzz verify --core-original git:<merge^1> --core-optimized git:<merge>` (the
git remote: $EQUIFUZZ_CORE_GIT_REMOTE), and writes one JSON line per change (the commits, the
pairs verify picked and by which files, each Core side's tree and whether it was used, the
verdict, the wall time, and with --reach how many of the change's executable lines each Core side
executed) to the output file.

  bench/real_changes/run.py OUT.jsonl [--minutes 2] [--reach] [--no-tsan] [--only NAME ...]
                            [--pairs PAIR ...]   (name the pairs instead of letting verify pick)
  bench/real_changes/run.py --table OUT.jsonl     the Markdown table of a run's lines
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from verify_runs import ROOT, append, arguments, rows  # noqa: E402


def git(*args: str) -> str:
    remote = os.environ["EQUIFUZZ_CORE_GIT_REMOTE"]
    return subprocess.run(["git", "-C", remote, *args], capture_output=True, text=True, check=True).stdout.strip()


def table(path: str) -> str:
    lines = rows(path)
    with_reach = any("reach" in r for r in lines)
    out = ["| change | commits (before → after) | pairs picked (by) | Core trees used | "
           + ("reach (after; before) | " if with_reach else "") + "verdict | exit | wall time |",
           "|---|---|---|---|" + ("---|" if with_reach else "") + "---|---|---|"]
    for r in lines:
        what = f"#{r['pr']} {r['title']}" if r.get("pr") else r["title"]
        commits = f"`{r['before'][:10]}` → `{r['after'][:10]}`" if r.get("after") else f"`--pr {r.get('pr_arg') or r['pr']}`"
        sel = r.get("selection") or {}
        picked = "; ".join(f"{p} ({w.get('unbuilt') or ', '.join(f.removeprefix('src/') for f in w['files'][:3])}"
                           f"{'…' if len(w.get('files', [])) > 3 else ''})" for p, w in sorted((sel.get("pairs") or {}).items()))
        used, left = set(), []
        for pair, s in (r.get("sides") or {}).items():
            used |= {c["role"] for c in s["core"]}
            left += [f"{pair} {c['role']}" for c in s.get("left_out", [])]
        trees = ("both" if {"core-original", "core-optimized"} <= used else ", ".join(sorted(used)) or "none") + \
                (f"; left out: {', '.join(left)}" if left else "")
        verdict = (r.get("verdict") or (r.get("last_lines") or [""])[-1]).replace("|", "\\|")
        reach = ""
        if with_reach:
            t = r.get("reach") or {}
            cell = lambda x: (f"{x['reached']}/{x['executable']}" if x["executable"] else
                              ("no executable line" if x["changed_lines"] else "no change"))
            reach = (f"{cell(t['core-optimized'])}; {cell(t['core-original'])} | " if t else "not measured | ")
        if "tiers" in r:
            verdict += "<br>findings by attribution: " + (", ".join(f"{n} {a}" for a, n in sorted(r["tiers"].items())) or "none")
        out.append(f"| {what} | {commits} | {picked or '—'} | {trees if r.get('sides') else '—'} | {reach}{verdict} | {r['exit']} | "
                   f"{r['seconds'] // 60} min {r['seconds'] % 60} s |")
    return "\n".join(out)


def main() -> int:
    def extra(p):
        p.add_argument("--reach", action="store_true", help="measure the reach (verify's coverage build; default: --no-coverage)")
        p.add_argument("--no-tsan", action="store_true", help="pass --no-tsan to verify")
        p.add_argument("--pairs", nargs="+", default=[], metavar="PAIR",
                       help="verify these pairs (or targets) instead of those verify picks from the change")
    args = arguments("run.py", "master and the changes' merges and branches", table,
                     "names: a PR number or a branch's last path element", extra)
    if args is None:
        return 0
    changes = json.loads((Path(__file__).parent / "changes.json").read_text())["changes"]
    for c in changes:
        name = str(c["pr"] or c.get("pr_arg") or c["ref"].rsplit("/", 2)[-2 if c["ref"].startswith("refs/pull/") else -1])
        if args.only and name not in args.only:
            continue
        out_dir = ROOT / "build" / "real-changes" / name.replace("/", "-")
        if c.get("kind") == "pr":
            number = c.get("pr_arg") or c["pr"]
            trees = ["--pr", str(number)]
            before = after = ""
        else:
            after = git("rev-parse", c["merge"] if "merge" in c else c["ref"])
            before = git("rev-parse", f"{after}^1") if "merge" in c else git("merge-base", "refs/heads/master", after)
            trees = ["--core-original", f"git:{before}", "--core-optimized", f"git:{after}"]
        cmd = ["./equifuzz", "verify", *args.pairs, *trees, "--minutes", str(args.minutes), *([] if args.reach else ["--no-coverage"]),
               *(["--no-tsan"] if args.no_tsan else []), "--no-keep", "--quiet", "--out", str(out_dir)]
        start = time.monotonic()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        seconds = round(time.monotonic() - start)
        row = {**c, "name": name, "before": before, "after": after,
               "date": git("log", "-1", "--format=%cs", after) if after else "",
               "command": " ".join(cmd[:1] + cmd[1:]).replace(str(ROOT), "$EQUIFUZZ_ROOT"), "exit": proc.returncode,
               "seconds": seconds, "last_lines": (proc.stdout + proc.stderr).strip().splitlines()[-3:]}
        report = out_dir / "report.json"
        if report.is_file() and proc.returncode in (0, 1, 3) and report.stat().st_mtime > time.time() - seconds - 5:
            facts = json.loads(report.read_text())
            row["verdict"] = facts.get("verdict", "")
            row["selection"] = facts.get("selection")
            row["sides"] = {pair: {"core": [{"role": s["role"], "tree": s["tree"], "commit": s.get("commit", "")}
                                            for s in info.get("core", [])],
                                   "left_out": info.get("left_out", [])}
                            for pair, info in (facts.get("sides") or {}).items()}
            row["targets"] = {t: {"runs": (v.get("campaign") or {}).get("runs"),
                                  "mismatches": len((v.get("campaign") or {}).get("mismatches", [])),
                                  "signatures": (v.get("campaign") or {}).get("signatures", [])}
                              for t, v in facts.get("targets", {}).items()}
            row["trees"] = {c["role"]: c["label"] for s in (facts.get("sides") or {}).values() for c in s.get("core", [])}
            if facts.get("reach"):
                sys.path.insert(0, str(ROOT / "tools"))
                from equifuzz import reach
                row["reach"] = reach.totals(facts["reach"])
                row["unreached"] = {pair: {role: [f"{u['where']} {u['function']}" for u in side["unreached"]]
                                           for role, side in r["sides"].items()}
                                    for pair, r in facts["reach"].items() if r}
            tiers: dict[str, int] = {}
            for v in facts.get("targets", {}).values():
                for f in [*((v.get("replay") or {}).get("recorded") or []), *((v.get("campaign") or {}).get("recorded") or [])]:
                    tiers[f["attribution"]] = tiers.get(f["attribution"], 0) + 1
            row["tiers"] = tiers
            row["mutants"] = {"caught": sum(m["caught"] for m in facts.get("mutants", [])), "total": len(facts.get("mutants", []))}
        else:
            row["verdict"] = ""
        append(args.out, row)
        print(f"{name}: exit {proc.returncode}, {seconds} s, {row.get('verdict') or row['last_lines'][-1:]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
