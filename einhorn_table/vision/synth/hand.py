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
    finger_len = 0.9 * w * (0.4 if pose.fist else 1.0)
    palm_len = 1.0 * w
    tx, ty = pose.tip
    palm_cx = tx - dx * (finger_len + 0.5 * palm_len)
    palm_cy = ty - dy * (finger_len + 0.5 * palm_len)
    far = 2.0 * math.hypot(width, height)

    # Forearm: a long tapering quad from beyond the frame to the wrist.
    wrist_x, wrist_y = palm_cx - dx * 0.45 * palm_len, palm_cy - dy * 0.45 * palm_len
    back_x, back_y = wrist_x - dx * far, wrist_y - dy * far
    arm = np.array(
        [
            _pt(wrist_x + px * 0.38 * w, wrist_y + py * 0.38 * w),
            _pt(back_x + px * 0.6 * w, back_y + py * 0.6 * w),
            _pt(back_x - px * 0.6 * w, back_y - py * 0.6 * w),
            _pt(wrist_x - px * 0.38 * w, wrist_y - py * 0.38 * w),
        ],
        dtype=np.int32,
    )
    cv2.fillConvexPoly(mask, arm, 255, cv2.LINE_AA, shift=4)
    angle = math.degrees(math.atan2(dy, dx))
    cv2.ellipse(
        mask,
        _pt(palm_cx, palm_cy),
        _pt(0.55 * palm_len, 0.5 * w),
        angle,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        shift=4,
    )
    # Four fingers, slightly fanned, and a thumb off to one side.
    base = 0.4 * palm_len
    finger_w = max(2, round(0.2 * w))
    for offset, length, spread in (
        (-0.33, 0.82, -0.1),
        (-0.11, 1.0, -0.03),
        (0.11, 0.96, 0.03),
        (0.33, 0.75, 0.1),
    ):
        sx = palm_cx + dx * base + px * offset * w
        sy = palm_cy + dy * base + py * offset * w
        fdx, fdy = dx + px * spread, dy + py * spread
        ex = sx + fdx * length * finger_len
        ey = sy + fdy * length * finger_len
        cv2.line(mask, _pt(sx, sy), _pt(ex, ey), 255, finger_w, cv2.LINE_AA, shift=4)
    thumb_len = 0.75 * w * (0.6 if pose.fist else 1.0)
    sx, sy = palm_cx + px * 0.42 * w - dx * 0.1 * w, palm_cy + py * 0.42 * w - dy * 0.1 * w
    tdx, tdy = dx * 0.7 + px * 0.7, dy * 0.7 + py * 0.7
    cv2.line(
        mask,
        _pt(sx, sy),
        _pt(sx + tdx * thumb_len, sy + tdy * thumb_len),
        255,
        max(2, round(0.24 * w)),
        cv2.LINE_AA,
        shift=4,
    )
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
    small_size = (max(1, width // 4), max(1, height // 4))
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

    sx, sy, bw, bh = cv2.boundingRect(np.maximum(small, shadow_small))
    out = image.copy()
    if bw == 0 or bh == 0:
        return out
    scale_x, scale_y = width / small_size[0], height / small_size[1]
    x0, y0 = max(0, int(sx * scale_x) - 4), max(0, int(sy * scale_y) - 4)
    x1 = min(width, int((sx + bw) * scale_x) + 5)
    y1 = min(height, int((sy + bh) * scale_y) + 5)
    full = (width, height)
    shadow = cv2.resize(shadow_small, full, interpolation=cv2.INTER_LINEAR)
    body = cv2.resize(body_small, full, interpolation=cv2.INTER_LINEAR)
    gy = cv2.Sobel(body_small, cv2.CV_32F, 0, 1, ksize=3)
    gx = cv2.Sobel(body_small, cv2.CV_32F, 1, 0, ksize=3)
    toward_small = -(gx * light_dir[0] + gy * light_dir[1]) * sigma
    toward = cv2.resize(toward_small, full, interpolation=cv2.INTER_LINEAR)

    roi = out[y0:y1, x0:x1].astype(np.float32)
    cover = cv2.GaussianBlur(mask[y0:y1, x0:x1], (3, 3), 0.8).astype(np.float32) / 255.0
    dark = shadow[y0:y1, x0:x1].astype(np.float32) / 255.0
    roi *= (1.0 - 0.42 * dark)[..., None]
    # Rounded flesh: brighter along the middle of each limb and towards the lamp.
    shade = 0.62 + 0.42 * body[y0:y1, x0:x1] + 0.25 * np.clip(toward[y0:y1, x0:x1], -1.0, 1.0)
    lamp = light_map[y0:y1, x0:x1]
    skin = np.array(pose.skin[::-1], dtype=np.float32)
    flesh = skin[None, None, :] * (shade * lamp)[..., None]
    roi += (flesh - roi) * cover[..., None]
    out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out
