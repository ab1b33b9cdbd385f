"""What every frame source shares: the error it raises, opening and closing, pacing."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import TracebackType
from typing import Self

from einhorn_table.errors import EinhornError
from einhorn_table.ports import Clock, Frame

#: Seconds between tries to open a live camera again that stopped sending pictures
#: (a webcam's cable pulled out and put back): ``play`` and ``calibrate`` alike.
REOPEN_SECONDS = 2.0


class SourceError(EinhornError):
    """A frame source cannot start or stopped giving pictures; the message says what to do."""


class CameraLibraryMissing(SourceError):
    """The camera's library cannot be loaded here: no waiting makes the camera come."""


@dataclass(frozen=True)
class CameraView:
    """What part of the world a camera's pictures show, as far as the camera tells: its
    sensor and the sensor mode it reads (the Pi camera: a mode of another size reads
    another part of the sensor, so the same picture size shows more or less of the
    table). A calibration made in one view does not fit the pictures of another."""

    #: The sensor's name as the camera gives it, e.g. "imx708" (Camera Module 3).
    camera: str
    #: The sensor mode read (the raw stream's size), (width, height).
    mode: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.camera} in its {self.mode[0]}x{self.mode[1]} sensor mode"


class BaseSource:
    """Open/close bookkeeping and the context manager; subclasses fill in the three hooks."""

    description: str = "frame source"
    simulated: bool = False
    #: The camera's view once open, where it tells one (the Pi camera); None for webcams,
    #: recordings and the synthetic table, whose view no setting of ours changes.
    view: CameraView | None = None

    def __init__(self) -> None:
        self._opened = False
        self._index = 0

    # The hooks -----------------------------------------------------------------
    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> Frame | None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    # The protocol --------------------------------------------------------------
    def open(self) -> None:
        if not self._opened:
            self._open()
            self._opened = True

    def read(self) -> Frame | None:
        if not self._opened:
            raise RuntimeError(f"{self.description}: open() it before reading")
        frame = self._read()
        if frame is not None:
            self._index += 1
        return frame

    def close(self) -> None:
        if self._opened:
            self._opened = False
            self._close()

    @property
    def frames_read(self) -> int:
        """How many frames :meth:`read` has returned so far."""
        return self._index

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class Pacer:
    """Holds a replay to ``fps`` frames a second on ``clock``; ``fps=None`` runs flat out."""

    def __init__(self, clock: Clock, fps: float | None) -> None:
        if fps is not None and fps <= 0:
            raise SourceError(f"fps must be more than 0, not {fps}")
        self._clock = clock
        self._fps = fps
        self._start: float | None = None

    def wait_for(self, index: int) -> None:
        """Sleep until frame ``index`` is due (frame 0 is due at once)."""
        if self._fps is None:
            return
        now = self._clock.monotonic()
        if self._start is None:
            self._start = now
        due = self._start + index / self._fps
        if due > now:
            self._clock.sleep(due - now)

    def next_frame(self, last: int | None) -> int:
        """The frame a camera running on the clock shows now, after frame ``last``
        (None: none yet), frame 0 coming at once: the next one, slept for until it is
        due; or, where the clock has gone past it (a screen slower than the camera),
        the last one due by now, the frames between them never seen, as a live
        camera's are lost to a slow reader. (``fps=None``: the next one.)"""
        following = 0 if last is None else last + 1
        if self._fps is None:
            return following
        now = self._clock.monotonic()
        if self._start is None:
            self._start = now
        due = self._start + following / self._fps
        if due > now:
            self._clock.sleep(due - now)
            return following
        return max(following, self.due_now() or 0)

    def due_now(self) -> int | None:
        """The last frame due by the clock now (None: no frame yet, or no frame rate)."""
        if self._fps is None or self._start is None:
            return None
        # (A hair added for the clock's rounding: the frame due just now counts as due.)
        return math.floor((self._clock.monotonic() - self._start) * self._fps + 1e-6)
