"""When the call of the player to roll counts (rules 4.1: it is locked once the dice
are thrown), and what the screen says of it: a call pressed before the dice moved counts
(also where the tap is let go after); a press after is too late, but is held while
something moves in the tray, and counts where nobody threw after all (a die nudged, the
last roll's dice taken out, a hand passing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from einhorn_table.rules import Category


@dataclass(frozen=True)
class HeldCall:
    """A call pressed while something moved in the tray: too late for a throw, but the
    call of the player to roll where nobody threw (a die nudged, the last roll's dice
    taken out, a hand passing): rules 4.1 locks a call only when the dice are thrown."""

    player: int
    category: Category
    #: How many lines the match had recorded when it was pressed.
    recorded: int


class MotionStart(Protocol):
    """What moves in the tray, as it started."""

    @property
    def since(self) -> float: ...

    #: How many lines the match had recorded when the motion started.
    @property
    def recorded(self) -> int: ...

    #: Whether the call was locked already when it started.
    @property
    def call_locked(self) -> bool: ...

    #: Whose roll the tray waited for when it started (None: nobody's).
    @property
    def roller(self) -> int | None: ...


def called_before(motion: MotionStart | None, player: int, pressed: float, recorded: int,
                  asking: bool) -> bool:
    """Whether ``player``'s call pressed at ``pressed`` was made before the dice started
    moving (``motion``), the tray told first (both in one moment of the loop, or the tap
    let go after the motion started): it counts (rules 4.1). ``recorded``: how many lines
    the match has recorded now; ``asking``: whether a roll is asked about."""
    return motion is not None and not motion.call_locked and motion.roller == player \
        and pressed <= motion.since and motion.recorded == recorded and not asking


def too_late_words(moving: bool) -> str:
    """What the screen says to a call pressed once the call is locked: while the dice
    still move (``moving``: the call is held, see :func:`held_calls_counting`), or after."""
    if moving:
        return "Too late: the dice are moving. This roll counts as silent unless you called " \
            "before."
    return ("Too late: the dice were thrown once this turn, so the call made before the "
            "throw stands. Roll again.")


def toggled(call: Category | None, category: Category) -> Category | None:
    """The call after a tap of ``category``: it, or none where it was the call already."""
    return None if call is category else category


def call_counts_words(name: str, call: Category | None) -> str:
    """What ``name``'s press made of the call, in words: the ``call`` that counts now, or
    none."""
    if call is None:
        return f"{name}'s call is taken back (silent)"
    return f"{name}'s call of {call.label} counts"


def held_calls_counting(held: Sequence[HeldCall], *, free: bool, recorded: int,
                        calling: Callable[[int], bool]) -> list[HeldCall]:
    """The ``held`` calls that count once the tray lies still again: where nobody threw
    (the call is ``free`` again), nothing was taken meanwhile (the match has ``recorded``
    lines as then) and their player still calls (``calling``), in the order pressed."""
    return [h for h in held if free and h.recorded == recorded and calling(h.player)]
