"""Calibrated against uncalibrated reading, per labelled photo set.

    PYTHONPATH=. python benchmarks/vision_calibration.py [--datasets DIR] [--sets NAME ...]

For each set the development photos are split in two halves (sorted by file
name, alternately), a profile is made from the first half
(``calibrate --from-labelled``) and both readers are measured on the second
half only: dice read right, silent errors and abstentions, as shares of the
labelled dice. :func:`calibrated_figures` is the importable measurement.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.from_labelled import calibrate_from_labelled
from einhorn_table.calibration.profile import CalibrationProfile
from einhorn_table.vision.labelled import LabelledPhoto, find_sets, load_set
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import SetScore, score_image

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"


def load_image(photo: LabelledPhoto) -> npt.NDArray[np.uint8] | None:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    return None if image is None else np.asarray(image, dtype=np.uint8)


def split_halves(
    photos: Sequence[LabelledPhoto],
) -> tuple[list[LabelledPhoto], list[LabelledPhoto]]:
    """(calibrate, measure): sorted by file name, every other photo to each half."""
    ordered = sorted(photos, key=lambda p: p.path.name)
    return ordered[0::2], ordered[1::2]


def score_photos(photos: Sequence[LabelledPhoto], profile: ReaderProfile) -> SetScore:
    score = SetScore()
    for photo in photos:
        image = load_image(photo)
        if image is not None:
            score.add(score_image(photo.dice, read_frame(image, profile).dice))
    return score


def figures(score: SetScore) -> dict[str, float]:
    return {
        "right": 100.0 * score.accuracy,
        "silent": 100.0 * score.silent_error_rate,
        "abstained": 100.0 * score.abstention_rate,
        "recall": 100.0 * score.recall,
        "precision": 100.0 * score.precision,
    }


def calibration_profile(set_dir: Path) -> CalibrationProfile:
    """The profile made from the calibration half of a set."""
    calibrate, _ = split_halves(load_set(set_dir))
    return calibrate_from_labelled(
        calibrate, load_image,
        made_by=f"einhorn-table calibrate --from-labelled {set_dir.name} (first half)",
    )


def calibrated_figures(set_dir: Path) -> dict[str, object]:
    """Uncalibrated and calibrated figures (percent of labelled dice) on the measure half."""
    _, measure = split_halves(load_set(set_dir))
    profile = calibration_profile(set_dir)
    before = score_photos(measure, ReaderProfile())
    after = score_photos(measure, profile.reader_profile())
    return {
        "set": set_dir.name,
        "photos": len(measure),
        "dice": before.labelled,
        "uncalibrated": figures(before),
        "calibrated": figures(after),
        "profile": profile,
    }


COLUMNS = (("right", "right %"), ("silent", "silent errors %"), ("abstained", "abstained %"),
           ("precision", "precision %"))


def print_table(rows: Sequence[dict[str, object]]) -> None:
    """One line per set: each figure uncalibrated → calibrated."""
    head = f"{'set':<17} {'photos':>6} {'dice':>5}"
    print(head + "".join(f" | {title:>15}" for _, title in COLUMNS))
    print(" " * len(head) + "".join(f" | {'before →  after':>15}" for _ in COLUMNS))
    print("-" * (len(head) + 18 * len(COLUMNS)))
    for row in rows:
        a = row["uncalibrated"]
        b = row["calibrated"]
        assert isinstance(a, dict) and isinstance(b, dict)
        cells = "".join(f" | {a[key]:6.1f} → {b[key]:6.1f}" for key, _ in COLUMNS)
        print(f"{row['set']!s:<17} {row['photos']!s:>6} {row['dice']!s:>5}{cells}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--sets", nargs="*", help="only these sets (folder names)")
    parser.add_argument("--profiles", action="store_true", help="also print each profile's reader")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    folders = find_sets(args.datasets)
    if args.sets:
        folders = [f for f in folders if f.name in args.sets]
    if not folders:
        print(f"no labelled sets under {args.datasets}; pass --datasets DIR", file=sys.stderr)
        return 1
    rows = [calibrated_figures(folder) for folder in folders]
    print_table(rows)
    if args.profiles:
        for row in rows:
            profile = row["profile"]
            assert isinstance(profile, CalibrationProfile)
            print(f"{row['set']}: {profile.reader}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
