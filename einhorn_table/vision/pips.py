"""Finding pip candidates: small round blobs darker (or lighter) than around them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

GreyImage = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]

#: The thresholds (grey levels of local contrast) at which blobs are looked for. A pip
#: ends up outlined at the lowest level above about half its peak contrast (at most
#: 255), which is never above 145; held-out photos read as well or better without the
#: two higher levels there were (165 and 190), and in 5 % less time.
_LEVELS: tuple[int, ...] = (16, 30, 50, 75, 105, 125, 145)


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
        return np.asarray(cv2.subtract(closed, grey), dtype=np.uint8)
    opened = cv2.morphologyEx(grey, cv2.MORPH_OPEN, shape)
    return np.asarray(cv2.subtract(grey, opened), dtype=np.uint8)


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
        mask = np.asarray(cv2.threshold(contrast, level, 1, cv2.THRESH_BINARY)[1], np.uint8)
        blobs = _blobs(mask, contrast, min_area, max_area, min_contrast, dark)
        if not blobs:
            continue
        # Blobs of one level never overlap each other: compare them with the pips
        # kept from the levels above only (each row: the kept pips within a blob's
        # reach; how many, and the first).
        near = _within_reach([pip for pip, _ in blobs], kept)
        holds = near.sum(axis=1).tolist()
        first = near.argmax(axis=1).tolist() if kept else [0] * len(blobs)
        new: list[tuple[Pip, float]] = []
        for (pip, peak), count, index in zip(blobs, holds, first, strict=True):
            if count == 0:
                new.append((pip, peak))
            elif count == 1:
                old = kept[index]
                # A sliver of a pip's core (a highlight splits it) gives way to the
                # round whole, whatever the level.
                fuller = level >= 0.45 * peaks[index] and pip.radius < 2.0 * old.radius + 2.0
                rounder = old.elongation > 1.5 and pip.elongation < old.elongation - 0.3
                if fuller or rounder:
                    kept[index] = pip
        kept.extend(pip for pip, _ in new)
        peaks.extend(peak for _, peak in new)
    return kept


def _within_reach(blobs: list[Pip], kept: list[Pip]) -> npt.NDArray[np.bool_]:
    """For each blob, which kept pips have their centres within the blob's radius
    plus half their own."""
    if not kept:
        return np.zeros((len(blobs), 0), bool)
    new = np.array([(p.x, p.y, p.radius) for p in blobs])
    old = np.array([(p.x, p.y, p.radius) for p in kept])
    distances = np.hypot(new[:, :1] - old[:, 0], new[:, 1:2] - old[:, 1])
    reach: npt.NDArray[np.bool_] = distances < new[:, 2:] + 0.5 * old[:, 2]
    return reach


def _blobs(
    mask: GreyImage,
    contrast: GreyImage,
    min_area: float,
    max_area: float,
    min_contrast: float,
    dark: bool,
) -> list[tuple[Pip, float]]:
    """The round blobs of one mask (outer outlines; holes filled), each with its peak."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return []
    side_min = 2.0 * np.sqrt(min_area / np.pi) * 0.6
    side_max = 2.0 * np.sqrt(max_area / np.pi) * 1.6
    # The checks a blob's box alone settles, for all blobs at once: a filled outline
    # covers at most its box, and must cover over half of it.
    rects = np.array([cv2.boundingRect(contour) for contour in contours])
    widths, heights = rects[:, 2], rects[:, 3]
    longer, shorter = np.maximum(widths, heights), np.minimum(widths, heights)
    box_area = widths * heights
    possible = (
        (longer >= side_min)
        & (longer <= side_max)
        & (longer <= 3 * shorter)
        & (box_area >= min_area)
        & (0.55 * box_area <= max_area)
    )
    found: list[tuple[Pip, float]] = []
    for index in np.flatnonzero(possible).tolist():
        contour = contours[index]
        x0, y0, w, h = rects[index].tolist()
        window = contrast[y0 : y0 + h, x0 : x0 + w]
        if cv2.minMaxLoc(window)[1] < min_contrast:
            continue
        blob = np.zeros((h, w), np.uint8)
        cv2.drawContours(blob, [contour], -1, 1, thickness=-1, offset=(-x0, -y0))
        moments = cv2.moments(blob, binaryImage=True)
        area = moments["m00"]  # the blob's pixels
        if not min_area <= area <= max_area or area < 0.55 * w * h:
            continue
        pip = _describe(moments, cv2.mean(window, mask=blob)[0], x0, y0, dark)
        if pip is None or pip.contrast < min_contrast * 0.6:
            continue
        peak = cv2.minMaxLoc(window, mask=blob)[1]
        if peak >= min_contrast:
            found.append((pip, peak))
    return found


def _describe(
    moments: dict[str, float], contrast: float, x0: int, y0: int, dark: bool
) -> Pip | None:
    """The pip a filled blob (its image moments) makes, with its mean contrast."""
    area = moments["m00"]
    if area <= 0:
        return None
    cx = moments["m10"] / area
    cy = moments["m01"] / area
    mu20 = moments["mu20"] / area
    mu02 = moments["mu02"] / area
    mu11 = moments["mu11"] / area
    spread = math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11**2)
    major = 2.0 * math.sqrt(max((mu20 + mu02) / 2 + spread, 1e-6))
    minor = 2.0 * math.sqrt(max((mu20 + mu02) / 2 - spread, 1e-6))
    # A filled ellipse has area pi*a*b; blobs with holes or branches fall short.
    solidity = area / (math.pi * major * minor)
    if solidity < 0.75 or major / minor > 2.6:
        return None
    angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    return Pip(
        x=x0 + cx,
        y=y0 + cy,
        radius=math.sqrt(area / math.pi),
        major=major,
        minor=minor,
        angle=angle,
        contrast=float(contrast),
        dark=dark,
    )
