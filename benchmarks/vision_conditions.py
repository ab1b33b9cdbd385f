"""The dice reader on the labelled photos as other cameras and rooms would take them.

    PYTHONPATH=. python benchmarks/vision_conditions.py [--datasets DIR] [--sets NAME ...]
        [--changes NAME ...] [--models DIR | --held-out DIR0 DIR1]

A table the reader has never seen has its own camera and light: dimmer or brighter,
warmer or cooler, flatter, noisier, more compressed, a little out of focus; a camera
of more or fewer pixels, or one turned on its mount. Each development photo is changed
so (``CHANGES``), read, and scored as ``benchmarks/vision.py`` scores it; a change that
moves the pixels (enlarged, shrunk, turned) moves the labelled boxes with them. Per
change and set it prints the dice read right and silently wrong, as shares of the
labelled dice, and over the sets the counts. A crop of tomitomi3_crops enlarged x6.3
holds one die of about 370 px, beyond the largest die the reader looks for (220 px of
the frame as read, a third of it), so that set reads next to nothing there; the other
sets are the phone's case.

``--held-out DIR0 DIR1`` reads each photo with models that never saw it: those in
DIR0 (``vision_models/train.py --train-fold 0``) read fold 1, those in DIR1 fold 0.
Without it the shipped models (or ``--models``) read every photo, which they were
trained on.
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
from vision import models_refused
from vision_calibration import load_image

from einhorn_table.vision.labelled import find_sets, fold_of, load_set
from einhorn_table.vision.learned import MODEL_DIR
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.results import Box
from einhorn_table.vision.scoring import LabelledDie, SetScore, score_image

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"

Image = npt.NDArray[np.uint8]
BoxMove = Callable[[Box], Box]


def _unmoved(box: Box) -> Box:
    return box


@dataclass(frozen=True)
class Changed:
    """A photo as another camera or room would take it, and where a box of the photo
    as taken lies on it."""

    image: Image
    move_box: BoxMove = _unmoved


Change = Callable[[Image, np.random.Generator], Changed]


def _levels(curve: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]) -> Change:
    table = np.clip(np.rint(curve(np.arange(256, dtype=np.float64))), 0, 255).astype(np.uint8)
    return lambda image, _rng: Changed(np.asarray(cv2.LUT(image, table), np.uint8))


def _white_balance(blue: float, green: float, red: float) -> Change:
    gains = np.array([blue, green, red], np.float32)
    return lambda image, _rng: Changed(np.clip(image * gains, 0, 255).astype(np.uint8))


def _jpeg(quality: int) -> Change:
    def change(image: Image, _rng: np.random.Generator) -> Changed:
        _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return Changed(np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8))

    return change


def _noise(sigma: float) -> Change:
    return lambda image, rng: Changed(
        np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)
    )


def _blur(sigma: float) -> Change:
    return lambda image, _rng: Changed(np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8))


def _resized(factor: float) -> Change:
    """Enlarged (bilinear, as a camera of more pixels) or shrunk (area, as one of fewer)."""

    def change(image: Image, _rng: np.random.Generator) -> Changed:
        height, width = image.shape[:2]
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        method = cv2.INTER_LINEAR if factor > 1 else cv2.INTER_AREA
        resized = np.asarray(cv2.resize(image, size, interpolation=method), np.uint8)
        fx, fy = size[0] / width, size[1] / height
        return Changed(resized, lambda b: (b[0] * fx, b[1] * fy, b[2] * fx, b[3] * fy))

    return change


def _turned(quarters: int) -> Change:
    """Turned clockwise by whole quarters, as a camera turned on its mount."""

    def change(image: Image, _rng: np.random.Generator) -> Changed:
        height, width = image.shape[:2]
        turned = np.ascontiguousarray(np.rot90(image, -quarters))
        if quarters == 1:
            return Changed(turned, lambda b: (height - b[3], b[0], height - b[1], b[2]))
        if quarters == 2:
            return Changed(turned, lambda b: (width - b[2], height - b[3], width - b[0],
                                              height - b[1]))
        return Changed(turned, lambda b: (b[1], width - b[2], b[3], width - b[0]))

    return change


#: The changes, by name: what each stands for is in its name and in the module's doc.
CHANGES: dict[str, Change] = {
    "as taken": lambda image, _rng: Changed(image),
    "dim (x0.55)": _levels(lambda v: v * 0.55),
    "bright (x1.4)": _levels(lambda v: v * 1.4),
    "dark midtones (gamma 1.8)": _levels(lambda v: 255 * (v / 255) ** 1.8),
    "light midtones (gamma 0.6)": _levels(lambda v: 255 * (v / 255) ** 0.6),
    "flat (contrast x0.5)": _levels(lambda v: 128 + (v - 128) * 0.5),
    "warm light": _white_balance(0.75, 0.95, 1.15),
    "cool light": _white_balance(1.2, 1.0, 0.8),
    "JPEG quality 35": _jpeg(35),
    "noise 8": _noise(8.0),
    "blur 1.2 px": _blur(1.2),
    "shrunk x0.5": _resized(0.5),
    "enlarged x2": _resized(2.0),
    "enlarged x6.3 (phone size)": _resized(6.3),
    "turned a quarter": _turned(1),
    "turned a half": _turned(2),
    "turned three quarters": _turned(3),
}


def held_out_models(trained_on_fold0: Path, trained_on_fold1: Path) -> Callable[[int], Path]:
    """For a photo's fold, the models that never saw it: those trained on the other fold."""
    trained_on = {0: trained_on_fold0, 1: trained_on_fold1}
    return lambda fold: trained_on[1 - fold]


def chosen_models(
    models: Path | None, held_out: Sequence[Path] | None
) -> Callable[[int], Path] | None:
    """For a photo's fold, the models to read it with, as the command line chose them
    (``--held-out DIR0 DIR1``, else ``--models DIR``, else the shipped ones), said on
    stdout; None, with the reason on stderr, where they cannot be loaded."""
    refused = models_refused(held_out or [models or MODEL_DIR])
    if refused:
        print(refused, file=sys.stderr)
        return None
    if held_out:
        print(f"held out: {held_out[0]} reads fold 1, {held_out[1]} reads fold 0")
        return held_out_models(held_out[0], held_out[1])
    print(f"models from {models}" if models else
          f"the shipped models ({MODEL_DIR}), trained on these photos")
    return lambda _fold: models or MODEL_DIR


def measure(
    folder: Path,
    change: Change,
    models_for_fold: Callable[[int], Path],
    profile: ReaderProfile,
) -> SetScore:
    """The set's photos changed, read and scored (noise seeded per photo)."""
    score = SetScore()
    for index, photo in enumerate(load_set(folder)):
        image = load_image(photo)
        if image is None:
            print(f"  cannot decode {photo.path}", file=sys.stderr)
            continue
        changed = change(image, np.random.default_rng(index))
        labels = [
            LabelledDie(die.value, None if die.box is None else changed.move_box(die.box))
            for die in photo.dice
        ]
        models = models_for_fold(fold_of(folder.name, photo.path.name))
        reading = read_frame(changed.image, profile, model_dir=models)
        score.add(score_image(labels, reading.dice))
    return score


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--sets", nargs="*", help="only these sets (folder names)")
    parser.add_argument("--changes", nargs="*", choices=sorted(CHANGES), metavar="NAME",
                        help=f"only these changes, of: {', '.join(CHANGES)}")
    models = parser.add_mutually_exclusive_group()
    models.add_argument("--models", type=Path, help="models from this folder for every photo")
    models.add_argument("--held-out", nargs=2, type=Path, metavar=("DIR0", "DIR1"),
                        help="models trained on fold 0 (read fold 1) and on fold 1 (read fold 0)")
    args = parser.parse_args()

    folders = find_sets(args.datasets)
    if args.sets:
        folders = [f for f in folders if f.name in args.sets]
    if not folders:
        print(f"no labelled sets in {args.datasets}", file=sys.stderr)
        return 1
    models_for_fold = chosen_models(args.models, args.held_out)
    if models_for_fold is None:
        return 1
    profile = ReaderProfile()
    names = args.changes or list(CHANGES)

    header = f"{'change':28s}" + "".join(f" | {f.name[:17]:>17s}" for f in folders)
    print(header + " | all: right, silent")
    print("-" * len(header) + "-" * 22)
    for name in names:
        scores = [measure(folder, CHANGES[name], models_for_fold, profile) for folder in folders]
        cells = "".join(
            f" | {100 * s.accuracy:6.1f} % {100 * s.silent_error_rate:5.1f} %" for s in scores
        )
        right = sum(s.right for s in scores)
        wrong = sum(s.wrong for s in scores)
        print(f"{name:28s}{cells} | {right:5d} {wrong:4d}", flush=True)
    print("\neach set: dice read right, silently wrong (shares of its labelled dice)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
