"""The classifier alone on the labelled boxes: what a perfect detector would leave.

    PYTHONPATH=. python benchmarks/vision_boxes.py [--datasets DIR] [--sets NAME ...]
        [--models DIR | --held-out DIR0 DIR1] [--fold K] [--bars BAR ...]

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
``--bars 0.5 0.7 0.9`` also counts each set as if a die were sure from each of
those probabilities (the looks still run as the reader runs them, at its own
bar): how many more dice a lower bar would read right, and how many more wrong,
and so whether one classifier ranks its readings better than another.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
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
    #: The probability from which the classifier counts as sure of a value.
    bar: float = PROBABILITY_BAR

    def add(self, value: int, probabilities: npt.NDArray[np.float32]) -> None:
        self.labelled += 1
        faces = probabilities[1:7]
        if probabilities[BACKGROUND] > faces.max():
            self.no_die += 1
        elif faces.max() < self.bar:
            self.unsure += 1
        elif int(faces.argmax()) + 1 == value:
            self.right += 1
        else:
            self.wrong += 1


def detection_at(box: Box, scale: float) -> Detection:
    """A find exactly on a labelled box (in the frame as read, ``scale`` of the photo)."""
    x0, y0, x1, y1 = (v * scale for v in box)
    return Detection(((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0), 1.0)


#: One labelled die's value and the classifier's probabilities for its box.
BoxReading = tuple[int, npt.NDArray[np.float32]]


def read_boxes(
    folder: Path, models_for_fold: Callable[[int], Path], fold: int | None = None
) -> BoxScore:
    """The set's labelled boxes classified as finds (photos of ``fold`` only, if given),
    counted at the reader's bar."""
    return scored(box_readings(folder, models_for_fold, fold), PROBABILITY_BAR)


def scored(readings: Sequence[BoxReading], bar: float) -> BoxScore:
    """The readings counted as sure from probability ``bar``."""
    score = BoxScore(bar=bar)
    for value, probabilities in readings:
        score.add(value, probabilities)
    return score


def box_readings(
    folder: Path, models_for_fold: Callable[[int], Path], fold: int | None = None
) -> list[BoxReading]:
    """Each labelled box of the set classified as a find, with its label's value."""
    readings: list[BoxReading] = []
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
            readings.append((die.value, probabilities))
    return readings


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f} %" if whole else "    - "


def print_bars(rows: list[tuple[str, list[BoxScore]]]) -> None:
    """Right / sure of another value for each set at each bar."""
    bars = [score.bar for score in rows[0][1]]
    print("| set | " + " | ".join(f"sure from {bar:g}" for bar in bars) + " |")
    print("|---|" + "---|" * len(bars))
    for name, scores in rows:
        print(f"| {name} | " + " | ".join(f"{s.right} / {s.wrong}" for s in scores) + " |")
    print("(right and sure / sure of another value, of the labelled boxes)")


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
    parser.add_argument("--bars", nargs="+", type=float, metavar="BAR",
                        help="also count each set as sure from each of these probabilities")
    args = parser.parse_args(argv)
    if args.bars and not all(0.0 < bar <= 1.0 for bar in args.bars):
        print("each bar is a probability above 0 and at most 1", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    models_for_fold = chosen_models(args.models, args.held_out)
    if models_for_fold is None:
        return 1
    folders = [f for f in find_sets(args.datasets) if not args.sets or f.name in args.sets]
    if not folders:
        print(f"no labelled sets under {args.datasets}; pass --datasets DIR", file=sys.stderr)
        return 1
    readings = [(f.name, box_readings(f, models_for_fold, args.fold)) for f in folders]
    readings = [(name, found) for name, found in readings if found]
    print_table([(name, scored(found, PROBABILITY_BAR)) for name, found in readings])
    if args.bars and readings:
        print()
        print_bars([(name, [scored(found, bar) for bar in args.bars]) for name, found in readings])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
