"""The demo's keyboard when a frame is held up (the tray reading a roll takes a good
part of a second, more on a Pi): pygame's key events carry no time of their own, so the
keyboard learns of a key let go only at the end of that frame. A quick tap across it was
told as a hold (key 2 in the auction: five stones more instead of one); a real hold still
is one. The keys are driven as the demo's loop does: the keyboard polled once a frame,
the frame's key events handed over at its end."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.keyboard_controls import KeyboardControls  # noqa: E402
from einhorn_table.ports import Button, Gesture, GestureKind  # noqa: E402

FRAME = 1 / 30


class Frames:
    """The demo's loop around the keyboard: each frame polls it, then hands it the key
    events that came during the frame (as the screen reads pygame's queue)."""

    def __init__(self) -> None:
        self.clock = FakeClock(100.0)
        self.keys = KeyboardControls(self.clock, read_event_queue=False)
        self.told: list[Gesture] = []
        self.frame()

    def frame(self, *events: tuple[int, str], seconds: float = FRAME) -> None:
        self.clock.advance(seconds)  # (the tray's read takes its time first)
        self.told += self.keys.poll()
        for kind, char in events:
            self.keys.handle(pygame.event.Event(
                kind, key=getattr(pygame, f"K_{char}"),
                scancode=getattr(pygame, f"KSCAN_{char.upper()}"), mod=0))

    def kinds(self) -> list[tuple[GestureKind, tuple[Button, ...]]]:
        for _ in range(3):
            self.frame()
        return [(g.kind, g.buttons) for g in self.told]


@pytest.mark.parametrize("held_up", [0.8, 1.5])
def test_a_tap_across_a_held_up_frame_is_a_tap(held_up: float) -> None:
    frames = Frames()
    frames.frame((pygame.KEYDOWN, "2"))
    frames.frame((pygame.KEYUP, "2"), seconds=held_up)  # let go during the long frame
    assert frames.kinds() == [(GestureKind.TAP, (Button.WUNSCH,))]


def test_a_hold_across_a_held_up_frame_is_still_a_hold() -> None:
    frames = Frames()
    frames.frame((pygame.KEYDOWN, "3"))
    frames.frame(seconds=0.8)  # still down after the long frame
    for _ in range(3):
        frames.frame()
    assert [(g.kind, g.buttons) for g in frames.told] == [(GestureKind.LONG, (Button.EINHORN,))]
    frames.frame((pygame.KEYUP, "3"))
    assert frames.kinds() == [(GestureKind.LONG, (Button.EINHORN,))]  # (told once)


def test_frames_on_time_keep_taps_and_holds_as_they_were() -> None:
    frames = Frames()
    frames.frame((pygame.KEYDOWN, "1"))
    for _ in range(5):
        frames.frame()
    frames.frame((pygame.KEYUP, "1"))  # some 0.2 s: a tap
    frames.frame((pygame.KEYDOWN, "2"))
    for _ in range(24):
        frames.frame()  # 0.8 s down: a hold, told while still held
    frames.frame((pygame.KEYUP, "2"))
    frames.frame((pygame.KEYDOWN, "1"), (pygame.KEYDOWN, "4"))
    frames.frame((pygame.KEYUP, "1"), (pygame.KEYUP, "4"))
    assert frames.kinds() == [(GestureKind.TAP, (Button.UNVERMEIDLICH,)),
                              (GestureKind.LONG, (Button.WUNSCH,)),
                              (GestureKind.CHORD, (Button.UNVERMEIDLICH, Button.DREIFALTIGKEIT))]
