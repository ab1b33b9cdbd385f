"""A hand held still by a die near the tray's rim after the throw (synthetic scenes,
read as ``play`` reads). The watcher takes a thing lying still at the picture's edge
for part of the scene after ``scene_seconds``; a hand held over, or against, a die
came to be taken in together with that die, the reader saw two dice, and the table
asked the players about a roll it would have read right had it waited for the hand to
go. Now the tray holds such a roll back until the hand has gone (or a limit passed)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest
from test_watcher_edge import _reaching

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.replay_source import ReplaySource
from einhorn_table.adapters.vision_tray import HOLD_SECONDS, VisionTray, make_watcher
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import TrayReader
from einhorn_table.ports import Frame
from einhorn_table.table.events import CameraLost, MotionStarted, NotRolled, Settled, TrayEvent
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import DieReading, FrameReading
from einhorn_table.vision.synth import SynthFrame, SynthTable, mount_guide_view
from einhorn_table.vision.watcher import (
    EventKind,
    RollWatcher,
    WatcherConfig,
    WatchEvent,
)

FPS = 30.0
SCENE_SECONDS = WatcherConfig().scene_seconds


def _held_after_the_throw(seconds: float, *, over: float = 0.0, seed: int = 21
                          ) -> tuple[SynthTable, list[SynthFrame], int, int]:
    """Dice 6, 4, 4 thrown (mount guide's view), the 6 against the tray's bottom wall;
    the thrower's fingertips then rest on it (``over``: how far past its middle, in
    dice) for ``seconds``, and go. Also the frames where the hand came and went."""
    table = SynthTable(seed=seed, **mount_guide_view())
    values = [6, 4, 4]
    x0, y0, x1, y1 = table.geometry.floor
    places = [*table.against_walls([("bottom", 0.6)]),
              (x0 + 0.3 * (x1 - x0), y0 + 0.35 * (y1 - y0)),
              (x0 + 0.7 * (x1 - x0), y0 + 0.4 * (y1 - y0))]
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence(values, settle_frames=0, empty_frames=0)
    table.still(values, positions=places)
    die = places[0]
    hand = _reaching(table, (die[0], die[1] - over * table.die_size))
    came = len(frames)
    frames += [table.render(table.layout, hand=hand) for _ in range(round(seconds * FPS))]
    gone = len(frames)
    frames += table.settled_frames(30)
    return table, frames, came, gone


def _tray_events(table: SynthTable, frames: list[SynthFrame], **options: float
                 ) -> list[tuple[int, TrayEvent]]:
    """What the tray tells of ``frames`` as ``play`` runs it (watcher and reader, the
    reader in the tray's outline found in the calibration's picture), with the frame
    numbers it told them at."""
    calibrated = find_tray(table.empty().image)
    reader = TrayReader(ReaderProfile(), calibrated, 40.0, anchor=calibrated)
    times = table.frame_times(len(frames))
    clock = FakeClock(0.0)
    tray = VisionTray(ReplaySource([f.image for f in frames], times), make_watcher(), reader,
                      clock, follower=reader, **options)
    told: list[tuple[int, TrayEvent]] = []
    for i, t in enumerate(times):
        clock.now = t
        told += [(i, event) for event in tray.poll()]
    return told


def _rolls(told: list[tuple[int, TrayEvent]]) -> list[tuple[int, list[int]]]:
    return [(i, sorted(v or 0 for v in e.reading.values)) for i, e in told
            if isinstance(e, Settled) and e.reading.dice]


@pytest.mark.parametrize("over", [0.0, -0.55])
def test_a_roll_with_a_hand_held_still_by_a_die_at_the_rim_is_read_once_it_has_gone(
        over: float) -> None:
    """Fingertips on the die (or just touching it) for 4 s after the throw: the roll is
    read right, once, when the hand has gone; the table does not ask about two dice."""
    table, frames, _, gone = _held_after_the_throw(4.0, over=over)
    told = _tray_events(table, frames)
    rolls = _rolls(told)
    assert [values for _, values in rolls] == [[4, 4, 6]]
    assert gone <= rolls[0][0] <= gone + FPS  # (told once the hand has gone)
    assert sum(isinstance(e, MotionStarted) for _, e in told) == 1
    assert not [e for _, e in told if isinstance(e, NotRolled)]


def test_a_hand_resting_by_a_die_for_long_is_asked_about_after_the_limit() -> None:
    """A hand that stays is not waited for for ever: once the limit has passed the roll
    is told as read (one die gone into the empty tray's picture with the hand: two
    dice, and the table asks)."""
    hold = 2.0
    table, frames, came, _ = _held_after_the_throw(SCENE_SECONDS + hold + 2.0)
    told = _tray_events(table, frames, hold_seconds=hold)
    rolls = _rolls(told)
    assert len(rolls) == 1
    at, values = rolls[0]
    assert len(values) == 2  # (asked about: never three dice read wrong)
    waited = (at - came) / FPS
    assert SCENE_SECONDS + hold - 0.1 <= waited <= SCENE_SECONDS + hold + 0.6


def test_the_watcher_tells_where_it_took_in_a_hand_held_by_a_die_with_the_roll() -> None:
    """The settled event says where the watcher took something in during the throw
    (the hand, and the die under it); the hand's going, nothing."""
    table, frames, _, _ = _held_after_the_throw(4.0)
    watcher = RollWatcher()
    told = [e for i, f in enumerate(frames) for e in watcher.feed(f.image, i / FPS)
            if e.kind is EventKind.SETTLED]
    assert len(told) == 2
    taken = told[0].taken_in
    assert taken is not None
    die = table.layout[0]
    width, height = table.size
    small_x = int(die.x * taken.shape[1] / width)
    small_y = int(die.y * taken.shape[0] / height)
    assert taken[small_y, small_x] == 255
    assert np.count_nonzero(taken) < 0.15 * taken.size
    assert told[1].taken_in is None


def test_a_roll_without_anything_at_the_edge_is_told_without_taken_in() -> None:
    table = SynthTable(seed=3, size=(320, 240))
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=20)
    watcher = RollWatcher()
    told = [e for i, f in enumerate(frames) for e in watcher.feed(f.image, i / FPS)
            if e.kind is EventKind.SETTLED]
    assert [e.taken_in for e in told] == [None]


# The tray's holding back, with a scripted watcher and reader.


def _die(x: float, value: int = 4) -> DieReading:
    return DieReading(box=(x, 100.0, x + 20, 120.0), value=value, confidence=0.9,
                      color=(250, 250, 250))


@dataclass
class _Watcher:
    """Tells the scripted events at the frames' times; its empty tray is all grey."""

    script: dict[float, list[WatchEvent]]
    reference: np.ndarray | None = field(
        default_factory=lambda: np.full((120, 160, 3), 90, np.uint8))
    camera_warp: np.ndarray = field(default_factory=lambda: np.eye(2, 3))

    def feed(self, frame: np.ndarray, t: float) -> list[WatchEvent]:
        return self.script.get(t, [])

    def mark_empty(self, frame: np.ndarray) -> None:
        pass


@dataclass
class _Source:
    """Grey frames, each with a white die-sized patch per die read in it (160x120
    frames: the watcher's small size): at rows 100..120, 20 px wide from each left edge
    that ``patches(t)`` gives (three dice lying, unless told)."""

    times: list[float]
    lost_at: float | None = None
    patches: Callable[[float], Sequence[int]] = lambda t: (10, 60, 110)
    index: int = 0
    description: str = "scripted frames"
    simulated: bool = True

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self) -> Frame | None:
        t = self.times[min(self.index, len(self.times) - 1)]
        self.index += 1
        if self.lost_at is not None and t >= self.lost_at:
            return None
        image = np.full((120, 160, 3), 90, np.uint8)
        for x in self.patches(t):
            image[100:120, x:x + 20] = 250
        return Frame(image=image, timestamp=t, index=self.index - 1)


def _taken_in_over_first_die() -> np.ndarray:
    taken = np.zeros((120, 160), np.uint8)
    taken[95:120, 0:35] = 255
    return taken


def _run(script: dict[float, list[WatchEvent]], readings: list[FrameReading],
         until: float, *, lost_at: float | None = None) -> list[tuple[float, TrayEvent]]:
    times = [k / 10 for k in range(round(until * 10) + 1)]
    reads = iter(readings)
    clock = FakeClock(0.0)
    tray = VisionTray(_Source(times, lost_at), _Watcher(script), lambda image: next(reads),
                      clock)
    told: list[tuple[float, TrayEvent]] = []
    for t in times:
        clock.now = t
        told += [(t, e) for e in tray.poll()]
    return told


THREE = FrameReading((_die(10.0), _die(60.0), _die(110.0, 6)))


def _settled(t: float, taken_in: np.ndarray | None = None, *, same: bool = False
             ) -> WatchEvent:
    return WatchEvent(EventKind.SETTLED, t, same_as_last=same, taken_in=taken_in)


def test_a_roll_held_back_is_told_as_read_at_the_limit() -> None:
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [_settled(1.0, _taken_in_over_first_die())]}
    told = _run(script, [THREE], 1.0 + HOLD_SECONDS + 1.0)
    assert [(t, type(e)) for t, e in told] == [(0.0, MotionStarted),
                                               (pytest.approx(1.0 + HOLD_SECONDS), Settled)]


def test_while_a_roll_is_held_back_the_hand_going_is_no_new_motion() -> None:
    """The hand going (motion, then the dice still as they lay): one motion and the roll,
    read from the frame without the hand."""
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [_settled(1.0, _taken_in_over_first_die())],
              2.0: [WatchEvent(EventKind.MOTION_STARTED, 2.0)],
              2.5: [_settled(2.5, same=True)]}
    two = FrameReading((_die(60.0), _die(110.0, 6)))
    told = _run(script, [two, THREE], 4.0)
    assert [(t, type(e)) for t, e in told] == [(0.0, MotionStarted), (2.5, Settled)]
    settled = told[1][1]
    assert isinstance(settled, Settled)
    assert sorted(v or 0 for v in settled.reading.values) == [4, 4, 6]


def test_dice_lying_beside_what_was_taken_in_are_told_at_once() -> None:
    far = np.zeros((120, 160), np.uint8)
    far[0:20, 140:160] = 255  # a cup in the far corner
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)], 1.0: [_settled(1.0, far)]}
    told = _run(script, [THREE], 2.0)
    assert [(t, type(e)) for t, e in told] == [(0.0, MotionStarted), (1.0, Settled)]


def test_dice_taken_out_while_held_back_are_no_roll() -> None:
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [_settled(1.0, _taken_in_over_first_die())],
              2.0: [WatchEvent(EventKind.MOTION_STARTED, 2.0)],
              3.0: [WatchEvent(EventKind.EMPTIED, 3.0)]}
    told = _run(script, [THREE], 1.0 + HOLD_SECONDS + 1.0)
    assert [(t, type(e)) for t, e in told] == [(0.0, MotionStarted), (3.0, Settled)]
    settled = told[1][1]
    assert isinstance(settled, Settled) and not settled.reading.dice


def test_a_camera_lost_while_a_roll_is_held_back_forgets_it() -> None:
    """The players enter the dice by hand meanwhile; the roll held back is not told
    later as well."""
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [_settled(1.0, _taken_in_over_first_die())]}
    told = _run(script, [THREE], 1.0 + HOLD_SECONDS + 1.0, lost_at=2.0)
    assert [type(e) for _, e in told] == [MotionStarted, CameraLost]
