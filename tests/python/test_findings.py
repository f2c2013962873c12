"""Every reproducer command printed in the documents (every tracked Markdown file but the
measurement records under bench/results/) runs as printed and gives what the text around it says:
the exit status, and the signature or sanitizer report named. A command added to a document
without an entry here fails the test, and so does an entry whose command is no longer printed:
the documents and this list change together.

The commands name the replay build (`build/replay`); under ctest, the build being tested takes
its place. The figures are those of the registry trees (kernel 0.0.20 as core-original), which
the documents name.
"""
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from equifuzz import manifest  # noqa: E402


def documents() -> list[Path]:
    """Every tracked Markdown file but bench/results/'s (records of a day's run, commands included)."""
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode == 0:
        found = [ROOT / line for line in out.stdout.splitlines()]
    else:  # a copy without .git
        found = sorted(p for p in ROOT.rglob("*.md") if not {".git", "build", ".venv"} & set(p.relative_to(ROOT).parts))
    return [p for p in found if not p.relative_to(ROOT).as_posix().startswith("bench/results/")]


DOCUMENTS = documents()
COMMAND = re.compile(r"^    ((?:[A-Z_]+=\S+ )*(?:\./equifuzz reproduce|build/replay/fuzz_targets/)\S*.*)$")

ABORT = "abort"  # the harness's report ends in abort(): SIGABRT (a shell shows 134)

# command -> (exit status, text the output must contain, or None)
EXPECTED = {
    "EQUIFUZZ_BLOCKFILE_CORE_STRICT=1 build/replay/fuzz_targets/blockfile_faults "
    "corpora/regressions/blockfile_faults/master-retry-plaintext-transient-fault-buffer5":
        (ABORT, "signature: equifuzz-mismatch blockfile_faults:no-plaintext-on-disk:core-optimized"),
    "EQUIFUZZ_BLOCKFILE_CORE_STRICT=1 build/replay/fuzz_targets/blockfile_faults "
    "corpora/regressions/blockfile_faults/master-final-flush-fails-in-destructor":
        (ABORT, "signature: equifuzz-mismatch blockfile_faults:core-writer-does-not-terminate:core-optimized"),
    "./equifuzz reproduce blockfile_faults corpora/regressions/blockfile_faults/master-final-flush-fails-in-destructor "
    "--mutant master_retry":
        (1, "signature: equifuzz-mismatch blockfile_faults:"),
    "EQUIFUZZ_CORE_PREVECTOR_ALIASING=1 build/replay/fuzz_targets/prevector_ops "
    "corpora/regressions/prevector_ops/core-insert-own-element-use-after-free":
        (1, "AddressSanitizer: heap-use-after-free"),
    "EQUIFUZZ_CORE_PREVECTOR_ALIASING=1 build/replay/fuzz_targets/prevector_ops "
    "corpora/regressions/prevector_ops/core-insert-own-range-undefined":
        (ABORT, "signature: equifuzz-mismatch prevector_ops:trace:std::vector|core-original"),
    "./equifuzz reproduce script_spend corpora/regressions/script_spend/core-csv-negative-tx-version":
        (0, None),
    "./equifuzz reproduce prevector_ops corpora/regressions/prevector_ops/"
    "mutant-core_shrink_to_fit_noop-26eb197cf85aee531a2b93ed4408dfaabc4e46f4 --mutant core_shrink_to_fit_noop":
        (1, "signature: equifuzz-mismatch prevector_ops:"),
    "./equifuzz reproduce script_eval corpora/regressions/script_eval/core-nip-final-stack --mutant core_nip_noop":
        (1, "signature: equifuzz-mismatch script_eval:"),
    "./equifuzz reproduce serialize_decode corpora/regressions/serialize_decode/"
    "tx-witness-flag-with-empty-stacks-superfluous --mutant core_superfluous_witness_accepted":
        (1, "signature: equifuzz-mismatch serialize_decode:"),
    "./equifuzz reproduce siphash_sip24 corpora/regressions/siphash_sip24/"
    "mutant-core_finalize_length_tag_48-00fbb6b8f4dc1c02b76259f59be5fd692c7a8d22 --mutant core_presalted_extra_tag_32":
        (1, "signature: equifuzz-mismatch siphash_sip24:"),
    "./equifuzz reproduce siphash_uj corpora/regressions/siphash_uj/"
    "mutant-jumbo_permutation_shifted-crash-9bfa1d6a97173f9c97bdc964c8ef12ddf734ba6a --mutant uj_index_length_tag":
        (1, "signature: equifuzz-mismatch siphash_uj:"),
    "./equifuzz reproduce tx_check_block corpora/regressions/tx_check_block/"
    "mutant-block_skips_duplicate_check-crash-cd1ce328307420e13aae9467fb4f8d5987c9f916 --mutant block_skips_duplicate_check":
        (1, "signature: equifuzz-mismatch tx_check_block:"),
    "./equifuzz reproduce xor_apply corpora/regressions/xor_apply/"
    "mutant-chunk_offset_ignored-crash-88f322befaf665bbfff9da38fc80783c5004a265 --mutant chunk_offset_ignored":
        (1, "signature: equifuzz-mismatch xor_apply:"),
    "./equifuzz reproduce utxo_flush_disk corpora/regressions/utxo_flush_disk/recovery-after-nested-crash":
        (0, None),
    "./equifuzz reproduce utxo_flush_faults corpora/regressions/utxo_flush_faults/torn-write-then-recovery":
        (0, None),
}


def printed_commands() -> dict[str, Path]:
    found = {}
    for doc in DOCUMENTS:
        for line in doc.read_text().splitlines():
            m = COMMAND.match(line)
            if m:
                found.setdefault(m.group(1).strip(), doc)
    return found


def test_the_documents_read_are_every_markdown_file_but_the_records():
    names = {p.relative_to(ROOT).as_posix() for p in DOCUMENTS}
    assert {"FINDINGS.md", "README.md", "differential/core/README.md", "sanitizer-builds/README.md",
            "differential/script/BEHAVIOUR.md"} <= names
    assert not [n for n in names if n.startswith("bench/results/")]


def test_every_printed_reproducer_has_an_expectation():
    printed = printed_commands()
    missing = {c: str(d.relative_to(ROOT)) for c, d in printed.items() if c not in EXPECTED}
    stale = sorted(set(EXPECTED) - set(printed))
    assert not missing, f"reproducers printed without an expected result here: {missing}"
    assert not stale, f"expected results of reproducers no document prints any more: {stale}"


@pytest.mark.parametrize("command", sorted(EXPECTED))
def test_reproducer_runs_as_printed(command, build_dir):
    m = manifest.read(build_dir)
    if not any(p.core for p in m.pairs.values()):
        pytest.skip("the build has no Bitcoin Core sides: the reproducers run Core's code")
    if not m.core_trees_from.startswith("registry"):
        pytest.skip(f"the documents give the registry trees' results; this build's trees are from {m.core_trees_from}")
    words = shlex.split(command)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    while "=" in words[0] and not words[0].startswith(("./", "build/")):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    if words[0] == "./equifuzz":
        words[1:1] = ["--build-dir", str(build_dir)]
    else:
        words[0] = str(build_dir / Path(words[0]).relative_to("build/replay"))
    variant = words[0] if words[0] != "./equifuzz" else None
    if variant and not Path(variant).is_file():
        pytest.skip(f"{variant} is not in this build")
    if "--mutant" in words:
        target, mutant = words[words.index("reproduce") + 1], words[words.index("--mutant") + 1]
        binaries = {v.name for t in m.targets if t.name == target for v in t.variants}
        if mutant not in binaries:
            pytest.skip(f"mutant {mutant} is not built into {target} in this build")
    status, text = EXPECTED[command]
    proc = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, errors="replace", timeout=300)
    output = proc.stdout + proc.stderr
    statuses = (-signal.SIGABRT, 128 + signal.SIGABRT) if status == ABORT else (status,)
    assert proc.returncode in statuses, f"{command}\nexited {proc.returncode}, expected {status}:\n{output[-3000:]}"
    if text is not None:
        assert text in output, f"{command}\ndoes not print {text!r}:\n{output[-3000:]}"
