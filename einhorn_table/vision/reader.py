"""Reading every die in a frame: pips, grouped into faces, checked against the layouts."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.grouping import PipContext, group_pips, sample
from einhorn_table.vision.layouts import GRID, LAYOUTS, LayoutFit, fit_layout
from einhorn_table.vision.pips import GreyImage, contrast_map, find_pips
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box, DieReading, FrameReading

ColourImage = npt.NDArray[np.uint8]

#: Face points between the pips, where the body colour shows.
_BODY_POINTS = np.array(
    [[0.375, 0.375], [0.625, 0.375], [0.375, 0.625], [0.625, 0.625], [0.5, 0.16], [0.16, 0.5]]
)


class FrameError(EinhornError):
    """The frame handed to the reader is not a picture it can read."""


@dataclass(frozen=True)
class _Candidate:
    reading: DieReading
    pips: int
    #: The die could be one (the checks that tell dice from clutter passed).
    plausible: bool


def read_frame(image: npt.NDArray[np.uint8], profile: ReaderProfile | None = None) -> FrameReading:
    """Find every die in a BGR (or grey) frame and read its value where sure."""
    profile = profile or ReaderProfile()
    colour = _as_colour(image)
    height, width = colour.shape[:2]
    scale = min(1.0, profile.max_side / max(height, width))
    if scale < 1.0:
        colour = cv2.resize(
            colour, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA
        )
    grey: GreyImage = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    min_die = max(8.0, profile.min_die_px * scale)
    max_die = max(min_die * 2, profile.max_die_px * scale)
    kernel = int(np.clip(0.3 * max_die, 7, 81)) | 1
    polarities = {"dark": (True,), "light": (False,)}.get(profile.pip_polarity, (True, False))
    candidates: list[_Candidate] = []
    for dark in polarities:
        contrast = contrast_map(grey, kernel, dark)
        pips = find_pips(
            contrast,
            min_radius=max(1.0, 0.04 * min_die),
            max_radius=0.16 * max_die,
            min_contrast=profile.min_pip_contrast,
            dark=dark,
        )
        for group in group_pips(grey, pips):
            candidate = _assess(group, grey, contrast, colour, profile, min_die, max_die)
            if candidate is not None:
                candidates.append(candidate)
    dice = _resolve_overlaps(candidates)
    if scale < 1.0:
        dice = [_rescale(die, 1.0 / scale) for die in dice]
    dice.sort(key=lambda d: (d.box[0], d.box[1]))
    return FrameReading(tuple(dice))


def _as_colour(image: npt.NDArray[np.uint8]) -> ColourImage:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise FrameError("the frame is empty; check that the camera delivers pictures")
    if image.dtype != np.uint8:
        raise FrameError(
            f"the frame has pixels of type {image.dtype}; hand the reader 8-bit pictures"
        )
    if image.ndim == 2:
        result: ColourImage = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        return result
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        result = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        return result
    raise FrameError(
        f"the frame has shape {image.shape}; hand the reader a grey or BGR picture"
    )


def _assess(
    group: list[PipContext],
    grey: GreyImage,
    contrast: GreyImage,
    colour: ColourImage,
    profile: ReaderProfile,
    min_die: float,
    max_die: float,
) -> _Candidate | None:
    count = len(group)
    radii = np.array([c.pip.radius for c in group])
    mean_r = float(radii.mean())
    points = np.array([[c.pip.x, c.pip.y] for c in group])
    if count > 6 or (count == 1 and mean_r < 2.0):
        return None
    fit = fit_layout(points, single_pip_face=6.5 * mean_r)
    if fit is None:
        return None
    size = fit.scale
    if not min_die * 0.6 <= size <= max_die:
        return None
    pip_contrast = float(np.median([c.pip.contrast for c in group]))
    spread = float(radii.std() / mean_r) if count > 1 else 0.0
    ratio = mean_r / size
    body = float(np.median([c.body for c in group]))

    factors: list[float] = []
    plausible = True
    # Pips of one die are alike in size and round (a lone pip must be clearly so).
    factors.append(_ramp(spread, 0.12, 0.3))
    worst_elongation = max(c.pip.elongation for c in group)
    factors.append(_ramp(worst_elongation, 1.5 if count > 1 else 1.3, 2.2 if count > 1 else 1.6))
    # The pips sit where the layout puts them.
    factors.append(_ramp(fit.residual, 0.06, 0.16))
    if fit.residual > 0.25:
        plausible = False
    # Pips are a fair share of the face.
    if count > 1 and not 0.045 <= ratio <= 0.17:
        plausible = False
    factors.append(_ramp(fit.skew, 0.45, 0.7))
    # The places where this value has no pip must be empty face.
    absent = _absent_contrast(fit, contrast, mean_r)
    factors.append(_ramp(absent / max(pip_contrast, 1.0), 0.25, 0.5))
    # Clear pips on an even face.
    factors.append(_ramp(-pip_contrast, -1.6 * profile.min_pip_contrast, -profile.min_pip_contrast))
    evenness = float(np.median([c.body_spread for c in group]))
    factors.append(_ramp(evenness / max(pip_contrast, 1.0), 0.12, 0.3))
    if count == 1:
        pip = group[0].pip
        tolerance = max(18.0, 0.35 * pip_contrast)
        clutter, unevenness = _lone_pip_surroundings(grey, contrast, pip.x, pip.y, mean_r, body)
        edges = _edge_fraction(grey, pip.x, pip.y, mean_r, body, tolerance)
        factors.append(_ramp(clutter / pip_contrast, 0.2, 0.35))
        factors.append(_ramp(unevenness / pip_contrast, 0.12, 0.25))
        factors.append(_ramp(-edges, -0.8, -0.6))
        if mean_r < 2.0 or clutter > 0.35 * pip_contrast or edges < 0.6:
            plausible = False
    if not plausible:
        return None
    confidence = float(min(factors))
    value: int | None = fit.value if confidence >= profile.min_confidence else None
    corners = fit.corners()
    box: Box = (
        float(corners[:, 0].min()),
        float(corners[:, 1].min()),
        float(corners[:, 0].max()),
        float(corners[:, 1].max()),
    )
    reading = DieReading(box, value, round(confidence, 3), _body_colour(fit, colour))
    return _Candidate(reading, count, plausible)


def _ramp(x: float, good: float, bad: float) -> float:
    """1 at or below ``good``, 0 at or above ``bad``, linear between."""
    if x <= good:
        return 1.0
    if x >= bad:
        return 0.0
    return (bad - x) / (bad - good)


def _absent_contrast(fit: LayoutFit, contrast: GreyImage, radius: float) -> float:
    """The strongest pip-like contrast at the grid places this value leaves empty."""
    used = set(LAYOUTS[fit.value])
    if fit.value == 1:
        return 0.0
    empty = np.array([p for p in GRID if p not in used])
    centres = fit.to_image(empty)
    offsets = np.array([[0.0, 0.0], [0.5, 0.0], [-0.5, 0.0], [0.0, 0.5], [0.0, -0.5]]) * radius
    worst = 0.0
    for cx, cy in centres:
        values = sample(contrast, cx + offsets[:, 0], cy + offsets[:, 1])
        worst = max(worst, float(np.median(values)))
    return worst


def _lone_pip_surroundings(
    grey: GreyImage, contrast: GreyImage, x: float, y: float, radius: float, body: float
) -> tuple[float, float]:
    """Around a lone pip: the strongest pip-like contrast and how uneven the face is."""
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    clutter = 0.0
    deviations: list[npt.NDArray[np.float64]] = []
    for factor in (1.8, 2.3, 2.8):
        xs = x + factor * radius * np.cos(angles)
        ys = y + factor * radius * np.sin(angles)
        clutter = max(clutter, float(np.percentile(sample(contrast, xs, ys), 90)))
        deviations.append(np.abs(sample(grey, xs, ys) - body))
    unevenness = float(np.percentile(np.concatenate(deviations), 80))
    return clutter, unevenness


_RAY_ANGLES = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_RAY_STEPS = np.linspace(3.0, 8.0, 24)


def _edge_fraction(
    grey: GreyImage, x: float, y: float, radius: float, body: float, tolerance: float
) -> float:
    """Share of rays from a lone pip that leave its face within a die's reach."""
    steps = _RAY_STEPS * radius
    xs = x + np.outer(np.cos(_RAY_ANGLES), steps)
    ys = y + np.outer(np.sin(_RAY_ANGLES), steps)
    values = sample(grey, xs.ravel(), ys.ravel()).reshape(xs.shape)
    hits = np.any(np.abs(values - body) > tolerance, axis=1)
    return float(hits.mean())


def _body_colour(fit: LayoutFit, colour: ColourImage) -> tuple[int, int, int]:
    points = fit.to_image(_BODY_POINTS)
    h, w = colour.shape[:2]
    xi = np.clip(np.rint(points[:, 0]).astype(np.int64), 0, w - 1)
    yi = np.clip(np.rint(points[:, 1]).astype(np.int64), 0, h - 1)
    b, g, r = np.median(colour[yi, xi].astype(np.float64), axis=0)
    return (int(r), int(g), int(b))


def _resolve_overlaps(candidates: list[_Candidate]) -> list[DieReading]:
    """Where candidates overlap, keep the one read best (then the one with most pips)."""
    ordered = sorted(
        candidates,
        key=lambda c: (c.reading.value is not None, c.reading.confidence, c.pips),
        reverse=True,
    )
    kept: list[DieReading] = []
    for candidate in ordered:
        box = candidate.reading.box
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        clash = False
        for other in kept:
            ob = other.box
            inside = ob[0] <= cx <= ob[2] and ob[1] <= cy <= ob[3]
            ocx, ocy = (ob[0] + ob[2]) / 2, (ob[1] + ob[3]) / 2
            contains = box[0] <= ocx <= box[2] and box[1] <= ocy <= box[3]
            if inside or contains:
                clash = True
                break
        if not clash:
            kept.append(candidate.reading)
    return kept


def _rescale(die: DieReading, factor: float) -> DieReading:
    x0, y0, x1, y1 = die.box
    box: Box = (x0 * factor, y0 * factor, x1 * factor, y1 * factor)
    return DieReading(box, die.value, die.confidence, die.color)
