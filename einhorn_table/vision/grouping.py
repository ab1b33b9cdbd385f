"""Grouping pips into faces: pips on one face are alike and only face lies between them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.order_stats import median
from einhorn_table.vision.pips import GreyImage, Pip

ColourImage = npt.NDArray[np.uint8]
Colour = npt.NDArray[np.float64]

_RING_POINTS = 12


@dataclass(frozen=True)
class PipContext:
    """A pip with what surrounds it: the face grey level and how even it is."""

    pip: Pip
    body: float
    body_spread: float
    #: The face colour around the pip (b, g, r).
    body_colour: Colour


def sample(
    grey: GreyImage, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Grey levels at the given points (nearest pixel, clamped to the frame)."""
    h, w = grey.shape[:2]
    xi = np.minimum(np.maximum((xs + 0.5).astype(np.int64), 0), w - 1)
    yi = np.minimum(np.maximum((ys + 0.5).astype(np.int64), 0), h - 1)
    result: npt.NDArray[np.float64] = grey[yi, xi].astype(np.float64)
    return result


def sample_colour(
    colour: ColourImage, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Colours (n x 3, b g r) at the given points (nearest pixel, clamped to the frame)."""
    h, w = colour.shape[:2]
    xi = np.minimum(np.maximum((xs + 0.5).astype(np.int64), 0), w - 1)
    yi = np.minimum(np.maximum((ys + 0.5).astype(np.int64), 0), h - 1)
    result: npt.NDArray[np.float64] = colour[yi, xi].astype(np.float64)
    return result


def colour_distance(colours: npt.NDArray[np.float64], reference: Colour) -> npt.NDArray[np.float64]:
    # (The sum over three, as numpy's mean makes it, without the mean's overhead.)
    result: npt.NDArray[np.float64] = np.sqrt(((colours - reference) ** 2).sum(axis=-1) / 3)
    return result


_RING_ANGLES = np.linspace(0, 2 * np.pi, _RING_POINTS, endpoint=False)


def describe_surroundings(
    grey: GreyImage, colour: ColourImage, pips: list[Pip]
) -> list[PipContext]:
    """Each pip with the face around it, read on a ring just outside the pip."""
    if not pips:
        return []
    centres_x = np.array([pip.x for pip in pips])[:, None]
    centres_y = np.array([pip.y for pip in pips])[:, None]
    radii = 1.5 * np.array([pip.radius for pip in pips])[:, None] + 1.5
    xs = centres_x + radii * np.cos(_RING_ANGLES)[None, :]
    ys = centres_y + radii * np.sin(_RING_ANGLES)[None, :]
    values = sample(grey, xs.ravel(), ys.ravel()).reshape(xs.shape)
    colours = sample_colour(colour, xs.ravel(), ys.ravel()).reshape((*xs.shape, 3))
    # Neighbouring pips may darken (or lighten) part of the ring: take the face side.
    dark = np.array([pip.dark for pip in pips])[:, None]
    order = np.argsort(np.where(dark, values, -values), axis=1)
    face_side = order[:, _RING_POINTS // 3 :]
    side_values = np.take_along_axis(values, face_side, axis=1)
    bodies = median(side_values, axis=1)
    spreads = median(np.abs(side_values - bodies[:, None]), axis=1)
    side_colours = np.take_along_axis(colours, face_side[:, :, None], axis=1)
    body_colours = median(side_colours, axis=1)
    return [
        PipContext(pip, float(bodies[i]), float(spreads[i]), body_colours[i])
        for i, pip in enumerate(pips)
    ]


def foreshortened_alike(a: Pip, b: Pip, strictness: float = 1.0) -> bool:
    """Pips on one face are squashed alike; side-face pips are squashed differently."""
    if abs(np.log(a.elongation / b.elongation)) > 0.3 * strictness:
        return False
    if min(a.elongation, b.elongation) > 1.25:
        turn = abs(a.angle - b.angle) % np.pi
        if min(turn, np.pi - turn) > np.pi / 6:
            return False
    return True


def _same_face(
    colour: ColourImage, a: PipContext, b: PipContext, tolerance: float, strictness: float
) -> bool:
    pa, pb = a.pip, b.pip
    if pa.dark != pb.dark:
        return False
    distance = float(np.hypot(pa.x - pb.x, pa.y - pb.y))
    big, small = max(pa.radius, pb.radius), min(pa.radius, pb.radius)
    mean_r = (pa.radius + pb.radius) / 2
    if big / small > 1.4 or distance < 2.0 * big or distance > 11.0 * mean_r:
        return False
    if not foreshortened_alike(pa, pb, strictness):
        return False
    # (Close neighbours, as round the centre of a 5, cover much of each other's ring.)
    if distance > 3.5 * mean_r and float(colour_distance(a.body_colour, b.body_colour)) > tolerance:
        return False
    return face_between(colour, a, b, tolerance)


def face_between(colour: ColourImage, a: PipContext, b: PipContext, tolerance: float) -> bool:
    """Whether only face (the pips' own face colour) lies on the line between two pips."""
    pa, pb = a.pip, b.pip
    distance = float(np.hypot(pa.x - pb.x, pa.y - pb.y))
    start = 1.5 * pa.radius / distance
    stop = 1.0 - 1.5 * pb.radius / distance
    if stop <= start:
        return True
    body = (a.body_colour + b.body_colour) / 2
    steps = max(3, int((stop - start) * distance))
    t = np.linspace(start, stop, steps)
    values = sample_colour(colour, pa.x + t * (pb.x - pa.x), pa.y + t * (pb.y - pa.y))
    return bool(colour_distance(values, body).max() <= tolerance)


def face_tolerance(pip_contrast: float) -> float:
    """How far (colour distance) a face may stray from its own colour and still be face."""
    return 16.0 + 0.1 * pip_contrast


def group_pips(
    grey: GreyImage, colour: ColourImage, pips: list[Pip], strictness: float = 1.0
) -> list[list[PipContext]]:
    """Pips joined into groups that each lie on one face (by chains of alike neighbours).

    ``strictness`` below 1 asks pips to be more alike (to part a top face from a side
    face of the same colour).
    """
    contexts = describe_surroundings(grey, colour, pips)
    count = len(contexts)
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if count > 1:
        xs = np.array([c.pip.x for c in contexts])
        ys = np.array([c.pip.y for c in contexts])
        rs = np.array([c.pip.radius for c in contexts])
        distance = np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :])
        reach = 11.0 * (rs[:, None] + rs[None, :]) / 2
        near_i, near_j = np.nonzero(np.triu(distance <= reach, k=1))
        for i, j in zip(near_i.tolist(), near_j.tolist(), strict=True):
            contrast = min(contexts[i].pip.contrast, contexts[j].pip.contrast)
            tolerance = face_tolerance(contrast) * strictness
            if root(i) != root(j) and _same_face(
                colour, contexts[i], contexts[j], tolerance, strictness
            ):
                parent[root(i)] = root(j)
    groups: dict[int, list[PipContext]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(contexts[i])
    return list(groups.values())
