"""Benchmark of the dice reader on the labelled photo sets.

    PYTHONPATH=. python benchmarks/vision.py [--datasets DIR] [--sets NAME ...]
        [--misreads DIR] [--method combined|learned|classical] [--models DIR] [--fold K]
        [--no-calibrated] [--min-confidence X]

Prints one table per set: detection recall and precision, dice read right,
abstentions and silent errors (as shares of the labelled dice), rolls of three
read right / flagged / silently wrong, and the median and 95th-percentile
reading time per photo on one core (decoding the file is not timed). Then,
unless ``--no-calibrated``, the table of ``vision_calibration.py``: each set
calibrated on one half of its photos and measured on the other half.
``--min-confidence`` reads with another bar than the reader's default.

The learned reader was trained on these development photos, so its figures here
are on photos it has seen. ``--fold 1 --models DIR`` measures models trained with
``vision_models/train.py --train-fold 0 --out DIR`` on the fold they never saw.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from one_core import pin_to_one_core

from einhorn_table.vision.drawing import draw_reading
from einhorn_table.vision.labelled import find_sets, fold_of, load_set
from einhorn_table.vision.learned import (
    MODEL_DIR,
    SMALL_DICE_DETECTOR_FILE,
    ModelError,
    learned_reader,
    small_dice_detector_present,
)
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import SetScore, score_image

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:6.1f} %" if whole else "     - "


def models_refused(folders: Iterable[Path], method: str = "combined") -> str | None:
    """Why the learned reader's models in ``folders`` cannot be measured (missing or
    unreadable), or None. Without them the reader quietly stands in the classical
    reader alone, and a table headed with the models would measure that instead.
    Each is loaded here, the small-dice detector too where the folder has it, so
    that no photo's time includes loading a model."""
    if method == "classical":
        return None
    for folder in folders:
        try:
            learned_reader(folder)
            if small_dice_detector_present(folder):
                learned_reader(folder, SMALL_DICE_DETECTOR_FILE)
        except ModelError as error:
            return f"{error}; pass a folder holding both of the reader's models"
    return None


def benchmark_set(
    folder: Path,
    misreads: Path | None,
    profile: ReaderProfile | None = None,
    models: Path | None = None,
    fold: int | None = None,
) -> tuple[SetScore, list[float]]:
    profile = profile or ReaderProfile()
    score = SetScore()
    times: list[float] = []
    for photo in load_set(folder):
        if fold is not None and fold_of(folder.name, photo.path.name) != fold:
            continue
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            print(f"  cannot decode {photo.path}", file=sys.stderr)
            continue
        start = time.perf_counter()
        reading = read_frame(image, profile, model_dir=models or MODEL_DIR)
        times.append((time.perf_counter() - start) * 1000.0)
        result = score_image(photo.dice, reading.dice)
        score.add(result)
        if misreads is not None and (result.wrong or result.found < result.labelled):
            misreads.mkdir(parents=True, exist_ok=True)
            drawn = draw_reading(image, reading, labels=photo.dice)
            cv2.imwrite(str(misreads / f"{folder.name}__{photo.path.stem}.png"), drawn)
    return score, times


def print_table(name: str, score: SetScore, times: list[float]) -> None:
    rolls = score.rolls
    roll_total = sum(rolls.values())
    print(f"== {name}: {score.images} photos, {score.labelled} labelled dice, {score.read} read")
    print(f"  detection recall      {_percent(score.found, score.labelled)}")
    print(f"  detection precision   {_percent(score.found, score.read)}")
    print(f"  read right (e2e)      {_percent(score.right, score.labelled)}")
    print(f"  abstained (None)      {_percent(score.abstained, score.labelled)}")
    print(f"  silent errors         {_percent(score.wrong, score.labelled)}")
    if roll_total:
        print(
            f"  rolls of 3 ({roll_total:3d})      right {_percent(rolls['right'], roll_total)}"
            f"  flagged {_percent(rolls['flagged'], roll_total)}"
            f"  silently wrong {_percent(rolls['wrong'], roll_total)}"
        )
    else:
        print("  rolls of 3            (no photo with exactly three labelled dice)")
    if times:
        median = float(np.median(times))
        p95 = float(np.percentile(times, 95))
        print(f"  ms per photo          median {median:6.1f}   p95 {p95:6.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the dice reader on labelled photos.")
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--sets", nargs="*", help="only these sets (folder names)")
    parser.add_argument("--misreads", type=Path, help="write drawn misread photos here")
    parser.add_argument("--no-calibrated", action="store_true",
                        help="skip the calibrated column (calibrate on one half, measure on "
                        "the other)")
    parser.add_argument("--method", choices=("combined", "learned", "classical"),
                        default="combined", help="which reader (default: combined)")
    parser.add_argument("--models", type=Path,
                        help="the learned reader's models from this folder, not vision_models/")
    parser.add_argument("--fold", type=int, choices=(0, 1),
                        help="only the photos of this fold (einhorn_table.vision.labelled.fold_of)")
    parser.add_argument("--min-confidence", type=float, default=ReaderProfile.min_confidence)
    args = parser.parse_args(argv)
    # One thread, set before any model is loaded: the learned reader sizes its
    # sessions' thread pools from OpenCV's thread count when it loads them.
    cv2.setNumThreads(1)
    core = pin_to_one_core()
    refused = models_refused([args.models or MODEL_DIR], args.method)
    if refused:
        print(refused, file=sys.stderr)
        return 1
    profile = ReaderProfile(method=args.method, min_confidence=args.min_confidence)
    print(f"reader: {args.method}"
          + (f", models from {args.models}" if args.models else "")
          + ("" if small_dice_detector_present(args.models or MODEL_DIR)
             else ", no small-dice detector")
          + (f", fold {args.fold} only" if args.fold is not None else "")
          + f", min_confidence {args.min_confidence:g}, {core}")
    folders = find_sets(args.datasets)
    if args.sets:
        folders = [f for f in folders if f.name in args.sets]
    if not folders:
        print(f"no labelled sets under {args.datasets}; pass --datasets DIR", file=sys.stderr)
        return 1
    for folder in folders:
        score, times = benchmark_set(folder, args.misreads, profile, args.models, args.fold)
        print_table(folder.name, score, times)
    if not args.no_calibrated:
        # Issue 7's column: each set calibrated (einhorn-table calibrate --from-labelled) on
        # one half of its photos and measured on the other, beside the uncalibrated reader
        # on that same half.
        from vision_calibration import calibrated_figures
        from vision_calibration import print_table as print_calibrated

        print("\n== calibrated on one half of each set, measured on the other half")
        print_calibrated([calibrated_figures(folder) for folder in folders])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
