"""Corpus care: what a campaign found flows back into corpora/.

- merge: a campaign's corpus, minimized by libFuzzer (-set_cover_merge=1) against the committed
  seeds and regressions, is added to corpora/<target>/ as `merged-<sha1>` files: only inputs that
  add coverage the committed ones do not have. The generator's own seeds stay exactly as generated
  (tests/python/test_corpora.py checks both rules), and `./equifuzz seeds` keeps merged files.
- minimize: one crash input shrunk by libFuzzer (-minimize_crash=1), kept only when the smaller
  input still gives the same mismatch signature.
- keep: a finding's input copied into corpora/regressions/<target>/ under a name that says what
  it is, with its one-line description in corpora/regressions/README.md.
"""
from __future__ import annotations

import hashlib
import re
import tempfile
from pathlib import Path

from .output import signature_of
from .project import EquifuzzError, InfraError, Target, run_binary

MERGED_PREFIX = "merged-"
_MERGE_LINE = re.compile(r"MERGE-OUTER: (\d+) new files with (\d+) new features added; (\d+) new coverage edges")


def merge(t: Target, campaign_corpus: Path) -> dict:
    """Adds to corpora/<target>/ the campaign inputs that add coverage; returns what it did."""
    if not campaign_corpus.is_dir():
        raise EquifuzzError(f"{campaign_corpus} is not a directory: fuzz {t.name} first, or name a corpus with --from.")
    candidates = [p for p in campaign_corpus.iterdir() if p.is_file()]
    if not candidates:
        return {"target": t.name, "candidates": 0, "added": 0, "new_edges": 0, "files": []}
    with tempfile.TemporaryDirectory(prefix=f"equifuzz-merge-{t.name}-") as tmp:
        out = Path(tmp) / "merged"
        out.mkdir()
        # The committed inputs go first: libFuzzer keeps all of them and adds only what covers more.
        committed = {}
        for d in t.seed_dirs():
            for p in d.rglob("*"):
                if p.is_file():
                    data = p.read_bytes()
                    name = hashlib.sha1(data).hexdigest()
                    committed[name] = True
                    (out / name).write_bytes(data)
        proc = run_binary([t.binary, "-set_cover_merge=1", f"-merge_control_file={tmp}/control", str(out),
                           str(campaign_corpus)], timeout=3600)
        if proc.returncode != 0:
            raise InfraError(f"libFuzzer's merge of {t.name} failed (exit {proc.returncode}): "
                             + (proc.stderr.strip().splitlines() or ["no output"])[-1])
        m = _MERGE_LINE.search(proc.stderr)
        dest = t.corpus
        dest.mkdir(parents=True, exist_ok=True)
        added = []
        for p in sorted(out.iterdir()):
            if p.name in committed:
                continue
            data = p.read_bytes()
            target_file = dest / f"{MERGED_PREFIX}{hashlib.sha1(data).hexdigest()}"
            if not target_file.exists():
                target_file.write_bytes(data)
                added.append(target_file)
    return {"target": t.name, "candidates": len(candidates), "added": len(added),
            "new_edges": int(m.group(3)) if m else None, "files": [str(p) for p in added]}


def signature_of_run(binary: Path, path: Path) -> str | None:
    return signature_of(run_binary([binary, str(path)], timeout=300).stderr)


def minimize(t: Target, crash: Path, seconds: int, binary: Path | None = None) -> dict:
    """Shrinks `crash` with libFuzzer; the result must keep the same mismatch signature."""
    binary = binary or t.binary
    if not crash.is_file():
        raise EquifuzzError(f"{crash} is not a file.")
    before = signature_of_run(binary, crash)
    if before is None:
        raise EquifuzzError(f"{crash} gives no mismatch report in {t.name}: nothing to minimize.")
    out = crash.with_name(crash.name + ".min")
    run_binary([binary, "-minimize_crash=1", f"-max_total_time={seconds}", f"-exact_artifact_path={out}", str(crash)],
               timeout=seconds + 120)
    if not out.is_file():
        return {"input": str(crash), "size": crash.stat().st_size, "minimized": None, "signature": before,
                "note": "libFuzzer produced no smaller input"}
    after = signature_of_run(binary, out)
    if after != before:
        out.unlink()
        return {"input": str(crash), "size": crash.stat().st_size, "minimized": None, "signature": before,
                "note": f"the smallest crashing input gave another signature ({after}); the original is kept"}
    return {"input": str(crash), "size": crash.stat().st_size, "minimized": str(out), "minimized_size": out.stat().st_size,
            "signature": before, "note": ""}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "finding"


def keep(t: Target, crash: Path, description: str, signature: str | None = None) -> Path:
    """Copies `crash` into the target's regressions directory (corpora/regressions/<target>/) and
    records its one-line description in the README.md beside those directories."""
    description = " ".join(description.split())
    if not description:
        raise EquifuzzError("a kept input needs a one-line description (--why).")
    data = crash.read_bytes()
    digest = hashlib.sha1(data).hexdigest()
    folder = t.regressions
    folder.mkdir(parents=True, exist_ok=True)
    existing = next((p for p in folder.iterdir() if p.is_file() and p.read_bytes() == data), None)
    if existing:
        return existing
    dest = folder / f"finding-{slug(signature or description)}-{digest[:12]}"
    dest.write_bytes(data)
    index = folder.parent / "README.md"
    if not index.exists():
        index.write_text("# Regression inputs kept by `./equifuzz keep` and `verify`\n\n"
                         "One line per input: where it is, and what it exposed. Inputs named by hand "
                         "(core-*, mutant-*) say it in their names.\n\n")
    with index.open("a") as f:
        f.write(f"- `{t.name}/{dest.name}`: {description}\n")
    return dest
