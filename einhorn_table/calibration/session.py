"""Running the guided calibration: camera frames and button presses into the flow.

One loop: read a frame, hand it to the flow, hand it the players' gestures,
show the view. On the synthetic table nobody can roll, so :class:`SynthRoller`
throws the dice whenever the screen asks for a roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from einhorn_table.calibration.fit import CalibrationError
from einhorn_table.calibration.flow import CalibrationFlow
from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Controls, FrameSource

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
) -> None:
    """Feed the flow until it is done; ``show`` gets every view (draw it, save it, act on it).

    ``max_frames`` stops a flow nobody finishes (for tests and demos) with an error.
    """
    frames = 0
    while not flow.done:
        frame = source.read()
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
