"""Corpus care: what a campaign found flows back into corpora/.

- merge: a campaign's corpus, minimized by libFuzzer (-set_cover_merge=1) against the committed
  seeds and regressions, is added to corpora/<target>/ as `merged-<sha1>` files: only inputs that
  add coverage the committed ones do not have, and none that shows a finding. The generator's own seeds stay exactly as generated
  (tests/python/test_corpora.py checks both rules), and `./equifuzz seeds` keeps merged files.
- minimize: one crash input shrunk by libFuzzer (-minimize_crash=1) for one of its signatures,
  kept only when the smaller input still shows that signature.
- keep: a finding's input copied into corpora/regressions/<target>/ under a name that says what
  it is, with its one-line description in corpora/regressions/README.md.
"""
from __future__ import annotations

import hashlib
import re
import tempfile
from pathlib import Path

from . import findings
from .project import EquifuzzError, InfraError, Target, run_binary

MERGED_PREFIX = "merged-"
_MERGE_LINE = re.compile(r"MERGE-OUTER: (\d+) new files with (\d+) new features added; (\d+) new coverage edges")


def merge(t: Target, campaign_corpus: Path) -> dict:
    """Adds to corpora/<target>/ the campaign inputs that add coverage; returns what it did."""
    if not campaign_corpus.is_dir():
        raise EquifuzzError(f"{campaign_corpus} is not a directory: fuzz {t.name} first, or name a corpus with --from.")
    candidates = [p for p in campaign_corpus.iterdir() if p.is_file()]
    if not candidates:
        return {"target": t.name, "candidates": 0, "added": 0, "new_edges": 0, "files": [], "held_back": 0}
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
        held_back = []
        for p in sorted(out.iterdir()):
            if p.name in committed:
                continue
            # A campaign that went on after findings keeps inputs that show one in its corpus: they
            # are findings (recorded apart), not seeds, and would fail every replay from then on.
            if run_binary([t.binary, str(p)], timeout=300,
                          env_extra={"EQUIFUZZ_FINDINGS_DIR": "", "EQUIFUZZ_ONLY_SIGNATURE": ""}).returncode != 0:
                held_back.append(str(p))
                continue
            data = p.read_bytes()
            target_file = dest / f"{MERGED_PREFIX}{hashlib.sha1(data).hexdigest()}"
            if not target_file.exists():
                target_file.write_bytes(data)
                added.append(target_file)
    return {"target": t.name, "candidates": len(candidates), "added": len(added),
            "new_edges": int(m.group(3)) if m else None, "files": [str(p) for p in added], "held_back": len(held_back)}


def signatures_of_run(binary: Path, path: Path) -> list[str]:
    """Every signature of the counted kinds one run of `path` shows (its finding lines), first first."""
    proc = run_binary([binary, str(path)], timeout=300, env_extra={"EQUIFUZZ_FINDINGS_DIR": "", "EQUIFUZZ_ONLY_SIGNATURE": ""})
    return findings.counted_signatures(proc.stderr)


def signature_of_run(binary: Path, path: Path) -> str | None:
    found = signatures_of_run(binary, path)
    return found[0] if found else None


def minimize(t: Target, crash: Path, seconds: int, binary: Path | None = None, signature: str | None = None) -> dict:
    """Shrinks `crash` with libFuzzer, keeping one of its signatures (`signature`, or the first it
    shows): the harness aborts only on inputs that show it (EQUIFUZZ_ONLY_SIGNATURE), and the
    result is checked to show it again. An input that shows several signatures gets one smaller
    input per signature asked for (<input>.<signature>.min); one that shows one, <input>.min."""
    binary = binary or t.binary
    if not crash.is_file():
        raise EquifuzzError(f"{crash} is not a file.")
    shown = signatures_of_run(binary, crash)
    if not shown:
        raise EquifuzzError(f"{crash} gives no mismatch report in {t.name}: nothing to minimize.")
    wanted = signature or shown[0]
    if wanted not in shown:
        raise EquifuzzError(f"{crash} does not show {wanted} in {t.name} (it shows {', '.join(shown)}).")
    out = crash.with_name(crash.name + ".min" if len(shown) == 1 else f"{crash.name}.{slug(wanted)}.min")
    out.unlink(missing_ok=True)
    size = crash.stat().st_size
    run_binary([binary, "-minimize_crash=1", f"-max_total_time={seconds}", f"-exact_artifact_path={out}", str(crash)],
               timeout=seconds + 120, env_extra={"EQUIFUZZ_FINDINGS_DIR": "", "EQUIFUZZ_ONLY_SIGNATURE": wanted})
    if not out.is_file() or out.stat().st_size >= size:
        out.unlink(missing_ok=True)
        return {"input": str(crash), "size": size, "minimized": None, "signature": wanted,
                "note": "libFuzzer produced no smaller input"}
    after = signatures_of_run(binary, out)
    if wanted not in after:
        out.unlink()
        return {"input": str(crash), "size": size, "minimized": None, "signature": wanted,
                "note": f"the smallest crashing input gave another signature ({', '.join(after) or 'none'}); the original is kept"}
    return {"input": str(crash), "size": size, "minimized": str(out), "minimized_size": out.stat().st_size,
            "signature": wanted, "note": ""}


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
