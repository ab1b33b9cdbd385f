"""The doctor and the camera sources as a parent installing the table meets them: a Pi
camera that stalls, sources pointed at the wrong kind of path, a broken table's file."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from table_helpers import players_toml
from test_hardware_picamera2 import SMALL, FakePicamera2

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.opencv_source import WebcamSource
from einhorn_table.adapters.picamera2_source import FRAME_TIMEOUT_S, Picamera2Source
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.sources import create_source
from einhorn_table.adapters.vision_tray import VisionTray, make_watcher
from einhorn_table.cli import doctor as doctor_cli
from einhorn_table.doctor import checks, system_checks
from einhorn_table.table import events
from einhorn_table.vision.results import FrameReading


@pytest.fixture(autouse=True)
def _no_running_service(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's service is taken as not running here, whatever this machine runs."""
    monkeypatch.setattr(system_checks, "service_state", lambda: "inactive")

#: Frames of every fake camera in a test, counted together: a camera opened again
#: goes on with later sensor timestamps, as a real one does (they count from boot).
_FRAMES = itertools.count(1)


class TimedPicamera2(FakePicamera2):
    """A picamera2 whose captures can be waited for with a timeout (``wait=False``, then
    ``wait(job, timeout=...)``), as picamera2's manual describes; ``stalled``: frames
    stop coming (a loose ribbon cable, "Camera frontend has timed out!"). A capture
    waited for without a timeout would then never return; stop() would wait behind a
    capture left waiting."""

    def __init__(self, camera_num: int = 0, *, stalled: bool = False) -> None:
        super().__init__(camera_num)
        self.stalled = stalled
        self.waits: list[float | None] = []
        self.pending: list[Callable[[], Any]] = []

    def _step(self) -> dict[str, Any]:
        metadata = super()._step()
        metadata["SensorTimestamp"] = 1_000_000_000 + next(_FRAMES) * 33_333_333
        return metadata

    def _job(self, work: Callable[[], Any], wait: bool | None) -> Any:
        if wait is False:
            self.pending.append(work)
            return work
        if self.stalled:
            pytest.fail("a capture waited for without a timeout: it would never return")
        return work()

    def capture_arrays(self, names: list[str], wait: bool | None = None) -> Any:
        return self._job(lambda: FakePicamera2.capture_arrays(self, names), wait)

    def capture_metadata(self, wait: bool | None = None) -> Any:
        return self._job(lambda: FakePicamera2.capture_metadata(self), wait)

    def autofocus_cycle(self, wait: bool | None = None) -> Any:
        return self._job(lambda: FakePicamera2.autofocus_cycle(self), wait)

    def wait(self, job: Callable[[], Any], timeout: float | None = None) -> Any:
        self.waits.append(timeout)
        if self.stalled:
            raise TimeoutError
        self.pending.remove(job)
        return job()

    def cancel_all_and_flush(self) -> None:
        self.calls.append("cancel_all_and_flush")
        self.pending.clear()

    def stop(self) -> None:
        if self.pending:
            pytest.fail("stop() behind a capture still waiting would never return")
        super().stop()


def test_a_pi_camera_that_stops_sending_is_told_within_the_timeout_and_can_be_closed(
) -> None:
    camera = TimedPicamera2()
    source = Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera)
    source.open()
    assert source.read() is not None
    assert set(camera.waits) <= {FRAME_TIMEOUT_S, 10.0}  # every capture waited with a limit
    camera.stalled = True
    with pytest.raises(SourceError, match=r"stopped sending pictures \(none came in 2 s\)"):
        source.read()
    source.close()
    assert camera.calls[-3:] == ["cancel_all_and_flush", "stop", "close"]


def test_a_pi_camera_that_sends_nothing_from_the_start_is_refused_not_waited_for() -> None:
    camera = TimedPicamera2(stalled=True)
    source = Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera)
    with pytest.raises(SourceError, match="ribbon cable"):
        source.open()
    assert camera.calls[-2:] == ["stop", "close"]  # given back, for the next try


def test_the_table_goes_on_without_a_stalled_pi_camera_and_takes_it_back() -> None:
    cameras = [TimedPicamera2(), TimedPicamera2(stalled=True), TimedPicamera2()]
    opened: list[TimedPicamera2] = []

    def factory(number: int) -> TimedPicamera2:
        opened.append(cameras[len(opened)])
        return opened[-1]

    clock = FakeClock()
    source = Picamera2Source(clock, SMALL, camera_factory=factory)
    tray = VisionTray(source, make_watcher(), lambda image: FrameReading(()), clock)
    told: list[Any] = []
    for _ in range(3):
        told += tray.poll()
        clock.advance(0.1)
    cameras[0].stalled = True  # the cable works loose mid-match
    for _ in range(80):  # 8 s: reopened (and still stalled), then the camera comes back
        told += tray.poll()
        clock.advance(0.1)
    lost = [e for e in told if isinstance(e, events.CameraLost)]
    assert len(lost) == 1 and "stopped sending pictures" in lost[0].reason
    assert any(isinstance(e, events.CameraBack) for e in told)
    assert len(opened) == 3 and tray.lost is None
    frame = source.read()
    assert frame is not None and np.array_equal(frame.image.shape, (48, 64, 3))


# --- sources pointed at the wrong kind of path -----------------------------------------


def test_a_folder_source_given_a_picture_names_the_folder_to_give(tmp_path: Path) -> None:
    picture = tmp_path / "000000.png"
    cv2.imwrite(str(picture), np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(SourceError) as error:
        create_source(f"dir:{picture}").open()
    assert "is a picture, not a folder" in str(error.value)
    assert f'"dir:{tmp_path}"' in str(error.value)
    assert "does not exist" not in str(error.value)


def test_a_video_source_given_a_folder_says_to_use_dir(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as error:
        create_source(f"file:{tmp_path}").open()
    assert "is a folder, not a video file" in str(error.value)
    assert f"dir:{tmp_path}" in str(error.value)


def test_a_match_file_given_as_the_camera_is_not_called_a_broken_video(tmp_path: Path) -> None:
    match = tmp_path / "family-evening.jsonl"
    match.write_text('{"setup": {}}\n', encoding="utf-8")
    with pytest.raises(SourceError) as error:
        create_source(str(match)).open()
    message = str(error.value)
    assert "is a match file" in message and f"replay {match}" in message
    assert "Convert it to MP4" not in message


def test_a_missing_webcam_suggests_another_number_than_the_one_tried() -> None:
    with pytest.raises(SourceError) as error:
        WebcamSource(7, FakeClock()).open()
    assert "(opencv:0)" in str(error.value)


# --- the doctor's report ----------------------------------------------------------------


def _doctor(tmp_path: Path, *options: str) -> None:
    doctor_cli.main(["--frames", "3", "--state-dir", str(tmp_path / "state"), *options])


def test_a_table_file_that_does_not_load_still_has_its_camera_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    table = tmp_path / "table.toml"
    # One player only: the file does not load, but its camera is named all the same.
    table.write_text(f'camera = "dir:{tmp_path / "frames"}"\n'
                     + players_toml(("Ana", 1, "white")), encoding="utf-8")
    _doctor(tmp_path, "--table", str(table))
    out = capsys.readouterr().out
    assert f"FAIL  camera       dir:{tmp_path / 'frames'}" in out
    assert "synthetic table" not in out.split("\n\n")[1]  # (the report's lines)


def test_the_camera_checked_in_place_of_an_unreadable_table_file_s_is_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    table = tmp_path / "table.toml"
    table.write_text('camera = "opencv:3\n', encoding="utf-8")  # no closing quote
    _doctor(tmp_path, "--table", str(table))
    out = " ".join(capsys.readouterr().out.split())
    assert "(the default camera: " in out and "names none that could be read" in out


def test_a_recording_of_one_picture_is_not_said_to_run_at_1_frame(
    tmp_path: Path,
) -> None:
    picture = tmp_path / "one.png"
    cv2.imwrite(str(picture), np.full((48, 64, 3), 90, np.uint8))
    result = checks.check_camera(f"file:{picture}", FakeClock(), frames=5)
    assert "64x48, 1 picture only (too few to measure the frame rate)" in result.detail
    assert " at 1 frame" not in result.detail


def test_an_empty_camera_table_is_not_called_camera_settings(tmp_path: Path) -> None:
    profile = tmp_path / "cal.toml"
    profile.write_text("version = 1\n[camera]\n[tray]\n[dice]\n", encoding="utf-8")
    result, _ = checks.check_profile(profile)
    assert result.detail == f"{profile}: version 1"
    profile.write_text("version = 1\n[camera]\nexposure_time_us = 8000\n", encoding="utf-8")
    result, _ = checks.check_profile(profile)
    assert result.detail.endswith(", with camera settings")


def test_the_doctor_s_help_reads_as_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        doctor_cli.main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and "sudo systemctl stop einhorn-table" in out


# --- a webcam plugged back in -----------------------------------------------------------


class FakeCapture:
    """cv2.VideoCapture of a webcam whose own size is ``native``; ``obeys``: it takes
    the size asked for."""

    def __init__(self, native: tuple[int, int], obeys: bool) -> None:
        self.native, self.obeys = native, obeys
        self.asked: dict[int, float] = {}
        self.unplugged = False

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.unplugged:
            return False, None
        width, height = self.native
        if self.obeys and cv2.CAP_PROP_FRAME_WIDTH in self.asked:
            width = int(self.asked[cv2.CAP_PROP_FRAME_WIDTH])
            height = int(self.asked[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.zeros((height, width, 3), np.uint8)

    def release(self) -> None:
        pass


def _webcams(monkeypatch: pytest.MonkeyPatch, *cameras: FakeCapture) -> list[FakeCapture]:
    plugged = list(cameras)
    opened: list[FakeCapture] = []

    def capture(number: int) -> FakeCapture:
        opened.append(plugged.pop(0))
        return opened[-1]

    monkeypatch.setattr(cv2, "VideoCapture", capture)
    return opened


def test_a_webcam_plugged_back_in_is_asked_for_the_size_it_sent_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened = _webcams(monkeypatch, FakeCapture((640, 480), True),
                      FakeCapture((1280, 720), True))
    source = WebcamSource(0, FakeClock())
    source.open()
    assert source.read() is not None
    opened[0].unplugged = True
    with pytest.raises(SourceError, match="stopped sending pictures"):
        source.read()
    source.close()
    source.open()  # as the table does, every few seconds, once it is plugged back in
    frame = source.read()
    assert frame is not None and frame.image.shape[:2] == (480, 640)
    assert opened[1].asked[cv2.CAP_PROP_FRAME_WIDTH] == 640


def test_a_webcam_sending_pictures_of_another_shape_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _webcams(monkeypatch, FakeCapture((640, 480), True), FakeCapture((1280, 720), False))
    source = WebcamSource(0, FakeClock())
    source.open()
    assert source.read() is not None
    source.close()
    source.open()
    with pytest.raises(SourceError) as error:
        source.read()
    assert "now sends 1280x720 pictures, not 640x480 as before" in str(error.value)
