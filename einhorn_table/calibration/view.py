"""What the calibration screen shows: plain values the renderer draws (no pygame here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from einhorn_table.calibration.geometry import Corners

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Hint:
    """One button of the station and what it does now ("" when nothing)."""

    sign: str  # "-", "+", "OK", "X"
    does: str


@dataclass(frozen=True)
class BoxMark:
    """A die found in the picture, outlined; ``label`` is its value or "?"."""

    box: tuple[float, float, float, float]
    label: str
    good: bool


@dataclass(frozen=True)
class Swatch:
    """A player's registered dice colour."""

    name: str
    colour: RGB
    clash: bool = False


@dataclass(frozen=True, eq=False)
class CalibrationView:
    #: Which screen this is (names the screenshot file).
    screen: str
    #: Step k of n, for the progress line.
    step: int
    steps: int
    title: str
    lines: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    hints: tuple[Hint, ...] = ()
    #: The camera picture (BGR) to show, with the tray outline and dice on it.
    image: npt.NDArray[np.uint8] | None = None
    corners: Corners | None = None
    selected_corner: int | None = None
    boxes: tuple[BoxMark, ...] = ()
    swatches: tuple[Swatch, ...] = ()
    #: Dice shown large (read or being entered); ``marked`` is the one + and − change.
    dice: tuple[int | None, ...] = ()
    marked: int | None = None
    #: 0..1 while something takes time (the camera settling), else None.
    progress: float | None = None
    #: The help lines, shown over everything while asked for (middle two buttons).
    help: tuple[str, ...] = ()
    #: Whose roll the flow waits for (player index), or None (for the synthetic table).
    waiting_for_roll: int | None = None
