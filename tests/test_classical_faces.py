"""The classical reader's faces kept for training (vision_models/classical_faces.py).

Training takes the faces of matteop65's pip-area boxes and tomitomi3's box-less
crops from ``vision_models/classical_faces.json``, so that a change to the classical
reader does not change the models' training data unnoticed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from einhorn_table.vision.labelled import LabelledPhoto, load_set
from einhorn_table.vision.scoring import LabelledDie, centre_inside

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "vision_models"))

import classical_faces  # noqa: E402
from classical_faces import FACES_FILE, FaceBook, find_faces, needs_faces  # noqa: E402
from vision_helpers import FIXTURES, labels, load_photo  # noqa: E402

DATASETS = REPO.parent / "shared" / "datasets"


def fixture_photo(name: str) -> tuple[LabelledPhoto, np.ndarray]:
    return LabelledPhoto(FIXTURES / name, tuple(labels(name))), load_photo(name)


def test_a_pip_area_box_gets_the_face_around_it() -> None:
    photo, image = fixture_photo("matteop65_d6__train_five_25.jpg")
    faces = find_faces(image, "matteop65_d6", photo.dice)
    assert len(faces) == len(photo.dice)
    assert sum(face is not None for face in faces) >= len(faces) - 1
    for die, face in zip(photo.dice, faces, strict=True):
        if face is None:
            continue
        assert die.box is not None
        assert centre_inside(die.box, face)
        x0, y0, x1, y1 = die.box
        # The face is larger than the five pips' box, not a pip of its own.
        assert face[2] - face[0] > (x1 - x0) and face[3] - face[1] > (y1 - y0)


def test_a_crop_gets_the_one_die_read_there_only_with_its_labelled_value() -> None:
    photo, image = fixture_photo("tomitomi3_crops__4_00011.png")
    (face,) = find_faces(image, "tomitomi3_crops", photo.dice)
    assert face is not None
    height, width = image.shape[:2]
    assert 0 <= face[0] < face[2] <= width and 0 <= face[1] < face[3] <= height
    wrong = (LabelledDie(3, None),)
    assert find_faces(image, "tomitomi3_crops", wrong) == [None]


def test_whole_boxes_need_no_faces() -> None:
    photo, _ = fixture_photo("byler_d6__IMG_20191209_095628.jpg")
    assert not needs_faces("byler_d6", photo.dice)
    assert needs_faces("matteop65_d6", photo.dice)
    assert needs_faces("byler_d6", (*photo.dice, LabelledDie(2, None)))


def test_kept_faces_are_used_as_kept_and_others_found_and_noted(tmp_path: Path) -> None:
    photo, image = fixture_photo("matteop65_d6__train_four_21.jpg")
    kept = [(1.0, 2.0, 3.0, 4.0)] + [None] * (len(photo.dice) - 1)
    book = FaceBook({"matteop65_d6": {classical_faces.photo_key(photo): kept}})
    assert book.faces_of("matteop65_d6", photo, image) == kept
    assert book.found_now == []
    # Kept for another number of dice than labelled: found again.
    book.faces["matteop65_d6"][classical_faces.photo_key(photo)] = kept[:1] * 9
    found = book.faces_of("matteop65_d6", photo, image)
    assert found == find_faces(image, "matteop65_d6", photo.dice)
    assert book.found_now == ["matteop65_d6/" + classical_faces.photo_key(photo)]
    # Written and read back to the last bit.
    path = tmp_path / "faces.json"
    book.save(path)
    again = FaceBook.load(path)
    assert again.faces == book.faces
    assert FaceBook.load(tmp_path / "absent.json").faces == {}


@pytest.mark.skipif(
    not (DATASETS / "matteop65_d6" / "labels.jsonl").is_file(),
    reason=f"labelled photo sets not found at {DATASETS}",
)
def test_the_kept_file_agrees_with_the_labels() -> None:
    book = FaceBook.load(FACES_FILE)
    checked = 0
    for set_name in ("matteop65_d6", "tomitomi3_crops"):
        kept = book.faces.get(set_name, {})
        for photo in load_set(DATASETS / set_name):
            faces = kept.get(classical_faces.photo_key(photo))
            if faces is None:
                continue
            assert len(faces) == len(photo.dice), photo.path
            for die, face in zip(photo.dice, faces, strict=True):
                if face is None:
                    continue
                if die.box is None:
                    assert 0 <= face[0] < face[2] <= 128 and 0 <= face[1] < face[3] <= 128
                else:
                    assert centre_inside(die.box, face), photo.path
            checked += 1
    if checked == 0:
        pytest.skip("these are not the photos the faces were kept for")
    # The development photos of both sets are all kept, most with a face for each die.
    assert checked >= 790
    faces = [f for photos in book.faces.values() for fs in photos.values() for f in fs]
    assert sum(f is not None for f in faces) / len(faces) > 0.8
