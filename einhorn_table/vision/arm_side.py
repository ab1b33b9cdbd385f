"""Which of two still pictures of the tray shows the arm that differs between them at
the frame's edge.

An arm reaches into the picture across the frame's edge. Where two pictures differ
there (one with an arm, one without), the one without shows along that stretch of the
frame's edge what lies on either side of it: the table or the tray going on. The one
with the arm shows something else there (a sleeve, a hand), unlike its neighbours
along the edge. The roll watcher takes its first picture for the empty tray; where a
hand was in it, the hand's going and a throw after it are waited for, as an arm in
view, until this tells which picture held the arm.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.watcher import SmallImage, changed_mask

#: Pixels of the frame's edge on either side of a stretch where the pictures differ
#: that show what lies beside it.
_BESIDE = 6
#: Stretches of the frame's edge shorter than this (pixels) are specks.
_SHORTEST = 3
#: How many times farther from its neighbours one picture's stretch must be than the
#: other's to tell which held the arm.
_CLEAR = 2.0
#: Colour distances below this (grey levels) are the table's own texture.
_FLOOR = 4.0


def _around(image: SmallImage) -> npt.NDArray[np.float32]:
    """The frame's outer two rows of pixels, averaged, clockwise from the top left
    (one colour per pixel of the edge)."""
    pixels = image.astype(np.float32)
    if pixels.ndim == 2:
        pixels = pixels[..., None]
    edge = (pixels[:2].mean(axis=0), pixels[:, -2:].mean(axis=1),
            pixels[-2:].mean(axis=0)[::-1], pixels[:, :2].mean(axis=1)[::-1])
    return np.asarray(np.concatenate(edge), dtype=np.float32)


def _stretches(differs: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The runs (start, length) of True around the circular ``differs``."""
    n = differs.size
    if differs.all() or not differs.any():
        return []
    start = int(np.argmin(differs))  # (a False: no run crosses it)
    rolled = np.roll(differs, -start)
    runs = []
    k = 0
    while k < n:
        if rolled[k]:
            j = k
            while j < n and rolled[j]:
                j += 1
            runs.append(((k + start) % n, j - k))
            k = j
        else:
            k += 1
    return runs


def arm_in_first(first: SmallImage, second: SmallImage, threshold: int) -> bool | None:
    """Whether the arm that differs between two still pictures of the same shape at the
    frame's edge is in ``first`` (True) or in ``second`` (False); None where nothing
    differs there, or no telling."""
    differs = _around(changed_mask(first, second, threshold))[:, 0] > 127
    n = differs.size
    ours, theirs = _around(first), _around(second)
    off = np.zeros(2, dtype=np.float64)
    for start, length in _stretches(differs):
        if length < _SHORTEST:
            continue
        inside = (start + np.arange(length)) % n
        beside = np.concatenate([(start - 1 - np.arange(_BESIDE)) % n,
                                 (start + length + np.arange(_BESIDE)) % n])
        beside = beside[~differs[beside]]
        if beside.size == 0:
            continue
        for k, image in enumerate((ours, theirs)):
            gap = image[inside].mean(axis=0) - image[beside].mean(axis=0)
            off[k] += length * max(float(np.linalg.norm(gap)), _FLOOR)
    if off[0] >= _CLEAR * off[1] and off[0] > 0:
        return True
    if off[1] >= _CLEAR * off[0] and off[1] > 0:
        return False
    return None
