"""The classical reader's faces around labelled dice that have no whole-face box,
kept in ``classical_faces.json`` so that training does not change with the reader.

Two kinds of labelled die lack a box around the whole face: the pip-area boxes of
``matteop65_d6`` (a single pip for a 1) and the box-less single-die crops of
``tomitomi3_crops``. Training gives them the face the classical reader fits there
where it reads the labelled value (``train.load_photos``). The classical reader
keeps changing, and with it those faces: between the first week's reader and the
thirty-third week's, 308 of the 602 training boxes of matteop65's dice moved or
changed size, and so would any model trained on them. So the faces are found once
and kept in the file; ``python vision_models/train.py --refresh-faces`` finds them
again with today's reader (a deliberate change to the training data, to note on
the model card).

Needs only OpenCV and the package, not PyTorch.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from einhorn_table.vision.labelled import LabelledPhoto, find_sets, load_set
from einhorn_table.vision.reader import read_frame_classical
from einhorn_table.vision.results import Box
from einhorn_table.vision.scoring import LabelledDie, centre_inside

FACES_FILE = Path(__file__).resolve().parent / "classical_faces.json"

#: Sets whose boxes cover only the pips of the top face (a single pip for a 1), not
#: the whole face: their own README says so. Trained on as they are, the models
#: would learn that a lone pip is a die showing 1.
PIP_AREA_BOXES = ("matteop65_d6",)

#: One photo's faces: for each labelled die in label order, the face the classical
#: reader fits there, or None where it fits none with the labelled value (or the die
#: has a whole box of its own).
Faces = list[Box | None]

ABOUT = (
    "The classical reader's face around each labelled die that has no whole-face box "
    "(vision_models/classical_faces.py), in label order; null where it reads no face "
    "of the labelled value there. Made by: python vision_models/train.py --refresh-faces"
)


def needs_faces(set_name: str, dice: Sequence[LabelledDie]) -> bool:
    """Whether a photo's labelled dice need the classical reader's faces."""
    return set_name in PIP_AREA_BOXES or any(die.box is None for die in dice)


def find_faces(image: np.ndarray, set_name: str, dice: Sequence[LabelledDie]) -> Faces:
    """The classical reader's face for each labelled die that lacks a whole box.

    A crop's die (no box) takes the one die the classical reader reads, where it
    reads the labelled value; a pip-area box takes the first face of the labelled
    value whose box holds the pip box's centre.
    """
    classical = [d for d in read_frame_classical(image).dice if d.value is not None]
    pip_boxes = set_name in PIP_AREA_BOXES
    faces: Faces = []
    for die in dice:
        face: Box | None = None
        if die.box is None:
            if len(classical) == 1 and classical[0].value == die.value:
                face = classical[0].box
        elif pip_boxes:
            box = die.box
            face = next(
                (c.box for c in classical if c.value == die.value and centre_inside(box, c.box)),
                None,
            )
        faces.append(face)
    return faces


def photo_key(photo: LabelledPhoto) -> str:
    """A photo's name in the file: its path within its set, as ``labels.jsonl`` has it."""
    return f"{photo.path.parent.name}/{photo.path.name}"


class FaceBook:
    """The kept faces, by set and photo; photos not in it are read when asked for."""

    def __init__(self, faces: dict[str, dict[str, Faces]] | None = None) -> None:
        self.faces: dict[str, dict[str, Faces]] = faces or {}
        #: Photos whose faces were found now, not taken from the file.
        self.found_now: list[str] = []

    @classmethod
    def load(cls, path: Path = FACES_FILE) -> FaceBook:
        if not path.is_file():
            return cls()
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            {
                set_name: {
                    key: [None if box is None else _box(box) for box in boxes]
                    for key, boxes in photos.items()
                }
                for set_name, photos in raw["sets"].items()
            }
        )

    def faces_of(self, set_name: str, photo: LabelledPhoto, image: np.ndarray) -> Faces:
        """The photo's faces from the file, or found now where the file lacks them
        (or holds another number of dice than the labels)."""
        kept = self.faces.get(set_name, {}).get(photo_key(photo))
        if kept is not None and len(kept) == len(photo.dice):
            return kept
        faces = find_faces(image, set_name, photo.dice)
        self.faces.setdefault(set_name, {})[photo_key(photo)] = faces
        self.found_now.append(f"{set_name}/{photo_key(photo)}")
        return faces

    def save(self, path: Path = FACES_FILE) -> None:
        """Write the faces, one line a photo (so that a refresh shows as a diff by photo)."""
        sets = ",\n".join(
            f"{json.dumps(set_name)}: {{\n"
            + ",\n".join(
                f"{json.dumps(key)}: {json.dumps(faces)}" for key, faces in sorted(photos.items())
            )
            + "\n}"
            for set_name, photos in sorted(self.faces.items())
        )
        text = f'{{\n"about": {json.dumps(ABOUT)},\n"sets": {{\n{sets}\n}}\n}}\n'
        path.write_text(text, encoding="utf-8")


def refresh(root: Path, path: Path = FACES_FILE) -> FaceBook:
    """Find every labelled photo's faces again with today's classical reader and
    keep them in ``path``."""
    book = FaceBook()
    for folder in find_sets(root):
        for photo in load_set(folder):
            if not needs_faces(folder.name, photo.dice):
                continue
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if image is not None:
                book.faces_of(folder.name, photo, image)
    book.save(path)
    return book


def _box(raw: Sequence[float]) -> Box:
    return (float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
