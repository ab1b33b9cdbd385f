"""A hand and forearm reaching into the tray, seen from above, with its soft shadow."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.palette import RGB

ByteImage = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]


@dataclass(frozen=True)
class HandPose:
    """Where the hand is: fingertips at ``tip``, arm coming along ``direction``.

    ``direction`` is the unit vector (screen x, y) from the arm towards the fingertips;
    ``width`` is the palm width in pixels; a ``fist`` holds dice (fingers curled).
    """

    tip: tuple[float, float]
    direction: tuple[float, float]
    width: float
    skin: RGB
    fist: bool = False


def _pt(x: float, y: float) -> tuple[int, int]:
    """A point with 4 bits of sub-pixel precision for cv2's shift argument."""
    return round(x * 16), round(y * 16)


def hand_mask(pose: HandPose, width: int, height: int) -> ByteImage:
    """Coverage 0..255 of the hand and forearm in a ``width`` x ``height`` frame."""
    mask = np.zeros((height, width), dtype=np.uint8)
    dx, dy = pose.direction
    px, py = -dy, dx  # across the hand
    w = pose.width
    finger_len = 0.3 * w if pose.fist else 0.9 * w
    palm_len = 1.0 * w
    tx, ty = pose.tip
    palm_cx = tx - dx * (finger_len + 0.5 * palm_len)
    palm_cy = ty - dy * (finger_len + 0.5 * palm_len)
    far = 2.0 * math.hypot(width, height)

    def at(along: float, across: float) -> tuple[int, int]:
        """A point ``along`` the hand and ``across`` it (in palm widths) from the palm's centre."""
        return _pt(
            palm_cx + dx * along * w + px * across * w, palm_cy + dy * along * w + py * across * w
        )

    # Forearm from beyond the frame to the wrist, then the back of the hand widening
    # to the knuckles.
    back = far / w
    arm = [at(-0.45, 0.36), at(-back, 0.6), at(-back, -0.6), at(-0.45, -0.36)]
    cv2.fillConvexPoly(mask, np.array(arm, dtype=np.int32), 255, cv2.LINE_AA, shift=4)
    palm = [at(-0.5, 0.37), at(0.3, 0.5), at(0.42, 0.4), at(0.42, -0.4), at(0.3, -0.5)]
    palm += [at(-0.5, -0.37)]
    cv2.fillConvexPoly(mask, np.array(palm, dtype=np.int32), 255, cv2.LINE_AA, shift=4)
    if pose.fist:
        # Curled fingers: a row of knuckles, the thumb folded along the side.
        fingers = ((-0.33, 1.0, 0.0), (-0.11, 1.0, 0.0), (0.11, 1.0, 0.0), (0.33, 0.9, 0.0))
        finger_w = max(2, round(0.24 * w))
        thumb_from, thumb_dir, thumb_len = (0.0, 0.46), (0.95, 0.3), 0.5 * w
    else:
        fingers = ((-0.33, 0.82, -0.1), (-0.11, 1.0, -0.03), (0.11, 0.96, 0.03), (0.33, 0.75, 0.1))
        finger_w = max(2, round(0.2 * w))
        thumb_from, thumb_dir, thumb_len = (-0.1, 0.42), (0.7, 0.7), 0.75 * w
    base = 0.35 * palm_len
    for offset, length, spread in fingers:
        sx = palm_cx + dx * base + px * offset * w
        sy = palm_cy + dy * base + py * offset * w
        fdx, fdy = dx + px * spread, dy + py * spread
        ex = sx + fdx * length * finger_len
        ey = sy + fdy * length * finger_len
        cv2.line(mask, _pt(sx, sy), _pt(ex, ey), 255, finger_w, cv2.LINE_AA, shift=4)
    sx = palm_cx + dx * thumb_from[0] * w + px * thumb_from[1] * w
    sy = palm_cy + dy * thumb_from[0] * w + py * thumb_from[1] * w
    tdx = dx * thumb_dir[0] + px * thumb_dir[1]
    tdy = dy * thumb_dir[0] + py * thumb_dir[1]
    cv2.line(
        mask,
        _pt(sx, sy),
        _pt(sx + tdx * thumb_len, sy + tdy * thumb_len),
        255,
        max(2, round(0.24 * w)),
        cv2.LINE_AA,
        shift=4,
    )
    # Round off the joints between the parts (a smooth union), keeping soft edges.
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw and bh:
        margin = max(2, round(0.1 * w))
        x0, y0 = max(x - margin, 0), max(y - margin, 0)
        x1, y1 = min(x + bw + margin, width), min(y + bh + margin, height)
        soft = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), max(1.0, 0.035 * w))
        mask[y0:y1, x0:x1] = cv2.addWeighted(soft, 3.0, soft, 0.0, -255.0)  # saturating
    return mask


def draw_hand(
    image: ByteImage,
    pose: HandPose,
    light_map: FloatImage,
    light_dir: tuple[float, float],
) -> ByteImage:
    """``image`` with the hand's shadow and then the hand drawn over it (a new array)."""
    height, width = image.shape[:2]
    mask = hand_mask(pose, width, height)
    # Shading and shadow are smooth: work them out at a quarter of the size.
    small_size = (max(1, -(-width // 4)), max(1, -(-height // 4)))
    small = cv2.resize(mask, small_size, interpolation=cv2.INTER_AREA)
    sigma = max(0.5, pose.width / 28)
    body_small = cv2.GaussianBlur(small, (0, 0), sigma).astype(np.float32) / 255.0
    # The hand is high above the floor: a broad, displaced, soft shadow.
    lift = 0.35 * pose.width / 4
    shift = np.array(
        [[1, 0, -light_dir[0] * lift], [0, 1, -light_dir[1] * lift + lift * 0.3]],
        dtype=np.float32,
    )
    shadow_small = cv2.warpAffine(small, shift, small_size)
    shadow_small = cv2.GaussianBlur(shadow_small, (0, 0), max(1.0, pose.width / 22))
    gy = cv2.Sobel(body_small, cv2.CV_32F, 0, 1, ksize=3)
    gx = cv2.Sobel(body_small, cv2.CV_32F, 1, 0, ksize=3)
    toward_small = -(gx * light_dir[0] + gy * light_dir[1]) * sigma

    out = image.copy()
    sx, sy, bw, bh = cv2.boundingRect(np.maximum(small, shadow_small))
    if bw == 0 or bh == 0:
        return out
    # Blow up only the part around the hand, four full pixels per small one.
    sx0, sy0 = max(sx - 1, 0), max(sy - 1, 0)
    sx1, sy1 = min(sx + bw + 1, small_size[0]), min(sy + bh + 1, small_size[1])
    fields = cv2.merge((shadow_small.astype(np.float32) / 255.0, body_small, toward_small))[
        sy0:sy1, sx0:sx1
    ]
    fields = cv2.resize(fields, (4 * (sx1 - sx0), 4 * (sy1 - sy0)), interpolation=cv2.INTER_LINEAR)
    x0, y0 = 4 * sx0, 4 * sy0
    x1, y1 = min(width, 4 * sx1), min(height, 4 * sy1)
    fields = fields[: y1 - y0, : x1 - x0]

    roi = out[y0:y1, x0:x1].astype(np.float32)
    cover = cv2.GaussianBlur(mask[y0:y1, x0:x1], (3, 3), 0.8).astype(np.float32) / 255.0
    dark = fields[..., 0]
    roi *= (1.0 - 0.42 * dark)[..., None]
    # Rounded flesh: brighter along the middle of each limb and towards the lamp.
    shade = 0.62 + 0.42 * fields[..., 1] + 0.25 * np.clip(fields[..., 2], -1.0, 1.0)
    lamp = light_map[y0:y1, x0:x1]
    skin = np.array(pose.skin[::-1], dtype=np.float32)
    flesh = skin[None, None, :] * (shade * lamp)[..., None]
    roi += (flesh - roi) * cover[..., None]
    out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out
