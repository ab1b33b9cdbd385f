"""The same tray under other light: a lamp switched on is not dice that moved.

The Pi camera locks its exposure and colour balance once they have settled, so
when a lamp is switched on, a curtain drawn or evening falls, every pixel of the
tray changes. The roll watcher compares small frames pixel by pixel and would
take that for something in the tray. Light changes smoothly across the picture;
dice that moved, came or went change it sharply, at their edges and pips. So the
ratio of the two pictures, blurred, is the change of light (:func:`relit_field`),
and what it does not explain is what changed in the scene.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

SmallImage = npt.NDArray[np.uint8]
LightField = npt.NDArray[np.float32]


def light_field(now: SmallImage, before: SmallImage, sigma: float) -> LightField:
    """How much brighter each pixel of ``before`` became in ``now`` (per channel),
    smoothed over ``sigma`` pixels."""
    ratio = (now.astype(np.float32) + 1.0) / (before.astype(np.float32) + 1.0)
    return np.asarray(cv2.GaussianBlur(ratio, (0, 0), sigma), dtype=np.float32)


def unexplained(
    now: SmallImage, before: SmallImage, field: LightField, threshold: int, tolerance: float
) -> int:
    """How many pixels of ``now`` the light ``field`` on ``before`` does not explain:
    off by more than ``threshold`` grey levels plus ``tolerance`` of the expected
    level (the light is only ever estimated, and bright pixels clip)."""
    expected = before.astype(np.float32) * field
    off = np.abs(now.astype(np.float32) - expected) > threshold + tolerance * np.minimum(
        expected, 255.0)
    if off.ndim == 3:
        off = off.any(axis=2)
    return int(np.count_nonzero(off))


def relit_field(
    now: SmallImage,
    before: SmallImage,
    *,
    threshold: int,
    tolerance: float,
    sigma: float,
    most_pixels: int,
) -> LightField | None:
    """The change of light that turns ``before`` into ``now`` when nothing else changed
    (at most ``most_pixels`` left unexplained); None when something in the scene did."""
    field = light_field(now, before, sigma)
    if unexplained(now, before, field, threshold, tolerance) > most_pixels:
        return None
    return field


def in_light(image: SmallImage, field: LightField) -> SmallImage:
    """``image`` as it looks under the change of light ``field``."""
    lit = np.clip(image.astype(np.float32) * field + 0.5, 0, 255)
    return np.asarray(lit, dtype=np.uint8)


def overall_gain(now: SmallImage, before: SmallImage) -> npt.NDArray[np.float32]:
    """The brightening of the whole picture, per channel: the median ratio, which dice,
    a hand or an arm (less than half of the picture) do not sway."""
    ratio = (now.astype(np.float32) + 1.0) / (before.astype(np.float32) + 1.0)
    if ratio.ndim == 2:
        return np.asarray([np.median(ratio)], dtype=np.float32)
    return np.asarray(np.median(ratio.reshape(-1, ratio.shape[2]), axis=0), dtype=np.float32)
