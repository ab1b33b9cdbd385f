"""The ports: what the match flow needs from the world, as typing protocols.

The table controller talks only to these; ``einhorn_table.adapters`` holds the
implementations (camera, buttons, keyboard, clocks), each importing its
third-party library inside itself. A test hands the controller a fake that
satisfies the same protocol.

This module imports nothing beyond the standard library (numpy only for type
checking), so any layer may depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from einhorn_table.rules.categories import Category

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]


# --------------------------------------------------------------------------- time


@runtime_checkable
class Clock(Protocol):
    """Monotonic seconds, and a way to wait; passed in so tests can run time by hand."""

    def monotonic(self) -> float:
        """Seconds since an arbitrary start; never goes backwards."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (a fake clock just moves on)."""
        ...


# ------------------------------------------------------------------------- frames


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture of the tray.

    ``image`` is BGR, ``uint8``, shape (height, width, 3), owned by the frame
    (never a camera buffer). ``timestamp`` is in seconds on the source's own
    timeline: differences between frames of one source are real time between
    exposures (for a recording, the time at which it was taken). ``index`` counts
    the frames read from the source, from 0. ``small`` is a small image for
    motion detection when the source makes one itself (the Pi camera's
    low-resolution stream: BGR ``uint8``, shape (h, w, 3); a grey one would be
    (h, w)), else ``None``: then shrink ``image`` (``vision.watcher.shrink``).
    """

    image: Image
    timestamp: float
    index: int
    small: Image | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        height, width = self.image.shape[:2]
        return int(width), int(height)


@runtime_checkable
class FrameSource(Protocol):
    """Where frames come from: the Pi camera, a webcam, a recording, a synthetic table.

    Use it as a context manager (``with create_source("dir:frames/") as source``),
    or call :meth:`open` and :meth:`close` yourself.
    """

    #: What the source is, for reports: e.g. ``"picamera2 (imx708)"``.
    description: str
    #: True when the frames are not from a real camera (synthetic, replayed).
    simulated: bool

    def open(self) -> None:
        """Start the source; raises ``SourceError`` with what to do when it cannot."""
        ...

    def read(self) -> Frame | None:
        """The next frame; ``None`` once a recording has ended (a camera never ends)."""
        ...

    def close(self) -> None:
        """Stop the source and give back the device; safe to call twice."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...


# ----------------------------------------------------------------------- controls


class Button(StrEnum):
    """The four buttons of a player's station, left to right, one per roll category.

    The value is the rules' category name (``einhorn_table.rules.categories``).
    """

    UNVERMEIDLICH = "unvermeidlich"
    WUNSCH = "wunsch"
    EINHORN = "einhorn"
    DREIFALTIGKEIT = "dreifaltigkeit"

    @property
    def position(self) -> int:
        """1 to 4, left to right on the station."""
        return list(Button).index(self) + 1

    @property
    def category(self) -> Category:
        """The roll category this button calls."""
        return Category(self.value)

    @property
    def label(self) -> str:
        """The rule book's name, printed on the button: e.g. "Das Unvermeidliche"."""
        return self.category.label


class GestureKind(StrEnum):
    TAP = "tap"
    LONG = "long"
    CHORD = "chord"


@dataclass(frozen=True)
class RawButtonEvent:
    """A button went down (``pressed``) or up, at ``time`` (clock seconds)."""

    player: int
    button: Button
    pressed: bool
    time: float


@dataclass(frozen=True)
class Gesture:
    """What a player did with their station: a tap, a long press, or two buttons at once.

    ``player`` counts from 0. ``buttons`` holds one button for a tap or a long
    press, two (in station order) for a chord. ``time`` is when the gesture was
    recognised: a tap's when its button was let go. ``pressed`` is when a tap's button
    went down (None: not known, or not a tap): a call tapped before the dice moved was
    made in time, though only known to be a tap once let go (RULES.md 4.1).
    """

    player: int
    kind: GestureKind
    buttons: tuple[Button, ...]
    time: float
    pressed: float | None = None

    @property
    def button(self) -> Button:
        """The button of a tap or a long press (the first one of a chord)."""
        return self.buttons[0]


@runtime_checkable
class Controls(Protocol):
    """The players' inputs as gestures: GPIO button stations or a desktop keyboard."""

    #: What the controls are, for reports: e.g. ``"GPIO buttons, 4 stations"``.
    description: str
    #: True when a keyboard stands in for the button stations.
    simulated: bool

    def poll(self) -> list[Gesture]:
        """The gestures finished since the last poll, oldest first; never blocks."""
        ...

    def held(self, player: int) -> tuple[Button, ...]:
        """The buttons of a player's station held down now (for the screen's feedback)."""
        ...

    def close(self) -> None:
        """Release the buttons (or stop listening to the keyboard)."""
        ...
