"""A die cocked against the tray's wall, told by its top and side faces seen from above.

A die leaning on a wall shows the camera overhead its top face, foreshortened across
the wall by the cosine of its tilt, and beside it, darker, a side face as deep as the
sine: both more than half a die deep, its edges set square to the wall it leans on. A
die lying flat by a wall, seen a little from the side from a camera above the tray's
middle, shows its whole square top and, beside it, side faces less than half a die
deep. The reader may read a cocked die's top or side face as a clear face, but no face
of it is up: the table must ask (RULES.md: a cocked die is thrown again).

The body is where the picture differs from the empty tray's (so that neither the
felt's mottle, its shade along the walls nor the wall's own colour is taken for the
die): that is only told where the tray has not moved since it was seen empty. It is
split in two across the wall where its lightness steps most (:func:`top_and_side`),
and the pips read on it must be squashed across the wall, as on a foreshortened face
(:func:`pips_squashed`): a flat die's top is square, its pips round.
Anything uncertain (no body, one running out of the window looked at, or holding
another die too, a die far from every wall, a step lost in the noise) is no verdict:
the die keeps its value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.pips import contrast_map, find_pips
from einhorn_table.vision.results import Box, box_centre

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]

#: Only a die whose middle lies within this many dice (the table's die size: the side
#: of its box) of a floor edge can lean on the wall there.
NEAR_WALL = 1.2
#: The window looked in reaches this many dice from the die's middle each way.
WINDOW_REACH = 1.6
#: A pixel is the die's where its colour (CIE Lab, 0..255 each, smoothed a little)
#: lies at least this far from the empty tray's there (a die's soft shadow less).
BODY_CONTRAST = 20.0
#: A cocked die's face lies flat on the wall: its edges run along the wall, turned
#: at most this many degrees (the body's minimum-area rectangle against the wall).
MOST_TURNED = 13.0
#: A cocked die's brighter part (its top), how deep across the wall, in dice (the
#: body's width along the wall): tilted 32 to 52 degrees, 0.62 to 0.85 of a die,
#: as split here 0.56 to 0.84 on the synthetic table. Above 0.78 flat dice seen from
#: the mount guide's camera (their top cut short by the split) are taken too.
TOP_DEPTH = (0.55, 0.78)
#: And its darker part (its side face) at least this deep, in dice (flat dice by a
#: wall, seen from the mount guide's camera: at most about 0.45).
SIDE_DEPTH = 0.5
#: The step between the two parts' median lightness over the lightness's mean
#: distance from its median within them (a pixel more), from which the split is a
#: seam between two faces, not the shading of one (on the synthetic table: cocked
#: dice from 2.3, mostly over 3; flat dice taken for cocked at up to 2.6).
LEAST_STEP = 2.7
#: The lightness across the wall is taken in rows of this many pixels, of which the
#: body has at least :data:`LEAST_ROWS`.
ROW_PX = 1.0
LEAST_ROWS = 6
#: The rows within this many dice of either end of the body (a die's rounded edge,
#: its shadow, the wall behind it) are never where the two faces meet.
RIM = 0.15
#: A cocked die's pips are squashed across the wall at least this much (its top
#: face foreshortened to 0.62 to 0.85 of a die, its side face to 0.53 to 0.79; on the
#: synthetic table most read faces' pips 1.1 to 1.7), where a flat die's top is
#: square and its pips round (on the synthetic table mostly under 1.1).
LEAST_SQUASH = 1.1
#: The pips looked for: the contrast window, their radii (both shares of the box's
#: side) and their least contrast (grey levels).
PIP_KERNEL = 1 / 3
PIP_RADII = (0.03, 0.14)
PIP_CONTRAST = 25.0


def leans_on_wall(image: Image, empty: Image, box: Box, floor: Sequence[Point],
                  die_px: float, others: Sequence[Box] = ()) -> bool:
    """Whether the die read in ``box`` of the BGR frame ``image`` leans on a wall of the
    tray whose floor has the corners ``floor``: its body (where ``image`` differs from
    ``empty``, the same tray lying empty) splits across the nearest wall into a
    foreshortened top and a deep side face, as a cocked die's does
    (:func:`is_cocked`), and the pips in ``box`` are squashed across the wall
    (:data:`LEAST_SQUASH`). ``die_px`` is the table's die size, ``others`` the boxes of
    the other dice read (a body holding one of them too is no verdict)."""
    if image.shape != empty.shape or die_px <= 0:
        return False
    middle = np.asarray(box_centre(box), dtype=np.float64)
    wall = _nearest_wall(middle, floor)
    if wall is None or wall[0] > NEAR_WALL * die_px:
        return False
    along_wall = wall[1]
    body = _body(image, empty, box, die_px)
    if body is None:
        return False
    points, window = body
    for other in others:
        ox, oy = box_centre(other)
        if _holds(points, window, (ox, oy)):
            return False
    faces = top_and_side(image, points, along_wall)
    if faces is None or not is_cocked(faces):
        return False
    squash = pips_squashed(image, box, along_wall)
    return squash is not None and squash >= LEAST_SQUASH


def pips_squashed(image: Image, box: Box, along_wall: npt.NDArray[np.float64]) -> float | None:
    """How much the pips in ``box`` of the BGR ``image`` are squashed across the wall
    (their median ellipse's length along the wall over its width across it: a face
    foreshortened across the wall has its round pips so): the pips the reader's pip
    finder finds there, dark or light, whichever are more; None where it finds none."""
    height, width = image.shape[:2]
    left, top = max(0, round(box[0])), max(0, round(box[1]))
    right, bottom = min(width, round(box[2])), min(height, round(box[3]))
    side = max(right - left, bottom - top)
    if min(right - left, bottom - top) < 8:
        return None
    grey = np.asarray(cv2.cvtColor(np.ascontiguousarray(image[top:bottom, left:right]),
                                   cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    kernel = max(3, int(PIP_KERNEL * side) | 1)
    found = max((find_pips(contrast_map(grey, kernel, dark), PIP_RADII[0] * side,
                           PIP_RADII[1] * side, PIP_CONTRAST, dark) for dark in (True, False)),
                key=len)
    if not found:
        return None
    wall = float(np.arctan2(along_wall[1], along_wall[0]))
    squashed = []
    for pip in found:
        turned = abs((pip.angle - wall + np.pi / 2) % np.pi - np.pi / 2)
        squashed.append(pip.elongation if turned <= np.pi / 6 else 1.0 / pip.elongation)
    return float(np.median(squashed))


@dataclass(frozen=True)
class Faces:
    """A die's body split across the wall into its brighter and its darker part."""
    #: How far the die's edges lie turned from the wall, in degrees (0 to 45).
    turned: float
    #: The brighter part's depth across the wall, in dice (its width along the wall).
    top: float
    #: The darker part's depth across the wall, in dice.
    side: float
    #: The step between the two parts' median lightness (CIE L, 0..255) over the
    #: lightness's mean distance from its median within them (a pixel more).
    step: float


def is_cocked(faces: Faces) -> bool:
    """Whether the split body is a cocked die's: set square to the wall, its top
    foreshortened and its side face deep (:data:`TOP_DEPTH`, :data:`SIDE_DEPTH`)."""
    low, high = TOP_DEPTH
    return (faces.turned <= MOST_TURNED and low <= faces.top <= high
            and faces.side >= SIDE_DEPTH and faces.step >= LEAST_STEP)


def top_and_side(image: Image, points: npt.NDArray[np.float32],
                 along_wall: npt.NDArray[np.float64]) -> Faces | None:
    """The body's ``points`` (frame x, y of the BGR ``image``) split in two where the
    median lightness of its rows steps most (the least spread within the two), the
    rows running along the die's edge nearest to the wall's unit direction
    ``along_wall``, none within :data:`RIM` of its ends; None where the body is too
    shallow to split (:data:`LEAST_ROWS`)."""
    (_, _), _, angle = cv2.minAreaRect(points)
    wall_angle = float(np.degrees(np.arctan2(along_wall[1], along_wall[0])))
    turned = abs((angle - wall_angle + 45.0) % 90.0 - 45.0)
    edge = np.radians(wall_angle + ((angle - wall_angle + 45.0) % 90.0 - 45.0))
    along = np.asarray([np.cos(edge), np.sin(edge)])
    across = np.asarray([-along[1], along[0]])
    width = _span(points @ along)
    xs, ys = points[:, 0].astype(int), points[:, 1].astype(int)
    left, top = int(xs.min()), int(ys.min())
    picture = np.ascontiguousarray(image[top:int(ys.max()) + 1, left:int(xs.max()) + 1])
    lightness = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB)[ys - top, xs - left, 0].astype(
        np.float64)
    depth = points @ across
    first, last = np.percentile(depth, 1), np.percentile(depth, 99)
    rows = []
    for start in np.arange(np.floor(first), np.ceil(last) + ROW_PX, ROW_PX):
        row = lightness[(depth >= start) & (depth < start + ROW_PX)]
        if len(row) >= 2:
            rows.append(float(np.median(row)))
    rim = round(RIM * width / ROW_PX)
    inner = np.asarray(rows)[rim:len(rows) - rim]
    count = len(inner)
    if count < LEAST_ROWS:
        return None
    spread, cut = min((_spread_within(inner[:cut]) + _spread_within(inner[cut:]), cut)
                      for cut in range(2, count - 1))
    one, two = inner[:cut], inner[cut:]
    step = abs(float(np.median(one) - np.median(two)))
    noise = spread / count + 1.0
    one_deep, two_deep = (cut + rim) * ROW_PX / width, (count - cut + rim) * ROW_PX / width
    if np.median(one) >= np.median(two):
        return Faces(turned, one_deep, two_deep, step / noise)
    return Faces(turned, two_deep, one_deep, step / noise)


def _spread_within(values: npt.NDArray[np.float64]) -> float:
    """How far ``values`` lie from their median, summed."""
    return float(np.abs(values - np.median(values)).sum())


def _nearest_wall(middle: npt.NDArray[np.float64], floor: Sequence[Point]
                  ) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """How far ``middle`` lies from the nearest edge of the floor, and the unit
    directions along that edge and across it."""
    corners = np.asarray(floor, dtype=np.float64)
    nearest = None
    for i in range(len(corners)):
        start, end = corners[i], corners[(i + 1) % len(corners)]
        length = float(np.hypot(*(end - start)))
        if length <= 0:
            continue
        along = (end - start) / length
        across = np.asarray([-along[1], along[0]])
        distance = abs(float(np.dot(middle - start, across)))
        if nearest is None or distance < nearest[0]:
            nearest = (distance, along, across)
    return nearest


def _body(image: Image, empty: Image, box: Box, die_px: float
          ) -> tuple[npt.NDArray[np.float32], tuple[int, int, int, int]] | None:
    """The pixels (frame x, y) of the body that the box's largest share lies on, and
    the window looked in (left, top, right, bottom); None where the box lies on no
    body, or the body runs to the window's edge (it is not the die's alone)."""
    cx, cy = box_centre(box)
    reach = WINDOW_REACH * die_px
    height, width = image.shape[:2]
    left, top = int(max(0.0, cx - reach)), int(max(0.0, cy - reach))
    right, bottom = int(min(width, cx + reach)), int(min(height, cy + reach))
    if right - left < 8 or bottom - top < 8:
        return None
    now = _lab(image[top:bottom, left:right])
    then = _lab(empty[top:bottom, left:right])
    differs = (np.linalg.norm(now - then, axis=2) > BODY_CONTRAST).astype(np.uint8)
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(differs)
    inside = labels[max(int(box[1]) - top, 0):max(int(box[3]) - top, 0),
                    max(int(box[0]) - left, 0):max(int(box[2]) - left, 0)]
    parts, counts = np.unique(inside[inside > 0], return_counts=True)
    if len(parts) == 0:
        return None
    part = int(parts[int(np.argmax(counts))])
    x, y, w, h = (int(v) for v in stats[part][:4])
    if x == 0 or y == 0 or x + w >= labels.shape[1] or y + h >= labels.shape[0]:
        return None
    rows, columns = np.nonzero(labels == part)
    points = np.stack([columns + left, rows + top], axis=1).astype(np.float32)
    return points, (left, top, right, bottom)


def _lab(picture: Image) -> npt.NDArray[np.float32]:
    """A BGR picture in CIE Lab, smoothed over 3 pixels (the camera's noise)."""
    lab = cv2.cvtColor(np.ascontiguousarray(picture), cv2.COLOR_BGR2LAB).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(lab, (3, 3), 0), dtype=np.float32)


def _holds(points: npt.NDArray[np.float32], window: tuple[int, int, int, int],
           point: Point) -> bool:
    """Whether the body's ``points`` cover ``point`` (to within a pixel)."""
    left, top, right, bottom = window
    x, y = point
    if not (left <= x < right and top <= y < bottom):
        return False
    return bool(np.any(np.max(np.abs(points - np.asarray([x, y], np.float32)), axis=1) <= 1.0))


def _span(values: npt.NDArray[np.floating]) -> float:
    """How far ``values`` reach, their outermost hundredth each way left out."""
    return float(np.percentile(values, 99) - np.percentile(values, 1)) + 1.0
