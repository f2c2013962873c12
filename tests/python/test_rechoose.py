"""./equifuzz rechoose: committed inputs carried over a change of choice weights, and the decoder's
trace of its choices (EQUIFUZZ_TRACE_CHOICES) that it reads."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import manifest, rechoose  # noqa: E402
from equifuzz.choices import Table, Value, load  # noqa: E402
from equifuzz.project import EquifuzzError  # noqa: E402


def table(*weights, name="OpKind"):
    return Table(name, "", tuple(Value(f"V{i}", w, "") for i, w in enumerate(weights)))


def fake_run(traces):
    """run_binary that answers each call with the next trace's lines (and records the bytes run)."""
    seen = []

    def run(cmd, timeout=None, env_extra=None):
        assert env_extra == rechoose.TRACE
        seen.append(Path(cmd[1]).read_bytes())
        lines = ["equifuzz-input\t0x1000\t%d" % len(seen[-1])]
        lines += [f"equifuzz-choice\tpair: {c}\t{0x1000 + off:#x}\t{n}\t{i}" for c, off, n, i in traces.pop(0)]
        return subprocess.CompletedProcess(cmd, 0, "", "\n".join(["INFO: libFuzzer noise", *lines]) + "\n")
    return run, seen


def test_rewrite_writes_the_new_first_integer_at_the_choices_bytes():
    new = {"OpKind": table(2, 3, 4)}
    data = bytes(range(8))
    reads = [rechoose.Read("OpKind", 7, 1, "V2"), rechoose.Read("OpKind", 3, 1, "V1")]
    assert rechoose.rewrite(data, reads, new) == bytes([0, 1, 2, 2, 4, 5, 6, 5])


def test_rewrite_puts_the_highest_byte_last_as_the_provider_reads_it():
    new = {"OpKind": table(300, 200)}
    out = rechoose.rewrite(bytes(4), [rechoose.Read("OpKind", 1, 2, "V1")], new)
    assert out == bytes([0, 300 & 0xFF, 300 >> 8, 0])


def test_rewrite_refuses_a_value_its_bytes_cannot_hold():
    with pytest.raises(EquifuzzError, match="more than 1 byte"):
        rechoose.rewrite(bytes(2), [rechoose.Read("OpKind", 0, 1, "V1")], {"OpKind": table(300, 1)})


def test_trace_reads_offsets_from_the_inputs_address_and_names_values(tmp_path, monkeypatch):
    run, _ = fake_run([[("OpKind", 5, 1, 2), ("Level", 0, 1, 0)]])
    monkeypatch.setattr(rechoose, "run_binary", run)
    tables = {"OpKind": table(1, 1, 1), "Level": table(1, name="Level")}
    reads = rechoose.trace(Path("bin"), b"\0" * 6, "pair", tables, tmp_path / "x")
    assert reads == [rechoose.Read("OpKind", 5, 1, "V2"), rechoose.Read("Level", 0, 1, "V0")]


def test_trace_refuses_a_choice_the_pair_does_not_declare(tmp_path, monkeypatch):
    run, _ = fake_run([[("Unknown", 0, 1, 0)]])
    monkeypatch.setattr(rechoose, "run_binary", run)
    with pytest.raises(EquifuzzError, match="does not declare"):
        rechoose.trace(Path("bin"), b"\0", "pair", {"OpKind": table(1)}, tmp_path / "x")


def test_trace_refuses_a_binary_without_the_trace(tmp_path, monkeypatch):
    monkeypatch.setattr(rechoose, "run_binary", lambda cmd, timeout=None, env_extra=None: subprocess.CompletedProcess(cmd, 0, "", ""))
    with pytest.raises(EquifuzzError, match="wrote no trace"):
        rechoose.trace(Path("bin"), b"\0", "pair", {"OpKind": table(1)}, tmp_path / "x")


def test_carry_rewrites_when_the_new_build_reads_the_same_choices(tmp_path, monkeypatch):
    old, new = {"OpKind": table(1, 1, 1)}, {"OpKind": table(1, 3, 1)}
    same = [("OpKind", 1, 1, 2)]
    run, seen = fake_run([same, same])
    monkeypatch.setattr(rechoose, "run_binary", run)
    path = tmp_path / "input"
    path.write_bytes(bytes([9, 2]))
    said = rechoose.carry(path, "pair", Path("old"), Path("new"), old, new, tmp_path / "x", "HEAD")
    assert said.startswith("rewritten")
    assert path.read_bytes() == bytes([9, 4])  # V2 starts at 1 + 3 under the new weights
    assert seen[1] == bytes([9, 4])  # the new build was given the rewritten bytes


def test_carry_leaves_an_input_the_new_build_reads_otherwise(tmp_path, monkeypatch):
    old, new = {"OpKind": table(1, 1, 1)}, {"OpKind": table(1, 3, 1)}
    run, _ = fake_run([[("OpKind", 1, 1, 2)], [("OpKind", 1, 1, 1)]])
    monkeypatch.setattr(rechoose, "run_binary", run)
    path = tmp_path / "input"
    path.write_bytes(bytes([9, 2]))
    with pytest.raises(EquifuzzError, match="reads other choices from choice 1"):
        rechoose.carry(path, "pair", Path("old"), Path("new"), old, new, tmp_path / "x", "HEAD")
    assert path.read_bytes() == bytes([9, 2])


def test_carry_refuses_an_input_already_changed_since_the_old_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(rechoose, "committed", lambda path, rev: b"before")
    path = tmp_path / "input"
    path.write_bytes(b"after")
    with pytest.raises(EquifuzzError, match="carried over already"):
        rechoose.carry(path, "pair", Path("old"), Path("new"), {}, {}, tmp_path / "x", "HEAD")


def test_the_verb_refuses_a_file_outside_a_targets_folder(tmp_path):
    stray = tmp_path / "input"
    stray.write_bytes(b"x")
    proc = subprocess.run([sys.executable, str(ROOT / "equifuzz"), "rechoose", "--old-build", "a", "--new-build", "b", str(stray)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode != 0
    assert "not in a target's corpus folder" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_built_decoders_trace_names_the_bytes_it_read(build_dir):
    """End to end: the trace of a real decoder says which bytes each choice took; those bytes,
    read as the provider reads them, give the value it names."""
    # Every target of a pair with named choices, three seeds each (a target may decode none of
    # them: tx_check_raw reads a raw transaction).
    targets = [t for t in manifest.read(build_dir).targets if (ROOT / "differential" / t.pair / "choices.json").is_file()]
    if not targets:
        pytest.skip("the build has no pair with named choices")
    checked = 0
    for target in targets:
        tables = load(target.pair)
        folder = ROOT / "corpora" / target.name
        seeds = sorted(p for p in folder.iterdir() if p.is_file())[:3] if folder.is_dir() else []
        for seed in seeds:
            data = seed.read_bytes()
            for r in rechoose.trace(target.binary, data, target.pair, tables, build_dir / "rechoose-test-input"):
                if r.count == 0:
                    continue
                integer = sum(data[r.offset + i] << (8 * i) for i in range(r.count))
                t = tables[r.choice]
                names = [v.name for v in t.values for _ in range(v.weight)]
                # A choice read with `last` (choices.h) spans only the values up to it: one of the
                # list's prefixes.
                spans = [s for s in range(1, len(names) + 1) if s == len(names) or names[s] != names[s - 1]]
                if not any(names[integer % s] == r.value for s in spans if integer < 1 << (8 * r.count)):
                    pytest.fail(f"{target.name}/{seed.name}: {r.choice} at byte {r.offset} reads {integer}, "
                                f"which is not {r.value} in any span")
                checked += 1
    assert checked > 0, f"no choice traced from the seeds of {', '.join(t.name for t in targets)}"
