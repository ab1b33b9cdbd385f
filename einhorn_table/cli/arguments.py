"""What the commands share about their options: the players' default names, and
checks on the numbers and files given, said the way argparse says errors.

A number out of range stops the command at once, with e.g. "argument --matches:
must be 1 or more, not 0", instead of running with it (no matches to sum up, a
recording of no frames) or quietly using another number.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

#: The names the demo and the simulator give their players, in seat order.
PLAYER_NAMES = ("Ana", "Ben", "Cem", "Dora", "Emil", "Fay")


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``minimum`` (to ``maximum``, if given)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            wanted = (f"{minimum} or more" if maximum is None else f"{minimum} to {maximum}")
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {value}")
        return value

    return parse


def more_than_zero(text: str) -> float:
    """An argparse ``type``: a number of seconds or minutes above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def existing_file(text: str) -> Path:
    """A file named on the command line, which must be there: a typo is refused, not
    taken for "no such file yet" as the default ./table.toml may be."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(
            f"{path} is {'a folder' if path.is_dir() else 'not there'}; name the file")
    return path


def turn_degrees(text: str) -> int:
    """An argparse ``type`` for ``--rotate``: the degrees the picture is turned clockwise,
    as ``[screen] rotate`` in the table's file gives them (0, 90, 180 or 270)."""
    from einhorn_table.table.config import ROTATIONS

    wrong = argparse.ArgumentTypeError(
        f"must be 0, 90, 180 or 270 (degrees clockwise; 90 or 270 for a screen mounted on "
        f"its side), not {text}")
    try:
        value = int(text)
    except ValueError:
        raise wrong from None
    if value not in ROTATIONS:
        raise wrong
    return value


#: What ``--rotate`` does, for its help.
ROTATE_HELP = ("turn the picture 90, 180 or 270 degrees clockwise, as rotate in [screen] of "
               "table.toml does: 90 or 270 for a screen mounted on its side, whose own size "
               "--size gives, e.g. --size 720x1280 --rotate 90 for a Touch Display 2")
