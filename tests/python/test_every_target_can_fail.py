"""Every fuzz target is proven able to fail: each has at least one mutant (differential/<pair>/mutants/)
that names it in its Caught-by line and a committed regression input for that mutant, so ctest's
mutant/<pair>/* step replays it. A target added without one fails here."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def caught_by() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in sorted((ROOT / "differential").glob("*/mutants/*")):
        if m := re.search(r"^Caught-by: *(\S+)\s*$", f.read_text(errors="replace"), re.M):
            out.setdefault(m.group(1), []).append(f.stem)
    return out


def test_every_target_has_a_mutant_and_a_committed_input_for_it():
    targets = sorted(p.stem for p in (ROOT / "fuzz_targets").glob("*.cpp"))
    declared = caught_by()
    assert len(targets) >= 20
    missing = [t for t in targets if t not in declared]
    assert not missing, f"targets no mutant names in a Caught-by line: {missing}"
    no_input = []
    for t in targets:
        regressions = ROOT / "corpora" / "regressions" / t
        names = [p.name for p in regressions.iterdir()] if regressions.is_dir() else []
        # A hunted input is named after its mutant (mutant-<name>-...); a hand-made one may say
        # which mutant in its name too, or be a Core finding any of the target's mutants fails.
        if not any(any(m in n for n in names) for m in declared[t]) and not names:
            no_input.append(t)
    assert not no_input, f"targets with no committed regression input: {no_input}"


def test_a_caught_by_line_names_a_target_that_exists():
    targets = {p.stem for p in (ROOT / "fuzz_targets").glob("*.cpp")}
    unknown = {t: m for t, m in caught_by().items() if t not in targets}
    assert not unknown, f"Caught-by names targets that do not exist: {unknown}"


#: The fewest refactor mutants (behaviour-preserving rewrites that must stay clean) each pair keeps.
MIN_REFACTORS = {"utxo_flush": 3, "prevout_fetch": 3, "coins_view": 7, "blockfile": 2, "serialize": 2}


def test_every_pair_is_proven_not_to_cry_wolf_by_refactor_mutants():
    """Each pair keeps refactor mutants ("Kind: refactor"), which ctest replays every committed
    input through (refactor/<pair>/<name>/<target>): each says why no caller can tell, and names
    no Caught-by target (it must be caught by none)."""
    pairs = sorted(p.parent.name for p in (ROOT / "differential").glob("*/mutants"))
    count: dict[str, int] = {}
    for f in sorted((ROOT / "differential").glob("*/mutants/*")):
        text = f.read_text(errors="replace")
        if not re.search(r"^Kind: refactor\s*$", text, re.M):
            continue
        pair = f.parent.parent.name
        count[pair] = count.get(pair, 0) + 1
        assert re.search(r"^Why: \S", text, re.M), f"{f.name}: a refactor mutant says why no caller can tell"
        assert not re.search(r"^Caught-by: ", text, re.M), f"{f.name}: a refactor mutant must be caught by nothing"
    short = {p: count.get(p, 0) for p in pairs if count.get(p, 0) < MIN_REFACTORS.get(p, 1)}
    assert not short, f"pairs with fewer refactor mutants than they keep: {short}"
