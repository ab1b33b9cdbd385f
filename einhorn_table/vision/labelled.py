"""Reading the labelled photo sets (``labels.jsonl`` beside an ``images/`` folder)."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from einhorn_table.vision.results import Box
from einhorn_table.vision.scoring import LabelledDie


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    dice: tuple[LabelledDie, ...]


def load_set(folder: Path) -> list[LabelledPhoto]:
    """The photos of one set with their labels, in file order."""
    photos: list[LabelledPhoto] = []
    with (folder / "labels.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            entry = json.loads(line)
            dice: list[LabelledDie] = []
            for die in entry["dice"]:
                raw = die.get("box")
                box: Box | None = (
                    None
                    if raw is None
                    else (float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
                )
                dice.append(LabelledDie(int(die["value"]), box))
            photos.append(LabelledPhoto(folder / entry["image"], tuple(dice)))
    return photos


def find_sets(root: Path) -> list[Path]:
    """The set folders under ``root`` (those holding a ``labels.jsonl``), by name."""
    return sorted(p.parent for p in root.glob("*/labels.jsonl"))


def fold_of(set_name: str, image_name: str, folds: int = 2) -> int:
    """Which of ``folds`` folds a photo falls in, stable across runs and machines.

    Photos taken moments apart (matteop65's numbered webcam frames, byler's
    photos of the same minute) share a fold, so a model trained on one fold is
    measured on the other without near-duplicates of its training photos.
    """
    stem = Path(image_name).stem
    key = stem
    prefix, _, number = stem.rpartition("_")
    if set_name.startswith("matteop65") and number.isdigit():
        key = f"{prefix}_{int(number) // 4}"
    elif stem.startswith("IMG_") and len(stem) >= 17:
        key = stem[:17]  # IMG_YYYYMMDD_HHMM: one minute of photos
    return zlib.crc32(f"{set_name}/{key}".encode()) % folds
