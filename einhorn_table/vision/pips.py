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
#: How far (pixels) masks are shrunk to part touching pips.
_SHRINKS: tuple[int, ...] = (0,)
_DISCS = {
    1: cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)),
    2: cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)),
}


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
    peaks: list[float] = []
    min_area = max(4.0, np.pi * min_radius**2)
    max_area = np.pi * max_radius**2
    # From the clearest level down: a blob at a lower level replaces the one pip it
    # holds while the level is above half the pip's peak (so every pip is outlined
    # near half its contrast, whatever the blur), and is dropped when it swallows several.
    for level in sorted(_LEVELS, reverse=True):
        mask = (contrast > level).astype(np.uint8)
        if not mask.any():
            continue
        for shrink in _SHRINKS:
            # Shrinking the mask parts pips that blur into each other; the outline
            # grows back by the same amount.
            part = mask if shrink == 0 else cv2.erode(mask, _DISCS[shrink])
            for pip, peak in _blobs(part, contrast, min_area, max_area, min_contrast, dark, shrink):
                inside = [
                    i
                    for i, other in enumerate(kept)
                    if np.hypot(pip.x - other.x, pip.y - other.y) < pip.radius + 0.5 * other.radius
                ]
                if not inside:
                    kept.append(pip)
                    peaks.append(peak)
                elif (
                    shrink == 0
                    and len(inside) == 1
                    and level >= 0.45 * peaks[inside[0]]
                    and pip.radius < 2.0 * kept[inside[0]].radius + 2.0
                ):
                    kept[inside[0]] = pip
    return kept


def _blobs(
    mask: GreyImage,
    contrast: GreyImage,
    min_area: float,
    max_area: float,
    min_contrast: float,
    dark: bool,
    shrink: int,
) -> list[tuple[Pip, float]]:
    """The round blobs of one mask, each with its peak contrast."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return []
    grown = 2.0 * shrink
    widths = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
    heights = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    full_areas = np.pi * (np.sqrt(areas / np.pi) + shrink) ** 2
    fill = areas / (widths * heights)
    aspect = (np.maximum(widths, heights) + grown) / (np.minimum(widths, heights) + grown)
    keep = np.nonzero(
        (full_areas >= min_area) & (full_areas <= max_area) & (fill > 0.55) & (aspect < 3.0)
    )[0]
    found: list[tuple[Pip, float]] = []
    for index in keep:
        label = int(index) + 1
        x0 = int(stats[label, cv2.CC_STAT_LEFT])
        y0 = int(stats[label, cv2.CC_STAT_TOP])
        w = int(stats[label, cv2.CC_STAT_WIDTH])
        h = int(stats[label, cv2.CC_STAT_HEIGHT])
        blob = labels[y0 : y0 + h, x0 : x0 + w] == label
        window = contrast[y0 : y0 + h, x0 : x0 + w]
        pip = _describe(blob, window, x0, y0, dark, shrink)
        if pip is None or pip.contrast < min_contrast * 0.6:
            continue
        peak = float(window[blob].max())
        if peak >= min_contrast:
            found.append((pip, peak))
    return found


def _describe(
    blob: npt.NDArray[np.bool_], contrast: GreyImage, x0: int, y0: int, dark: bool, shrink: int
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
        radius=float(np.sqrt(area / np.pi)) + shrink,
        major=float(major) + shrink,
        minor=float(minor) + shrink,
        angle=float(angle),
        contrast=float(contrast[blob].mean()),
        dark=dark,
    )
