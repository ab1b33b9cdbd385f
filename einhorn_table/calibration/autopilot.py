"""A stand-in parent for demos, screenshots and tests on the synthetic table.

It reads each calibration screen and presses one button at a time (every
fourth frame), as a parent would: OK where the screen is right, ✗ and the true
dice where the camera misread a test roll (it knows what was thrown), and one
corner nudged by hand on the way. ``press`` may drive mock GPIO pins or hand
gestures straight to the flow.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Button, Gesture, GestureKind

MINUS, PLUS, OK, NO = (
    Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
)
Press = Callable[[Button], None]
Chord = Callable[[tuple[Button, Button]], None]
HELP = (Button.WUNSCH, Button.EINHORN)


class Autopilot:
    def __init__(self, press: Press, thrown: Sequence[tuple[int, ...]],
                 *, adjust_corner: bool = True, every: int = 4, chord: Chord | None = None,
                 enter_by_hand: Collection[int] = ()) -> None:
        self.press = press
        #: Test rolls (the first is 1) whose dice it enters with ✗ though they were read
        #: right, as a parent who checks them by hand (the entry screen for the docs).
        self.enter_by_hand = frozenset(enter_by_hand)
        self._entered: set[str] = set()
        #: With ``chord``, it opens the help once (on the sizes screen) and closes it.
        self.chord = chord
        self._helped = False
        self.thrown = thrown
        self.adjust_corner = adjust_corner
        self.every = every
        #: The screens seen, in order (each once per visit).
        self.seen: list[str] = []
        #: Test rolls it had to correct.
        self.misread = 0
        self._pushed = False
        self._wait = 0
        self._read: tuple[int | None, ...] = ()

    def act(self, view: CalibrationView) -> None:
        """Called on every frame's view; presses at most every ``every`` frames."""
        if not self.seen or self.seen[-1] != view.screen:
            self.seen.append(view.screen)
        if self._wait > 0:
            self._wait -= 1
            return
        if view.screen == "sizes" and self.chord is not None and not self._helped:
            self._helped = True
            self.chord(HELP)
            self._wait = self.every - 1
            return
        button = self.choose(view)
        if button is not None:
            self.press(button)
            self._wait = self.every - 1

    def choose(self, view: CalibrationView) -> Button | None:
        screen = view.screen
        ready = {h.sign for h in view.hints if h.does}
        if screen == "tray" and "OK" in ready:
            return NO if self.adjust_corner else OK
        if screen.startswith("corners-"):
            if screen == "corners-1" and not self._pushed:
                self._pushed = True
                return PLUS
            return OK
        if screen.endswith("-help"):
            return PLUS  # any button closes the help
        if screen in ("light", "reference", "sizes", "result") and "OK" in ready:
            return OK
        if screen.endswith("-roll"):
            return None  # the dice are on their way (OK would read the tray before)
        if screen.startswith("colours-") and "OK" in ready:
            return OK
        if screen.startswith("check-") and screen.endswith("-enter"):
            target = entry_target(self._read, self.thrown[-1])
            marked = view.marked or 0
            return OK if view.dice[marked] == target[marked] else PLUS
        if screen.startswith("check-") and not screen.endswith("-roll"):
            if len(self.thrown[-1]) < 3:
                return MINUS  # a die lies cocked: this roll does not count
            self._read = view.dice
            if _test_roll(screen) in self.enter_by_hand and screen not in self._entered:
                self._entered.add(screen)
                return NO
            read = sorted(v for v in view.dice if v is not None)
            if len(read) == len(view.dice) and read == sorted(self.thrown[-1]):
                return OK
            self.misread += 1
            return NO
        return None


def _test_roll(screen: str) -> int | None:
    """The test roll a ``check-N`` screen shows (N), else None."""
    number = screen.split("-")[1] if screen.count("-") >= 1 else ""
    return int(number) if number.isdigit() else None


def entry_target(read: Sequence[int | None], truth: Sequence[int]) -> tuple[int, ...]:
    """The values to enter die by die, as a parent would: each die read right keeps its
    value (and place), the others get the values left over, in order."""
    left = list(truth)
    kept: list[int | None] = []
    for value in read[:len(truth)]:
        if value is not None and value in left:
            left.remove(value)
            kept.append(value)
        else:
            kept.append(None)
    kept += [None] * (len(truth) - len(kept))
    return tuple(v if v is not None else left.pop(0) for v in kept)


class GestureQueue:
    """:class:`~einhorn_table.ports.Controls` fed by hand: taps put in, polled out."""

    description = "autopilot"
    simulated = True

    def __init__(self) -> None:
        self._queue: list[Gesture] = []
        self._time = 0.0

    def tap(self, button: Button, player: int = 0) -> None:
        self._time += 0.1
        self._queue.append(Gesture(player, GestureKind.TAP, (button,), self._time))

    def chord(self, buttons: tuple[Button, Button], player: int = 0) -> None:
        self._time += 0.1
        self._queue.append(Gesture(player, GestureKind.CHORD, buttons, self._time))

    def poll(self) -> list[Gesture]:
        gestures, self._queue = self._queue, []
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        return ()

    def close(self) -> None:
        self._queue = []
