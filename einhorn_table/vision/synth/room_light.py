"""A synthetic table's frames in a real room's light: a lamp that flickers, a camera's
exposure stepping, a person's shadow or a patch of sunlight lying over part of the tray.

Each function turns frames (BGR) of a :class:`~einhorn_table.vision.synth.SynthTable`
into the same scene so lit; the dice and everything else stay where they lie.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.truth import SynthError

Image = npt.NDArray[np.uint8]


def _scaled(image: Image, factor: npt.NDArray[np.float32] | float) -> Image:
    return np.asarray(np.clip(image.astype(np.float32) * factor + 0.5, 0, 255), dtype=np.uint8)


def flickering(images: Sequence[Image], depth: float, every: int = 1) -> list[Image]:
    """``images`` (frames in a row) under a lamp that flickers: the whole picture
    ``depth`` (a share, 0.05: 5 %) lighter and darker by turns, every ``every`` frames
    (a fluorescent or LED lamp beating with the camera's frame rate)."""
    if not 0.0 <= depth < 1.0 or every < 1:
        raise SynthError(f"a flicker needs a depth within 0..1 and every 1 or more frames, "
                         f"not {depth} and {every}")
    return [_scaled(image, 1.0 + depth * (1 if (i // every) % 2 else -1))
            for i, image in enumerate(images)]


def in_patch_of_light(image: Image, centre: tuple[float, float], size: float,
                      gain: float) -> Image:
    """``image`` with a soft patch of light (``gain`` above 1: sunlight from a window)
    or shadow (below 1: a person standing by the table) centred at ``centre`` (frame
    pixels, maybe outside the frame), about ``size`` pixels across."""
    if size <= 0 or gain <= 0:
        raise SynthError(f"a patch of light needs a size and a gain above 0, not {size} "
                         f"and {gain}")
    height, width = image.shape[:2]
    # (Drawn on a coarse grid and spread smoothly: soft light has no sharp edge.)
    step = 8
    ys = np.arange(0, height + step, step, dtype=np.float32)
    xs = np.arange(0, width + step, step, dtype=np.float32)
    radius = size / 2.0
    near = np.exp(-(((xs[None, :] - centre[0]) / radius) ** 2
                    + ((ys[:, None] - centre[1]) / radius) ** 2))
    coarse = (1.0 + (gain - 1.0) * near).astype(np.float32)
    fine = np.asarray(cv2.resize(coarse, (len(xs) * step, len(ys) * step),
                                 interpolation=cv2.INTER_LINEAR)[:height, :width],
                      dtype=np.float32)
    return _scaled(image, fine[..., None] if image.ndim == 3 else fine)
