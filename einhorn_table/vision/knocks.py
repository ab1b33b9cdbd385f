"""The camera's knocks put together: how far its picture has moved since the table started.

The roll watcher lines each knocked picture up with the one before
(:func:`einhorn_table.vision.relight.registration`): a turn and shift, as a 2x3
matrix that maps a pixel of the new picture onto the same spot of the old one, in
the watcher's small frames. Knocks one after another make one such move
(:func:`after`), and so does a tray pushed along the table (:func:`pushed_by`); made
for the camera's own pixels (:func:`in_frame_pixels`), it tells where points the
calibration marked on the old picture, such as the tray's corners, lie now
(:func:`seen_now`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.relight import Warp

Point = tuple[float, float]


def no_move() -> Warp:
    """The camera as it was: the identity."""
    return np.asarray([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)


def pushed_by(dx: float, dy: float) -> Warp:
    """The move of a picture whose content was pushed ``dx``, ``dy`` pixels along (a
    tray bumped along the table): mapping its pixels now onto those then."""
    return np.asarray([[1.0, 0.0, -dx], [0.0, 1.0, -dy]], dtype=np.float32)


def _square(warp: Warp) -> npt.NDArray[np.float64]:
    return np.vstack([np.asarray(warp, dtype=np.float64), [0.0, 0.0, 1.0]])


def after(first: Warp, then: Warp) -> Warp:
    """The camera moved by ``first`` and then by ``then`` (each mapping the newer
    picture onto the older), as one move from the newest picture onto the oldest."""
    return np.asarray((_square(first) @ _square(then))[:2], dtype=np.float32)


def in_frame_pixels(warp: Warp, small_size: tuple[int, int],
                    frame_size: tuple[int, int]) -> Warp:
    """``warp``, found on small frames of ``small_size`` (width, height), for the
    camera frames of ``frame_size`` they were shrunk from. (A small pixel's centre
    ``u`` is the frame's ``s * u + (s - 1) / 2``, ``s`` the shrinking factor.)"""
    sx, sy = frame_size[0] / small_size[0], frame_size[1] / small_size[1]
    to_frame = np.asarray([[sx, 0.0, (sx - 1) / 2], [0.0, sy, (sy - 1) / 2], [0.0, 0.0, 1.0]])
    return np.asarray((to_frame @ _square(warp) @ np.linalg.inv(to_frame))[:2],
                      dtype=np.float32)


def undone(warp: Warp) -> Warp:
    """The move back: mapping the old picture's pixels onto the new one's."""
    return np.asarray(np.linalg.inv(_square(warp))[:2], dtype=np.float32)


def seen_now(points: Sequence[Point], warp: Warp) -> tuple[Point, ...]:
    """Where ``points`` of the old picture lie in the new one, the camera moved by
    ``warp`` (which maps the new picture's pixels onto the old one's)."""
    back = np.linalg.inv(_square(warp))
    moved = np.asarray([[x, y, 1.0] for x, y in points]) @ back.T
    return tuple((float(x), float(y)) for x, y, _ in moved)
