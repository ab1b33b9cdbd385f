"""Grouping pips into faces: pips on one face are alike and only face lies between them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.pips import GreyImage, Pip

_RING_POINTS = 12


@dataclass(frozen=True)
class PipContext:
    """A pip with what surrounds it: the face grey level and how even it is."""

    pip: Pip
    body: float
    body_spread: float


def sample(
    grey: GreyImage, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Grey levels at the given points (nearest pixel, clamped to the frame)."""
    h, w = grey.shape[:2]
    xi = np.minimum(np.maximum((xs + 0.5).astype(np.int64), 0), w - 1)
    yi = np.minimum(np.maximum((ys + 0.5).astype(np.int64), 0), h - 1)
    result: npt.NDArray[np.float64] = grey[yi, xi].astype(np.float64)
    return result


def describe_surroundings(grey: GreyImage, pip: Pip) -> PipContext:
    angles = np.linspace(0, 2 * np.pi, _RING_POINTS, endpoint=False)
    radius = 1.5 * pip.radius + 1.5
    values = sample(grey, pip.x + radius * np.cos(angles), pip.y + radius * np.sin(angles))
    # Neighbouring pips may darken (or lighten) part of the ring: take the face side.
    ordered = np.sort(values) if pip.dark else np.sort(values)[::-1]
    face_side = ordered[len(ordered) // 3 :]
    body = float(np.median(face_side))
    spread = float(np.median(np.abs(face_side - body)))
    return PipContext(pip, body, spread)


def _same_face(grey: GreyImage, a: PipContext, b: PipContext, tolerance: float) -> bool:
    pa, pb = a.pip, b.pip
    if pa.dark != pb.dark:
        return False
    distance = float(np.hypot(pa.x - pb.x, pa.y - pb.y))
    big, small = max(pa.radius, pb.radius), min(pa.radius, pb.radius)
    mean_r = (pa.radius + pb.radius) / 2
    if big / small > 1.5 or distance < 2.0 * big or distance > 11.0 * mean_r:
        return False
    if abs(np.log(pa.elongation / pb.elongation)) > 0.5:
        return False
    if abs(a.body - b.body) > tolerance:
        return False
    start = 1.5 * pa.radius / distance
    stop = 1.0 - 1.5 * pb.radius / distance
    if stop <= start:
        return True
    steps = max(3, int((stop - start) * distance))
    t = np.linspace(start, stop, steps)
    values = sample(grey, pa.x + t * (pb.x - pa.x), pa.y + t * (pb.y - pa.y))
    body = (a.body + b.body) / 2
    return bool(np.abs(values - body).max() <= tolerance)


def group_pips(grey: GreyImage, pips: list[Pip]) -> list[list[PipContext]]:
    """Pips joined into groups that each lie on one face (by chains of alike neighbours)."""
    contexts = [describe_surroundings(grey, pip) for pip in pips]
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
            tolerance = max(18.0, 0.35 * contrast)
            if root(i) != root(j) and _same_face(grey, contexts[i], contexts[j], tolerance):
                parent[root(i)] = root(j)
    groups: dict[int, list[PipContext]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(contexts[i])
    return list(groups.values())
