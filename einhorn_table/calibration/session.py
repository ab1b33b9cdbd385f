"""Running the guided calibration: camera frames and button presses into the flow.

One loop: read a frame, hand it to the flow, hand it the players' gestures,
show the view. On the synthetic table nobody can roll, so :class:`SynthRoller`
throws the dice whenever the screen asks for a roll. A live camera that stops
sending pictures is waited for (see :func:`run_flow`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from einhorn_table.adapters.source_base import (
    REOPEN_SECONDS,
    CameraLibraryMissing,
    SourceError,
)
from einhorn_table.calibration.fit import CalibrationError
from einhorn_table.calibration.flow import CalibrationFlow
from einhorn_table.calibration.screens import camera_lost_view
from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Controls, Frame, FrameSource

ViewHook = Callable[[CalibrationView], None]


class Rolling(Protocol):
    """A source that can throw dice by itself (``adapters.synth_source.SynthSource``)."""

    @property
    def frames_queued(self) -> int: ...

    def roll(
        self,
        values: Sequence[int] | None = None,
        *,
        player: int = 0,
        hand: bool = True,
        settle_frames: int = 15,
    ) -> tuple[int, ...]: ...


class SynthRoller:
    """Rolls the synthetic table's dice each time a screen starts waiting for a roll."""

    def __init__(self, source: Rolling) -> None:
        self.source = source
        self._last_screen = ""
        #: The faces thrown, newest last (what the test rolls should read).
        self.thrown: list[tuple[int, ...]] = []

    def update(self, view: CalibrationView) -> None:
        fresh = view.screen != self._last_screen
        self._last_screen = view.screen
        if fresh and view.waiting_for_roll is not None:
            self.thrown.append(self.source.roll(player=view.waiting_for_roll, settle_frames=20))


def run_flow(
    flow: CalibrationFlow,
    source: FrameSource,
    controls: Controls,
    *,
    show: ViewHook | None = None,
    roller: SynthRoller | None = None,
    max_frames: int | None = None,
    wait: Callable[[float], None] = time.sleep,
) -> None:
    """Feed the flow until it is done; ``show`` gets every view (draw it, save it, act on it).

    ``max_frames`` stops a flow nobody finishes (for tests and demos) with an error.
    A live camera that stops sending pictures (its cable pulled) is not the end of the
    calibration: the screen says so, the camera is opened again every
    :data:`REOPEN_SECONDS` (``wait`` sleeps), and the flow goes on where it was once
    pictures come again; the buttons do nothing meanwhile (OK would take the last
    picture for the empty tray). Esc, in ``show``, still stops it.
    """
    frames = 0
    camera = _Camera(source)
    was_lost = False
    while not flow.done:
        frame, lost = camera.next_frame()
        if lost is not None:
            was_lost = True
            frames += 1
            if max_frames is not None and frames > max_frames:
                raise CalibrationError(f"the camera sent no picture again: {lost}")
            for _ in controls.poll():
                pass  # (nothing to answer without a picture)
            if show is not None:
                show(camera_lost_view(flow.view(), lost, REOPEN_SECONDS))
            wait(REOPEN_SECONDS)
            continue
        if frame is None:
            raise CalibrationError(
                f"{source.description} ran out of pictures before calibrating was done; "
                "use a live camera (or a longer recording)"
            )
        frames += 1
        if max_frames is not None and frames > max_frames:
            raise CalibrationError(
                f"calibrating was not finished after {max_frames} frames (at '{flow.step}')"
            )
        if was_lost:
            was_lost = False
            flow.camera_back()
        flow.on_frame(frame.image, frame.timestamp)
        for gesture in controls.poll():
            flow.on_gesture(gesture)
        view = flow.view()
        if roller is not None:
            roller.update(view)
        if show is not None:
            show(view)
    if show is not None:
        show(flow.view())


class _Camera:
    """The flow's frame source: a live camera that stops sending pictures is closed, and
    opened again at the next frame asked for (a webcam plugged in again sends pictures
    again). A recording's or the synthetic table's errors, and a camera library
    missing, end the calibration as before."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.closed = False

    def next_frame(self) -> tuple[Frame | None, str | None]:
        """The next frame (None: a recording has ended), or why there is none now."""
        source = self.source
        if source.simulated:
            return source.read(), None
        try:
            if self.closed:
                source.open()
                self.closed = False
            return source.read(), None
        except CameraLibraryMissing:
            raise
        except SourceError as error:
            if not self.closed:
                with contextlib.suppress(SourceError, OSError, RuntimeError):
                    source.close()
                self.closed = True
            return None, str(error)
