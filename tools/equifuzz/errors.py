"""The tool's expected failures: each message is one plain sentence for the user (cli.py prints it
and exits with the code its class stands for)."""
from __future__ import annotations


class EquifuzzError(Exception):
    """An expected failure: its message is one plain sentence for the user (exit 2, usage)."""


class InfraError(EquifuzzError):
    """The tool could not build, write or run something, or checked nothing (exit 3)."""
