"""The Python tool's shape: one module per verb under commands/, the work in modules below them.

Every import is read from the source (the ones inside functions too), so an import circle cannot
hide behind a function-local import: the module graph must have no cycle, and no module outside
commands/ may import a command (cli.py only dispatches to them)."""
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
PACKAGE = TOOLS / "equifuzz"
sys.path.insert(0, str(TOOLS))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(TOOLS).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path) -> set[str]:
    """Every module of the package that `name` imports, at any depth of its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found |= {f"{stem}.{a.name}" for a in node.names}  # `from . import corpus` names a module
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def test_the_graph_is_read():
    # A sanity check of the reader itself: these edges exist in the source.
    assert "equifuzz.commands" in GRAPH["equifuzz.cli"]
    assert "equifuzz.output" in GRAPH["equifuzz.verify"]
    assert "equifuzz.building" in GRAPH["equifuzz.commands.build"]


def test_no_import_cycle():
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(GRAPH[m]):
            if state.get(n) == 1:
                cycle = path[path.index(n):] + [n] if n in path else [m, n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            visit(m, [m])


def test_only_the_dispatcher_imports_commands():
    for m, deps in GRAPH.items():
        if m == "equifuzz.cli" or m.startswith("equifuzz.commands"):
            continue
        bad = sorted(d for d in deps if d == "equifuzz.cli" or d.startswith("equifuzz.commands"))
        assert not bad, f"{m} imports {bad}: the work belongs below the commands"


def test_every_verb_is_one_module_with_its_arguments_and_run():
    from equifuzz.commands import all_commands
    commands = all_commands()
    names = [c.NAME for c in commands]
    assert len(names) == len(set(names))
    assert {Path(c.__file__).stem for c in commands} == set(names)
    for c in commands:
        assert c.SUMMARY and c.DESCRIPTION and c.EXAMPLES and callable(c.arguments) and callable(c.run), c.NAME


def test_cli_only_dispatches():
    assert len((PACKAGE / "cli.py").read_text().splitlines()) <= 150
