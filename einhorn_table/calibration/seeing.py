"""What the calibration flow needs from the camera picture, as plain types and protocols.

No OpenCV here: :mod:`~einhorn_table.calibration.eyes` implements :class:`Eyes`
with it, and the step machine (:mod:`~einhorn_table.calibration.flow`) only
knows this module, so it runs anywhere and a test may hand it other eyes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from einhorn_table.calibration.geometry import Corners
from einhorn_table.calibration.light import LightSample
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box, FrameReading

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]
else:
    Image = object

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class DieMeasure:
    """One die as the camera saw it (pixels of the full frame)."""

    #: Edge length of the die's box (mean of width and height).
    size: float
    #: "dark" or "light" pips; None when neither matched the value.
    polarity: str | None = None
    #: Median pip diameter and contrast of the matched polarity.
    pip_px: float | None = None
    pip_contrast: float | None = None


class RestWatch(Protocol):
    def at_rest(self, image: Image, t: float) -> bool:
        """Whether the dice just came to rest in this frame (a new roll or a nudge)."""
        ...

    def rests(self) -> int | None:
        """How many times dice came to rest so far (as :meth:`at_rest` told), while the
        tray lies still now; None while something moves in it or is waited for (dice
        still tumbling, a hand in the picture)."""
        ...

    def held_since(self) -> float | None:
        """Since when (the frames' time) the picture has lain still while the watch
        still waits for something in it to go (a hand held over the tray, an arm lying
        in it); None while nothing is waited for, or it moves."""
        ...


class Eyes(Protocol):
    def find_tray(self, image: Image) -> Corners | None: ...

    def light(self, image: Image, corners: Corners) -> LightSample: ...

    def read(self, image: Image, profile: ReaderProfile, corners: Corners | None) -> FrameReading:
        ...

    def dice_colour(self, image: Image, boxes: Sequence[Box]) -> RGB:
        """One player's dice colour from the boxes of their dice in one frame."""
        ...

    def measure(self, image: Image, box: Box, value: int) -> DieMeasure: ...

    def colours_too_alike(self, a: RGB, b: RGB) -> bool:
        """Whether two players' dice colours are too alike for the camera to keep apart."""
        ...

    def rest_watch(self, empty_tray: Image) -> RestWatch: ...

    def changed_since(self, reading: FrameReading, image: Image, empty_tray: Image,
                      ) -> FrameReading:
        """``reading`` (of ``image``) without the dice found where the tray looks as it
        does in ``empty_tray``'s picture (a mark on the tray, no die)."""
        ...


@runtime_checkable
class SeesThings(Protocol):
    """Eyes that also see what lies in the tray besides dice (a hand, a cup): the
    empty tray's picture is taken only without it. (Eyes without this, a test's
    scripted ones, are asked about dice alone.)"""

    def things_in_tray(self, image: Image, corners: Corners) -> tuple[Box, ...]:
        """The boxes of what lies on the tray's floor and is not the floor."""
        ...


@runtime_checkable
class SeesFloor(Protocol):
    """Eyes that also tell the tray floor's colour: dice of about that colour are hard
    to find on it, and the parent is told. (Eyes without this, a test's scripted
    ones, are not asked.)"""

    def floor_colour(self, image: Image, corners: Corners) -> RGB:
        """The colour of most of the tray's floor within ``corners`` (in the empty
        tray's picture)."""
        ...
