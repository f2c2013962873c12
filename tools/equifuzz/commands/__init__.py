"""The verbs of ./equifuzz, one module each: NAME, ORDER (its place in --help), SUMMARY,
DESCRIPTION, EXAMPLES, arguments(parser) and run(args) -> exit code.

Every module of this package is collected, as seeds/ collects its generators: adding a verb adds a
file and edits nothing here. The work itself is in the modules below (building, output, mutants,
engines, corpus, coverage, verify, bench, project); none of them imports a command."""
from __future__ import annotations

import importlib
import pkgutil


def all_commands() -> list:
    modules = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)]
    return sorted(modules, key=lambda m: m.ORDER)
