"""Both readers on a sample of the labelled development photos (skipped without them).

The learned reader was trained on these photos, so these tests guard against
breaking it rather than measure it; ``benchmarks/vision.py --fold`` measures it
on photos it never saw."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from einhorn_table.vision.labelled import find_sets, load_set
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import SetScore, score_image

#: The labelled development sets, beside the repository (as CI clones them).
DATASETS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"

pytestmark = pytest.mark.skipif(
    not (DATASETS / "tomitomi3_crops" / "labels.jsonl").is_file(),
    reason=f"labelled photo sets not found at {DATASETS}",
)


#: Each reader, with the share of dice it must read right here at least: the learned
#: reader alone is weaker than the two cross-checked (see vision_models/README.md).
CROPS_RIGHT = {"combined": 0.93, "classical": 0.93, "learned": 0.75}
WEBCAM_RIGHT = {"combined": 0.75, "classical": 0.75, "learned": 0.45}
READERS = pytest.mark.parametrize("method", ["combined", "learned", "classical"])


def score_sample(name: str, every: int, method: str) -> SetScore:
    profile = ReaderProfile(method=method)
    total = SetScore()
    for photo in load_set(DATASETS / name)[::every]:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        assert image is not None, photo.path
        total.add(score_image(photo.dice, read_frame(image, profile).dice))
    return total


def test_the_sets_are_found() -> None:
    names = {folder.name for folder in find_sets(DATASETS)}
    assert {"tomitomi3_crops", "matteop65_d6"} <= names


@READERS
def test_fixed_camera_crops_are_read_right_and_never_silently_wrong(method: str) -> None:
    score = score_sample("tomitomi3_crops", every=6, method=method)
    assert score.labelled == 100
    assert score.accuracy >= CROPS_RIGHT[method]
    assert score.wrong == 0


@READERS
def test_webcam_photos_are_mostly_read_and_rarely_silently_wrong(method: str) -> None:
    score = score_sample("matteop65_d6", every=5, method=method)
    assert score.recall >= 0.85
    assert score.accuracy >= WEBCAM_RIGHT[method]
    assert score.silent_error_rate <= 0.03
