"""``einhorn-table read``: text and JSON lines, debug drawings, unreadable files."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_helpers import FIXTURES

from einhorn_table.cli import COMMANDS
from einhorn_table.cli import read as read_command
from einhorn_table.vision.drawing import draw_reading
from einhorn_table.vision.results import DieReading, FrameReading
from einhorn_table.vision.scoring import LabelledDie

ROLL = "matteop65_d6__train_five_25.jpg"


def run_read(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="einhorn-table")
    read_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["read", *argv])
    status: int = args.handler(args)
    return status


def test_read_is_a_registered_command() -> None:
    assert "read" in COMMANDS


def test_json_line_per_photo_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status = run_read(
        str(FIXTURES / ROLL), str(FIXTURES / "tomitomi3_crops__3_00010.png"), "--json"
    )
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"image", "dice", "category", "ms"}
    assert first["image"].endswith(ROLL)
    assert first["category"] == "dreifaltigkeit"
    assert isinstance(first["ms"], float) and first["ms"] > 0
    assert [d["value"] for d in first["dice"]] == [5, 5, 5]
    for d in first["dice"]:
        assert set(d) == {"value", "box", "confidence", "color"}
        x0, y0, x1, y1 = d["box"]
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
        assert 0.0 <= d["confidence"] <= 1.0
        assert len(d["color"]) == 3 and all(0 <= c <= 255 for c in d["color"])
    second = json.loads(lines[1])
    assert second["category"] is None  # one die is no roll


def test_text_line_names_values_and_marks_unsure_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hidden = tmp_path / "hidden.png"
    image = cv2.imread(str(FIXTURES / "tomitomi3_crops__6_00006.png"))
    assert image is not None
    # A hand over the right half of the die (the dish's grey from the corner).
    image[:, 70:] = image[2, 2]
    cv2.imwrite(str(hidden), image)
    assert run_read(str(FIXTURES / ROLL), str(hidden)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{FIXTURES / ROLL}: 3 dice: 5 5 5  -> Dreifaltigkeit"
    assert out[1] == f"{hidden}: 1 die: ?  (? = not sure; re-roll)"


def test_a_file_that_is_not_an_image_fails_clearly_and_the_rest_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.jpg"
    notes.write_text("this is not a photo", encoding="utf-8")
    missing = tmp_path / "missing.png"
    photo = tmp_path / ROLL
    shutil.copy(FIXTURES / ROLL, photo)
    status = run_read(str(notes), str(photo), str(missing), "--json")
    assert status == 1
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["category"] == "dreifaltigkeit"
    assert "notes.jpg: not a picture" in captured.err
    assert "pass a JPEG or PNG photo" in captured.err
    assert "missing.png: no such file" in captured.err


def test_debug_writes_a_drawing_per_photo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "debug"
    assert run_read(str(FIXTURES / ROLL), "--debug", str(out)) == 0
    drawn = cv2.imread(str(out / "matteop65_d6__train_five_25.png"))
    original = cv2.imread(str(FIXTURES / ROLL))
    assert drawn is not None and original is not None
    assert drawn.shape == original.shape
    # Boxes were drawn: the pictures differ, in green (a sure die) among others.
    changed = (drawn.astype(int) - original.astype(int)).any(axis=2)
    assert changed.sum() > 300
    green = (drawn[:, :, 1] > 180) & (drawn[:, :, 0] < 90) & (drawn[:, :, 2] < 90)
    assert green.sum() > 100


def test_read_with_a_calibration_profile_and_a_broken_one(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parent.parent
    photo = repo / "tests" / "fixtures" / "vision" / "tomitomi3_crops__5_00006.png"
    profile = repo / "calibration" / "tomitomi3_crops.toml"
    good = subprocess.run(
        [
            sys.executable,
            "-m",
            "einhorn_table",
            "read",
            "--json",
            "--profile",
            str(profile),
            str(photo),
        ],
        capture_output=True,
        text=True,
        cwd=repo,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert [d["value"] for d in json.loads(good.stdout)["dice"]] == [5]
    broken = tmp_path / "broken.toml"
    broken.write_text("version = 1\n[reader]\ncolour = 3\n", encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, "-m", "einhorn_table", "read", "--profile", str(broken), str(photo)],
        capture_output=True,
        text=True,
        cwd=repo,
        check=False,
    )
    assert bad.returncode == 1
    assert "colour" in bad.stderr and "Traceback" not in bad.stderr


def test_a_die_s_value_is_not_drawn_across_a_label_s_value() -> None:
    # A label's value goes under its box: here just where the die's value would go,
    # above the die's box. The die's value must go elsewhere, and still be drawn.
    frame = np.full((300, 300, 3), 128, np.uint8)
    die = DieReading(box=(100.0, 100.0, 160.0, 160.0), value=3, confidence=1.0, color=(0, 0, 0))
    label = LabelledDie(box=(100.0, 40.0, 160.0, 90.0), value=6)
    drawn = draw_reading(frame, FrameReading((die,)), (label,))
    scale = drawn.shape[0] / frame.shape[0]
    sure_green = np.abs(drawn.astype(int) - (60, 200, 60)).sum(axis=2) < 60
    top, bottom = round(100 * scale), round(160 * scale)
    assert not sure_green[: top - 2].any()
    assert sure_green[bottom + 2 :].any()


def test_a_die_s_value_is_not_drawn_across_the_die_it_touches() -> None:
    # Two dice touching, one above the other: the lower one's value would go above
    # its box, inside the upper die's, and read as that die's.
    frame = np.full((300, 300, 3), 128, np.uint8)
    upper = DieReading(box=(100.0, 100.0, 160.0, 160.0), value=3, confidence=1.0, color=(0, 0, 0))
    lower = DieReading(box=(100.0, 160.0, 160.0, 220.0), value=5, confidence=0.9, color=(0, 0, 0))
    drawn = draw_reading(frame, FrameReading((upper, lower)), ())
    scale = drawn.shape[0] / frame.shape[0]
    for x0, y0, x1, y1 in (upper.box, lower.box):
        inner = drawn[
            round(y0 * scale) + 3 : round(y1 * scale) - 2,
            round(x0 * scale) + 3 : round(x1 * scale) - 2,
        ]
        assert (inner == 128).all()
    # Both values are drawn: text pixels lie above the upper die and below the lower.
    changed = (drawn != 128).any(axis=2)
    assert changed[: round(100 * scale) - 1, round(100 * scale) : round(160 * scale)].any()
    assert changed[round(220 * scale) + 2 :, round(100 * scale) : round(160 * scale)].any()


def test_a_phone_sized_photo_is_drawn_shrunk_with_its_boxes_in_place() -> None:
    # A 4032 x 3024 photo drawn as it is would have text a die's pip high.
    frame = np.full((3024, 4032, 3), 128, np.uint8)
    die = DieReading(box=(2016.0, 1512.0, 2331.0, 1827.0), value=4, confidence=1.0,
                     color=(0, 0, 0))
    drawn = draw_reading(frame, FrameReading((die,)), ())
    assert drawn.shape == (960, 1280, 3)
    sure_green = np.abs(drawn.astype(int) - (60, 200, 60)).sum(axis=2) < 60
    rows, columns = np.nonzero(sure_green)
    # The box (a 100 px square from the middle, at this size) and its value above it.
    assert columns.min() == pytest.approx(640, abs=3) and rows.max() == pytest.approx(580, abs=3)
    assert rows.min() < 480 - 10


def test_a_debug_folder_that_cannot_be_made_is_refused_before_reading(
        tmp_path: Path) -> None:
    from einhorn_table.folders import FolderError

    blocker = tmp_path / "drawings"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(FolderError, match="is a file, not a folder for the drawings"):
        run_read(str(FIXTURES / ROLL), "--debug", str(blocker))
    with pytest.raises(FolderError, match="cannot make the folder"):
        run_read(str(FIXTURES / ROLL), "--debug", str(blocker / "inside"))
