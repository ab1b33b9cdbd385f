"""Frames whose dice are small (a camera mounted high) are read again with the
small-dice detector."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from vision_helpers import labels, load_photo

from einhorn_table.vision.learned import (
    CLASSIFIER_FILE,
    DETECTOR_FILE,
    MODEL_DIR,
    small_dice_detector_present,
)
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.results import Box, DieReading, FrameReading
from einhorn_table.vision.scoring import LabelledDie, score_image
from einhorn_table.vision.small_dice import SMALL_DICE_PX, dice_are_small

#: byler_d6's crowded photo of 22 dice of about 40 px; shrunk to half, as a camera
#: mounted twice as high would see them.
CROWDED = "byler_d6__IMG_20191208_111246.jpg"


def _reading(*sides: float) -> FrameReading:
    return FrameReading(
        tuple(
            DieReading((10.0 * i, 0.0, 10.0 * i + side, side), 3, 0.9, (250, 250, 250))
            for i, side in enumerate(sides)
        )
    )


def test_dice_are_small_by_the_median_side_of_those_found() -> None:
    below = SMALL_DICE_PX - 1
    assert dice_are_small(_reading(below, below, 60.0))
    assert not dice_are_small(_reading(below, SMALL_DICE_PX, 60.0))
    # Boxes count by their longer side.
    assert not dice_are_small(
        FrameReading((DieReading((0.0, 0.0, 12.0, SMALL_DICE_PX), 2, 0.9, (0, 0, 0)),))
    )
    assert not dice_are_small(FrameReading(()))


@pytest.fixture(scope="module")
def without_small_dice_detector(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("models")
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        shutil.copy(MODEL_DIR / name, folder / name)
    return folder


def _right_and_wrong(reading: FrameReading, dice: list[LabelledDie]) -> tuple[int, int]:
    score = score_image(dice, reading.dice)
    return score.right, score.wrong


def _halved(
    image: npt.NDArray[np.uint8], dice: list[LabelledDie]
) -> tuple[npt.NDArray[np.uint8], list[LabelledDie]]:
    small = np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    halved = []
    for die in dice:
        assert die.box is not None
        x0, y0, x1, y1 = die.box
        box: Box = (x0 / 2, y0 / 2, x1 / 2, y1 / 2)
        halved.append(LabelledDie(die.value, box))
    return small, halved


def test_the_small_dice_detector_is_shipped() -> None:
    assert small_dice_detector_present()


def test_small_dice_are_found_and_read_with_the_small_dice_detector(
    without_small_dice_detector: Path,
) -> None:
    image, dice = _halved(load_photo(CROWDED), labels(CROWDED))
    first = read_frame(image, model_dir=without_small_dice_detector)
    assert dice_are_small(first)  # 320 px: read at its own size, boxes as read
    with_it = _right_and_wrong(read_frame(image), dice)
    without_it = _right_and_wrong(first, dice)
    # Of the 22 dice: 19 right with it, 16 without (one misread either way).
    assert with_it[0] >= 18 and with_it[0] >= without_it[0] + 2, (with_it, without_it)
    assert with_it[1] <= without_it[1]


def test_frames_of_usual_dice_are_read_once(without_small_dice_detector: Path) -> None:
    for name in ("matteop65_d6__train_dice_30.jpg", "byler_d6__IMG_20191209_100308.jpg"):
        image = load_photo(name)
        assert read_frame(image) == read_frame(image, model_dir=without_small_dice_detector)
