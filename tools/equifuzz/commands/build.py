"""./equifuzz build"""
from __future__ import annotations

from ..building import add_core_tree_args, build_presets, core_tree_args
from ..project import CONFIGS, EquifuzzError

NAME = "build"
ORDER = 20
SUMMARY = "configure and build one or more configurations (default: replay)"
DESCRIPTION = ("Configures and builds the named CMake presets into build/<config>. Each pair's Core sides are the "
               "commits before and after its change (differential/core/commits.json, from the git remote; the registry "
               "trees when it cannot be reached) unless --pr or --core-original/--core-optimized name other trees.")
EXAMPLES = ["./equifuzz build", "./equifuzz build libfuzzer --cmake-arg=-DEQUIFUZZ_MUTANTS=OFF",
            "./equifuzz build libfuzzer --core-original ~/bitcoin --core-optimized ~/bitcoin-pr"]


def arguments(p) -> None:
    p.add_argument("configs", nargs="*", metavar="CONFIG", help=f"any of {', '.join(CONFIGS)}")
    p.add_argument("--cmake-arg", dest="cmake_args", action="append", default=[], help="extra -D option for cmake")
    add_core_tree_args(p)


def run(args) -> int:
    configs = args.configs or ["replay"]
    for config in configs:
        if config not in CONFIGS:
            raise EquifuzzError(f"unknown configuration '{config}': choose from {', '.join(CONFIGS)}.")
    build_presets(configs, core_tree_args(args), args.cmake_args)
    return 0
