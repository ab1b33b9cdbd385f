"""The classifier alone on the labelled boxes: what a perfect detector would leave.

    PYTHONPATH=. python benchmarks/vision_boxes.py [--datasets DIR] [--sets NAME ...]
        [--models DIR | --held-out DIR0 DIR1] [--fold K]

Each labelled die's box is given to the learned reader's classifier as if the
detector had found it exactly there (its centre, its longer side), and read as
the reader reads a find: both first views, the second look, the look around and
the look on the die's body (``LearnedReader.classify``). Prints per set how many
labelled dice it reads right and sure (probability at least the reader's bar),
sure of another value, unsure, and as no die at all. Where the end-to-end
benchmark (``vision.py``) reads fewer dice right than this, the rest are lost in
finding dice and combining the two readers; what this cannot read right, no
detector would make right.

The labels of ``matteop65_d6`` box only the top face's pips, so its crops hold
part of a face and say little; ``tomitomi3_crops`` has no boxes and is skipped.
``--held-out DIR0 DIR1`` reads each photo with the models that never saw it
(``vision_models/train.py --train-fold 0 --out DIR0``, and fold 1 into DIR1).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from vision_conditions import chosen_models

from einhorn_table.vision.frames import shrunk
from einhorn_table.vision.labelled import find_sets, fold_of, load_set
from einhorn_table.vision.learned import (
    BACKGROUND,
    PROBABILITY_BAR,
    Detection,
    learned_reader,
)
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"


@dataclass
class BoxScore:
    """Labelled dice by what the classifier made of their boxes."""

    labelled: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    no_die: int = 0

    def add(self, value: int, probabilities: npt.NDArray[np.float32]) -> None:
        self.labelled += 1
        faces = probabilities[1:7]
        if probabilities[BACKGROUND] > faces.max():
            self.no_die += 1
        elif faces.max() < PROBABILITY_BAR:
            self.unsure += 1
        elif int(faces.argmax()) + 1 == value:
            self.right += 1
        else:
            self.wrong += 1


def detection_at(box: Box, scale: float) -> Detection:
    """A find exactly on a labelled box (in the frame as read, ``scale`` of the photo)."""
    x0, y0, x1, y1 = (v * scale for v in box)
    return Detection(((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0), 1.0)


def read_boxes(
    folder: Path, models_for_fold: Callable[[int], Path], fold: int | None = None
) -> BoxScore:
    """The set's labelled boxes classified as finds (photos of ``fold`` only, if given)."""
    score = BoxScore()
    max_side = ReaderProfile().max_side
    for photo in load_set(folder):
        boxed = [die for die in photo.dice if die.box is not None]
        photo_fold = fold_of(folder.name, photo.path.name)
        if not boxed or (fold is not None and photo_fold != fold):
            continue
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            print(f"  cannot decode {photo.path}", file=sys.stderr)
            continue
        frame, scale = shrunk(np.asarray(image, np.uint8), max_side)
        reader = learned_reader(models_for_fold(photo_fold))
        finds = [detection_at(die.box, scale) for die in boxed if die.box is not None]
        for die, probabilities in zip(boxed, reader.classify(frame, finds), strict=True):
            score.add(die.value, probabilities)
    return score


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f} %" if whole else "    - "


def print_table(rows: list[tuple[str, BoxScore]]) -> None:
    print("| set | labelled boxes | right and sure | sure of another value | unsure | no die |")
    print("|---|---|---|---|---|---|")
    for name, s in rows:
        print(
            f"| {name} | {s.labelled} | {s.right} ({_percent(s.right, s.labelled)}) "
            f"| {s.wrong} ({_percent(s.wrong, s.labelled)}) "
            f"| {s.unsure} ({_percent(s.unsure, s.labelled)}) "
            f"| {s.no_die} ({_percent(s.no_die, s.labelled)}) |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The classifier alone on the labelled boxes (a perfect detector)."
    )
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--sets", nargs="*", help="only these sets (folder names)")
    models = parser.add_mutually_exclusive_group()
    models.add_argument("--models", type=Path, help="the models from this folder")
    models.add_argument("--held-out", nargs=2, type=Path, metavar=("DIR0", "DIR1"),
                        help="models trained on fold 0 and on fold 1: each photo is read "
                        "by those that never saw it")
    parser.add_argument("--fold", type=int, choices=(0, 1), help="only the photos of this fold")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    models_for_fold = chosen_models(args.models, args.held_out)
    if models_for_fold is None:
        return 1
    folders = [f for f in find_sets(args.datasets) if not args.sets or f.name in args.sets]
    if not folders:
        print(f"no labelled sets under {args.datasets}; pass --datasets DIR", file=sys.stderr)
        return 1
    rows = [(f.name, read_boxes(f, models_for_fold, args.fold)) for f in folders]
    print_table([(name, score) for name, score in rows if score.labelled])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
