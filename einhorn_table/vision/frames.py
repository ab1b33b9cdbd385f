"""Frames brought to the size the readers work at."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


def shrunk(image: Image, max_side: float) -> tuple[Image, float]:
    """The frame shrunk (area-averaged) so that its longer side is at most ``max_side``,
    and the factor it was shrunk by (1.0: the frame as it was)."""
    height, width = image.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    return image, scale
