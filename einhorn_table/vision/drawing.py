"""Drawing a reading onto a copy of the frame, for debugging and for people to check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.scoring import LabelledDie, boxes_overlap

#: Frames are drawn at least this tall (small crops enlarged) and at most this
#: long on their longer side (a phone's photo shrunk), so the text stays legible.
DRAWN_MIN_HEIGHT = 400
DRAWN_MAX_SIDE = 1280

#: A die's text: its value large and bold, then its confidence smaller, so that "1 1.00"
#: cannot be read as one number, nor the value taken for the confidence.
_VALUE_SCALE, _VALUE_WEIGHT = 0.7, 2
_CONFIDENCE_SCALE = 0.5
#: Pixels kept clear between one text and the next (and the frame's edge), so that
#: neighbouring dice's texts do not run together ("3 0.98" and "1 1.00" into "3 0.981 1.00").
_TEXT_GAP = 4

#: Text drawn in pieces on one baseline: (text, scale, weight) each.
Pieces = tuple[tuple[str, float, int], ...]

_SURE = (60, 200, 60)
_UNSURE = (0, 160, 255)
_LABEL = (255, 80, 200)


def draw_reading(
    image: npt.NDArray[Any],
    reading: FrameReading,
    labels: Sequence[LabelledDie] = (),
) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with each die's box, value (``?`` if unsure) and confidence,
    enlarged or shrunk to between :data:`DRAWN_MIN_HEIGHT` and :data:`DRAWN_MAX_SIDE`.

    Labels, when given, are drawn in magenta (box and value below it) to compare.
    """
    if image.ndim == 3:
        canvas = np.array(image, dtype=np.uint8)
    else:
        canvas = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    height, width = canvas.shape[:2]
    factor = 1.0
    if height < DRAWN_MIN_HEIGHT:
        factor = DRAWN_MIN_HEIGHT / height
        canvas = np.asarray(
            cv2.resize(canvas, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST),
            np.uint8,
        )
    elif max(height, width) > DRAWN_MAX_SIDE:
        factor = DRAWN_MAX_SIDE / max(height, width)
        size = (round(width * factor), round(height * factor))
        canvas = np.asarray(cv2.resize(canvas, size, interpolation=cv2.INTER_AREA), np.uint8)
    # Where text is drawn already: the dice's values keep clear of the labels'.
    taken: list[tuple[int, int, int, int]] = []
    for label in labels:
        pieces: Pieces
        if label.box is None:
            pieces, origin = ((f"label {label.value}", 0.5, 1),), (4, canvas.shape[0] - 8)
        else:
            x0, y0, x1, y1 = (round(v * factor) for v in label.box)
            cv2.rectangle(canvas, (x0, y0), (x1, y1), _LABEL, 1)
            pieces, origin = ((str(label.value), 0.5, 1),), (x0, y1 + 14)
        _outlined_text(canvas, pieces, origin, _LABEL)
        taken.append(_text_area(origin, _text_size(pieces)))
    boxes: list[tuple[int, int, int, int]] = []
    for die in reading.dice:
        left, top, right, bottom = (round(v * factor) for v in die.box)
        boxes.append((left, top, right, bottom))
    for die, box in zip(reading.dice, boxes, strict=True):
        x0, y0, x1, y1 = box
        colour = _SURE if die.value is not None else _UNSURE
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, 2)
        pieces = die_text(die.value, die.confidence)
        others = [b for b in boxes if b is not box]
        origin, area = _text_place(canvas, pieces, box, others, taken)
        taken.append(area)
        _outlined_text(canvas, pieces, origin, colour)
    return canvas


def die_text(value: int | None, confidence: float) -> Pieces:
    """A die's text: its value (``?`` if unsure), large and bold, then its confidence."""
    return ((str(value) if value is not None else "?", _VALUE_SCALE, _VALUE_WEIGHT),
            (f"{confidence:.2f}", _CONFIDENCE_SCALE, 1))


def _text_place(
    canvas: npt.NDArray[np.uint8],
    pieces: Pieces,
    box: tuple[int, int, int, int],
    boxes: Sequence[tuple[int, int, int, int]],
    texts: Sequence[tuple[int, int, int, int]],
) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    """Where a die's text goes (its baseline origin, and the area it covers): above
    its box, else below it, else right or left of it, the first that stays in the
    frame and clear of other dice's ``boxes`` and ``texts`` (where dice touch, text
    drawn across a neighbour's box reads as that die's); where dice crowd round it,
    the first clear of the texts only (text over text reads as neither: "6 0.98" and
    "4 0.99" as "640.99"); above it if none is."""
    size = _text_size(pieces)
    width, height = size
    frame_height, frame_width = canvas.shape[:2]
    x0, y0, x1, y1 = box
    middle = (y0 + y1 + height) // 2
    places = ((x0, y0 - 4), (x0, y1 + height + 4), (x1 + 4, middle), (x0 - width - 4, middle))
    frame = (0, 0, frame_width, frame_height)
    for avoided in ([*boxes, *texts], texts):
        for left, baseline in places:
            covered = _text_area((left, baseline), size)
            if _within(covered, frame) and not any(boxes_overlap(covered, o)
                                                   for o in avoided):
                return (left, baseline), covered
    left, baseline = min(max(0, x0), max(0, frame_width - width)), max(height + 2, y0 - 4)
    return (left, baseline), _text_area((left, baseline), size)


def _piece_size(text: str, scale: float, weight: int) -> tuple[int, int]:
    """The width and height of one piece of outlined text (:func:`_outlined_text`)."""
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, weight + 2)
    return width, height


def _text_size(pieces: Pieces) -> tuple[int, int]:
    """The width and height of outlined text in pieces, a space between each two."""
    sizes = [_piece_size(*piece) for piece in pieces]
    space = _piece_size(" ", min(scale for _, scale, _ in pieces), 1)[0]
    width = sum(w for w, _ in sizes) + space * (len(sizes) - 1)
    return width, max(h for _, h in sizes)


def _text_area(origin: tuple[int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The area (x0, y0, x1, y1) that outlined text of ``size`` drawn from ``origin``
    covers, with :data:`_TEXT_GAP` kept clear on its left and right."""
    (left, baseline), (width, height) = origin, size
    return (left - _TEXT_GAP, baseline - height - 2, left + width + _TEXT_GAP, baseline + 3)


def _within(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _outlined_text(
    canvas: npt.NDArray[np.uint8],
    pieces: Pieces,
    origin: tuple[int, int],
    colour: tuple[int, int, int],
) -> None:
    """Text in ``colour`` with a dark outline, legible on light and dark tables alike,
    its pieces one after the other on one baseline, a space between each two."""
    left, baseline = origin
    space = _piece_size(" ", min(scale for _, scale, _ in pieces), 1)[0]
    for text, scale, weight in pieces:
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(canvas, text, (left, baseline), font, scale, (0, 0, 0), weight + 2,
                    cv2.LINE_AA)
        cv2.putText(canvas, text, (left, baseline), font, scale, colour, weight, cv2.LINE_AA)
        left += _piece_size(text, scale, weight)[0] + space
