"""The doctor's checks and report, with mock pins, fake clocks and temporary folders."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from table_helpers import players_toml

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    DiceSection,
    TraySection,
    save_profile,
)
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.cli import doctor as doctor_cli
from einhorn_table.doctor import checks
from einhorn_table.doctor.machine import Machine, detect_machine
from einhorn_table.doctor.report import CheckResult, Status, exit_status, render
from einhorn_table.ports import Button
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.vision.synth import SynthTable, knocked, mount_guide_view

PI = Machine(True, "Raspberry Pi 4 Model B Rev 1.4")
DESKTOP = Machine(False, "Linux x86_64")
PIN_MAP = load_pin_map(default_pin_map_path())


@pytest.fixture(autouse=True)
def _no_running_service(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's service is taken as not running here, whatever this machine runs."""
    from einhorn_table.doctor import system_checks

    monkeypatch.setattr(system_checks, "service_state", lambda: None)



def test_the_machine_is_a_pi_only_if_the_device_tree_says_so(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert detect_machine(model) == Machine(True, "Raspberry Pi 5 Model B Rev 1.0")
    assert detect_machine(tmp_path / "missing").is_pi is False
    assert "simulated" in detect_machine(tmp_path / "missing").describe()


def test_report_lists_each_check_with_what_to_do_and_exits_1_on_essential_failures() -> None:
    results = [
        CheckResult("camera", Status.OK, "synthetic table", simulated=True),
        CheckResult("state dir", Status.FAIL, "/x is not writable", "Use --state-dir."),
        CheckResult("groups", Status.WARN, "not in gpio", "usermod", essential=False),
    ]
    text = render("Machine: test.", results)
    assert "  ok    camera       synthetic table  [simulated]" in text
    assert "  FAIL  state dir    /x is not writable" in text
    assert "what to do: Use --state-dir." in text
    assert "NOT READY: 1 essential check failed: state dir" in text
    assert exit_status(results) == 1
    assert exit_status(results[:1] + results[2:]) == 0


def test_profile_needs_toml_with_a_version_and_good_camera_settings(tmp_path: Path) -> None:
    result, settings = checks.check_profile(None)
    assert result.status is Status.SKIP and not result.essential and settings is None
    profile = tmp_path / "table.toml"
    profile.write_text("version = 1\n[camera]\nexposure_time_us = 8000\n")
    result, settings = checks.check_profile(profile)
    assert result.status is Status.OK and settings is not None
    assert settings.exposure_time_us == 8000
    for text, message in [
        ("name = 'x'\n", "no valid 'version'"),
        ("version = \n", "not valid TOML"),
        ("version = 1\n[camera]\nshutter = 3\n", "unknown camera setting"),
        # Values play could not read dice with: the doctor must not say ok.
        ("version = 1\n[tray]\ncorners = [[-5000, -5000], [9000, 1], [2, 2], [1, 1]]\n",
         "corners must be the tray floor's 4 corners"),
        ("version = 1\n[reader]\nmin_die_px = -10.0\n", "min_die_px must be 4 or more"),
    ]:
        profile.write_text(text)
        result, _ = checks.check_profile(profile)
        assert result.status is Status.FAIL and message in result.detail
    result, _ = checks.check_profile(tmp_path / "missing.toml")
    assert "does not exist" in result.detail
    # Saved by Notepad (a byte-order mark first): play reads it, so the doctor must too.
    profile.write_bytes(b"\xef\xbb\xbf" + b"version = 1\n[camera]\nexposure_time_us = 8000\n")
    assert checks.check_profile(profile)[0].status is Status.OK


def test_state_dir_is_made_and_written_or_reported(tmp_path: Path) -> None:
    target = tmp_path / "state" / "einhorn-table"
    assert checks.check_state_dir(target).status is Status.OK
    assert target.is_dir() and list(target.iterdir()) == []
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = checks.check_state_dir(blocker / "state")
    assert result.status is Status.FAIL and "--state-dir" in result.todo


def test_default_state_dir_follows_systemd_then_xdg() -> None:
    assert checks.default_state_dir({"STATE_DIRECTORY": "/var/lib/einhorn-table"}) == Path(
        "/var/lib/einhorn-table"
    )
    assert checks.default_state_dir({"XDG_STATE_HOME": "/s"}) == Path("/s/einhorn-table")
    # As play finds it: EINHORN_STATE_DIR first.
    assert checks.default_state_dir({"EINHORN_STATE_DIR": "/e", "STATE_DIRECTORY": "/v"}) == \
        Path("/e")


def test_camera_check_reports_size_and_frame_rate_of_the_synthetic_table() -> None:
    result = checks.check_camera("synth:width=160,height=120,fps=25", FakeClock(), frames=11)
    assert result.status is Status.OK and result.simulated
    assert "160x120 at 25.0 frames/s" in result.detail


def test_camera_check_reads_a_recording_and_warns_when_it_is_black(tmp_path: Path) -> None:
    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n}.png"), np.zeros((20, 30, 3), np.uint8))
    result = checks.check_camera(f"dir:{tmp_path}", FakeClock(), frames=10)
    assert result.status is Status.WARN and "nearly black" in result.todo
    assert "30x20" in result.detail


def test_a_missing_camera_fails_with_what_to_do(tmp_path: Path) -> None:
    result = checks.check_camera(f"dir:{tmp_path / 'none'}", FakeClock())
    assert result.status is Status.FAIL and "does not exist" in result.detail
    result = checks.check_camera("opencv:63", FakeClock())
    assert result.status is Status.FAIL and "No webcam answered" in result.detail


def test_buttons_on_a_desktop_are_the_keyboard() -> None:
    result, controls = checks.check_buttons(DESKTOP, PIN_MAP, FakeClock(), players=2)
    assert result.simulated and controls is None
    assert "player 2: Q W E R" in result.detail and "player 3" not in result.detail


class ShortedPin(MockPin):
    """A pin whose wire touches GND: it reads low whatever the pull-up does."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


def test_gpio_buttons_are_set_up_and_a_shorted_one_is_named(mock_factory: MockFactory) -> None:
    result, controls = checks.check_buttons(PI, PIN_MAP, FakeClock(), pin_factory=mock_factory)
    assert result.status is Status.OK and controls is not None
    assert "6 stations" in result.detail
    controls.close()
    mock_factory.reset()
    mock_factory.pin(PIN_MAP.stations[3].pin(Button.EINHORN), pin_class=ShortedPin)
    result, controls = checks.check_buttons(PI, PIN_MAP, FakeClock(), pin_factory=mock_factory)
    assert controls is not None
    controls.close()
    assert result.status is Status.FAIL
    assert "read pressed with nobody touching them: player 4 Einhorn (GPIO 25, header pin 22)" in (
        result.detail
    )
    assert "short" in result.todo


def test_walk_buttons_sees_each_button_and_names_missing_and_swapped_ones(
    mock_factory: MockFactory,
) -> None:
    clock = FakeClock()
    _, controls = checks.check_buttons(
        PI, PIN_MAP, clock, pin_factory=mock_factory, players=2
    )
    assert controls is not None
    dead = PIN_MAP.stations[0].pin(Button.WUNSCH)
    swap = {
        PIN_MAP.stations[1].pin(Button.EINHORN): PIN_MAP.stations[1].pin(Button.DREIFALTIGKEIT),
        PIN_MAP.stations[1].pin(Button.DREIFALTIGKEIT): PIN_MAP.stations[1].pin(Button.EINHORN),
    }
    prompts: list[str] = []

    def say(text: str) -> None:
        prompts.append(text)
        if not text.startswith("Press"):
            return
        gpio = int(text.split("GPIO ")[1].split(",")[0])
        if gpio == dead:
            return  # a broken wire: nobody's press arrives
        pin = mock_factory.pin(swap.get(gpio, gpio))
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)

    outcome = checks.walk_buttons(controls, PIN_MAP, clock, say, players=2, timeout=2.0)
    controls.close()
    assert outcome.status is Status.FAIL
    assert "5 of 8 buttons answered" in outcome.detail
    assert "no answer from player 1 Wunsch (GPIO 17, header pin 11)" in outcome.detail
    assert "player 2 Einhorn (GPIO 13, header pin 33) answered as player 2 Dreifaltigkeit" in (
        outcome.detail
    )
    assert prompts.count("  seen.\n") == 5


def test_walk_buttons_asks_only_for_the_stations_given(mock_factory: MockFactory) -> None:
    clock = FakeClock()
    _, controls = checks.check_buttons(PI, PIN_MAP, clock, pin_factory=mock_factory,
                                       stations={1, 2})
    assert controls is not None
    asked: list[int] = []

    def say(text: str) -> None:
        if text.startswith("Press"):
            asked.append(int(text.split("player ")[1].split(" ")[0]))
            gpio = int(text.split("GPIO ")[1].split(",")[0])
            mock_factory.pin(gpio).drive_low()
            clock.advance(0.1)
            mock_factory.pin(gpio).drive_high()
            clock.advance(0.1)

    outcome = checks.walk_buttons(controls, PIN_MAP, clock, say, stations={1, 2}, timeout=2.0)
    controls.close()
    assert outcome.status is Status.OK and outcome.detail == "all 8 buttons answered"
    assert sorted(set(asked)) == [2, 3]


def test_serial_console_on_the_uart_pins_fails_the_pin_map(tmp_path: Path) -> None:
    (tmp_path / "config.txt").write_text("dtparam=audio=on\nenable_uart=1\n")
    (tmp_path / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=/dev/x\n")
    result, pin_map = checks.check_pin_map(default_pin_map_path(), boot_dir=tmp_path)
    assert pin_map is not None and result.status is Status.FAIL
    assert "GPIO 14, 15 carry the serial console" in result.detail
    (tmp_path / "config.txt").write_text("enable_uart=0\n")
    result, _ = checks.check_pin_map(default_pin_map_path(), boot_dir=tmp_path)
    assert result.status is Status.OK and "GPIO 4-27" in result.detail


def test_screen_is_simulated_on_a_desktop_and_must_be_real_on_a_pi() -> None:
    result = checks.check_screen(DESKTOP, {"SDL_VIDEODRIVER": "dummy"})
    assert result.status is Status.OK and result.simulated
    result = checks.check_screen(DESKTOP, {})
    assert result.status is Status.OK and result.simulated
    if os.path.exists("/dev/dri/card0"):
        pytest.skip("this machine has a DRM device: kmsdrm might really open")
    result = checks.check_screen(PI, {})
    assert result.status is Status.FAIL and "kmsdrm" in result.detail
    assert "Boot to the console" in result.todo


def test_doctor_command_passes_here_and_says_what_is_simulated(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    parser = argparse.ArgumentParser()
    doctor_cli.register(parser.add_subparsers())
    args = parser.parse_args(
        ["doctor", "--source", "synth:width=160,height=120,fps=60", "--frames", "3",
         "--state-dir", str(tmp_path / "state")]
    )  # fmt: skip
    status = args.handler(args)
    out = capsys.readouterr().out
    assert "Einhorn Table doctor" in out
    assert "not a Raspberry Pi" in out and "[simulated]" in out
    assert status == 0 and "All essential checks passed" in out


def test_doctor_exits_1_when_an_essential_check_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = doctor_cli.main(["--source", f"dir:{tmp_path / 'none'}", "--frames", "2"])
    assert status == 1
    assert "NOT READY" in capsys.readouterr().out


def table_file(ben: int) -> str:
    """Ana at station 1 and Ben at ``ben``, calibrated in cal.toml."""
    return 'calibration = "cal.toml"\n' + players_toml(("Ana", 1, "white"), ("Ben", ben, "red"))


def test_the_table_file_is_checked_with_its_stations_and_calibration(tmp_path: Path) -> None:
    six = load_pin_map(default_pin_map_path())
    pin_map = dataclasses.replace(six, stations=six.stations[:2])  # two stations wired
    table = tmp_path / "table.toml"
    result, config = checks.check_table_file(table, pin_map)
    assert result.status is Status.SKIP and not result.essential and config is None
    assert "copy docs/table.example.toml" in result.detail
    table.write_text(table_file(3), encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.FAIL and "Ben's station 3 is not in" in result.detail
    assert "(2 stations: 1, 2)" in result.detail
    table.write_text(table_file(2), encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.FAIL and "cal.toml does not exist" in result.detail
    assert "einhorn-table calibrate --fullscreen --table" in result.todo
    (tmp_path / "cal.toml").write_text("version = 1\n", encoding="utf-8")
    result, config = checks.check_table_file(table, pin_map)
    assert result.status is Status.OK and config is not None
    assert "Ana (station 1), Ben (station 2)" in result.detail
    table.write_text(table_file(2).replace('calibration = "cal.toml"\n', ""),
                     encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.WARN and not result.essential
    table.write_text("[[player]]\nname = 3\n", encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.FAIL and result.essential
    # The rules it names must load and take its players, as play will need them to.
    table.write_text('variant = "duel.toml"\n' + table_file(2), encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.FAIL and "cannot read the house variant" in result.detail
    (tmp_path / "duel.toml").write_text('name = "duel"\nbase = "einhorn"\nmax_players = 2\n',
                                        encoding="utf-8")
    assert checks.check_table_file(table, pin_map)[0].status is Status.OK
    table.write_text('variant = "duel.toml"\n' + table_file(2) + players_toml(("Cem", 3, "blue")),
                     encoding="utf-8")
    result, _ = checks.check_table_file(table, pin_map)
    assert result.status is Status.FAIL and "duel is played by 2 players, not 3" in \
        result.detail


def test_doctor_checks_the_calibration_the_table_file_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "table.toml").write_text(table_file(2), encoding="utf-8")
    (tmp_path / "cal.toml").write_text("version = 0\n", encoding="utf-8")
    status = doctor_cli.main(["--source", "synth:width=160,height=120,fps=60", "--frames", "3",
                              "--state-dir", str(tmp_path / "state"),
                              "--table", str(tmp_path / "table.toml")])
    out = capsys.readouterr().out
    assert status == 1 and "has no valid 'version'" in out and "ok    table file" in out


def test_doctor_checks_what_play_would_use_the_table_file_s_camera_and_state_calibration(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("EINHORN_STATE_DIR", str(state))
    table = tmp_path / "table.toml"
    # No calibration named: play reads the state directory's (calibrate's default --out).
    table.write_text('camera = "synth:width=160,height=120,fps=60,players=2"\n'
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    state.mkdir()
    (state / "calibration.toml").write_text("version = 0\n", encoding="utf-8")
    status = doctor_cli.main(["--frames", "3", "--table", str(table)])
    out = capsys.readouterr().out
    assert "ok    camera       synthetic table (seed 0, 2 players, 60 fps): 160x120" in out
    words = "".join(out.split())  # the report wraps long lines, long paths too
    assert f"calibration{state / 'calibration.toml'}(thestatedirectory's)" in words
    assert f"okstatedir{state}iswritable" in words
    assert status == 1 and "novalid'version'" in words  # the state's profile is checked
    # A camera the table names that cannot open fails the doctor, as it would fail play.
    # So does a pin map it names that is not there.
    table.write_text('camera = "dir:' + str(tmp_path / "none") + '"\npins = "nope.toml"\n'
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    assert doctor_cli.main(["--frames", "3", "--table", str(table)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  camera       dir:" in out
    assert "FAIL  pin map" in out and "nope.toml" in out



def _calibrated_in_the_mount_guides_view(folder: Path) -> tuple[Path, SynthTable]:
    """A calibration profile of a synthetic table (mount guide's view) and its
    empty-tray picture, as the guided calibration saves them."""
    table = SynthTable(3, **mount_guide_view())
    empty = table.empty().image
    corners = find_tray(empty)
    assert corners is not None
    cv2.imwrite(str(folder / "table-empty-tray.jpg"), empty)
    profile = CalibrationProfile(
        tray=TraySection(corners=tuple(corners), frame_size=(640, 480),
                         empty_reference="table-empty-tray.jpg"),
        dice=DiceSection(die_px=50.0))
    return save_profile(profile, folder / "table.toml"), table


@pytest.mark.parametrize(("dx", "dy", "status", "words"), [
    (0, 0, Status.OK, "the tray lies where it was calibrated"),
    (30, -10, Status.OK, "stands 0.6 dice from where it was calibrated; the table finds it"),
    (0, 80, Status.WARN, "stands 1.6 dice from where it was calibrated, farther than the "
     "table follows it"),
])
def test_the_tray_check_says_how_far_the_tray_stands_from_its_calibrated_place(
    tmp_path: Path, dx: float, dy: float, status: Status, words: str,
) -> None:
    profile, table = _calibrated_in_the_mount_guides_view(tmp_path)
    result = checks.check_tray_place(table.slid(table.empty().image, dx, dy), profile)
    assert result is not None and result.status is status and words in result.detail
    assert ("Set the tray back" in result.todo) == (status is Status.WARN)


def test_the_tray_check_measures_a_turned_tray_by_its_farthest_corner(tmp_path: Path) -> None:
    """Turned by 3 degrees about the picture's middle, the tray's corners move about
    16 px (0.3 of a 50 px die), its middle not at all: it no longer lies where it was
    calibrated, and the table finds it there."""
    profile, table = _calibrated_in_the_mount_guides_view(tmp_path)
    result = checks.check_tray_place(knocked(table.empty().image, 0, 0, 3.0), profile)
    assert result is not None and result.status is Status.OK
    assert "dice from where it was calibrated; the table finds it there" in result.detail


def test_the_tray_check_asks_to_calibrate_again_where_the_camera_was_moved(
    tmp_path: Path,
) -> None:
    """Seen from higher up (the tray smaller in the picture), or not seen at all."""
    profile, _ = _calibrated_in_the_mount_guides_view(tmp_path)
    higher = SynthTable(3).empty().image
    result = checks.check_tray_place(higher, profile)
    assert result is not None and result.status is Status.WARN
    assert "larger, smaller" in result.detail and "calibrate again" in result.todo
    result = checks.check_tray_place(np.zeros((480, 640, 3), np.uint8), profile)
    assert result is not None and "no tray found" in result.detail
    (tmp_path / "table-empty-tray.jpg").unlink()
    result = checks.check_tray_place(higher, profile)
    assert result is not None and result.status is Status.SKIP
    assert checks.check_tray_place(higher, None) is None


def test_names_the_screen_has_no_letters_for_are_warned_of() -> None:
    assert checks.check_names_shown([]) is None
    plain = checks.check_names_shown(["Ana", "Zoë", "Фёдор"])  # the machine's own fonts
    assert plain is not None and plain.status is Status.OK
    warned = checks.check_names_shown(["Ana", "美咲", "Ben"], shows=lambda name: name.isascii())
    assert warned is not None and warned.status is Status.WARN and not warned.essential
    assert "美咲" in warned.detail and "Ana" not in warned.detail
    assert "fonts-noto-cjk" in warned.todo
