"""The review of the button stations, the camera, the doctor, the history and the
commands (change 11): what a family or a club would have hit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from test_doctor_review import FakeCapture, TimedPicamera2, _webcams
from test_hardware_picamera2 import FakePicamera2

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.opencv_source import WebcamSource
from einhorn_table.adapters.picamera2_source import Picamera2Source
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.ports import Button, GestureKind, RawButtonEvent
from einhorn_table.stations.gestures import GestureDecoder, GestureTiming

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


# --------------------------------------------------- a chord's button stuck down


def test_a_chord_button_stuck_down_after_the_chord_does_not_stop_its_station() -> None:
    """The help chord pressed, then ✗ (one of its buttons) stays down: a toy lying on
    it, or a sticky button. docs/buttons.md: a button held down for minutes does not
    stop the other buttons; the station's taps were all ignored until it came up."""
    decoder = GestureDecoder(GestureTiming())
    feed = [RawButtonEvent(0, E, True, 1.0), RawButtonEvent(0, D, True, 1.05)]  # chord
    feed += [RawButtonEvent(0, E, False, 1.3)]  # ✗ stays down from here on
    feed += [RawButtonEvent(0, W, True, 3.0), RawButtonEvent(0, W, False, 3.1)]  # a tap
    gestures = []
    for event in feed:
        gestures += decoder.feed(event)
    gestures += decoder.tick(10.0)
    assert [(g.kind, g.buttons) for g in gestures] == [
        (GestureKind.CHORD, (E, D)), (GestureKind.TAP, (W,))]
    gestures = decoder.feed(RawButtonEvent(0, D, False, 11.0))  # let go at last: nothing
    assert gestures == []


def test_a_chord_let_go_sloppily_still_makes_no_tap() -> None:
    """Within the long-press time of a chord, its buttons' re-presses stay ignored."""
    decoder = GestureDecoder(GestureTiming())
    feed = [RawButtonEvent(0, W, True, 1.0), RawButtonEvent(0, E, True, 1.05),
            RawButtonEvent(0, E, False, 1.3), RawButtonEvent(0, E, True, 1.4),
            RawButtonEvent(0, W, False, 1.5), RawButtonEvent(0, E, False, 1.6)]
    gestures = []
    for event in feed:
        gestures += decoder.feed(event)
    gestures += decoder.tick(5.0)
    assert [(g.kind, g.buttons) for g in gestures] == [(GestureKind.CHORD, (W, E))]


# --------------------------------------------------- a Pi camera at a low frame rate


class SlowPicamera2(TimedPicamera2):
    """A working picamera2 at ``frame_rate`` frames a second: each capture is done a
    frame later; the first after start() once libcamera has hidden ``hidden`` frames
    while its automatics converge; an autofocus sweep takes ``sweep`` frames."""

    def __init__(self, frame_rate: float, hidden: int = 7, sweep: int = 40) -> None:
        super().__init__()
        self.frame_time = 1.0 / frame_rate
        self.hidden, self.sweep = hidden, sweep
        self.first = True
        self.jobs: dict[int, float] = {}

    def _job(self, work: Callable[[], Any], wait: bool | None) -> Any:
        job = super()._job(work, wait)
        frames = 1 + (self.hidden if self.first else 0)
        if getattr(work, "sweep", False):
            frames += self.sweep
        self.jobs[id(job)] = frames * self.frame_time
        self.first = False
        return job

    def autofocus_cycle(self, wait: bool | None = None) -> Any:
        def sweep() -> Any:
            return FakePicamera2.autofocus_cycle(self)

        sweep.sweep = True  # type: ignore[attr-defined]
        return self._job(sweep, wait)

    def wait(self, job: Callable[[], Any], timeout: float | None = None) -> Any:
        takes = self.jobs.pop(id(job))
        if timeout is not None and takes > timeout:
            self.waits.append(timeout)
            raise TimeoutError
        return super().wait(job, timeout)


@pytest.mark.parametrize("frame_rate", [1.0, 2.0, 30.0])
def test_a_pi_camera_at_a_low_frame_rate_opens_and_sends(frame_rate: float) -> None:
    """frame_rate down to 1 is allowed (the calibration's long exposures): its first
    frame comes seconds after the start, an autofocus sweep takes tens of seconds, and
    each frame a second. The 2 s wait told such a working camera lost, for ever."""
    camera = SlowPicamera2(frame_rate)
    settings = CameraSettings(size=(64, 48), lores_size=(32, 24), frame_rate=frame_rate)
    source = Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera)
    source.open()
    try:
        for _ in range(3):
            assert source.read() is not None
    finally:
        source.close()
    assert "autofocus_cycle" in camera.calls


def test_a_stalled_pi_camera_at_a_low_frame_rate_is_still_told_lost() -> None:
    camera = SlowPicamera2(1.0)
    settings = CameraSettings(size=(64, 48), lores_size=(32, 24), frame_rate=1.0)
    source = Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera)
    source.open()
    assert source.read() is not None
    camera.stalled = True
    with pytest.raises(SourceError, match=r"none came in 3 s"):
        source.read()
    source.close()


# --------------------------------------------------- a webcam's odd first pictures


class StartingCapture(FakeCapture):
    """A webcam that sends ``odd`` pictures of 640x480 as it starts, then its own size."""

    def __init__(self, native: tuple[int, int], odd: int) -> None:
        super().__init__(native, True)
        self.odd = odd

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.odd and not self.unplugged:
            self.odd -= 1
            return True, np.zeros((480, 640, 3), np.uint8)
        return super().read()


def test_a_webcam_whose_first_picture_is_of_another_size_goes_on_sending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its first picture 640x480, then 1280x720: every picture after the first was
    refused as "another shape", and the table never saw the tray."""
    opened = _webcams(monkeypatch, StartingCapture((1280, 720), odd=1),
                      StartingCapture((1280, 720), odd=2))
    source = WebcamSource(0, FakeClock())
    source.open()
    sizes = []
    for _ in range(4):
        frame = source.read()
        assert frame is not None
        sizes.append(frame.image.shape[:2])
    assert sizes[1:] == [(720, 1280)] * 3
    opened[0].unplugged = True
    with pytest.raises(SourceError, match="stopped sending pictures"):
        source.read()
    source.close()
    source.open()  # plugged back in: its two odd pictures are skipped
    frame = source.read()
    assert frame is not None and frame.image.shape[:2] == (720, 1280)
    assert opened[1].asked[cv2.CAP_PROP_FRAME_WIDTH] == 1280


# --------------------------------------------------- record: the table's camera, as set


def test_record_sets_the_pi_camera_as_the_table_s_calibration_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """play sets the Pi camera by the calibration (size, frame rate, exposure, focus);
    record took the table's camera but none of that: its frames, of another size and
    light, did not reproduce what the table saw."""
    from einhorn_table.adapters import sources
    from einhorn_table.cli import main

    monkeypatch.chdir(tmp_path)
    Path("table.toml").write_text(
        'camera = "picamera2"\ncalibration = "cal.toml"\n'
        '[[player]]\nname = "Ana"\n[[player]]\nname = "Ben"\n', encoding="utf-8")
    Path("cal.toml").write_text(
        "version = 1\n[camera]\nsize = [1640, 1232]\nframe_rate = 15.0\n", encoding="utf-8")
    asked: list[tuple[str, Any]] = []
    real = sources.create_source

    def create(text: str, **options: Any) -> Any:
        asked.append((text, options.get("camera_settings")))
        return real("synth:width=96,height=72", clock=options.get("clock"))

    monkeypatch.setattr(sources, "create_source", create)
    assert main(["record", "frames", "--seconds", "0.2"]) == 0
    assert asked[0][0] == "picamera2"
    settings = asked[0][1]
    assert settings is not None
    assert (settings.size, settings.frame_rate) == ((1640, 1232), 15.0)
    # A webcam named on the command line: the table's files are not needed.
    Path("cal.toml").write_text("version = 1\n[camera]\nshutter = 5\n", encoding="utf-8")
    assert main(["record", "more", "--seconds", "0.2", "--source", "opencv:0"]) == 0
    assert asked[-1] == ("opencv:0", None)
    capsys.readouterr()


# --------------------------------------------------- charts: a stand-in that is a name


def test_a_stand_in_is_never_a_name_a_player_has(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A guest entered as "player A" and 王芳, with no CJK font here: 王芳 was written
    "player A" too, two lines of one name in the chart and "player A = 王芳" told."""
    pytest.importorskip("matplotlib")
    from history_helpers import bot_match, open_store

    from einhorn_table.history import charts
    from einhorn_table.history.stats import gather

    with open_store(tmp_path / "state") as store:
        match = bot_match(2, ("王芳", "player A", "さくら", "Ben"))
        recorder = store.begin(match.setup)
        for item in match.record:
            recorder.append(item)
        stats = gather(store)
    monkeypatch.setattr(charts, "_fallback_fonts", lambda: ())
    names = charts.chart_names(stats)
    shown = [names.shown(p.name) for p in stats.players]
    assert len(set(shown)) == len(shown) == 4
    assert names.stand_ins["王芳"] != "player A" and names.stand_ins["さくら"] != "player A"


# --------------------------------------------------- simulate: who meets whom


@pytest.mark.parametrize("seats", [2, 3])
def test_at_fewer_seats_than_strategies_every_strategy_meets_every_other(seats: int) -> None:
    """simulate --players 2 with its four strategies: silent only ever met random and
    bidder, never odds, and its 58.6 % of wins (against the weakest) read as better than
    it is (41.0 % once it meets all three)."""
    import itertools
    import math

    from einhorn_table.simulation.simulate import seating

    names = ["silent", "random", "odds", "bidder"]
    cycle = len(names) * math.perm(len(names) - 1, seats - 1)
    line_ups = [tuple(seating(names, seats, match)) for match in range(cycle)]
    assert sorted(line_ups) == sorted(itertools.permutations(names, seats))
    for block in range(0, cycle, len(names)):  # every strategy in every seat, each block
        for seat in range(seats):
            column = [line_up[seat] for line_up in line_ups[block:block + len(names)]]
            assert sorted(column) == sorted(names)


def test_a_house_of_many_strategies_is_seated_without_listing_every_line_up() -> None:
    from einhorn_table.simulation.simulate import seating

    names = [f"s{n}" for n in range(40)]
    line_up = seating(names, 6, 10**9)
    assert len(set(line_up)) == 6


# --------------------------------------------------- dir: given a match file


def test_dir_given_a_match_file_says_what_it_is_not_to_try_file() -> None:
    """"dir:family-evening.jsonl" was told to try "file:family-evening.jsonl", which is
    refused in its turn: it is a match file, to see with replay."""
    from conftest import REPO

    from einhorn_table.adapters.sources import create_source

    match = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"
    with pytest.raises(SourceError) as error:
        create_source(f"dir:{match}").open()
    said = str(error.value)
    assert "is a match file" in said and "replay" in said and "file:" + str(match) not in said


def test_record_goes_on_where_the_table_s_state_directory_may_not_be_looked_into(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The table's file names the service's state directory (0750, its user's): the
    person recording may not look into it. Looking for the calibration there must not
    stop the recording (a PermissionError traceback); the camera keeps its own settings."""
    from einhorn_table.calibration import paths
    from einhorn_table.cli import main

    monkeypatch.chdir(tmp_path)
    Path("table.toml").write_text(
        'camera = "synth:width=96,height=72"\nstate = "/var/lib/einhorn-table"\n'
        '[[player]]\nname = "Ana"\n[[player]]\nname = "Ben"\n', encoding="utf-8")

    def not_allowed(state: Any = None, environ: Any = None) -> Path | None:
        raise PermissionError(13, "Permission denied",
                              "/var/lib/einhorn-table/calibration.toml")

    monkeypatch.setattr(paths, "state_profile", not_allowed)
    assert main(["record", "frames", "--seconds", "0.2"]) == 0
    assert "Saved" in capsys.readouterr().out
    # The Pi camera: told that it records with its own settings, and how to use the table's.
    from einhorn_table.adapters import sources

    real = sources.create_source
    monkeypatch.setattr(sources, "create_source", lambda text, **options: real(
        "synth:width=96,height=72", clock=options.get("clock")))
    assert main(["record", "more", "--seconds", "0.2", "--source", "picamera2"]) == 0
    err = capsys.readouterr().err
    assert "/var/lib/einhorn-table" in err and "sudo -u einhorn" in err


def test_strategies_given_twice_all_play(capsys: pytest.CaptureFixture[str]) -> None:
    """--strategies odds --strategies silent: odds was dropped without a word."""
    from einhorn_table.cli import main

    assert main(["simulate", "--matches", "4", "--players", "2", "--strategies", "odds",
                 "--strategies", "silent"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("seats: odds, silent ")
