"""Drawing a reading onto a copy of the frame, for debugging and for people to check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.scoring import LabelledDie

_SURE = (60, 200, 60)
_UNSURE = (0, 160, 255)
_LABEL = (255, 80, 200)


def draw_reading(
    image: npt.NDArray[Any],
    reading: FrameReading,
    labels: Sequence[LabelledDie] = (),
) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with each die's box, value (``?`` if unsure) and confidence.

    Labels, when given, are drawn in magenta (box and value below it) to compare.
    """
    if image.ndim == 3:
        canvas = np.array(image, dtype=np.uint8)
    else:
        canvas = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    height = canvas.shape[0]
    if height < 400:
        factor = 400 / height
        canvas = np.asarray(
            cv2.resize(canvas, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST),
            np.uint8,
        )
    else:
        factor = 1.0
    font_scale = 0.5
    for label in labels:
        if label.box is None:
            _outlined_text(
                canvas, f"label {label.value}", (4, canvas.shape[0] - 8), font_scale, _LABEL
            )
            continue
        x0, y0, x1, y1 = (round(v * factor) for v in label.box)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), _LABEL, 1)
        _outlined_text(canvas, str(label.value), (x0, y1 + 14), font_scale, _LABEL)
    for die in reading.dice:
        x0, y0, x1, y1 = (round(v * factor) for v in die.box)
        colour = _SURE if die.value is not None else _UNSURE
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, 2)
        text = f"{die.value if die.value is not None else '?'} {die.confidence:.2f}"
        _outlined_text(canvas, text, (x0, max(12, y0 - 4)), font_scale, colour)
    return canvas


def _outlined_text(
    canvas: npt.NDArray[np.uint8],
    text: str,
    origin: tuple[int, int],
    scale: float,
    colour: tuple[int, int, int],
) -> None:
    """Text in ``colour`` with a dark outline, legible on light and dark tables alike."""
    cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
