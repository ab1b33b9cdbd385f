"""scripts/calibration_screenshots.py remakes docs/screenshots/calibration-*.png; the
autopilot enters a test roll's dice by hand where told (for the entry screen)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from einhorn_table.calibration.autopilot import NO, OK, Autopilot
from einhorn_table.calibration.view import CalibrationView, Hint
from einhorn_table.ports import Button

REPO = Path(__file__).resolve().parent.parent


def check_view(screen: str, dice: tuple[int | None, ...], marked: int | None = None
               ) -> CalibrationView:
    return CalibrationView(screen, 6, 7, "", hints=(Hint("OK", "right"), Hint("X", "enter")),
                           dice=dice, marked=marked)


def test_the_autopilot_enters_the_dice_of_a_test_roll_read_right_where_told() -> None:
    pressed: list[Button] = []
    thrown = [(6, 1, 3)]
    pilot = Autopilot(pressed.append, thrown, every=1, enter_by_hand=[3])
    pilot.act(check_view("check-2", (6, 1, 3)))
    assert pressed == [OK]  # another roll read right: confirmed
    pilot.act(check_view("check-3", (6, 1, 3)))
    assert pressed[-1] is NO  # read right, yet entered by hand
    for marked in range(3):
        pilot.act(check_view("check-3-enter", (6, 1, 3), marked))
    assert pressed[-3:] == [OK, OK, OK]  # each die as read, as a parent enters them
    pilot.act(check_view("check-3", (6, 1, 3)))
    assert pressed[-1] is OK  # once: back on the same roll, it confirms
    assert pilot.misread == 0  # nothing was read wrong


def test_the_script_makes_each_calibration_screenshot_the_docs_keep(tmp_path: Path) -> None:
    Image = pytest.importorskip("PIL.Image", reason="the script reduces the colours "
                                "with Pillow (installed with the dev tools)")
    folder = tmp_path / "shots"
    environ = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy", EINHORN_STATE_DIR=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "calibration_screenshots.py"), str(folder)],
        cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    made = sorted(p.name for p in folder.glob("*.png"))
    docs = sorted(p.name for p in (REPO / "docs" / "screenshots").glob("calibration-*.png"))
    assert made == docs
    assert len(made) == 13
    for name in made:
        with Image.open(folder / name) as picture:
            assert (picture.mode, picture.size) == ("P", (800, 480)), name
    # The entry screen is a screen of its own: the dice entered, not the roll's check.
    check, enter = (np.asarray(Image.open(folder / f"calibration-check-3{end}.png")
                               .convert("RGB")) for end in ("", "-enter"))
    assert np.abs(check.astype(int) - enter.astype(int)).max() > 100
    assert "table.toml names it" in result.stdout  # (the saved screen's sentence)
