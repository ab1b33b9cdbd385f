"""A synthetic frame seen otherwise: under other light, or by a camera knocked on its
mount (the Pi camera's exposure is locked, so a lamp switched on changes every pixel).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.truth import SynthError

Image = npt.NDArray[np.uint8]


def _scaled(image: Image, factor: npt.NDArray[np.float32] | float) -> Image:
    return np.asarray(np.clip(image.astype(np.float32) * factor, 0, 255), dtype=np.uint8)


def _side(image: Image) -> Image:
    ramp = np.linspace(1.2, 0.8, image.shape[1], dtype=np.float32)
    return _scaled(image, ramp[None, :, None])


#: Changes of light by name: each turns a frame (BGR) into the same scene so lit.
LIGHT_CHANGES: dict[str, Callable[[Image], Image]] = {
    "dimmed by a fifth": lambda image: _scaled(image, 0.8),
    "brighter by 15 %": lambda image: _scaled(image, 1.15),
    "warmer lamp": lambda image: _scaled(image, np.asarray([0.85, 0.95, 1.1], np.float32)),
    "lamp at one side": _side,
}


def relit(image: Image, light: str) -> Image:
    """``image`` under the change of light named ``light`` (see :data:`LIGHT_CHANGES`)."""
    try:
        return LIGHT_CHANGES[light](image)
    except KeyError:
        known = ", ".join(LIGHT_CHANGES)
        raise SynthError(f"no change of light called {light!r}; choose from {known}") from None


def knocked(image: Image, dx: float, dy: float, turn: float = 0.0) -> Image:
    """``image`` as a camera knocked on its mount sees it: shifted by ``dx``, ``dy``
    pixels and turned by ``turn`` degrees about the middle; what it newly sees at the
    edges is the edge drawn out."""
    height, width = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0)
    matrix[:, 2] += np.asarray((dx, dy), dtype=matrix.dtype)
    moved = cv2.warpAffine(image, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(moved, dtype=np.uint8)
