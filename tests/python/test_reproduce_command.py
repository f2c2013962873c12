"""The tool builds a reproduce command in one place (output.reproduce_command): the report's
findings and `fuzz`'s lines use it, a path that needs quoting is quoted, a ThreadSanitizer target
names the plain one of its build, and no other module of the tool writes the command itself."""
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from equifuzz.output import TSAN_SUFFIX, reproduce_command  # noqa: E402


def test_the_command_runs_the_input_through_its_build_and_variant():
    assert reproduce_command("xor_apply", "corpora/regressions/xor_apply/x") == \
        "./equifuzz reproduce xor_apply corpora/regressions/xor_apply/x"
    assert reproduce_command("coins_view" + TSAN_SUFFIX, "c/crash-1", "--build-dir build/tsan ") == \
        "./equifuzz --build-dir build/tsan reproduce coins_view c/crash-1"
    assert reproduce_command("xor_apply", "a b/it's", mutant="tail_skipped").endswith(
        f"reproduce xor_apply {shlex.quote('a b/it' + chr(39) + 's')} --mutant tail_skipped")
    assert shlex.split(reproduce_command("xor_apply", "a b"))[-1] == "a b"
    assert reproduce_command("xor_apply", "") == ""
    assert reproduce_command("xor_apply", Path("c/1")) == "./equifuzz reproduce xor_apply c/1"


# A reproduce command written out: "reproduce " followed by a placeholder or a variable.
_WRITER = re.compile(r"""reproduce \{|reproduce ["']\s*\+""")


def writers(root: Path) -> list[str]:
    out = []
    for path in sorted((root / "tools").rglob("*.py")):
        if path.name == "output.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if _WRITER.search(line):
                out.append(f"{path.relative_to(root)}:{i}: {line.strip()}")
    return out


def test_no_module_but_output_writes_the_command():
    assert writers(ROOT) == []


def test_the_check_finds_a_stray_writer(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "x.py").write_text('print(f"./equifuzz reproduce {t} {p}")\n')
    assert len(writers(tmp_path)) == 1
