"""Dice lying in the tray as the table starts again (after a power cut): whether a
match going on looks at them, and whether any of them are a throw it never read.

The tray takes its first still picture for the empty tray, so dice lying there are
never told as a roll. Where a match goes on at a turn, they may be a throw the table
was asking about when it stopped; the dice of each player's last roll may lie where
they fell, as ever, but others (also beside them) are a throw it did not read.
"""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.rules import Awaiting, Input, Roll, StartRoll, TiebreakRoll

#: The inputs that leave dice in the tray.
_ROLLS = (Roll, StartRoll, TiebreakRoll)


def looks_at_start(awaiting: Awaiting, inputs: Sequence[Input]) -> bool:
    """Whether the tray should read the dice lying in its first still picture: the
    match (its ``inputs`` so far) goes on at a turn after a roll, the table awaiting
    ``awaiting``."""
    return awaiting is Awaiting.ROLL and any(isinstance(item, _ROLLS) for item in inputs)


def unread_among(inputs: Sequence[Input], seen: Sequence[int]) -> bool:
    """Whether dice lie among ``seen`` (their values) that no player's last roll among
    ``inputs`` left there: each player's last roll's dice may lie where they fell (the
    last roll's, and those of the players before who left theirs beside), but a throw
    beside them is unread."""
    rest = list(seen)
    taken: set[str] = set()
    for item in reversed(inputs):
        if isinstance(item, _ROLLS) and item.player not in taken:
            taken.add(item.player)
            rest = _without(item.dice, rest)
    return bool(rest)


def _without(dice: Sequence[int], seen: list[int]) -> list[int]:
    """``seen`` less ``dice`` where every one of them is among it (each die seen once),
    else ``seen`` as it is."""
    rest = list(seen)
    for value in dice:
        if value not in rest:
            return seen
        rest.remove(value)
    return rest
