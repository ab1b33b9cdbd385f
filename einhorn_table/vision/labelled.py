"""Reading the labelled photo sets (``labels.jsonl`` beside an ``images/`` folder)."""

from __future__ import annotations

import json
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
