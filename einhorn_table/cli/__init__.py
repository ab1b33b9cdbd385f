"""The ``einhorn-table`` command: one sub-command per module in this package.

Each sub-command module exposes ``register(subparsers)``, which adds its
parser and sets ``handler`` (a function taking the parsed arguments and
returning the exit status). Modules import heavy libraries (OpenCV, pygame,
gpiozero) inside their handlers, never at import time, so that ``replay`` and
``--help`` work on any Python.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from einhorn_table import __version__
from einhorn_table.errors import EinhornError

# The sub-commands, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "demo",
    "play",
    "replay",
    "history",
    "simulate",
    "read",
    "calibrate",
    "doctor",
    "record",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that sub-command's module is imported (faster start)."""
    parser = argparse.ArgumentParser(
        prog="einhorn-table",
        description="Einhorn Table: the referee for the dice game Einhorn.",
    )
    parser.add_argument("--version", action="version", version=f"einhorn-table {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = importlib.import_module(f"einhorn_table.cli.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command; Ctrl-C at any moment, each command's importing of its libraries
    included, stops it quietly with status 130 (no traceback). (Ctrl-C while this module
    itself is imported: see :func:`einhorn_table.main`, the console script's entry.)"""
    try:
        return _run(argv)
    except KeyboardInterrupt:
        return 130


def _run(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    chosen = next((word for word in words if not word.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(words)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    # pygame greets on import ("Hello from the pygame community"); the table speaks for itself.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        status: int = handler(args)
        sys.stdout.flush()  # a closed pipe is noticed here, not on the way out
    except EinhornError as error:
        print(f"einhorn-table: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # What read the output (head, less) stopped reading: stop quietly too, and
        # keep Python from complaining about the closed pipe on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
