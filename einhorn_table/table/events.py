"""What the tray tells the controller: the roll watcher's events, with the reader's reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from einhorn_table.vision.results import FrameReading

if TYPE_CHECKING:
    from einhorn_table.ports import Image


@dataclass(frozen=True)
class MotionStarted:
    """Something started moving in the tray (dice thrown, or a hand taking them out)."""

    time: float


@dataclass(frozen=True)
class Settled:
    """The tray is still again; ``reading`` is what the reader saw in ``photo``."""

    time: float
    reading: FrameReading
    #: The still frame (BGR); ``None`` where no picture exists (a scripted tray).
    photo: Image | None = None
    #: Told only after the tray's limit for waiting, while something (a hand, a cup)
    #: still lay at the tray's rim by the dice, maybe over one: once it has gone and
    #: the dice lie as they lay, they are read again (:class:`SeenWhole`).
    held_too_long: bool = False


@dataclass(frozen=True)
class NotRolled:
    """The tray lies still again, and nobody rolled: dice lying there were moved a
    little, a hand passed over them, the light changed, or the camera was knocked."""

    time: float
    #: How far the camera's picture moved, in the camera's pixels (0: it did not).
    camera_moved_px: float = 0.0
    #: Whether a hand or arm reached into the tray meanwhile (False: only the light or
    #: the camera changed, or the tray was pushed along the table).
    hand_seen: bool = False
    #: Whether the dice lie just as they lay before (a hand passed over them, the light
    #: changed): no die moved. False where one may have (a die pushed, the tray bumped).
    dice_still: bool = False


@dataclass(frozen=True)
class SeenWhole:
    """The dice of a roll told while something still lay against them (a hand or cup
    at the tray's rim, past the tray's limit for waiting: the table asked about it),
    lying as they lay once it has gone, and more of them seen now: nobody rolled;
    ``reading`` is the dice thrown, read again in ``photo``."""

    time: float
    reading: FrameReading
    #: The still frame (BGR); ``None`` where no picture exists (a scripted tray).
    photo: Image | None = None


@dataclass(frozen=True)
class LyingAtStart:
    """Dice lay in the tray in the camera's first picture (the table started with them
    there: after a power cut, the dice of a roll asked about). The watcher took that
    picture for the empty tray, so they are never told otherwise; ``reading`` is what
    the reader saw in ``photo``."""

    time: float
    reading: FrameReading
    #: The first frame (BGR); ``None`` where no picture exists (a scripted tray).
    photo: Image | None = None


@dataclass(frozen=True)
class CameraLost:
    """The camera stopped delivering frames; ``reason`` says what the source said."""

    time: float
    reason: str


@dataclass(frozen=True)
class CameraBack:
    """Frames arrive again after a :class:`CameraLost`."""

    time: float


TrayEvent = (MotionStarted | Settled | NotRolled | SeenWhole | LyingAtStart | CameraLost
             | CameraBack)
