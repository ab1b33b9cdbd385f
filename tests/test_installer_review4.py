"""What an installer meets with play, the doctor and the camera's view (fourth review):
a calibration made before the view was kept stops being warned about once the doctor
found it fitting, and the commands printed for the table's service work for the person
who reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml
from test_hardware_picamera2 import FakePicamera2
from test_installer_review3 import (  # (_quiet: the same environment, for each test)
    FULL_VIEW,
    MIDDLE_VIEW,
    OLD_PI_CALIBRATION,
    _doctor,
    _old_pi_calibration,
    _quiet,  # noqa: F401
)

from einhorn_table.adapters import picamera2_source
from einhorn_table.calibration import camera_view, paths
from einhorn_table.calibration.camera_view import keep_view
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    ProfileError,
    ViewSection,
    load_profile,
    save_profile,
)
from einhorn_table.cli import main
from einhorn_table.cli.doctor import calibrate_again_command
from einhorn_table.cli.play import view_warning
from einhorn_table.doctor import checks
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.table.loop import TableLoop
from einhorn_table.vision.synth import SynthTable, mount_guide_view


class SamePicamera2(FakePicamera2):
    """A Camera Module 3 over the synthetic mount guide's table, showing the tray as it
    was calibrated (the view did not change with the update)."""

    def __init__(self, camera_num: int = 0) -> None:
        super().__init__(camera_num)
        self.picture = SynthTable(3, **mount_guide_view()).empty().image

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        arrays, metadata = super().capture_arrays(names)
        return [self.picture if name == "main" else a
                for name, a in zip(names, arrays, strict=True)], metadata


# ------------------------------------------------------------------ keeping the view


def test_keeping_the_view_adds_it_and_leaves_the_rest_of_the_file_as_it_was(
    tmp_path: Path
) -> None:
    path, _ = _old_pi_calibration(tmp_path)
    made = path.read_text(encoding="utf-8")
    assert "\n[view]\n" in made  # (as calibrations are written now: left empty)
    old = made.replace("\n[view]\n", "\n")  # as calibrate wrote them before the view was kept
    text = "# our table, measured on Sunday\n" + old
    path.write_text(text, encoding="utf-8")
    keep_view(path, FULL_VIEW)
    kept = path.read_text(encoding="utf-8")
    assert kept.startswith(text.rstrip("\n"))  # comments and all, as they were
    assert kept.endswith('[view]\ncamera = "imx708"\nmode = [2304, 1296]\n')
    profile = load_profile(path)
    assert profile.view.told == FULL_VIEW and profile.made_by == OLD_PI_CALIBRATION
    assert view_warning(profile, path, FULL_VIEW, "CMD", "DOC") == ""


def test_keeping_the_view_under_an_empty_view_line(tmp_path: Path) -> None:
    path, _ = _old_pi_calibration(tmp_path)  # [view] left empty, as calibrate writes now
    made = path.read_text(encoding="utf-8")
    keep_view(path, FULL_VIEW)
    assert path.read_text(encoding="utf-8") == made.replace(
        "\n[view]\n", '\n[view]\ncamera = "imx708"\nmode = [2304, 1296]\n')
    assert load_profile(path).view.told == FULL_VIEW


def test_keeping_the_view_of_a_file_with_a_half_filled_view(tmp_path: Path) -> None:
    path = tmp_path / "cal.toml"
    path.write_text(f'version = 1\nmade_by = "{OLD_PI_CALIBRATION}"\n[view]\n'
                    'camera = ""\n[dice]\ndie_px = 50.0\n', encoding="utf-8")
    keep_view(path, FULL_VIEW)
    profile = load_profile(path)
    assert profile.view.told == FULL_VIEW and profile.dice.die_px == 50.0


def test_a_view_that_cannot_be_written_leaves_the_file_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _old_pi_calibration(tmp_path)
    before = path.read_text(encoding="utf-8")

    def refused(target: Path, text: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(camera_view, "write_text_whole", refused)
    with pytest.raises(ProfileError, match=r"could not be written \(Permission denied"):
        keep_view(path, FULL_VIEW)
    assert path.read_text(encoding="utf-8") == before
    in_place = CheckResult("tray", Status.OK, "the tray lies where it was calibrated")
    result = checks.check_camera_view(FULL_VIEW, path, "CMD", in_place, keep=True)
    assert result is not None and result.status is Status.WARN and not result.essential
    assert "play says at every start" in result.detail
    assert f"who may write {path}" in result.todo and result.todo.endswith("CMD")


def test_the_view_check_keeps_the_view_only_where_the_tray_shows_it_fits(
    tmp_path: Path
) -> None:
    path, _ = _old_pi_calibration(tmp_path)
    shaped = CheckResult("tray", Status.WARN, "the tray looks larger, smaller or otherwise "
                         "shaped than at calibration")
    for tray in (None, shaped):
        result = checks.check_camera_view(FULL_VIEW, path, "CMD", tray, keep=True)
        assert result is not None and result.status is Status.WARN
        assert load_profile(path).view.told is None  # nothing written
    made = save_profile(CalibrationProfile(made_by=OLD_PI_CALIBRATION,
                                           view=ViewSection.of(MIDDLE_VIEW)),
                        tmp_path / "other.toml")
    in_place = CheckResult("tray", Status.OK, "the tray lies where it was calibrated")
    result = checks.check_camera_view(FULL_VIEW, made, "CMD", in_place, keep=True)
    assert result is not None and result.status is Status.FAIL
    assert load_profile(made).view.told == MIDDLE_VIEW  # another view is never overwritten


def test_after_the_doctor_found_an_old_calibration_fitting_play_no_longer_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(picamera2_source, "_import_picamera2", lambda: SamePicamera2)
    profile, _ = _old_pi_calibration(tmp_path)
    before = load_profile(profile)
    said = view_warning(before, profile, FULL_VIEW, "CMD", "DOC")
    assert "DOC tells whether it still fits" in said and "keeps the camera's view" in said
    status, out = _doctor(["--source", "picamera2:width=640,height=480",
                           "--profile", str(profile)], capsys)
    assert status == 0 and "oktraythetraylieswhereitwascalibrated" in out
    assert "Thedoctorwrotethecamera'sview(imx708inits2304x1296sensormode)into" in out
    after = load_profile(profile)
    assert after.view.told == FULL_VIEW
    assert after.tray == before.tray and after.dice == before.dice
    assert view_warning(after, profile, FULL_VIEW, "CMD", "DOC") == ""
    status, out = _doctor(["--source", "picamera2:width=640,height=480",
                           "--profile", str(profile)], capsys)
    assert status == 0 and "okviewthecamera'sviewistheonecalibrated" in out


# ------------------------------------------------------------------ the service's folder


def test_a_calibration_in_the_service_s_folder_is_made_again_beside_the_table_s_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    service = tmp_path / "var-lib"
    monkeypatch.setattr(paths, "SERVICE_STATE_DIR", service)
    kept = service / "calibration.toml"
    table = Path("table.toml")
    two = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))
    table.write_text(two, encoding="utf-8")
    assert calibrate_again_command(table, kept) == (
        'einhorn-table calibrate --fullscreen, then write calibration = "calibration.toml" '
        "in table.toml")
    table.write_text(f'calibration = "{kept}"\n' + two, encoding="utf-8")
    assert calibrate_again_command(table, kept) == (
        "einhorn-table calibrate --fullscreen --out calibration.toml, then change the "
        'calibration line in table.toml to calibration = "calibration.toml"')
    mine = tmp_path / "state" / "calibration.toml"  # the installer's own: as before
    assert calibrate_again_command(table, mine) == \
        f"einhorn-table calibrate --fullscreen --out {mine}"


def test_play_as_the_service_prints_commands_its_installer_can_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    mock_factory: MockFactory,
) -> None:
    """As systemd runs it: the state directory is the service's, the table's file names
    no calibration, and the one play reads lies in the service's folder."""
    def a_few_frames(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        for _ in range(3):
            self.step()

    monkeypatch.setattr(TableLoop, "run", a_few_frames)
    monkeypatch.setattr(picamera2_source, "_import_picamera2", lambda: SamePicamera2)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EINHORN_STATE_DIR")
    service = tmp_path / "var-lib"
    service.mkdir()
    monkeypatch.setenv("STATE_DIRECTORY", str(service))
    monkeypatch.setenv("EINHORN_COMMAND", "/opt/einhorn-table/.venv/bin/einhorn-table")
    _old_pi_calibration(service)
    (service / "cal.toml").rename(service / "calibration.toml")
    Path("table.toml").write_text(
        'camera = "picamera2:width=640,height=480"\n[screen]\nwidth = 400\nheight = 240\n'
        "fullscreen = false\n" + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")),
        encoding="utf-8")
    assert main(["play"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    doctor = ("sudo -u einhorn /opt/einhorn-table/.venv/bin/einhorn-table doctor "
              f"--state-dir {service} tells whether it still fits")
    assert doctor in err
    assert ('run /opt/einhorn-table/.venv/bin/einhorn-table calibrate --fullscreen, then '
            'write calibration = "calibration.toml" in table.toml; afterwards start') in err
    assert f"--out {service}" not in err


# ------------------------------------------------------------------ a broken calibration


def test_a_value_of_the_wrong_kind_says_what_to_do_in_play_and_the_doctor(
    tmp_path: Path
) -> None:
    path = tmp_path / "cal.toml"
    path.write_text("version = 1\n[tray]\ncorners = 3\n", encoding="utf-8")
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert str(caught.value).endswith(
        f"; correct it in {path}, or make the profile again with 'einhorn-table calibrate'")
    result, _ = checks.check_profile(path)
    assert result.status is Status.FAIL and result.todo == (
        f"Correct it in {path}, or make the profile again with 'einhorn-table calibrate'.")
