"""Measuring one die in a photo: its size, and its pips' size, polarity and contrast.

Used on the dice the reader found while calibrating (guided flow) and on the
labelled dice of a photo set (``--from-labelled``). The pips are looked for in
the die's box with the reader's own pip finder, once as dark and once as light
blobs; the polarity whose ``value`` clearest blobs stand out most wins.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.seeing import DieMeasure
from einhorn_table.vision.pips import contrast_map, find_pips
from einhorn_table.vision.results import Box

#: Lowest pip contrast (grey levels) looked for while measuring.
MEASURE_MIN_CONTRAST = 12.0


def box_size(box: Box) -> float:
    return ((box[2] - box[0]) + (box[3] - box[1])) / 2.0


def measure_die(image: npt.NDArray[np.uint8], box: Box, value: int) -> DieMeasure:
    """Measure the die of face ``value`` lying in ``box`` (x0, y0, x1, y1) of a BGR image."""
    size = box_size(box)
    height, width = image.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(width, int(np.ceil(box[2]))), min(height, int(np.ceil(box[3])))
    if size < 6 or x1 - x0 < 6 or y1 - y0 < 6:
        return DieMeasure(size)
    crop = image[y0:y1, x0:x1]
    grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    grey = np.ascontiguousarray(grey, dtype=np.uint8)
    kernel = int(np.clip(0.3 * size, 5, 81)) | 1
    best: tuple[float, str, list[float], list[float]] | None = None
    for dark in (True, False):
        pips = find_pips(
            contrast_map(grey, kernel, dark),
            min_radius=max(1.0, 0.04 * size),
            max_radius=0.16 * size,
            min_contrast=MEASURE_MIN_CONTRAST,
            dark=dark,
        )
        # Only pips well inside the box belong to the face.
        margin = 0.08 * size
        inside = [
            p for p in pips
            if margin <= p.x <= grey.shape[1] - margin and margin <= p.y <= grey.shape[0] - margin
        ]
        # The ``value`` clearest blobs are the pips; a missing pip counts as no contrast.
        top = sorted(inside, key=lambda p: -p.contrast)[:value]
        if len(top) * 2 < value or not top:
            continue
        strength = sum(p.contrast for p in top) / value
        if best is None or strength > best[0]:
            best = (
                strength, "dark" if dark else "light",
                [2.0 * p.radius for p in top], [p.contrast for p in top],
            )
    if best is None:
        return DieMeasure(size)
    _, polarity, diameters, contrasts = best
    return DieMeasure(size, polarity, float(np.median(diameters)), float(np.median(contrasts)))
