"""Four-cornered tray outlines: ordering corners, moving one, the bounding box."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]


def order_corners(points: Sequence[Point]) -> Corners:
    """The four points clockwise (on screen, y down) from the one nearest the top left."""
    if len(points) != 4:
        raise ValueError(f"a tray outline has 4 corners, not {len(points)}")
    cx = sum(p[0] for p in points) / 4.0
    cy = sum(p[1] for p in points) / 4.0
    around = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = min(range(4), key=lambda i: around[i][0] + around[i][1])
    a, b, c, d = (around[(start + k) % 4] for k in range(4))
    return (a, b, c, d)


def centre(corners: Corners) -> Point:
    return (sum(p[0] for p in corners) / 4.0, sum(p[1] for p in corners) / 4.0)


def move_corner(
    corners: Corners, index: int, steps: float, sideways: bool, size: tuple[int, int]
) -> Corners:
    """Corner ``index`` moved ``steps`` pixels outwards from the centre (negative:
    inwards), or with ``sideways`` clockwise around it; kept inside the frame."""
    cx, cy = centre(corners)
    x, y = corners[index]
    dx, dy = x - cx, y - cy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    if sideways:
        ux, uy = -uy, ux
    width, height = size
    nx = min(max(x + ux * steps, 0.0), width - 1.0)
    ny = min(max(y + uy * steps, 0.0), height - 1.0)
    moved = list(corners)
    moved[index] = (nx, ny)
    return (moved[0], moved[1], moved[2], moved[3])


def inset_rectangle(size: tuple[int, int], inset: float) -> Corners:
    """A rectangle ``inset`` (a share, e.g. 0.1) of the frame's width and height in from
    its edges, clockwise from the top left: where a tray outline marked by hand starts."""
    width, height = size
    x0, y0 = width * inset, height * inset
    x1, y1 = width * (1.0 - inset), height * (1.0 - inset)
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def bounding_box(
    corners: Corners, margin: float, size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around the corners, ``margin`` pixels wider, inside the frame."""
    width, height = size
    x0 = max(0, math.floor(min(p[0] for p in corners) - margin))
    y0 = max(0, math.floor(min(p[1] for p in corners) - margin))
    x1 = min(width, math.ceil(max(p[0] for p in corners) + margin))
    y1 = min(height, math.ceil(max(p[1] for p in corners) + margin))
    return x0, y0, x1, y1
