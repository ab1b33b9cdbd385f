"""Is the tray's floor clear? Things on it that are not the floor: a hand, a cup, a die.

The empty tray's picture is what every roll after it is measured against, so it must
show the floor alone. The dice reader finds dice, not a hand reaching in, a forearm
over the tray, a cup or a phone set down in it: those are found here as the parts of
the floor that differ from it. The floor is one colour, lit by a lamp that makes it
lighter here and darker there, smoothly: a smooth surface is fitted to its colour,
leaving out what does not fit, and what stands out from it, and covers more than
:data:`MIN_SHARE` of the floor, is a thing in the tray. A white-hot spot is the lamp's
glare, and a narrow band along a side is the tray's wall: no things.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.geometry import Corners, centre
from einhorn_table.calibration.light import GLARE_LEVEL
from einhorn_table.calibration.seeing import Image
from einhorn_table.vision.results import Box

#: The floor is looked at this many pixels along its longer side.
SIDE = 120
#: The floor's edge left out (a share of each side): the walls' shading, the outline's slack.
INSET = 0.03
#: A colour difference (CIELAB, lightness counted half) that always stands out, and how
#: many times the floor's own spread a difference must exceed besides.
LEAST_DIFFERENCE = 8.0
SPREADS = 6.0
#: How far around a white-hot spot its glow reaches (a share of :data:`SIDE`): the lamp's
#: glare on the floor is warned about at the light step and is part of the empty tray's
#: picture, no thing.
GLARE_GLOW = 0.08
#: What lies along the outline's sides, no deeper than this share of the floor, and runs
#: at least this share of a side long (along one side, or round a corner or the whole
#: floor, where the outline was set on the rim), is the tray's wall; so is a strip no
#: deeper than :data:`THIN_WALL` of any length (the wall's lit or shaded top edge).
WALL_LENGTH, WALL_DEPTH, THIN_WALL = 0.4, 0.12, 0.04
#: A thing covers at least this share of the floor (a die on the synthetic table: 1 %).
MIN_SHARE = 0.002

FloatImage = npt.NDArray[np.float32]


def things_in_tray(image: Image, corners: Corners) -> tuple[Box, ...]:
    """The boxes (frame pixels) of what lies on the tray floor outlined by ``corners``
    and is not the floor, biggest first; () where the floor is clear."""
    src = _inset(corners)
    width, height = math.dist(src[0], src[1]), math.dist(src[1], src[2])
    if min(width, height) < 8:
        return ()
    scale = SIDE / max(width, height)
    w, h = max(8, round(width * scale)), max(8, round(height * scale))
    dst = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    to_floor = cv2.getPerspectiveTransform(src, dst)
    blurred = cv2.GaussianBlur(image, (0, 0), max(0.5, 0.5 / scale))
    floor = cv2.warpPerspective(blurred, to_floor, (w, h), flags=cv2.INTER_AREA)
    distance, spread = _off_the_floor(np.asarray(floor, dtype=np.uint8))
    standing_out = np.asarray(distance > max(LEAST_DIFFERENCE, SPREADS * spread), np.uint8)
    standing_out[_glare(np.asarray(floor, dtype=np.uint8))] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(standing_out)
    least = MIN_SHARE * w * h
    inner = _inner(w, h)
    found = sorted((stats[k] for k in range(1, count) if stats[k][cv2.CC_STAT_AREA] >= least
                    and not _a_wall(stats[k], labels == k, inner)),
                   key=lambda s: -int(s[cv2.CC_STAT_AREA]))
    back = np.asarray(np.linalg.inv(to_floor), dtype=np.float64)
    frame = (int(image.shape[1]), int(image.shape[0]))
    return tuple(_in_frame(stat, back, frame) for stat in found)


def _inner(w: int, h: int) -> npt.NDArray[np.bool_]:
    """The floor farther from its sides than :data:`WALL_DEPTH` (where no wall lies)."""
    inner = np.zeros((h, w), dtype=bool)
    dx, dy = math.ceil(WALL_DEPTH * w), math.ceil(WALL_DEPTH * h)
    inner[dy:h - dy, dx:w - dx] = True
    return inner


def _a_wall(stat: npt.NDArray[np.int32], pixels: npt.NDArray[np.bool_],
            inner: npt.NDArray[np.bool_]) -> bool:
    """Whether a thing (its box ``stat``, its ``pixels``) is the tray's wall, where the
    corners were set on its rim: it lies along the outline's sides and touches them,
    reaches no farther in than :data:`WALL_DEPTH`, and is long (along a side, round a
    corner or round the whole floor) or a thin strip. A hand or a cup reaches farther in."""
    h, w = pixels.shape
    x, y = int(stat[cv2.CC_STAT_LEFT]), int(stat[cv2.CC_STAT_TOP])
    width, height = int(stat[cv2.CC_STAT_WIDTH]), int(stat[cv2.CC_STAT_HEIGHT])
    across = x == 0 or x + width == w  # (on the left or the right side)
    along = y == 0 or y + height == h  # (on the top or the bottom)
    if not (across or along) or np.any(pixels & inner):
        return False
    long = width >= WALL_LENGTH * w or height >= WALL_LENGTH * h
    thin = (across and width <= THIN_WALL * w) or (along and height <= THIN_WALL * h)
    return bool(long or thin)


def _glare(floor: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Where the floor is white-hot, or glows around such a spot."""
    white_hot = np.asarray(cv2.cvtColor(floor, cv2.COLOR_BGR2GRAY) >= GLARE_LEVEL, np.uint8)
    reach = 2 * round(GLARE_GLOW * SIDE) + 1
    glow = cv2.dilate(white_hot, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    return np.asarray(glow > 0)


def _inset(corners: Corners) -> npt.NDArray[np.float32]:
    cx, cy = centre(corners)
    keep = 1.0 - 2.0 * INSET
    return np.array([(cx + (x - cx) * keep, cy + (y - cy) * keep) for x, y in corners],
                    np.float32)


def _off_the_floor(floor: npt.NDArray[np.uint8]) -> tuple[FloatImage, float]:
    """How far each pixel's colour is from the floor's smooth colour there, and how far
    the floor's own pixels are from it (its spread: felt, noise)."""
    h, w = floor.shape[:2]
    lab = np.asarray(cv2.cvtColor(floor, cv2.COLOR_BGR2LAB), dtype=np.float32).reshape(-1, 3)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xs / w - 0.5).ravel(), (ys / h - 0.5).ravel()
    basis = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)
    keep = np.ones(len(lab), dtype=bool)
    distance, spread = np.zeros(len(lab), dtype=np.float32), 0.0
    for _ in range(3):  # fit, leave out what does not fit (the things), fit again
        fit, *_ = np.linalg.lstsq(basis[keep], lab[keep], rcond=None)
        off = lab - basis @ fit
        distance = np.sqrt((0.5 * off[:, 0]) ** 2 + off[:, 1] ** 2 + off[:, 2] ** 2)
        spread = 1.4826 * float(np.median(distance[keep]))
        fits = distance < max(3.0 * spread, LEAST_DIFFERENCE)
        if np.count_nonzero(fits) < len(fits) // 2:
            break  # (more off the floor than on it: the fit stays as it is)
        keep = fits
    return np.asarray(distance.reshape(h, w), dtype=np.float32), spread


def _in_frame(stat: npt.NDArray[np.int32], back: npt.NDArray[np.float64],
              frame: tuple[int, int]) -> Box:
    x, y = float(stat[cv2.CC_STAT_LEFT]), float(stat[cv2.CC_STAT_TOP])
    x1, y1 = x + float(stat[cv2.CC_STAT_WIDTH]), y + float(stat[cv2.CC_STAT_HEIGHT])
    points = np.array([[(x, y), (x1, y), (x1, y1), (x, y1)]], np.float64)
    mapped = cv2.perspectiveTransform(points, back)[0]
    return (max(0.0, float(mapped[:, 0].min())), max(0.0, float(mapped[:, 1].min())),
            min(float(frame[0]), float(mapped[:, 0].max())),
            min(float(frame[1]), float(mapped[:, 1].max())))
