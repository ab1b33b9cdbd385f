"""The installer's path: what the doctor and the smoke test say where a parent's
table goes wrong (a pin map that leaves a station out, the service still running,
a calibration made on pictures of another shape, a calibration only the parent sees)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from table_helpers import players_toml
from test_hardware_files import load_smoke

from einhorn_table.calibration.profile import CalibrationProfile, TraySection, save_profile
from einhorn_table.cli import doctor as doctor_cli
from einhorn_table.doctor import checks, system_checks
from einhorn_table.doctor.report import Status
from einhorn_table.stations.pin_map import PinMap, default_pin_map_path, load_pin_map

SYNTH = "synth:width=160,height=120,fps=60"


def _stations(*numbers: int) -> PinMap:
    """The shipped pin map with only the stations ``numbers`` (1-based) in it."""
    six = load_pin_map(default_pin_map_path())
    return dataclasses.replace(
        six, stations=tuple(s for s in six.stations if s.player + 1 in numbers))


def _table(folder: Path, ana: int, ben: int) -> Path:
    table = folder / "table.toml"
    table.write_text(players_toml(("Ana", ana, "white"), ("Ben", ben, "red")), encoding="utf-8")
    return table


def test_a_pin_map_that_leaves_a_station_out_is_checked_by_station_number(
    tmp_path: Path,
) -> None:
    """Stations 1 and 3 wired (station 2 left out of pins.toml): a table seating Ben at
    station 3 works (play sets up stations 1 and 3), one seating him at station 2 does
    not (play would set up no button for him)."""
    wired = _stations(1, 3)
    result, _ = checks.check_table_file(_table(tmp_path, 1, 3), wired)
    assert result.status is not Status.FAIL, result.detail
    result, _ = checks.check_table_file(_table(tmp_path, 1, 2), wired)
    assert result.status is Status.FAIL and result.essential
    assert "Ben's station 2 is not in" in result.detail
    assert "(2 stations: 1, 3)" in result.detail


def test_the_service_s_state_decides_whether_it_holds_the_hardware() -> None:
    assert checks.check_service(lambda: None) is None  # no systemd here
    assert checks.check_service(lambda: "inactive") is None
    assert checks.check_service(lambda: "failed") is None
    for state in ("active", "activating"):
        result = checks.check_service(lambda state=state: state)
        assert result is not None and result.status is Status.FAIL
        assert "sudo systemctl stop einhorn-table" in result.todo
        assert "sudo systemctl start einhorn-table" in result.todo


def test_the_doctor_says_to_stop_the_running_service_instead_of_blaming_the_camera(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the table's service runs, the camera, the buttons and the screen are its:
    the doctor says so once, instead of "no camera found, check the ribbon cable"."""
    monkeypatch.setattr(system_checks, "service_state", lambda: "active")
    status = doctor_cli.main(["--source", SYNTH, "--frames", "3",
                              "--state-dir", str(tmp_path / "state")])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL  service" in out and "sudo systemctl stop einhorn-table" in out
    for name in ("camera", "buttons", "screen"):
        assert f"skip  {name:<12} not checked: the table's service is using it" in out
    assert "synthetic table (seed" not in out  # the camera was left alone
    assert "NOT READY: 1 essential check failed: service" in out


def test_the_doctor_runs_every_check_when_the_service_is_not_running(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(system_checks, "service_state", lambda: "inactive")
    status = doctor_cli.main(["--source", SYNTH, "--frames", "3",
                              "--state-dir", str(tmp_path / "state")])
    out = capsys.readouterr().out
    assert status == 0 and "  service" not in out and "ok    camera       synthetic" in out


def test_the_smoke_test_stops_at_once_while_the_service_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(system_checks, "service_state", lambda: "active")
    snapshot = tmp_path / "tray.png"
    status = load_smoke().main(["--only", "camera", "--source", SYNTH, "--seconds", "0.1",
                                "--snapshot", str(snapshot)])
    out = capsys.readouterr().out
    assert status == 1 and "sudo systemctl stop einhorn-table" in out
    assert not snapshot.exists()  # the camera step did not run


def test_ctrl_c_in_the_smoke_test_ends_with_its_summary_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(system_checks, "service_state", lambda: None)
    smoke = load_smoke()

    def interrupted(args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(smoke, "camera_step", interrupted)
    assert smoke.main(["--only", "camera"]) == 1
    out = capsys.readouterr().out
    assert "stopped before the end (Ctrl-C)" in out and "NOT READY" in out


def _profile(folder: Path, size: tuple[int, int]) -> Path:
    """A calibration made on pictures of ``size`` (its tray a tenth in from the edges)."""
    w, h = size
    corners = ((w * 0.1, h * 0.1), (w * 0.9, h * 0.1), (w * 0.9, h * 0.9), (w * 0.1, h * 0.9))
    profile = CalibrationProfile(tray=TraySection(corners=corners, frame_size=size))
    return save_profile(profile, folder / "calibration.toml")


@pytest.mark.parametrize(("source", "status", "words"), [
    ("synth:width=640,height=360,fps=60", Status.FAIL,
     "the camera gives 640x360 pictures; {p} was made on 640x480, pictures of another shape"),
    ("synth:width=1280,height=960,fps=60", Status.OK,
     "the camera gives 1280x960 pictures; {p} was made on 640x480, the same shape"),
])
def test_a_calibration_made_on_pictures_of_another_shape_fails_the_doctor(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    source: str, status: Status, words: str,
) -> None:
    """A calibration from another camera (a 4:3 one, the camera now 16:9) stretches the
    tray's outline the table reads dice in: the doctor fails it and says what to do."""
    monkeypatch.setattr(system_checks, "service_state", lambda: None)
    profile = _profile(tmp_path, (640, 480))
    code = doctor_cli.main(["--source", source, "--frames", "2", "--profile", str(profile),
                            "--state-dir", str(tmp_path / "state")])
    out = capsys.readouterr().out
    words_found = "".join(out.split())
    assert "".join(words.format(p=profile).split()) in words_found
    assert f"{status.value:<5} picture" in out
    assert code == (1 if status is Status.FAIL else 0)
    if status is Status.FAIL:
        assert "Calibrateagainwiththecamerathetableuses" in words_found


def test_the_same_size_says_nothing_and_no_profile_nothing(tmp_path: Path) -> None:
    import numpy as np

    profile = _profile(tmp_path, (640, 480))
    assert checks.check_picture_size(np.zeros((480, 640, 3), np.uint8), profile) is None
    assert checks.check_picture_size(np.zeros((480, 640, 3), np.uint8), None) is None


def test_a_calibration_in_the_installer_s_home_is_one_the_service_never_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """calibrate run before table.toml existed saves into ~/.local/state; the service
    reads its own state directory and may not look into home folders."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    home = tmp_path / "home"
    state = home / ".local" / "state" / "einhorn-table"
    state.mkdir(parents=True)
    (state / "calibration.toml").write_text("version = 1\n", encoding="utf-8")
    table = _table(tmp_path, 1, 2)
    result, _ = checks.check_table_file(table, None, state / "calibration.toml", home=home)
    assert result.status is Status.WARN and not result.essential
    assert "the table's service keeps its own state directory" in result.detail
    assert "--out calibration.toml" in result.todo
    # Elsewhere (or run by the service itself) it is the one play reads: ok.
    result, _ = checks.check_table_file(table, None, state / "calibration.toml",
                                        home=tmp_path / "other")
    assert result.status is Status.OK
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    result, _ = checks.check_table_file(table, None, state / "calibration.toml", home=home)
    assert result.status is Status.OK
    # A desktop runs no service: the calibration in the home folder is the one play reads.
    monkeypatch.delenv("STATE_DIRECTORY")
    result, _ = checks.check_table_file(table, None, state / "calibration.toml", home=home,
                                        service=False)
    assert result.status is Status.OK


def test_the_doctor_runs_alone_as_its_docstring_says(tmp_path: Path) -> None:
    """``python -m einhorn_table.cli.doctor`` (before: a NameError, since the module ran
    main() before the rest of it was defined)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "SDL_VIDEODRIVER": "dummy",
           "EINHORN_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-m", "einhorn_table.cli.doctor", "--source", SYNTH, "--frames", "2"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    assert "Einhorn Table doctor" in done.stdout


def test_a_state_dir_that_is_a_file_is_said_so(tmp_path: Path) -> None:
    taken = tmp_path / "history"
    taken.write_text("not a folder\n", encoding="utf-8")
    result = checks.check_state_dir(taken)
    assert result.status is Status.FAIL and "is a file, not a folder" in result.detail
    assert "state = " in result.todo


def test_the_serial_console_fails_the_pin_map_only_where_a_used_station_needs_its_pins(
    tmp_path: Path,
) -> None:
    """Four players (stations 1 to 4) leave GPIO 14/15 free, as play sets up only their
    stations: a serial console left on is then no fault; a player at station 6 is."""
    (tmp_path / "config.txt").write_text("enable_uart=1\n")
    (tmp_path / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=/dev/x\n")
    pins = default_pin_map_path()
    assert checks.check_pin_map(pins, boot_dir=tmp_path, stations={0, 1, 2, 3})[0].status \
        is Status.OK
    assert checks.check_pin_map(pins, boot_dir=tmp_path, players=4)[0].status is Status.OK
    result, _ = checks.check_pin_map(pins, boot_dir=tmp_path, stations={0, 5})
    assert result.status is Status.FAIL and "GPIO 14, 15 carry the serial console" in \
        result.detail
    assert checks.check_pin_map(pins, boot_dir=tmp_path)[0].status is Status.FAIL
