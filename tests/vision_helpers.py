"""The labelled real photos copied into ``tests/fixtures/vision`` (see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.scoring import LabelledDie

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "vision"


def load_photo(name: str) -> npt.NDArray[np.uint8]:
    image = cv2.imread(str(FIXTURES / name), cv2.IMREAD_COLOR)
    assert image is not None, f"fixture {name} is missing or unreadable"
    return np.asarray(image, dtype=np.uint8)


def labels(name: str) -> list[LabelledDie]:
    entries = json.loads((FIXTURES / "labels.json").read_text(encoding="utf-8"))[name]
    result: list[LabelledDie] = []
    for entry in entries:
        box = entry["box"]
        result.append(LabelledDie(entry["value"], None if box is None else tuple(box)))
    return result
