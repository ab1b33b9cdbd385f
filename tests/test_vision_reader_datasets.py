"""The reader on a sample of the labelled development photos (skipped without them)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from einhorn_table.vision.labelled import find_sets, load_set
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import SetScore, score_image

#: The labelled development sets, beside the repository (as CI clones them).
DATASETS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"

pytestmark = pytest.mark.skipif(
    not (DATASETS / "tomitomi3_crops" / "labels.jsonl").is_file(),
    reason=f"labelled photo sets not found at {DATASETS}",
)


def score_sample(name: str, every: int) -> SetScore:
    total = SetScore()
    for photo in load_set(DATASETS / name)[::every]:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        assert image is not None, photo.path
        total.add(score_image(photo.dice, read_frame(image).dice))
    return total


def test_the_sets_are_found() -> None:
    names = {folder.name for folder in find_sets(DATASETS)}
    assert {"tomitomi3_crops", "matteop65_d6"} <= names


def test_fixed_camera_crops_are_read_right_and_never_silently_wrong() -> None:
    score = score_sample("tomitomi3_crops", every=6)
    assert score.labelled == 100
    assert score.accuracy >= 0.93
    assert score.wrong == 0


def test_webcam_photos_are_mostly_read_and_rarely_silently_wrong() -> None:
    score = score_sample("matteop65_d6", every=5)
    assert score.recall >= 0.85
    assert score.accuracy >= 0.75
    assert score.silent_error_rate <= 0.03
