"""Reading the labelled photo sets (``labels.jsonl`` beside an ``images/`` folder).

One line per photo: ``{"image": "images/x.jpg", "dice": [{"value": 1..6, "box":
[x0, y0, x1, y1]}, ...]}``, the box in the photo's pixels, or null for a photo of one
die (a crop). Other keys (``source``...) are kept out of the way.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.text_files import TextFileError, read_text_file
from einhorn_table.vision.results import Box
from einhorn_table.vision.scoring import LabelledDie

#: What one line of labels.jsonl looks like, for the messages.
LINE_FORM = (
    '{"image": "images/photo.jpg", "dice": [{"value": 1 to 6, "box": [x0, y0, x1, y1]}]}'
)


class LabelsError(EinhornError):
    """A labelled photo set (labels.jsonl) cannot be used; the message names the file and
    line, and says what to fix."""


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    dice: tuple[LabelledDie, ...]


def load_set(folder: Path, *, strict: bool = False) -> list[LabelledPhoto]:
    """The photos of one set with their labels, in file order; a :class:`LabelsError`
    names the line of ``labels.jsonl`` that cannot be read.

    ``strict`` (calibrating a table from the photos) also refuses values other than
    1 to 6 and boxes that are no boxes. Without it (the benchmarks, which must score
    sets made by other people's tools) a value is taken as any whole number and a box
    as any four numbers, as written."""
    labels = folder / "labels.jsonl"
    try:
        text = read_text_file(labels, "a labels file")
    except FileNotFoundError:
        raise LabelsError(
            f"{folder} holds no labels.jsonl: pass a folder of labelled photos "
            "(labels.jsonl beside images/)"
        ) from None
    except TextFileError as error:
        raise LabelsError(str(error)) from None
    photos: list[LabelledPhoto] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        image, dice = _entry(line, f"{labels}, line {number}", strict)
        photos.append(LabelledPhoto(folder / image, dice))
    return photos


def _entry(line: str, where: str, strict: bool) -> tuple[str, tuple[LabelledDie, ...]]:
    """The image name and dice of one line of labels.jsonl (``where``: file and line)."""
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        raise LabelsError(
            f"{where} is not a JSON line ({error.msg} at character {error.colno}): each "
            "line must be one photo's labels, "
            f"like {LINE_FORM}; fix or delete that line"
        ) from None
    if not isinstance(entry, dict):
        raise _wrong_line(where, "one photo's labels in { }", entry)
    image = entry.get("image")
    if not isinstance(image, str) or not image.strip():
        raise _wrong_line(where, 'the photo\'s file name as "image"', image, "image")
    dice = entry.get("dice")
    if not isinstance(dice, list):
        raise _wrong_line(where, 'the list of its dice as "dice"', dice, "dice")
    return image, tuple(_die(die, f"{where}, die {k}", strict)
                        for k, die in enumerate(dice, start=1))


def _die(die: Any, where: str, strict: bool) -> LabelledDie:
    if not isinstance(die, dict):
        raise _wrong_line(where, '{"value": 1 to 6, "box": [x0, y0, x1, y1]}', die)
    if not strict:
        return _die_as_written(die, where)
    value = die.get("value")
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or value not in (1, 2, 3, 4, 5, 6)  # 3.0 is 3; 2.5 and nan are none
    ):
        raise _wrong_line(where, "the number of pips on top, 1 to 6, as \"value\"", value,
                          "value")
    raw = die.get("box")
    if raw is None:
        return LabelledDie(int(value), None)
    wanted = ("its box as [x0, y0, x1, y1]: 4 numbers of 0 or more in the photo's pixels, "
              "left before right and top before bottom (or null for a photo of one die)")
    if (
        not isinstance(raw, list)
        or len(raw) != 4
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
    ):
        raise _wrong_line(where, wanted, raw, "box")
    x0, y0, x1, y1 = (float(v) for v in raw)
    if not all(math.isfinite(v) and v >= 0 for v in (x0, y0, x1, y1)) or x0 >= x1 or y0 >= y1:
        raise _wrong_line(where, wanted, raw, "box")
    box: Box = (x0, y0, x1, y1)
    return LabelledDie(int(value), box)


def _die_as_written(die: dict[str, Any], where: str) -> LabelledDie:
    """A die as its line writes it: a whole-number value and a box of four numbers."""
    raw = die.get("box")
    try:
        value = int(die["value"])
        box: Box | None = None if raw is None else (
            float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
    except (KeyError, TypeError, ValueError, IndexError):
        raise _wrong_line(where, 'a "value" and a "box" of four numbers (or null)', die) \
            from None
    return LabelledDie(value, box)


def _wrong_line(where: str, wanted: str, found: Any, key: str = "") -> LabelsError:
    """``where`` must give ``wanted``, not ``found`` (None: the ``key`` is missing)."""
    if key and found is None:
        return LabelsError(
            f'{where} has no "{key}": it must give {wanted}; fix that line of the file'
        )
    shown = json.dumps(found, ensure_ascii=False)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return LabelsError(f"{where} must give {wanted}, not {shown}; fix that line of the file")


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
