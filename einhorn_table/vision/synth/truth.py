"""What the synthetic camera shows, as ground truth: per frame and per die."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError

#: The phases of a frame, in the order a roll goes through them.
PHASES = ("empty", "hand", "moving", "settled")


class SynthError(EinhornError, ValueError):
    """The synthetic table was asked for a scene it cannot draw."""


@dataclass(frozen=True)
class SynthDie:
    """Ground truth of one die in a frame.

    ``value`` is the face up, or None when no face can be read (a cocked die, or a
    die still tumbling); ``box`` is ``(x0, y0, x1, y1)`` tight around the die (its
    sides in perspective included), x1/y1 exclusive, so ``image[y0:y1, x0:x1]``
    holds it; ``color`` is the body RGB.
    """

    value: int | None
    box: tuple[int, int, int, int]
    color: tuple[int, int, int]


@dataclass(frozen=True, eq=False)
class SynthFrame:
    """One camera frame (BGR uint8) and its truth: dice, phase, and whether a hand shows."""

    image: npt.NDArray[np.uint8]
    dice: tuple[SynthDie, ...]
    phase: str
    hand: bool
