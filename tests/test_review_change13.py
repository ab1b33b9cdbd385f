"""The wiring of this change's parts into the commands that run the table: play turns
its picture and looks at the dice lying in the tray at start as the table file and the
controller say; calibrate turns its picture too; the doctor's screen line reads the
table file's rotate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest
from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml

from einhorn_table.cli import main
from einhorn_table.table.loop import TableLoop

TABLE = """
games = 3
camera = "synth:seed=3,players=2"
state = "kept"
[screen]
width = 400
height = 240
fullscreen = false
rotate = 90
""" + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))


@pytest.fixture
def table_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               mock_factory: MockFactory) -> Path:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    path = tmp_path / "table.toml"
    path.write_text(TABLE, encoding="utf-8")
    return path


def test_play_turns_its_picture_and_looks_at_the_tray_as_its_controller_says(
        table_toml: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def one_look(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        tray = self.tray.inner  # (play's WatchedTray around the vision tray)
        seen.append((self.screen.rotate, tray.dice_at_start == self.controller.looks_at_start,
                     self.screen.display.surface.get_size()))

    monkeypatch.setattr(TableLoop, "run", one_look)
    assert main(["play", str(table_toml)]) == 0
    # The window is 400x240; the table is drawn on it turned, so at 240x400.
    assert seen == [(90, True, (240, 400))]


def test_calibrate_draws_turned_as_the_table_file_says(
        table_toml: Path, tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--table", str(table_toml),
                 "--size", "800x480", "--rolls", "1", "--autopilot", "--screenshots",
                 str(shots), "--out", str(tmp_path / "cal.toml")]) == 0
    tray = cv2.imread(str(next(shots.glob("calibration-01-tray.png"))))
    assert tray.shape[:2] == (800, 480)  # drawn upright for a screen on its side


def test_the_doctors_screen_line_reads_the_table_files_rotate(
        table_toml: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.doctor import screen_check

    asked: list[tuple[int | None, bool]] = []
    real = screen_check.check_screen

    def check(machine: Any, environ: Any = None, *, rotate: int | None = None,
              fullscreen: bool = True) -> Any:
        asked.append((rotate, fullscreen))
        return real(machine, environ, rotate=rotate, fullscreen=fullscreen)

    monkeypatch.setattr(screen_check, "check_screen", check)
    from einhorn_table.doctor import checks
    monkeypatch.setattr(checks, "check_screen", check)
    main(["doctor", "--table", str(table_toml)])
    assert asked == [(90, False)]


def test_play_stops_at_its_next_frame_on_sigterm_and_puts_the_handler_back(
        table_toml: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`systemctl stop` sends SIGTERM: the table stops as when its window closes, so its
    `finally` writes the last photos and closes the history (not killed mid-frame)."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    seen: list[bool] = []

    def stopped(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        signal.raise_signal(signal.SIGTERM)
        seen.append(self.screen.quit_requested)

    monkeypatch.setattr(TableLoop, "run", stopped)
    assert main(["play", str(table_toml)]) == 0
    assert seen == [True]
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_doctor_says_to_name_the_calibration_calibrate_left_beside_the_table_file(
        tmp_path: Path) -> None:
    """calibrate saves beside a table file that names no calibration and says to name
    it; the doctor said "Calibrate the table", as if none had been made."""
    from einhorn_table.doctor.report import Status
    from einhorn_table.doctor.table_check import check_table_file

    table = tmp_path / "table.toml"
    table.write_text(players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    result, _ = check_table_file(table, None)
    assert result.status is Status.WARN and result.todo.startswith("Calibrate the table")
    (tmp_path / "calibration.toml").write_text("version = 1\n", encoding="utf-8")
    result, _ = check_table_file(table, None)
    assert result.status is Status.WARN
    assert result.todo.startswith(
        f'Name the calibration made beside it: add the line calibration = "calibration.toml" '
        f"to {table}")
