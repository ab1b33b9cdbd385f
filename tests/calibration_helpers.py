"""A synthetic table to calibrate on, and a parent who presses the buttons by the screen."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Self

from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Button, Frame
from einhorn_table.vision.synth import SynthFrame, SynthTable

MINUS, PLUS, OK, NO = (
    Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
)


class TableSource:
    """A frame source over any :class:`SynthTable` (small dice, dim light...), rolling on
    request like ``synth:`` does; frames are 1/fps apart on their own timeline."""

    simulated = True

    def __init__(self, table: SynthTable) -> None:
        self.table = table
        self.description = "synthetic test table"
        self._queue: deque[SynthFrame] = deque()
        self._index = 0

    def open(self) -> None:
        self.table.empty()

    def close(self) -> None:
        self._queue.clear()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def frames_queued(self) -> int:
        return len(self._queue)

    def roll(
        self, values: object = None, *, player: int = 0, hand: bool = True,
        settle_frames: int = 15,
    ) -> tuple[int, ...]:
        frames = self.table.roll_sequence(None, player=player, hand=hand,
                                          settle_frames=settle_frames)
        self._queue.extend(frames)
        return tuple(d.value for d in frames[-1].dice if d.value is not None)

    def read(self) -> Frame | None:
        synth = self._queue.popleft() if self._queue else self.table.settled_frames(1)[0]
        frame = Frame(synth.image, self._index / self.table.fps, self._index)
        self._index += 1
        return frame


Press = Callable[[Button], None]


class Parent:
    """Presses one button at a time, as a parent reading the screen would: OK where the
    screen is right, ✗ and the true dice where the camera misread a test roll."""

    def __init__(self, press: Press, thrown: Sequence[tuple[int, ...]],
                 adjust_corner: bool = True) -> None:
        self.press = press
        self.thrown = thrown
        self.adjust_corner = adjust_corner
        self.seen: list[str] = []
        self.misread = 0
        self.pushed = False
        self._wait = 0

    def act(self, view: CalibrationView) -> None:
        """Called on every frame; presses at most every fourth frame."""
        if not self.seen or self.seen[-1] != view.screen:
            self.seen.append(view.screen)
        if self._wait > 0:
            self._wait -= 1
            return
        button = self.choose(view)
        if button is not None:
            self.press(button)
            self._wait = 3

    def choose(self, view: CalibrationView) -> Button | None:
        screen = view.screen
        ready = {h.sign for h in view.hints if h.does}
        if screen == "tray" and "OK" in ready:
            return NO if self.adjust_corner else OK
        if screen.startswith("corners-"):
            if screen == "corners-1" and not self.pushed:
                self.pushed = True
                return PLUS
            return OK
        if screen == "light" and "OK" in ready:
            return OK
        if screen == "reference":
            return OK
        if screen.startswith("colours-") and "OK" in ready:
            return OK
        if screen == "sizes":
            return OK
        if screen.startswith("check-") and screen.endswith("-enter"):
            truth = sorted(self.thrown[-1])
            marked = view.marked or 0
            return OK if view.dice[marked] == truth[marked] else PLUS
        if screen.startswith("check-") and not screen.endswith("-roll"):
            read = sorted(v for v in view.dice if v is not None)
            if len(read) == len(view.dice) and read == sorted(self.thrown[-1]):
                return OK
            self.misread += 1
            return NO
        if screen == "result":
            return OK
        return None
