"""What an installer meets with calibration, the doctor and play's messages: the camera's
view kept in the calibration (a Pi camera read in its full view since an update), the
doctor checking the calibration play reads, and whole command lines to run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml
from test_hardware_picamera2 import FakePicamera2

from einhorn_table.adapters import picamera2_source
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.picamera2_source import Picamera2Source
from einhorn_table.adapters.source_base import CameraView
from einhorn_table.adapters.sources import create_source
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.calibration.camera_view import made_with_another_camera, view_note
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    DiceSection,
    ProfileError,
    TraySection,
    ViewSection,
    load_profile,
    save_profile,
)
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.cli import doctor as doctor_cli
from einhorn_table.cli import main
from einhorn_table.cli.calibrate import calibrate_command
from einhorn_table.cli.play import view_warning
from einhorn_table.doctor import checks
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.rules import StartRoll
from einhorn_table.table.loop import TableLoop
from einhorn_table.vision.synth import SynthTable, mount_guide_view

FULL_VIEW = CameraView("imx708", (2304, 1296))
MIDDLE_VIEW = CameraView("imx708", (1536, 864))
OLD_PI_CALIBRATION = "einhorn-table calibrate --source picamera2"


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from einhorn_table.doctor import system_checks

    monkeypatch.setattr(system_checks, "service_state", lambda: None)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "state"))


# ------------------------------------------------------------------ the view kept


def test_the_pi_camera_tells_the_view_it_reads_and_other_sources_none() -> None:
    source = Picamera2Source(FakeClock(), camera_factory=FakePicamera2)
    with source:
        assert source.view == FULL_VIEW  # the binned full-view mode of a Camera Module 3
    assert str(FULL_VIEW) == "imx708 in its 2304x1296 sensor mode"
    with create_source("synth:width=160,height=120", clock=FakeClock()) as synth:
        assert synth.view is None


def test_a_calibration_keeps_the_view_and_one_made_before_still_loads(tmp_path: Path) -> None:
    path = save_profile(CalibrationProfile(view=ViewSection.of(FULL_VIEW)),
                        tmp_path / "calibration.toml")
    text = path.read_text(encoding="utf-8")
    assert '[view]\ncamera = "imx708"\nmode = [2304, 1296]' in text
    assert load_profile(path).view.told == FULL_VIEW
    old = tmp_path / "old.toml"  # as calibrate wrote them before the view was kept
    old.write_text(f'version = 1\nmade_by = "{OLD_PI_CALIBRATION}"\n[camera]\n'
                   "[tray]\nframe_size = [1280, 960]\n", encoding="utf-8")
    assert load_profile(old).view.told is None
    old.write_text('version = 1\n[view]\ncamera = "imx708"\nmode = "wide"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"\[view\] mode must be \[width, height\]"):
        load_profile(old)


def test_the_guided_calibration_keeps_the_camera_s_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SynthSource, "view", FULL_VIEW)  # as a Pi camera tells it
    out = tmp_path / "calibration.toml"
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--rolls", "1",
                 "--autopilot", "--out", str(out)]) == 0
    assert load_profile(out).view.told == FULL_VIEW


# ------------------------------------------------------------------ what it means


@pytest.mark.parametrize(("kept", "made_by", "now", "fits"), [
    (FULL_VIEW, OLD_PI_CALIBRATION, FULL_VIEW, True),
    (MIDDLE_VIEW, OLD_PI_CALIBRATION, FULL_VIEW, False),
    (CameraView("imx219", (1640, 1232)), OLD_PI_CALIBRATION, FULL_VIEW, False),
    (None, OLD_PI_CALIBRATION, FULL_VIEW, None),  # made before the view was kept
    (None, "", FULL_VIEW, None),  # written by hand: who knows
    (None, "einhorn-table calibrate --source opencv:0", FULL_VIEW, "nothing"),
    (None, "einhorn-table calibrate --source synth:seed=0", FULL_VIEW, "nothing"),
    (MIDDLE_VIEW, OLD_PI_CALIBRATION, None, "nothing"),  # a webcam, a recording now
])
def test_a_calibration_s_view_against_the_camera_s_now(
    kept: CameraView | None, made_by: str, now: CameraView | None, fits: object
) -> None:
    profile = CalibrationProfile(made_by=made_by, view=ViewSection.of(kept))
    note = view_note(profile, Path("cal.toml"), now)
    if fits == "nothing":
        assert note is None
        return
    assert note is not None and note.fits is fits
    if fits is False:
        assert "do not fit" in note.text and "cal.toml" in note.text


def test_which_old_calibrations_were_made_with_another_camera() -> None:
    assert made_with_another_camera("einhorn-table calibrate --source opencv:0")
    assert made_with_another_camera("einhorn-table calibrate --source dir:frames/")
    assert not made_with_another_camera("einhorn-table calibrate --source picamera2:width=640")
    assert not made_with_another_camera("einhorn-table calibrate --from-labelled photos")
    assert not made_with_another_camera("")


# ------------------------------------------------------------------ the doctor


def test_the_view_check_fails_another_view_with_the_command_to_run(tmp_path: Path) -> None:
    path = save_profile(CalibrationProfile(made_by=OLD_PI_CALIBRATION,
                                           view=ViewSection.of(MIDDLE_VIEW)),
                        tmp_path / "cal.toml")
    result = checks.check_camera_view(FULL_VIEW, path, "./start calibrate --fullscreen")
    assert result is not None and result.status is Status.FAIL and result.essential
    assert "1536x864" in result.detail and "2304x1296" in result.detail
    assert result.todo.endswith("./start calibrate --fullscreen")
    same = checks.check_camera_view(MIDDLE_VIEW, path, "x")
    assert same is not None and same.status is Status.OK
    assert checks.check_camera_view(None, path, "x") is None  # a webcam tells no view


def test_an_old_pi_calibration_is_judged_by_where_the_tray_lies(tmp_path: Path) -> None:
    path = save_profile(CalibrationProfile(made_by=OLD_PI_CALIBRATION), tmp_path / "cal.toml")
    in_place = CheckResult("tray", Status.OK, "the tray lies where it was calibrated")
    result = checks.check_camera_view(FULL_VIEW, path, "cmd", in_place)
    assert result is not None and result.status is Status.OK and "fits" in result.detail
    shaped = checks.check_tray_place(SynthTable(3).empty().image, *_old_pi_calibration(tmp_path))
    assert shaped is not None and shaped.status is Status.WARN
    result = checks.check_camera_view(FULL_VIEW, path, "cmd", shaped)
    assert result is not None and result.status is Status.WARN
    assert "rather than a moved camera" in result.detail and result.todo == \
        "Calibrate again: cmd"
    result = checks.check_camera_view(FULL_VIEW, path, "cmd")  # no tray picture to tell
    assert result is not None and result.status is Status.WARN and not result.essential
    assert result.todo.endswith("calibrate again: cmd")


def _old_pi_calibration(folder: Path, view: CameraView | None = None) -> tuple[Path, str]:
    """A Pi camera's calibration of the mount guide's view, with its empty-tray picture
    (keeping ``view``, else none: made before the view was kept)."""
    empty = SynthTable(3, **mount_guide_view()).empty().image
    corners = find_tray(empty)
    assert corners is not None
    cv2.imwrite(str(folder / "cal-empty-tray.jpg"), empty)
    profile = CalibrationProfile(
        made_by=OLD_PI_CALIBRATION, view=ViewSection.of(view),
        tray=TraySection(corners=tuple(corners), frame_size=(640, 480),
                         empty_reference="cal-empty-tray.jpg"),
        dice=DiceSection(die_px=50.0))
    return save_profile(profile, folder / "cal.toml"), "cmd"


class WiderPicamera2(FakePicamera2):
    """A Camera Module 3 over the synthetic mount guide's table: read in its full view
    (the raw stream asked at 2304x1296), the tray is two thirds as large in the picture."""

    def __init__(self, camera_num: int = 0) -> None:
        super().__init__(camera_num)
        self.sensor_resolution = (4608, 2592)
        self.picture = SynthTable(3, **mount_guide_view()).empty().image

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        arrays, metadata = super().capture_arrays(names)
        image = self.picture
        if self.config.get("raw", {}).get("size") == (2304, 1296):
            height, width = image.shape[:2]
            small = cv2.resize(image, (width * 2 // 3, height * 2 // 3))
            wider = np.empty_like(image)
            wider[:] = image[2, 2]
            top, left = (height - small.shape[0]) // 2, (width - small.shape[1]) // 2
            wider[top:top + small.shape[0], left:left + small.shape[1]] = small
            image = wider
        return [image if name == "main" else a for name, a in zip(names, arrays, strict=True)], \
            metadata


def _doctor(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = doctor_cli.main(["--frames", "3", *args])
    return status, "".join(capsys.readouterr().out.split())  # the report wraps lines


def test_the_doctor_says_the_calibration_was_made_in_another_view_not_a_moved_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(picamera2_source, "_import_picamera2", lambda: WiderPicamera2)
    monkeypatch.setenv("EINHORN_COMMAND", "./start")
    profile, _ = _old_pi_calibration(tmp_path, MIDDLE_VIEW)
    source = "picamera2:width=640,height=480"
    status, out = _doctor(["--source", source, "--profile", str(profile)], capsys)
    assert status == 1 and "FAILview" in out and "(thenimx708inits1536x864sensormode" in out
    assert f"./startcalibrate--fullscreen--out{profile}" in out
    assert "raised,lowered" not in out  # the tray line does not blame a moved camera
    # Made before the view was kept: the tray, smaller now, tells it was the update.
    profile, _ = _old_pi_calibration(tmp_path)
    status, out = _doctor(["--source", source, "--profile", str(profile)], capsys)
    assert status == 0 and "warnview" in out and "ratherthanamovedcamera" in out


def test_the_doctor_without_a_table_file_checks_the_state_folder_s_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What play run with a table's file that names no calibration reads."""
    monkeypatch.chdir(tmp_path)  # no table.toml here
    for state, args in ((tmp_path / "state", []),
                        (tmp_path / "kept", ["--state-dir", str(tmp_path / "kept")])):
        state.mkdir()
        (state / "calibration.toml").write_text("version = 0\n", encoding="utf-8")
        status, out = _doctor(["--source", "synth:width=160,height=120,fps=60", *args],
                              capsys)
        assert status == 1 and f"FAILprofilethecalibrationprofile{state}" in out


# ------------------------------------------------------------------ the commands


def test_the_command_to_calibrate_again_makes_the_calibration_play_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EINHORN_COMMAND", "./start")
    state_profile = tmp_path / "state" / "calibration.toml"
    assert calibrate_command(Path("table.toml"), state_profile) == \
        "./start calibrate --fullscreen"  # no table's file: calibrate saves it there
    table = tmp_path / "table.toml"
    two = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))
    table.write_text('calibration = "cal.toml"\n' + two, encoding="utf-8")
    assert calibrate_command(Path("table.toml"), tmp_path / "cal.toml") == \
        "./start calibrate --fullscreen"  # the calibration table.toml names
    assert calibrate_command(Path("table.toml"), state_profile) == \
        f"./start calibrate --fullscreen --out {state_profile}"
    (tmp_path / "my table.toml").write_text(two, encoding="utf-8")
    assert calibrate_command(Path("my table.toml"), state_profile) == \
        f"./start calibrate --fullscreen --table 'my table.toml' --out {state_profile}"


def test_play_says_when_its_calibration_was_made_in_another_view() -> None:
    profile = CalibrationProfile(made_by=OLD_PI_CALIBRATION, view=ViewSection.of(MIDDLE_VIEW))
    said = view_warning(profile, Path("cal.toml"), FULL_VIEW, "CMD", "DOC")
    assert "do not fit" in said and "run CMD" in said
    assert "sudo systemctl stop einhorn-table" in said
    old = CalibrationProfile(made_by=OLD_PI_CALIBRATION)
    said = view_warning(old, Path("cal.toml"), FULL_VIEW, "CMD", "DOC")
    assert "DOC tells whether it still fits" in said and "run CMD" in said
    assert view_warning(profile, Path("cal.toml"), MIDDLE_VIEW, "CMD", "DOC") == ""
    assert view_warning(profile, Path("cal.toml"), None, "CMD", "DOC") == ""


def test_play_continue_on_a_match_it_cannot_go_on_with_gives_the_whole_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    mock_factory: MockFactory,
) -> None:
    def a_few_frames(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        for _ in range(3):
            self.step()
        # (Ana rolled to start: a match nobody rolled in is not kept to go on with.)
        self.controller.recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))

    monkeypatch.setattr(TableLoop, "run", a_few_frames)
    monkeypatch.setenv("EINHORN_COMMAND", "./start")
    table = tmp_path / "table.toml"
    head = ('camera = "synth:seed=3,players=2"\n[screen]\nwidth = 400\nheight = 240\n'
            "fullscreen = false\n")
    table.write_text(head + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")),
                     encoding="utf-8")
    state = tmp_path / "s"
    assert main(["play", str(table), "--state-dir", str(state)]) == 0
    table.write_text(head + players_toml(("Ana", 1, "white"), ("Zoe", 2, "red")),
                     encoding="utf-8")
    assert main(["play", str(table), "--state-dir", str(state), "--continue"]) == 1
    err = capsys.readouterr().err
    assert f"Ben has no station in {table}" in err
    assert f"start a new one: ./start play {table} --state-dir {state} --new" in err


@pytest.mark.parametrize("fault", ["held", "invisible"])
def test_calibrate_without_a_screen_says_what_to_do_instead_of_waiting_unseen(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The table's service holding the screen (kmsdrm "not available"), or SDL falling
    back to a window nobody sees (over SSH, no display found): no traceback, and no
    calibration waiting for buttons on a screen nobody sees."""
    import pygame

    if fault == "held":
        def set_mode(*args: object) -> None:
            raise pygame.error("kmsdrm not available")

        monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    else:
        monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    from einhorn_table.calibration import session

    def unseen(*args: object, **kwargs: object) -> None:
        raise AssertionError("the calibration ran on a screen nobody sees")

    monkeypatch.setattr(session, "run_flow", unseen)
    out = tmp_path / "calibration.toml"
    assert main(["calibrate", "--source", "synth:seed=5", "--rolls", "1",
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "the calibration's screen could not be opened" in err
    assert "sudo systemctl stop einhorn-table" in err and "SDL_VIDEODRIVER=kmsdrm" in err
    assert "Traceback" not in err and not out.exists()


def test_the_doctor_says_how_to_make_a_profile_without_a_version_again(tmp_path: Path) -> None:
    profile = tmp_path / "cal.toml"
    profile.write_text("[camera]\n", encoding="utf-8")
    result, _ = checks.check_profile(profile)
    assert result.status is Status.FAIL
    assert result.todo == ("Add 'version = 1' at the top, or make the profile again with "
                           "'einhorn-table calibrate'.")
