"""equifuzz: build, fuzz, replay and check routine pairs. Every verb has --help."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

from .commands import all_commands
from .project import EXIT_CODES_HELP, EXIT_INFRA, EXIT_INTERRUPTED, EXIT_USAGE, EquifuzzError, InfraError


def parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per module of commands/, in their ORDER."""
    p = argparse.ArgumentParser(prog="equifuzz", description=__doc__, epilog=EXIT_CODES_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", help="use this configured build tree instead of build/<config> (it must exist)")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB")
    for command in all_commands():
        epilog = "examples:\n" + "\n".join(f"  {e}" for e in command.EXAMPLES) + "\n\n" + EXIT_CODES_HELP
        s = sub.add_parser(command.NAME, help=command.SUMMARY, description=command.DESCRIPTION, epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        command.arguments(s)
        s.set_defaults(func=command.run)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # --strict and --beyond-contract reach every target binary this process runs (replay, campaigns,
    # mutant checks, reproduce) through the environment they inherit.
    from .allow import tier_environment
    os.environ.update({k: v for k, v in tier_environment(args).items() if v})
    try:
        return args.func(args)
    except InfraError as e:
        print(f"equifuzz: {e}", file=sys.stderr)
        return EXIT_INFRA
    except EquifuzzError as e:
        print(f"equifuzz: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("equifuzz: interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except subprocess.CalledProcessError as e:
        print(f"equifuzz: '{' '.join(map(str, e.cmd))}' failed with exit {e.returncode}.", file=sys.stderr)
        return EXIT_INFRA
    except OSError as e:
        where = f": {e.filename}" if e.filename else " (a file this run was writing or reading)"
        print(f"equifuzz: {e.strerror or e}{where}.", file=sys.stderr)
        return EXIT_INFRA
    except Exception as e:  # noqa: BLE001 - one sentence, not a traceback; EQUIFUZZ_DEBUG shows it
        if os.environ.get("EQUIFUZZ_DEBUG"):
            raise
        print(f"equifuzz: internal error: {type(e).__name__}: {e} (set EQUIFUZZ_DEBUG=1 for the traceback).", file=sys.stderr)
        return EXIT_INFRA
