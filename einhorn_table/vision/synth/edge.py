"""Things lying still at the picture's edge while the dice are thrown: a cup or a
phone on the table, a shadow (a forearm resting there is a
:class:`~einhorn_table.vision.synth.hand.HandPose`; see
:meth:`~einhorn_table.vision.synth.SynthTable.resting_arm`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.palette import RGB

ByteImage = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]

ThingKind = Literal["cup", "phone", "shadow"]


@dataclass(frozen=True)
class EdgeThing:
    """A ``kind`` of thing centred at ``centre`` (frame pixels, maybe outside the
    frame): a cup ``size`` across, a phone ``size`` long turned by ``angle`` degrees,
    or a soft shadow ``size`` across; ``colour`` is the cup's or phone's (RGB)."""

    kind: ThingKind
    centre: tuple[float, float]
    size: float
    angle: float = 0.0
    colour: RGB = (236, 234, 226)


def draw_thing(image: ByteImage, thing: EdgeThing, light_map: FloatImage) -> ByteImage:
    """``image`` with ``thing`` drawn over it, lit by ``light_map`` (a new array)."""
    height, width = image.shape[:2]
    out = image.astype(np.float32)
    cx, cy = thing.centre
    shape = np.zeros((height, width), np.uint8)
    if thing.kind == "shadow":
        cv2.ellipse(shape, (round(cx), round(cy)), (round(thing.size / 2), round(thing.size / 3)),
                    thing.angle, 0, 360, 255, -1, cv2.LINE_AA)
        soft = cv2.GaussianBlur(shape, (0, 0), max(1.0, thing.size / 10)).astype(np.float32)
        out *= (1.0 - 0.45 * soft / 255.0)[..., None]
        return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)
    if thing.kind == "cup":
        radius = round(thing.size / 2)
        cv2.circle(shape, (round(cx), round(cy)), radius, 255, -1, cv2.LINE_AA)
        inner = np.zeros_like(shape)
        cv2.circle(inner, (round(cx), round(cy)), round(0.8 * radius), 255, -1, cv2.LINE_AA)
        fill = np.full((height, width, 3), thing.colour[::-1], np.float32)
        fill[inner > 0] = (30, 48, 70)  # coffee
    else:
        box = ((cx, cy), (thing.size, 0.5 * thing.size), thing.angle)
        corners = np.round(cv2.boxPoints(box)).astype(np.int32)
        cv2.fillConvexPoly(shape, corners, 255, cv2.LINE_AA)
        fill = np.full((height, width, 3), thing.colour[::-1], np.float32)
    # A short soft shadow first (the lamp is high above), then the thing, lit.
    shadow = cv2.GaussianBlur(np.roll(shape, (3, 3), axis=(0, 1)), (0, 0), 2.0)
    out *= (1.0 - 0.4 * shadow.astype(np.float32) / 255.0)[..., None]
    cover = shape.astype(np.float32)[..., None] / 255.0
    out += (fill * light_map[..., None] - out) * cover
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)
