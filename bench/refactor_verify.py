#!/usr/bin/env python3
"""Every Core refactor mutant checked as a reviewer would check a refactor: its tree written with
`./equifuzz mutants --pair P --mutant M --write-tree DIR` (the pair's pinned commit of the side it
rewrites, with the rewrite applied), then `./equifuzz verify P --core-original git:<that commit>
--core-optimized DIR`. A refactor must come out CLEAN; the line records the verdict, what it lists
as internal or outside the contract, and the bug mutants caught on the rewritten tree.

  bench/refactor_verify.py OUT.jsonl [--minutes 2] [--only PAIR/MUTANT ...]
  bench/refactor_verify.py --table OUT.jsonl     the Markdown table of a run's lines

Needs EQUIFUZZ_CORE_GIT_REMOTE (a clone of Bitcoin Core with the pinned commits).
"""
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from verify_runs import ROOT, append, arguments, rows  # noqa: E402


def refactors() -> list[tuple[str, str]]:
    out = []
    for sub in sorted((ROOT / "differential").glob("*/mutants/*.sub")):
        if any(line.strip() == "Kind: refactor" for line in sub.read_text().splitlines()[:8]):
            out.append((sub.parent.parent.name, sub.stem))
    return out


def table(path: str) -> str:
    out = ["| pair | refactor mutant | verdict | counted findings | internal (inputs) | outside the contract (inputs) | "
           "other notes (inputs) | bug mutants caught | mutants not applicable | wall time |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows(path):
        verdict = (r.get("verdict") or (r.get("last_lines") or [""])[-1]).split(":")[0].replace("|", "\\|")
        m = r.get("mutants") or {}
        out.append(f"| {r['pair']} | `{r['mutant']}` | {verdict} | {r.get('counted', '—')} | {r.get('internal', '—')} | "
                   f"{r.get('outside', '—')} | {r.get('other', '—')} | {m.get('caught', '—')}/{m.get('bugs', '—')} | {m.get('not_applicable', '—')} | "
                   f"{r['seconds'] // 60} min {r['seconds'] % 60} s |")
    return "\n".join(out)


def tiers(report: dict) -> dict[str, int]:
    """Inputs per tier, as the verdict counts them (tools/equifuzz/verdict.py)."""
    sys.path.insert(0, str(ROOT / "tools"))
    from equifuzz import findings, verdict
    out = {"counted": len(verdict.findings_of(report)), "internal": 0, "outside": 0, "other": 0}
    for e in verdict.not_counted_of(report):
        key = {findings.INTERNAL: "internal", findings.OUTSIDE: "outside"}.get(e["attribution"], "other")
        out[key] += int(e["hits"])
    return out


def main() -> int:
    args = arguments("refactor_verify.py", "the pinned commits", table, "PAIR/MUTANT names")
    if args is None:
        return 0
    for pair, mutant in refactors():
        if args.only and f"{pair}/{mutant}" not in args.only:
            continue
        work = Path(tempfile.mkdtemp(prefix=f"equifuzz-refactor-{mutant}-"))
        tree = work / "tree"
        start = time.monotonic()
        made = subprocess.run(["./equifuzz", "mutants", "--pair", pair, "--mutant", mutant, "--write-tree", str(tree)],
                              cwd=ROOT, capture_output=True, text=True)
        row = {"pair": pair, "mutant": mutant}
        if made.returncode != 0:
            row.update(exit=made.returncode, seconds=round(time.monotonic() - start),
                       last_lines=(made.stdout + made.stderr).strip().splitlines()[-2:])
        else:
            info = json.loads((tree / "equifuzz-mutant.json").read_text())
            out_dir = ROOT / "build" / "refactor-verify" / f"{pair}-{mutant}"
            shutil.rmtree(out_dir, ignore_errors=True)
            cmd = ["./equifuzz", "verify", pair, "--core-original", info["base"], "--core-optimized", str(tree),
                   "--minutes", str(args.minutes), "--no-coverage", "--no-keep", "--quiet", "--out", str(out_dir)]
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            row.update(commit=info["commit"], file=info["file"], exit=proc.returncode,
                       seconds=round(time.monotonic() - start),
                       command=" ".join(cmd).replace(str(tree), "<tree>"),
                       last_lines=(proc.stdout + proc.stderr).strip().splitlines()[-3:])
            report = out_dir / "report.json"
            if report.is_file():
                facts = json.loads(report.read_text())
                row["verdict"] = facts.get("verdict", "")
                row.update(tiers(facts))
                ms = facts.get("mutants", [])
                bugs = [m for m in ms if m.get("kind", "bug") == "bug" and m.get("status") != "not applicable"]
                row["mutants"] = {"bugs": len(bugs), "caught": sum(bool(m["caught"]) for m in bugs),
                                  "not_applicable": sum(m.get("status") == "not applicable" for m in ms),
                                  "refactors": sum(m.get("kind") == "refactor" for m in ms)}
        shutil.rmtree(work, ignore_errors=True)
        append(args.out, row)
        print(f"{pair}/{mutant}: exit {row['exit']}, {row['seconds']} s, {row.get('verdict') or row['last_lines'][-1:]}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
