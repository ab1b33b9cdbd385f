"""The empty dice tray seen from above: felt floor, walls, rim, table, lamp light."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.palette import (
    CLOTH_DARK,
    CLOTH_LIGHT,
    RGB,
    TABLE_WOOD,
    TRAY_WALL,
)

FloatImage = npt.NDArray[np.float32]
ByteImage = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class TrayGeometry:
    """Where the tray lies in the frame; rectangles are ``(x0, y0, x1, y1)``, x1/y1 exclusive."""

    width: int
    height: int
    outer: tuple[int, int, int, int]
    floor: tuple[int, int, int, int]

    @property
    def wall(self) -> int:
        """Width in pixels of the wall band between rim and floor."""
        return self.floor[0] - self.outer[0]


@dataclass(frozen=True)
class TrayImage:
    """The lit empty tray and the lamp: ``light_map`` is the brightness factor per pixel;
    ``table`` is the table alone, as lit, where the tray does not stand."""

    geometry: TrayGeometry
    image: ByteImage
    light_map: FloatImage
    light_dir: tuple[float, float]
    table: ByteImage


#: The table seen around the tray, as a share of the frame's shorter side.
TRAY_MARGIN = 0.025


def tray_geometry(width: int, height: int, margin_share: float = TRAY_MARGIN) -> TrayGeometry:
    """The tray filling most of a ``width`` x ``height`` frame, ``margin_share`` of its
    shorter side of table seen around it."""
    margin = max(2, round(margin_share * min(width, height)))
    wall = max(3, round(0.055 * min(width, height)))
    outer = (margin, margin, width - margin, height - margin)
    floor = (margin + wall, margin + wall, width - margin - wall, height - margin - wall)
    return TrayGeometry(width=width, height=height, outer=outer, floor=floor)


def _bgr(rgb: RGB) -> npt.NDArray[np.float32]:
    return np.array(rgb[::-1], dtype=np.float32)


def _smooth_noise(
    rng: np.random.Generator, height: int, width: int, cells: int, amount: float
) -> FloatImage:
    """Low-frequency mottling: coarse random cells blown up smoothly."""
    coarse = rng.normal(0.0, amount, size=(cells, max(2, cells * width // height))).astype(
        np.float32
    )
    return np.asarray(
        cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC), dtype=np.float32
    )


def render_tray(
    width: int,
    height: int,
    rng: np.random.Generator,
    *,
    felt: RGB,
    lighting: float,
    margin_share: float = TRAY_MARGIN,
    tablecloth: bool = False,
) -> TrayImage:
    """Draw the empty tray once; the lamp sits at a random spot somewhat off-centre.
    Around it lies wood, or with ``tablecloth`` a checked cloth."""
    geo = tray_geometry(width, height, margin_share)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)

    # Table around the tray: wood with grain along x (or a checked cloth).
    grain = 0.06 * np.sin(ys / 3.1 + 4.0 * _smooth_noise(rng, height, width, 3, 1.0))
    image = _bgr(TABLE_WOOD)[None, None, :] * (1.0 + grain)[..., None]
    if tablecloth:
        square = max(4, round(0.05 * min(width, height)))
        checks = ((xs // square + ys // square) % 2)[..., None]
        image = checks * _bgr(CLOTH_DARK)[None, None, :] + (1 - checks) * _bgr(CLOTH_LIGHT)[
            None, None, :]
    table = image.copy()

    ox0, oy0, ox1, oy1 = geo.outer
    fx0, fy0, fx1, fy1 = geo.floor
    lamp_x = width * (0.5 + rng.uniform(-0.3, 0.3))
    lamp_y = height * (0.5 + rng.uniform(-0.3, 0.3))
    cx, cy = width / 2.0, height / 2.0
    norm = math.hypot(lamp_x - cx, lamp_y - cy) or 1.0
    light_dir = ((lamp_x - cx) / norm, (lamp_y - cy) / norm)
    # Light mostly comes from above; the sideways part decides shading and shadows.
    light_dir = (0.8 * light_dir[0], 0.8 * light_dir[1])

    # Walls: four trapezoids, each lit by how much it faces the lamp.
    wall = _bgr(TRAY_WALL)
    walls = (
        (((ox0, oy0), (ox1, oy0), (fx1, fy0), (fx0, fy0)), (0.0, 1.0)),  # top wall faces down
        (((ox0, oy1), (ox1, oy1), (fx1, fy1), (fx0, fy1)), (0.0, -1.0)),
        (((ox0, oy0), (ox0, oy1), (fx0, fy1), (fx0, fy0)), (1.0, 0.0)),
        (((ox1, oy0), (ox1, oy1), (fx1, fy1), (fx1, fy0)), (-1.0, 0.0)),
    )
    for corners, (nx, ny) in walls:
        facing = 0.75 + 0.45 * (nx * light_dir[0] + ny * light_dir[1])
        colour = tuple(float(c) for c in wall * facing)
        cv2.fillConvexPoly(image, np.array(corners, dtype=np.int32), colour, cv2.LINE_AA)
    cv2.rectangle(image, (ox0, oy0), (ox1 - 1, oy1 - 1), tuple(float(c) for c in wall * 0.6), 2)

    # Felt floor: mottled, grainy, darker near the walls (ambient occlusion).
    felt_col = _bgr(felt)
    fh, fw = fy1 - fy0, fx1 - fx0
    mottle = _smooth_noise(rng, fh, fw, 6, 0.035) + rng.normal(0.0, 0.025, (fh, fw)).astype(
        np.float32
    )
    fyy = ys[fy0:fy1, fx0:fx1]
    fxx = xs[fy0:fy1, fx0:fx1]
    to_wall = np.minimum(np.minimum(fxx - fx0, fx1 - 1 - fxx), np.minimum(fyy - fy0, fy1 - 1 - fyy))
    occlusion = 1.0 - 0.28 * np.exp(-to_wall / (0.35 * geo.wall))
    floor = felt_col[None, None, :] * ((1.0 + mottle) * occlusion)[..., None]
    image[fy0:fy1, fx0:fx1] = floor

    # The lamp: a broad pool of light plus overall brightness.
    dist2 = (xs - lamp_x) ** 2 + (ys - lamp_y) ** 2
    reach = 0.9 * math.hypot(width, height)
    light_map = (lighting * (0.7 + 0.42 * np.exp(-dist2 / (2 * (0.5 * reach) ** 2)))).astype(
        np.float32
    )
    lit = image * light_map[..., None]
    return TrayImage(
        geometry=geo,
        image=np.clip(lit, 0, 255).astype(np.uint8),
        light_map=light_map,
        light_dir=light_dir,
        table=np.clip(table * light_map[..., None], 0, 255).astype(np.uint8),
    )
