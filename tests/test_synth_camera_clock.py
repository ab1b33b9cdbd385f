"""The synthetic camera runs on the clock, as a camera does: read slowly (the demo on a
Pi 4 or an old laptop, 100 ms a frame; a whole second while a roll is read), it shows
the frame due by the clock and never draws those it skips, so a roll lasts its own
seconds whatever the frame rate; read at its own rate it shows every frame, just as the
synthetic table draws them."""

from __future__ import annotations

import itertools
import os
import random
import statistics
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.source_base import Pacer
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.vision.synth import SynthTable

SIZE = (240, 180)


def read_roll(frame_seconds: float, values: list[int]) -> tuple[list[float], int]:
    """Reads a roll's frames with ``frame_seconds`` on the clock between reads: the
    camera timestamps read until no frame of the roll is left, and the frames drawn."""
    clock = FakeClock(50.0)
    camera = SynthSource(clock, seed=4, players=2, size=SIZE)
    camera.open()
    camera.read()  # (the empty tray; frame 0)
    drawn = []
    draw = camera.table.draw

    def counted(planned: object) -> object:
        drawn.append(planned)
        return draw(planned)  # type: ignore[arg-type]

    camera.table.draw = counted  # type: ignore[method-assign]
    camera.roll(values, player=1, settle_frames=2)
    stamps = []
    while camera.frames_queued:
        clock.advance(frame_seconds)
        frame = camera.read()
        assert frame is not None
        stamps.append(frame.timestamp)
    return stamps, len(drawn)


def test_a_roll_lasts_its_own_seconds_when_the_frames_are_slow() -> None:
    quick, drawn_quick = read_roll(1 / 30, [2, 5, 6])
    slow, drawn_slow = read_roll(0.1, [2, 5, 6])
    # (The same roll: its frames at 30 a second, one a read on a quick computer.)
    assert drawn_quick == len(quick) >= 20
    roll_seconds = quick[-1] - quick[0]
    assert slow[-1] - slow[0] == pytest.approx(roll_seconds, abs=0.1), \
        "read every 100 ms, the roll lasted another time on the clock than its own"
    # The camera's timestamps are the clock's, a third of the frames shown, and only
    # those drawn.
    assert all(b - a == pytest.approx(0.1, abs=1e-6) for a, b in itertools.pairwise(slow))
    assert drawn_slow == len(slow) <= len(quick) // 3 + 1


def test_a_second_long_frame_skips_the_throw_and_draws_only_what_is_shown() -> None:
    stamps, drawn = read_roll(1.0, [1, 3, 4])
    assert drawn == len(stamps) == 1
    assert stamps == [pytest.approx(1.0)]


def test_read_at_its_own_rate_the_camera_shows_every_frame_the_table_draws() -> None:
    clock = FakeClock(0.0)
    camera = SynthSource(clock, seed=9, players=3, size=SIZE)
    camera.open()
    first = camera.read()
    thrown = camera.roll([4, 4, 1], player=2, settle_frames=3)
    shown = []
    while camera.frames_queued:
        frame = camera.read()  # (the camera sleeps on the clock until each is due)
        assert frame is not None
        shown.append(frame)
    assert [f.index for f in shown] == list(range(1, len(shown) + 1))
    assert shown[-1].timestamp == pytest.approx(len(shown) / 30)
    table = SynthTable(9, size=SIZE, players=3)
    assert first is not None and np.array_equal(first.image, table.settled_frames(1)[0].image)
    drawn = table.roll_sequence([4, 4, 1], player=2, settle_frames=3)
    assert thrown == (4, 4, 1) and len(drawn) == len(shown)
    assert all(np.array_equal(a.image, b.image) for a, b in zip(shown, drawn, strict=True))


def test_the_pacer_sleeps_until_the_next_frame_or_skips_to_the_last_one_due() -> None:
    clock = FakeClock(10.0)
    pacer = Pacer(clock, 20.0)
    assert pacer.next_frame(None) == 0 and clock.now == 10.0
    assert pacer.next_frame(0) == 1 and clock.now == pytest.approx(10.05)
    clock.advance(0.26)  # (five frames and a bit later: frames 2 to 5 missed)
    assert pacer.next_frame(1) == 6 and clock.now == pytest.approx(10.31)
    assert pacer.next_frame(6) == 7 and clock.now == pytest.approx(10.35)
    assert Pacer(clock, None).next_frame(41) == 42


def test_the_bots_demo_rolls_as_fast_on_the_clock_with_slow_frames(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pygame")
    from test_demo_frame_pacing import FramePacedClock

    from einhorn_table.adapters import clock as clocks
    from einhorn_table.adapters.vision_tray import VisionTray
    from einhorn_table.cli.table_app import DemoOptions, run_demo
    from einhorn_table.rules import get_variant
    from einhorn_table.table import events

    def roll_seconds(frame: float) -> float:
        """The median seconds on the demo's clock from a bot's throw to its result."""
        clock = FramePacedClock(frame)
        monkeypatch.setattr(clocks, "SystemClock", lambda: clock)
        throws: list[float] = []
        rolls: list[float] = []
        roll, poll = SynthSource.roll, VisionTray.poll

        def rolled(self: SynthSource, *args: object, **kwargs: object) -> tuple[int, ...]:
            throws.append(clock.now)
            return roll(self, *args, **kwargs)  # type: ignore[arg-type]

        def polled(self: VisionTray) -> list[events.TrayEvent]:
            told = poll(self)
            if any(isinstance(e, events.Settled) for e in told) and len(rolls) < len(throws):
                rolls.append(clock.now - throws[-1])
            return told

        monkeypatch.setattr(SynthSource, "roll", rolled)
        monkeypatch.setattr(VisionTray, "poll", polled)
        quick = replace(get_variant("einhorn"), name="quick", deal=2)
        run_demo(DemoOptions(
            names=["Ana", "Ben"], games=1, variant=quick, bots=frozenset({0, 1}),
            strategy="odds", chance=random.Random(5), seed=5, size=(400, 240),
            fullscreen=False, screenshots=None, state=tmp_path / f"state-{frame}",
            wall=lambda: datetime(2026, 1, 1, tzinfo=UTC), fast=False,
            camera_size=(320, 240)))
        assert len(rolls) >= 3
        return statistics.median(rolls)

    quick, slow = roll_seconds(1 / 30), roll_seconds(0.1)
    # (A frame of 100 ms may add a frame's wait here and there, not the roll twice over.)
    assert slow <= quick + 0.3, \
        f"a roll took {slow:.2f} s at 100 ms a frame, {quick:.2f} s at 33 ms"


def test_a_still_picture_is_composed_once_and_drawn_as_ever() -> None:
    table, fresh = SynthTable(6, size=SIZE, players=2), SynthTable(6, size=SIZE, players=2)
    composed = []
    compose = table._compose

    def counted(planned: object) -> object:
        composed.append(planned)
        return compose(planned)  # type: ignore[arg-type]

    table._compose = counted  # type: ignore[method-assign]
    table.still([3, 5, 2])
    fresh.still([3, 5, 2])
    lying = table.settled_frames(6)
    assert len(composed) == 1, "the dice lying still were drawn afresh at every frame"
    again = []
    for _ in range(6):
        fresh._still = None  # (composed anew each time)
        again.append(fresh.settled_frames(1)[0])
    assert all(np.array_equal(a.image, b.image) and a.dice == b.dice
               for a, b in zip(lying, again, strict=True))
    assert not np.array_equal(lying[0].image, lying[1].image)  # (the noise is new)
    # Another tray (a test's lamp), other dice: composed anew.
    table.tray = replace(table.tray, image=table.tray.image // 2)
    assert table.settled_frames(1)[0].image.mean() < 0.75 * lying[0].image.mean()
    table.still([1, 1, 1])
    assert len(composed) == 3


@pytest.mark.parametrize("unread", [0.1, 0.5, 3.0])
def test_a_roll_thrown_after_the_camera_went_unread_is_shown_from_its_start(
        unread: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # The frames due while nobody read the camera, before the throw, showed the tray as
    # it lay then: they were taken from the roll instead, its hand and tumble lost (a
    # throw after 3 s unread showed its dice lying at once, however fast it was read).
    clock = FakeClock(50.0)
    camera = SynthSource(clock, seed=4, players=2, size=SIZE)
    camera.open()
    camera.read()
    clock.advance(unread)  # (a screen busy, a step of the calibration thinking)
    camera.roll([2, 5, 6], player=1, settle_frames=2)
    planned = camera.frames_queued
    phases = []
    while camera.frames_queued:
        frame = camera.read()  # (read at the camera's own rate from the throw on)
        assert frame is not None and camera.last is not None
        phases.append(camera.last.phase)
        assert frame.timestamp > unread - 1e-9  # (no frame of the roll before its throw)
    assert len(phases) == planned and phases[3] == "hand", phases
    # Frames still queued when the camera went unread are the ones passed meanwhile.
    clock.advance(unread)
    camera.clear(player=1)
    camera.roll([1, 1, 2], player=0, settle_frames=2)
    camera.clear(player=0)
    left = camera.frames_queued
    clock.advance(unread)
    roll = camera.table.roll_plan([3, 3, 3], player=1, settle_frames=2)
    monkeypatch.setattr(camera.table, "roll_plan", lambda *args, **kwargs: roll)
    camera.roll([3, 3, 3], player=1, settle_frames=2)
    assert camera.frames_queued == max(left - round(unread * 30), 0) + len(roll)
