"""The synth: source rolls virtual dice when asked, through the same factory as a camera."""

from __future__ import annotations

import numpy as np
import pytest

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.sources import create_source
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.ports import FrameSource


def test_synth_shows_the_empty_tray_until_a_roll_then_the_roll_then_settled_dice() -> None:
    clock = FakeClock(10.0)
    source = create_source("synth:seed=3,players=4,width=320,height=240", clock=clock)
    assert isinstance(source, SynthSource) and isinstance(source, FrameSource)
    assert source.simulated
    with source:
        first = source.read()
        assert first is not None and first.size == (320, 240)
        assert source.last is not None and source.last.phase == "empty"
        thrown = source.roll([2, 4, 6], player=3)
        assert thrown == (2, 4, 6)
        phases = []
        while source.frames_queued:
            frame = source.read()
            assert frame is not None and source.last is not None
            phases.append(source.last.phase)
        assert phases[0] == "empty" and "hand" in phases and "moving" in phases
        assert phases[-1] == "settled"
        # After the roll's frames: the same dice lie still, frame after frame.
        for _ in range(3):
            assert source.read() is not None
            assert source.last is not None and source.last.phase == "settled"
            assert sorted(d.value or 0 for d in source.last.dice) == [2, 4, 6]
        source.clear()
        while source.frames_queued:
            source.read()
        source.read()
        assert source.last is not None and source.last.dice == ()


def test_mount_1_sets_the_synthetic_camera_up_as_the_mount_guide_says() -> None:
    """Table shows around the tray (the tray finder finds its floor well inside the
    picture), the camera is as high above the tray as the picture is wide, and the
    dice are large."""
    from einhorn_table.calibration.tray_finder import find_tray

    floors = {}
    for text in ("synth:seed=3", "synth:seed=3,mount=1"):
        source = create_source(text, clock=FakeClock(0.0))
        assert isinstance(source, SynthSource)
        with source:
            frame = source.read()
            assert frame is not None
            corners = find_tray(frame.image)
            assert corners is not None
            floors[text] = np.asarray(corners)
            table = source.table
            size, height = table.die_size, table.perspective.camera_px
            assert ("mount guide's view" in source.description) == ("mount" in text)
    mount, default = floors["synth:seed=3,mount=1"], floors["synth:seed=3"]
    assert mount.min() > 60 > default.min()  # 480 px high: about 2 cm of table showing
    assert (size, height) == (40, 640.0)  # the last table opened: the mount guide's


def test_synth_frames_come_at_the_frame_rate_on_the_clock() -> None:
    clock = FakeClock(0.0)
    with create_source("synth:fps=20,width=160,height=120", clock=clock) as source:
        stamps = []
        for _ in range(4):
            frame = source.read()
            assert frame is not None
            stamps.append(frame.timestamp)
    assert stamps == pytest.approx([0.0, 0.05, 0.1, 0.15])
    assert clock.monotonic() == pytest.approx(0.15)


def test_the_same_seed_gives_the_same_frames() -> None:
    def frames(seed: int) -> list[np.ndarray]:
        with create_source(f"synth:seed={seed},width=160,height=120", clock=FakeClock()) as s:
            assert isinstance(s, SynthSource)
            s.roll()
            out = []
            while s.frames_queued:
                frame = s.read()
                assert frame is not None
                out.append(frame.image)
            return out

    a, b, c = frames(5), frames(5), frames(6)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len(a) != len(c) or not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_rolling_before_opening_is_a_programming_error() -> None:
    with pytest.raises(RuntimeError, match="open"):
        SynthSource(FakeClock()).roll()


def test_the_roll_watcher_sees_one_settled_roll_from_the_synth_source() -> None:
    """The frame source contract is what the vision side needs: frames and timestamps
    from synth: fed to the roll watcher give motion, then exactly one settled roll."""
    from einhorn_table.vision.watcher import EventKind, RollWatcher

    watcher = RollWatcher()
    events = []
    with create_source("synth:seed=7", clock=FakeClock()) as source:
        assert isinstance(source, SynthSource)
        for _ in range(10):  # the empty tray
            frame = source.read()
            assert frame is not None
            events += watcher.feed(frame.image, frame.timestamp)
        source.roll([3, 3, 5], player=0)
        for _ in range(source.frames_queued + 45):  # the roll, then 1.5 s of still dice
            frame = source.read()
            assert frame is not None
            events += watcher.feed(frame.image, frame.timestamp)
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.MOTION_STARTED) == 1
    assert kinds.count(EventKind.SETTLED) == 1
    assert kinds.index(EventKind.MOTION_STARTED) < kinds.index(EventKind.SETTLED)
