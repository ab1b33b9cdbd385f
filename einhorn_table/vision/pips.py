"""Finding pip candidates: small round blobs darker (or lighter) than around them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

GreyImage = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]

#: The thresholds (grey levels of local contrast) at which blobs are looked for.
_LEVELS: tuple[int, ...] = (16, 30, 50, 75, 105, 140, 180)


@dataclass(frozen=True)
class Pip:
    """One round blob that may be a pip."""

    x: float
    y: float
    #: Radius of the circle of the same area, pixels.
    radius: float
    #: Ellipse fitted to the blob: half axes (major >= minor) and angle (radians).
    major: float
    minor: float
    angle: float
    #: Mean local contrast inside the blob (grey levels).
    contrast: float
    #: True for a pip darker than its face.
    dark: bool

    @property
    def elongation(self) -> float:
        return self.major / max(self.minor, 1e-6)


def contrast_map(grey: GreyImage, kernel: int, dark: bool) -> GreyImage:
    """How much darker (or lighter) each pixel is than its surroundings up to ``kernel``."""
    shape = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    if dark:
        closed = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, shape)
        result: GreyImage = cv2.subtract(closed, grey)
    else:
        opened = cv2.morphologyEx(grey, cv2.MORPH_OPEN, shape)
        result = cv2.subtract(grey, opened)
    return result


def find_pips(
    contrast: GreyImage,
    min_radius: float,
    max_radius: float,
    min_contrast: float,
    dark: bool,
) -> list[Pip]:
    """Round blobs in a contrast map, looked for at several contrast levels."""
    kept: list[Pip] = []
    min_area = max(4.0, np.pi * min_radius**2)
    max_area = np.pi * max_radius**2
    # From the clearest level down: a blob at a lower level replaces the one pip it
    # holds (its outline is fuller) and is dropped when it swallows several.
    for level in sorted(_LEVELS, reverse=True):
        mask = (contrast > level).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if count <= 1:
            continue
        areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
        widths = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
        heights = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
        fill = areas / (widths * heights)
        aspect = np.maximum(widths, heights) / np.minimum(widths, heights)
        keep = np.nonzero(
            (areas >= min_area) & (areas <= max_area) & (fill > 0.55) & (aspect < 3.0)
        )[0]
        for index in keep:
            label = int(index) + 1
            x0 = int(stats[label, cv2.CC_STAT_LEFT])
            y0 = int(stats[label, cv2.CC_STAT_TOP])
            w = int(stats[label, cv2.CC_STAT_WIDTH])
            h = int(stats[label, cv2.CC_STAT_HEIGHT])
            blob = labels[y0 : y0 + h, x0 : x0 + w] == label
            pip = _describe(blob, contrast[y0 : y0 + h, x0 : x0 + w], x0, y0, dark)
            if pip is None or pip.contrast < min_contrast * 0.6:
                continue
            peak = float(contrast[y0 : y0 + h, x0 : x0 + w][blob].max())
            if peak < min_contrast:
                continue
            inside = [
                i
                for i, other in enumerate(kept)
                if np.hypot(pip.x - other.x, pip.y - other.y) < pip.radius + 0.5 * other.radius
            ]
            if not inside:
                kept.append(pip)
            elif len(inside) == 1 and pip.radius < 2.0 * kept[inside[0]].radius + 2.0:
                kept[inside[0]] = pip
    return kept


def _describe(
    blob: npt.NDArray[np.bool_], contrast: GreyImage, x0: int, y0: int, dark: bool
) -> Pip | None:
    moments = cv2.moments(blob.astype(np.uint8), binaryImage=True)
    area = moments["m00"]
    if area <= 0:
        return None
    cx = moments["m10"] / area
    cy = moments["m01"] / area
    mu20 = moments["mu20"] / area
    mu02 = moments["mu02"] / area
    mu11 = moments["mu11"] / area
    spread = np.sqrt(max(((mu20 - mu02) / 2) ** 2 + mu11**2, 0.0))
    major = 2.0 * np.sqrt(max((mu20 + mu02) / 2 + spread, 1e-6))
    minor = 2.0 * np.sqrt(max((mu20 + mu02) / 2 - spread, 1e-6))
    # A filled ellipse has area pi*a*b; blobs with holes or branches fall short.
    solidity = area / (np.pi * major * minor)
    if solidity < 0.75 or major / minor > 2.6:
        return None
    angle = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)
    return Pip(
        x=x0 + cx,
        y=y0 + cy,
        radius=float(np.sqrt(area / np.pi)),
        major=float(major),
        minor=float(minor),
        angle=float(angle),
        contrast=float(contrast[blob].mean()),
        dark=dark,
    )
