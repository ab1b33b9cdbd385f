"""Reading every die in a frame: pips, grouped into faces, checked against the layouts."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.combined import combine, likely_pip_polarity
from einhorn_table.vision.frames import shrunk
from einhorn_table.vision.grouping import (
    Colour,
    PipContext,
    colour_distance,
    face_between,
    face_tolerance,
    foreshortened_alike,
    group_pips,
    sample,
    sample_colour,
)
from einhorn_table.vision.large_dice import look_again_for_large_dice
from einhorn_table.vision.layouts import GRID, LAYOUTS, LayoutFit, fit_layout
from einhorn_table.vision.learned import (
    DETECTOR_FILE,
    MODEL_DIR,
    SMALL_DICE_DETECTOR_FILE,
    models_present,
    read_frame_learned,
    small_dice_detector_present,
)
from einhorn_table.vision.order_stats import median, percentile
from einhorn_table.vision.pips import GreyImage, Pip, contrast_map, find_pips
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.regions import DieMap
from einhorn_table.vision.results import Box, DieReading, FrameReading
from einhorn_table.vision.small_dice import dice_are_small

ColourImage = npt.NDArray[np.uint8]


def _face_points(value: int) -> npt.NDArray[np.float64]:
    """Points of the face well clear of this value's pips, where only face shows."""
    steps = (0.2, 0.375, 0.5, 0.625, 0.8)
    pips = np.array(LAYOUTS[value])
    chosen = [
        (u, v)
        for u in steps
        for v in steps
        if np.hypot(pips[:, 0] - u, pips[:, 1] - v).min() >= 0.19
        and not (u in (0.2, 0.8) and v in (0.2, 0.8))
    ]
    return np.array(chosen)


_FACE_POINTS = {value: _face_points(value) for value in LAYOUTS}


class FrameError(EinhornError):
    """The frame handed to the reader is not a picture it can read."""


@dataclass(frozen=True)
class _Candidate:
    reading: DieReading
    pips: int
    #: The die could be one (the checks that tell dice from clutter passed).
    plausible: bool
    #: Each check's verdict, 0..1 (the confidence is the lowest).
    checks: dict[str, float]
    #: Edge length of the fitted face (pixels) and its centre.
    size: float
    centre: tuple[float, float]
    #: The pips the reading rests on, and the nine pip places of the face (image).
    members: tuple[Pip, ...] = ()
    fit: LayoutFit | None = None


def read_frame(
    image: npt.NDArray[Any],
    profile: ReaderProfile | None = None,
    *,
    model_dir: Path = MODEL_DIR,
) -> FrameReading:
    """Find every die in a BGR (or grey) frame and read its value where sure.

    The profile's ``method`` picks the reader: both cross-checked ("combined",
    :mod:`einhorn_table.vision.combined`), the learned one alone, or the classical
    one alone (:func:`read_frame_classical`, also used where the models are missing).
    ``model_dir`` holds the learned reader's models (by default ``vision_models/``).
    Where the dice found are small, the frame is read again with the small-dice
    detector, where ``model_dir`` has it (:mod:`einhorn_table.vision.small_dice`).
    """
    profile = profile or ReaderProfile()
    if profile.method not in ("combined", "learned") or not models_present(model_dir):
        return read_frame_classical(image, profile)
    # Both readers read the one shrunk frame, with the die sizes in its pixels.
    colour = _as_colour(image)
    colour, scale = shrunk(colour, profile.read_side(*colour.shape[:2]))
    smallest, largest = profile.die_px_range(scale)
    small = replace(profile, min_die_px=smallest, max_die_px=largest, typical_die_px=None)
    reading = _read_shrunk(colour, small, profile.method, model_dir, DETECTOR_FILE)
    if small_dice_detector_present(model_dir) and dice_are_small(reading):
        reading = _read_shrunk(colour, small, profile.method, model_dir, SMALL_DICE_DETECTOR_FILE)
    return reading if scale == 1.0 else reading.scaled(1.0 / scale)


def _read_shrunk(
    colour: ColourImage, small: ReaderProfile, method: str, model_dir: Path, detector: str
) -> FrameReading:
    """The learned reader (with ``detector``), or both readers combined, on a frame
    already shrunk to be read, ``small`` giving die sizes in its pixels."""
    learned = read_frame_learned(colour, small, model_dir, detector)
    if method == "learned":
        return FrameReading(tuple(die for die, _ in learned.dice))
    # The classical reader looks only where the detector sees anything die-like,
    # and (unless calibration chose) only for the kind of pip those dice have.
    if small.pip_polarity == "both":
        small = replace(small, pip_polarity=likely_pip_polarity(learned.dice, learned.faces))
    classical = read_frame_classical(colour, small, regions=learned.regions)
    # Dice too large for the detector: it looks again at a shrunk frame, which
    # also checks the classical reader's large dice.
    learned, classical = look_again_for_large_dice(
        colour, small, learned, classical, model_dir, detector
    )
    return combine(learned.dice, classical, learned.heat)


def read_frame_classical(
    image: npt.NDArray[Any],
    profile: ReaderProfile | None = None,
    *,
    regions: DieMap | None = None,
) -> FrameReading:
    """The classical reader: pips found, grouped into faces, fitted to the layouts.

    With ``regions`` (where the detector says dice may lie) pips are looked for only
    there, which saves the time spent on the rest of the frame's texture; the faces
    found are judged as without it.
    """
    profile = profile or ReaderProfile()
    colour = _as_colour(image)
    colour, scale = shrunk(colour, profile.read_side(*colour.shape[:2]))
    grey: GreyImage = np.asarray(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), np.uint8)
    inside = None if regions is None else regions.mask(grey.shape, scale)
    smallest, largest = profile.die_px_range(scale)
    min_die = max(8.0, smallest)
    max_die = max(min_die * 2, largest)
    kernel = int(np.clip(0.3 * max_die, 7, 81)) | 1
    polarities = {"dark": (True,), "light": (False,)}.get(profile.pip_polarity, (True, False))
    candidates: list[_Candidate] = []
    # Light pips are also looked for in the red channel alone, where coloured pips
    # (red on black or blue dice) stand out that grey levels hide.
    passes = [(grey, dark) for dark in polarities]
    if False in polarities and _has_red(colour):
        passes.append((np.ascontiguousarray(colour[:, :, 2]), False))
    for channel, dark in passes:
        contrast = contrast_map(channel, kernel, dark)
        searched = contrast
        if inside is not None:
            searched = np.asarray(cv2.bitwise_and(contrast, contrast, mask=inside), np.uint8)
        pips = find_pips(
            searched,
            min_radius=max(1.0, 0.04 * min_die),
            max_radius=0.16 * max_die,
            min_contrast=profile.min_pip_contrast,
            dark=dark,
        )
        groups = group_pips(grey, colour, pips)
        contexts = [context for group in groups for context in group]
        for group in groups:
            candidate = _assess(group, grey, contrast, colour, profile, min_die, max_die)
            if len(group) == 2 and candidate is not None and _third_pip_in_line(group, contexts):
                # Two pips of a 3 whose third did not join up (a sheen between them):
                # the pair must not read as 2.
                candidate.checks["no_pip_in_line"] = 0.0
                candidate = _unsure(candidate)
            if len(group) == 1:
                if candidate is not None and _has_twin(group[0], contexts, colour):
                    # Another pip like it lies within one face's reach: the pair may be
                    # one die whose pips did not join up, so this pip alone must not
                    # read as 1.
                    candidate.checks["no_twin"] = 0.0
                    candidate = _unsure(candidate)
                if candidate is not None:
                    candidates.append(candidate)
                continue
            if len(group) >= 3 and (candidate is None or candidate.reading.value is None):
                trimmed = _read_without_faint_strays(
                    group, grey, contrast, colour, profile, min_die, max_die
                )
                if trimmed is not None:
                    candidates.append(trimmed)
                    continue
            if len(group) >= 4 and (candidate is None or candidate.reading.value is None):
                # Perhaps a top face and a side face joined up: part them more strictly.
                parts = group_pips(grey, colour, [c.pip for c in group], strictness=0.5)
                candidates.extend(
                    _read_parts(parts, grey, contrast, colour, profile, min_die, max_die)
                )
            if candidate is not None:
                candidates.append(candidate)
    candidates = _without_faces_taken_for_pips(candidates)
    candidates = [_within_frame(c, width=grey.shape[1], height=grey.shape[0]) for c in candidates]
    candidates = _lone_pips_sized_like_the_dice(candidates)
    dice = _resolve_overlaps(candidates)
    if scale < 1.0:
        dice = [die.scaled(1.0 / scale) for die in dice]
    dice.sort(key=lambda d: (d.box[0], d.box[1]))
    return FrameReading(tuple(dice))


def _has_red(colour: ColourImage) -> bool:
    """Whether any of the frame is clearly red (where red pips might be)."""
    thin = colour[::4, ::4].astype(np.int16)
    redness = thin[:, :, 2] - np.maximum(thin[:, :, 0], thin[:, :, 1])
    return bool(np.count_nonzero(redness > 40) > 0.0002 * redness.size)


def _as_colour(image: npt.NDArray[Any]) -> ColourImage:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise FrameError("the frame is empty; check that the camera delivers pictures")
    if image.dtype != np.uint8:
        raise FrameError(
            f"the frame has pixels of type {image.dtype}; hand the reader 8-bit pictures"
        )
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(image, np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), np.uint8)
    raise FrameError(f"the frame has shape {image.shape}; hand the reader a grey or BGR picture")


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
    if count > 6 or (count == 1 and (mean_r < 2.0 or group[0].pip.elongation >= 1.9)):
        return None
    exits = _face_exits(colour, group[0], mean_r) if count == 1 else np.zeros(0)
    edges = float(np.isfinite(exits).mean()) if count == 1 else 1.0
    if edges < _OUTLINE_SHARE:
        return None
    fit = fit_layout(points, single_pip_face=_lone_face_size(exits, mean_r))
    if fit is None:
        return None
    size = fit.scale
    if not min_die * 0.6 <= size <= max_die:
        return None
    pip_contrast = float(median([c.pip.contrast for c in group]))
    spread = float(radii.std() / mean_r) if count > 1 else 0.0
    ratio = mean_r / size

    checks: dict[str, float] = {}
    plausible = True
    # Pips of one die are alike in size and round (a lone pip must be clearly so).
    checks["size_spread"] = _ramp(spread, 0.12, 0.3)
    worst_elongation = max(c.pip.elongation for c in group)
    # ... and squashed alike (a side face's pips joined on are squashed more).
    elongations = [c.pip.elongation for c in group]
    checks["alike_shapes"] = _ramp(float(np.log(max(elongations) / min(elongations))), 0.25, 0.4)
    checks["roundness"] = _ramp(
        worst_elongation, 1.5 if count > 1 else 1.45, 2.2 if count > 1 else 1.9
    )
    # The pips sit where the layout puts them.
    checks["layout"] = _ramp(fit.residual, 0.06, 0.16)
    if fit.residual > 0.25:
        plausible = False
    # Pips are a fair share of the face.
    if count > 1 and not 0.045 <= ratio <= 0.19:
        plausible = False
    if count > 1:
        # On real dice a pip's radius is 8-15 % of the face; pips from two dice, or a
        # face missing pips, put them at other distances.
        # (The six pips of a 6 are packed closer, and seen on a slant it looks smaller.)
        low_good, low_bad = (0.07, 0.055) if count == 6 else (0.085, 0.07)
        checks["pip_size"] = min(_ramp(-ratio, -low_good, -low_bad), _ramp(ratio, 0.15, 0.17))
    checks["skew"] = _ramp(fit.skew, 0.45, 0.7)
    # One face is one colour: a group that strays onto a side face (or onto two
    # dice) finds other colours between its pips.
    tolerance = face_tolerance(pip_contrast)
    if count > 1:
        face = sample_colour(colour, *fit.to_image(_FACE_POINTS[count]).T)
        reference = median([c.body_colour for c in group], axis=0)
        distances = np.sort(colour_distance(face, reference))
        stray = float(distances[-2] if len(distances) >= 8 else percentile(distances, 85))
        checks["one_colour"] = _ramp(stray / tolerance, 0.7, 1.2)
    # The places where this value has no pip must be empty face.
    absent = _absent_contrast(fit, contrast, mean_r)
    checks["empty_places"] = _ramp(absent / max(pip_contrast, 1.0), 0.25, 0.5)
    if count == 3:
        beside = _row_beside(fit, contrast) / max(pip_contrast, 1.0)
        checks["no_column_beside"] = _ramp(beside, 0.45, 0.7)
    if count > 1:
        # Pips of one face are alike in contrast; a blob far fainter than the others is
        # a lamp's sheen on a shiny face (where a 3 or 5 has its middle pip), not a pip.
        faintest = min(c.pip.contrast for c in group) / max(pip_contrast, 1.0)
        checks["alike_contrast"] = _ramp(-faintest, -_ALIKE_CONTRAST[0], -_ALIKE_CONTRAST[1])
    # Clear pips on an even face.
    checks["pip_contrast"] = _ramp(
        -pip_contrast, -1.6 * profile.min_pip_contrast, -profile.min_pip_contrast
    )
    evenness = float(median([c.body_spread for c in group]))
    checks["even_face"] = _ramp(evenness / max(pip_contrast, 1.0), 0.12, 0.3)
    if count == 1:
        pip = group[0].pip
        face = group[0].body_colour
        clutter, unevenness = _lone_pip_surroundings(colour, contrast, pip.x, pip.y, mean_r, face)
        checks["centred"] = _ramp(_off_centre(exits), 0.15, 0.3)
        checks["clear_around"] = _ramp(clutter / pip_contrast, 0.2, 0.35)
        checks["even_around"] = _ramp(unevenness / pip_contrast, 0.12, 0.25)
        checks["face_edges"] = _ramp(-edges, -0.8, -_OUTLINE_SHARE)
        if clutter > 0.35 * pip_contrast:
            plausible = False
    if not plausible:
        return None
    confidence = float(min(checks.values()))
    value: int | None = fit.value if confidence >= profile.min_confidence else None
    box = _lone_pip_box(group[0].pip, exits, size) if count == 1 else _fitted_box(fit)
    reading = DieReading(box, value, round(confidence, 3), _body_colour(group))
    centre = fit.to_image(np.array([[0.5, 0.5]]))[0]
    return _Candidate(
        reading,
        count,
        plausible,
        checks,
        size,
        (float(centre[0]), float(centre[1])),
        tuple(c.pip for c in group),
        fit,
    )


def _without_faces_taken_for_pips(candidates: list[_Candidate]) -> list[_Candidate]:
    """The candidates less those whose "pips" hold far smaller pips.

    A light die on a dark table is itself a light blob, as big as a pip may be: a
    blob that has pips inside it is a whole face, not a pip, and reading it as one
    would give a die many times too big (a 1, or a 3 spanning three dice). Its pips
    are of the other kind, or, where the red channel alone shows an orange or red
    die as one light blob, of the same kind, found in the grey levels.
    """
    pips = [pip for candidate in candidates for pip in candidate.members]
    if not pips:
        return candidates
    xs = np.array([pip.x for pip in pips])
    ys = np.array([pip.y for pip in pips])
    rs = np.array([pip.radius for pip in pips])

    def holds_pips(blob: Pip) -> bool:
        inside = np.hypot(xs - blob.x, ys - blob.y) < blob.radius
        return bool(np.any(inside & (rs < 0.5 * blob.radius)))

    return [c for c in candidates if not any(holds_pips(pip) for pip in c.members)]


_GRID_POINTS = np.array(GRID)


def _lone_pips_sized_like_the_dice(candidates: list[_Candidate]) -> list[_Candidate]:
    """Lone pips whose face is far from the size of the dice read from several pips in
    the same frame (all lie at one distance from the camera) are not read as 1s: a
    whole dark die, or one pip of a die whose other pips did not join it."""
    sizes = [c.size for c in candidates if c.pips > 1 and c.reading.value is not None]
    if len(sizes) < 2:
        return candidates
    low, high = (share * float(np.median(sizes)) for share in _LONE_SIZE_RANGE)
    return [_unsure(c) if c.pips == 1 and not low <= c.size <= high else c for c in candidates]


#: The sizes a 1 may have, as shares of the frame's typical die.
_LONE_SIZE_RANGE = (0.65, 2.0)


def _within_frame(candidate: _Candidate, width: int, height: int) -> _Candidate:
    """The candidate with its box clipped to the frame; a face whose pip places are
    not all in view may hide pips beyond the frame's edge, so its value is withheld."""
    reading = candidate.reading
    x0, y0, x1, y1 = reading.box
    clipped: Box = (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))
    radius = float(np.mean([pip.radius for pip in candidate.members])) if candidate.members else 0.0
    places = None if candidate.fit is None else candidate.fit.to_image(_GRID_POINTS)
    in_view = places is None or bool(
        np.all(
            (places[:, 0] >= -radius)
            & (places[:, 0] <= width - 1 + radius)
            & (places[:, 1] >= -radius)
            & (places[:, 1] <= height - 1 + radius)
        )
    )
    if clipped != reading.box:
        candidate = replace(candidate, reading=replace(reading, box=clipped))
    if not in_view:
        candidate.checks["in_view"] = 0.0
        candidate = _unsure(candidate)
    return candidate


def _read_without_faint_strays(
    group: list[PipContext],
    grey: GreyImage,
    contrast: GreyImage,
    colour: ColourImage,
    profile: ReaderProfile,
    min_die: float,
    max_die: float,
) -> _Candidate | None:
    """The face read without the blobs far fainter than the group's pips (a die's shadowed
    edge, a speck beside it), where it reads without them and they lie off its face."""
    contrasts = np.array([c.pip.contrast for c in group])
    faint = contrasts < _FAINT_STRAY * float(median(contrasts))
    if not faint.any() or faint.sum() > 1:
        return None
    kept = [c for c, stray in zip(group, faint.tolist(), strict=True) if not stray]
    if len(kept) < 3:
        # Two pips are as often a part of a larger face whose other pips are faint.
        return None
    candidate = _assess(kept, grey, contrast, colour, profile, min_die, max_die)
    if candidate is None or candidate.reading.value is None or candidate.fit is None:
        return None
    strays = [c.pip for c, stray in zip(group, faint.tolist(), strict=True) if stray]
    if not all(_beyond_pip_places(candidate.fit, pip) for pip in strays):
        return None
    return candidate


#: A pip lies where a 3's third would be when it is within this share of the pair's
#: distance of that place, with a radius within these shares of the pair's.
_IN_LINE = 0.2
_IN_LINE_RADIUS = (0.7, 1.4)
#: A blob with less than this share of its group's median contrast is a faint stray.
_FAINT_STRAY = 0.75
#: A face is read surely while its faintest pip has this share of its pips' median
#: contrast, and not at all from the second share down. On the photos the faintest pip
#: of a face read has 0.74 to 0.90 of the median or more (the first percentile, per
#: set); a shiny die's sheen under a lamp has about 0.35 (the demo's red dice) to 0.48
#: (green and purple 4s of the synthetic table, read as 5s with a bar of 0.55 to 0.4).
_ALIKE_CONTRAST = (0.6, 0.45)


def _beyond_pip_places(fit: LayoutFit, pip: Pip) -> bool:
    """Whether a blob lies beyond where any pip of the fitted face could be (pip centres
    lie a quarter of the face in from its edges), so it cannot be one of its pips."""
    inverse = np.linalg.inv(np.vstack([fit.matrix, [0.0, 0.0, 1.0]]))
    u, v, _ = inverse @ np.array([pip.x, pip.y, 1.0])
    return not (0.1 <= u <= 0.9 and 0.1 <= v <= 0.9)


def _read_parts(
    parts: list[list[PipContext]],
    grey: GreyImage,
    contrast: GreyImage,
    colour: ColourImage,
    profile: ReaderProfile,
    min_die: float,
    max_die: float,
) -> list[_Candidate]:
    """The faces of one die parted into groups: only the face seen most squarely, the one
    whose pips are clearly the roundest, is the top face; the others are side faces."""
    parts = [part for part in parts if len(part) > 1]  # leftover pips are no dice
    if len(parts) < 2:
        return []
    roundness = [float(median([c.pip.elongation for c in part])) for part in parts]
    order = np.argsort(roundness)
    top = int(order[0])
    clearly = roundness[int(order[1])] - roundness[top] >= 0.15
    found: list[_Candidate] = []
    for index, part in enumerate(parts):
        candidate = _assess(part, grey, contrast, colour, profile, min_die, max_die)
        if candidate is None:
            continue
        if index != top or not clearly:
            candidate.checks["top_face"] = 0.0
            candidate = _unsure(candidate)
        found.append(candidate)
    return found


def _has_twin(context: PipContext, contexts: list[PipContext], colour: ColourImage) -> bool:
    """Whether a pip like this one, on a face of the same colour, lies within reach with
    nothing between them that is clearly no face (a side face's edge, the table)."""
    pip = context.pip
    tolerance = face_tolerance(pip.contrast)
    xs = np.array([c.pip.x for c in contexts])
    ys = np.array([c.pip.y for c in contexts])
    rs = np.array([c.pip.radius for c in contexts])
    near = np.hypot(xs - pip.x, ys - pip.y) < 11.0 * np.maximum(rs, pip.radius)
    alike = (rs >= 0.6 * pip.radius) & (rs <= 1.6 * pip.radius)
    for index in np.flatnonzero(near & alike).tolist():
        other_context = contexts[index]
        other = other_context.pip
        if other is pip or other.dark != pip.dark or other.contrast < 0.5 * pip.contrast:
            continue
        if (
            foreshortened_alike(pip, other)
            and float(colour_distance(other_context.body_colour, context.body_colour)) <= tolerance
            and face_between(colour, context, other_context, 1.6 * tolerance)
        ):
            return True
    return False


def _third_pip_in_line(pair: list[PipContext], contexts: list[PipContext]) -> bool:
    """Whether a pip like the pair's lies where a 3 would have its third pip: one pip
    distance beyond either of the two, along their line (:data:`_IN_LINE`), on a face
    of their colour. The classical reader then sees a 3 split in two, its third pip
    kept apart by what lies between (a lamp's sheen, lighter than the face)."""
    first, second = pair
    step = np.array([second.pip.x - first.pip.x, second.pip.y - first.pip.y])
    distance = float(np.hypot(*step))
    radius = (first.pip.radius + second.pip.radius) / 2
    contrast = min(first.pip.contrast, second.pip.contrast)
    face = median([c.body_colour for c in pair], axis=0)
    tolerance = face_tolerance(contrast)
    places = (
        np.array([second.pip.x, second.pip.y]) + step,
        np.array([first.pip.x, first.pip.y]) - step,
    )
    for other in contexts:
        pip = other.pip
        if other is first or other is second or pip.dark != first.pip.dark:
            continue
        if not _IN_LINE_RADIUS[0] * radius <= pip.radius <= _IN_LINE_RADIUS[1] * radius:
            continue
        if pip.contrast < 0.5 * contrast:
            continue
        if float(colour_distance(other.body_colour, face)) > tolerance:
            continue
        if any(np.hypot(pip.x - x, pip.y - y) <= _IN_LINE * distance for x, y in places):
            return True
    return False


def _unsure(candidate: _Candidate) -> _Candidate:
    """The same die with its value withheld."""
    reading = candidate.reading
    confidence = min(reading.confidence, 0.0)
    unsure = DieReading(reading.box, None, confidence, reading.color)
    return replace(candidate, reading=unsure)


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
    xs = centres[:, :1] + radius * _NEAR_PLACE[:, 0]
    ys = centres[:, 1:] + radius * _NEAR_PLACE[:, 1]
    # Each place's median over the five points, the strongest place.
    return float(median(sample(contrast, xs.ravel(), ys.ravel()).reshape(xs.shape), axis=1).max())


#: The middle of a pip place and four points half a pip radius around it.
_NEAR_PLACE = np.array([[0.0, 0.0], [0.5, 0.0], [-0.5, 0.0], [0.0, 0.5], [0.0, -0.5]])


def _row_beside(fit: LayoutFit, contrast: GreyImage) -> float:
    """For a 3: the pip-like contrast where the other column would be were it a 6.

    Three pips in a row are also one column of a 6 whose other column went unseen:
    that column would lie beside this row, twice the pip spacing away.
    """
    if fit.value != 3:
        return 0.0
    worst = 0.0
    for side in _BESIDE_THE_ROW:
        row = fit.to_image(side)
        worst = max(worst, float(sample(contrast, row[:, 0], row[:, 1]).min()))
    return worst


_BESIDE_THE_ROW = (
    np.array([[0.75, -0.25], [1.0, 0.0], [1.25, 0.25]]),
    np.array([[-0.25, 0.75], [0.0, 1.0], [0.25, 1.25]]),
)


def _lone_pip_surroundings(
    colour: ColourImage, contrast: GreyImage, x: float, y: float, radius: float, body: Colour
) -> tuple[float, float]:
    """Around a lone pip: the strongest pip-like contrast and how uneven the face is."""
    xs = x + radius * _RING_XS
    ys = y + radius * _RING_YS
    clutter = float(percentile(sample(contrast, xs, ys).reshape(_RING_XS.shape), 90, axis=1).max())
    unevenness = float(percentile(colour_distance(sample_colour(colour, xs, ys), body), 80))
    return clutter, unevenness


_RING_ANGLES = np.linspace(0, 2 * np.pi, 16, endpoint=False)
#: Four rings (1.8 to 3.6 pip radii) around a lone pip, one row each.
_RING_XS = np.outer([1.8, 2.4, 3.0, 3.6], np.cos(_RING_ANGLES))
_RING_YS = np.outer([1.8, 2.4, 3.0, 3.6], np.sin(_RING_ANGLES))


_RAY_ANGLES = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_RAY_STEPS = np.linspace(3.0, 11.0, 32)


def _fitted_box(fit: LayoutFit) -> Box:
    """The box around the fitted face."""
    corners = fit.corners()
    return (
        float(corners[:, 0].min()),
        float(corners[:, 1].min()),
        float(corners[:, 0].max()),
        float(corners[:, 1].max()),
    )


def _lone_pip_box(pip: Pip, exits: npt.NDArray[np.float64], size: float) -> Box:
    """The box of a 1's face: around its outline, which shows on most sides (a square
    of edge ``size``, turned any way, spans 1 to 1.41 edges on each axis)."""
    points = _exit_points(exits)
    reach = (points.max(axis=0) - points.min(axis=0)) / 2
    half = np.clip(reach, size / 2, 0.71 * size)
    return (
        float(pip.x - half[0]),
        float(pip.y - half[1]),
        float(pip.x + half[0]),
        float(pip.y + half[1]),
    )


def _face_exits(colour: ColourImage, context: PipContext, radius: float) -> npt.NDArray[np.float64]:
    """How far (pixels) each ray from a lone pip runs before it leaves the pip's face
    (its colour), within a die's reach; inf where it does not leave it."""
    pip = context.pip
    tolerance = face_tolerance(pip.contrast)
    steps = _RAY_STEPS * radius
    xs = pip.x + np.outer(np.cos(_RAY_ANGLES), steps)
    ys = pip.y + np.outer(np.sin(_RAY_ANGLES), steps)
    values = sample_colour(colour, xs.ravel(), ys.ravel())
    distances = colour_distance(values, context.body_colour).reshape(xs.shape)
    off_face = distances > _EDGE_SHARE * tolerance
    first = np.argmax(off_face, axis=1)
    exits: npt.NDArray[np.float64] = np.where(off_face.any(axis=1), steps[first], np.inf)
    return exits


#: A ray leaves a lone pip's face where the colour strays this share of the face
#: tolerance from the face (a white die on a pale table differs only a little).
_EDGE_SHARE = 0.6
#: A lone pip is a 1 only where its face's outline shows on at least this share of
#: the rays around it.
_OUTLINE_SHARE = 0.6


def _lone_face_size(exits: npt.NDArray[np.float64], radius: float) -> float:
    """The edge length of a lone pip's face, from where its face ends around it (no
    rays: a typical face for a pip of this size)."""
    if len(exits) == 0:
        return _TYPICAL_ONE * radius
    # Rays from the middle of a square leave it on average 0.56 of its edge away.
    size = float(median(exits[np.isfinite(exits)])) / 0.56
    return float(np.clip(size, _TYPICAL_ONE * radius, _LARGEST_ONE * radius))


#: The face of a 1 in pip radii: typical, and the largest (the smallest pip of a 1).
_TYPICAL_ONE = 6.5
_LARGEST_ONE = 11.0


def _exit_points(exits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Where the rays that leave the face do so, relative to the pip."""
    found = np.isfinite(exits)
    return np.column_stack(
        [exits[found] * np.cos(_RAY_ANGLES[found]), exits[found] * np.sin(_RAY_ANGLES[found])]
    )


def _off_centre(exits: npt.NDArray[np.float64]) -> float:
    """How far a lone pip lies from the middle of its face's outline, in face sizes
    (the one pip of a 1 sits in the middle)."""
    if np.isfinite(exits).sum() < 3:
        return 1.0
    points = _exit_points(exits)
    low, high = points.min(axis=0), points.max(axis=0)
    size = float(np.sqrt(max((high - low).prod(), 1e-9)))
    return float(np.hypot(*((low + high) / 2)) / size)


def _body_colour(group: list[PipContext]) -> tuple[int, int, int]:
    """The face colour around the pips, (r, g, b)."""
    b, g, r = median([c.body_colour for c in group], axis=0)
    return (int(r), int(g), int(b))


def _resolve_overlaps(candidates: list[_Candidate]) -> list[DieReading]:
    """Where candidates overlap, keep the one read best (then the one with most pips)."""
    ordered = sorted(
        candidates,
        key=lambda c: (c.reading.value is not None, c.reading.confidence, c.pips),
        reverse=True,
    )
    kept: list[_Candidate] = []
    for candidate in ordered:
        box = candidate.reading.box
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        clash = False
        for other in kept:
            ob = other.reading.box
            inside = ob[0] <= cx <= ob[2] and ob[1] <= cy <= ob[3]
            ocx, ocy = (ob[0] + ob[2]) / 2, (ob[1] + ob[3]) / 2
            contains = box[0] <= ocx <= box[2] and box[1] <= ocy <= box[3]
            if inside or contains:
                clash = True
                break
        if not clash:
            kept.append(candidate)
    readings = [_unless_beside_another_face(c, kept) for c in kept]
    read = [c for c in readings if c.reading.value is not None]
    # A lone pip that is not read as a 1 is far more often a speck on the table than
    # a die, and an unread face right beside a read one is a side face of that die:
    # both are left out, so that they do not spoil a readable roll.
    return [
        c.reading
        for c in readings
        if c.reading.value is not None
        or (c.pips > 1 and _convincing_pips(c) and not _beside(c, read) and _in_view(c))
    ]


def _convincing_pips(candidate: _Candidate) -> bool:
    """Whether an unread group's blobs look like real pips (clear, round, alike), so
    that it is an unreadable die rather than texture of the table."""
    checks = candidate.checks
    return min(checks["pip_contrast"], checks["roundness"], checks["size_spread"]) >= 0.5


def _beside(candidate: _Candidate, others: list[_Candidate]) -> bool:
    """Whether a face lies closer to one of ``others`` than one die's width."""
    x, y = candidate.centre
    return any(
        other is not candidate
        and np.hypot(other.centre[0] - x, other.centre[1] - y)
        < 0.9 * max(candidate.size, other.size)
        for other in others
    )


def _unless_beside_another_face(candidate: _Candidate, kept: list[_Candidate]) -> _Candidate:
    """A face read right beside another face, closer than one die, is one die seen on
    a slant (top and side): which face is on top is not sure, so neither is read."""
    if candidate.reading.value is None:
        return candidate
    others = [c for c in kept if c.reading.value is not None]
    if _beside(candidate, others):
        candidate.checks["one_face_per_die"] = 0.0
        return _unsure(candidate)
    return candidate


def _in_view(candidate: _Candidate) -> bool:
    """Whether all the pip places of the candidate's face lie in the frame."""
    return candidate.checks.get("in_view", 1.0) > 0.0
