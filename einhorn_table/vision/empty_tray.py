"""Dice only where the tray has changed: readings checked against the empty tray.

The roll watcher keeps a small picture of the empty tray. A die the reader
finds where the tray looks just as it does empty (a pattern on the tray wall,
a knot in the wood) is no die, and counting it would make a clean roll of three
dice look like four. Dropping such finds is safe: if the reference were ever
wrong and a real die were dropped, the roll would no longer show three dice and
the table would ask the players rather than pay out.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.watcher import changed_mask, shrink

#: A die whose box has changed in less than this share of its pixels is no die.
MIN_CHANGED_SHARE = 0.25


def changed_share(
    mask: npt.NDArray[np.uint8], box: tuple[float, float, float, float], scale: tuple[float, float]
) -> float:
    """The share of a full-size box's pixels that differ from the empty tray in ``mask``."""
    sx, sy = scale
    height, width = mask.shape[:2]
    x0 = min(width - 1, max(0, int(box[0] * sx)))
    y0 = min(height - 1, max(0, int(box[1] * sy)))
    x1 = min(width, max(x0 + 1, int(np.ceil(box[2] * sx))))
    y1 = min(height, max(y0 + 1, int(np.ceil(box[3] * sy))))
    window = mask[y0:y1, x0:x1]
    return float(np.count_nonzero(window)) / float(window.size)


def drop_unchanged(
    reading: FrameReading,
    image: npt.NDArray[np.uint8],
    reference: npt.NDArray[np.uint8],
    *,
    pixel_threshold: int = 12,
    min_share: float = MIN_CHANGED_SHARE,
) -> FrameReading:
    """The reading without the dice found where the tray looks as it does empty.

    ``reference`` is the watcher's small picture of the empty tray (made by
    :func:`einhorn_table.vision.watcher.shrink`); ``image`` the full frame read.
    """
    small = shrink(image, (reference.shape[1], reference.shape[0]))
    if small.ndim != reference.ndim:
        return reading
    mask = changed_mask(small, reference, pixel_threshold)
    scale = (reference.shape[1] / image.shape[1], reference.shape[0] / image.shape[0])
    kept = tuple(die for die in reading.dice if changed_share(mask, die.box, scale) >= min_share)
    return reading if len(kept) == len(reading.dice) else replace(reading, dice=kept)
