"""The same tray seen otherwise: a lamp switched on, or the camera knocked, is not
dice that moved.

The Pi camera locks its exposure and colour balance once they have settled, so
when a lamp is switched on, a curtain drawn or evening falls, every pixel of the
tray changes; a camera knocked on its mount shifts every edge. The roll watcher
compares small frames pixel by pixel and would take either for something in the
tray. Light changes smoothly across the picture; dice that moved, came or went
change it sharply, at their edges and pips. So the ratio of the two pictures,
blurred, is the change of light (:func:`relit_field`), and what it does not
explain is what changed in the scene. A knocked camera turns and shifts the whole
picture alike: lined up again (:func:`registration`), the two pictures differ
only by the light (:func:`same_scene`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    now: SmallImage,
    before: SmallImage,
    field: LightField,
    threshold: int,
    tolerance: float,
    margin: int = 0,
) -> int:
    """How many pixels of ``now`` the light ``field`` on ``before`` does not explain:
    off by more than ``threshold`` grey levels plus ``tolerance`` of the expected
    level (the light is only ever estimated, and bright pixels clip). ``margin``
    pixels at each edge are not counted (what a moved camera newly sees there)."""
    off = off_mask(now, before.astype(np.float32) * field, threshold, tolerance)
    if margin > 0:
        off = off[margin:-margin, margin:-margin]
    return int(np.count_nonzero(off))


def off_mask(
    now: SmallImage, expected: npt.NDArray[np.float32] | SmallImage, threshold: int,
    tolerance: float,
) -> SmallImage:
    """255 where ``now`` is off ``expected`` by more than ``threshold`` plus
    ``tolerance`` of the expected level, in any channel."""
    level = np.asarray(expected, dtype=np.float32)
    off = np.abs(now.astype(np.float32) - level) > threshold + tolerance * np.minimum(
        level, 255.0)
    if off.ndim == 3:
        off = off.any(axis=2)
    return np.asarray(off, dtype=np.uint8) * np.uint8(255)


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


Warp = npt.NDArray[np.float32]

#: Moves of the picture smaller than this (pixels) are taken for no move at all.
MOVED_PX = 0.1


def _grey(image: SmallImage) -> npt.NDArray[np.float32]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return np.asarray(grey, dtype=np.float32)


def registration(now: SmallImage, before: SmallImage) -> Warp | None:
    """The turn and shift (a 2x3 matrix) that line ``before`` up with ``now``, as a
    camera knocked on its mount turns and shifts the picture; None where the two
    pictures cannot be lined up."""
    a, b = _grey(before), _grey(now)
    (dx, dy), _ = cv2.phaseCorrelate(a, b)
    warp = np.asarray([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
    try:
        _, found = cv2.findTransformECC(b, a, warp, cv2.MOTION_EUCLIDEAN, criteria)
    except cv2.error:
        return None  # the iteration did not converge: too much else changed
    return np.asarray(found, dtype=np.float32)


def lined_up(image: SmallImage, warp: Warp) -> SmallImage:
    """``image`` turned and shifted by ``warp`` (see :func:`registration`)."""
    height, width = image.shape[:2]
    moved = cv2.warpAffine(image, warp, (width, height),
                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(moved, dtype=np.uint8)


def unseen_edge(moved_px: float) -> int:
    """How many pixels along the edges a picture moved by ``moved_px`` shows anew (and
    the shrinking blur spreads into)."""
    return math.ceil(moved_px) + 2


def displacement(warp: Warp, shape: tuple[int, ...]) -> float:
    """How far ``warp`` moves the picture's farthest corner, in pixels."""
    height, width = shape[:2]
    corners = np.asarray([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]],
                         dtype=np.float32)
    moved = corners @ warp.T
    return float(np.max(np.hypot(*(moved - corners[:, :2]).T)))


@dataclass(frozen=True)
class SameScene:
    """How ``now`` is ``before`` seen otherwise (see :func:`same_scene`)."""

    #: The change of light, on ``before`` lined up.
    field: LightField
    #: The camera's turn and shift (None: it did not move).
    warp: Warp | None = None
    #: How far the camera's picture moved at its farthest corner, in pixels.
    moved_px: float = 0.0

    def apply(self, image: SmallImage, now: SmallImage) -> SmallImage:
        """``image`` (a picture taken with ``before``) as the camera sees it now. Where
        a moved camera newly sees along the picture's edges, ``now`` is taken (the
        empty tray's edges: dice never lie there)."""
        if self.warp is None:
            return in_light(image, self.field)
        seen = in_light(lined_up(image, self.warp), self.field)
        edge = unseen_edge(self.moved_px)
        inner = seen[edge:-edge, edge:-edge].copy()
        seen = now.copy()
        seen[edge:-edge, edge:-edge] = inner
        return seen


def same_scene(
    now: SmallImage,
    before: SmallImage,
    *,
    threshold: int,
    tolerance: float,
    sigma: float,
    most_pixels: int,
) -> SameScene | None:
    """How ``now`` shows just what ``before`` showed, under other light or with the
    camera knocked a little; None when something in the scene changed."""
    field = relit_field(now, before, threshold=threshold, tolerance=tolerance, sigma=sigma,
                        most_pixels=most_pixels)
    if field is not None:
        return SameScene(field)
    warp = registration(now, before)
    if warp is None:
        return None
    moved_px = displacement(warp, now.shape)
    if moved_px < MOVED_PX:
        return None  # the camera did not move: something in the tray did
    before_lined_up = lined_up(before, warp)
    field = light_field(now, before_lined_up, sigma)
    margin = unseen_edge(moved_px)
    if unexplained(now, before_lined_up, field, threshold, tolerance, margin) > most_pixels:
        return None
    return SameScene(field, warp, moved_px)
