"""Drawing one die seen from above as a small sprite: colour, coverage and shadow.

A die is a rounded square with a bevelled edge, a soft highlight on the side
facing the light and pips at the standard layouts. A *cocked* die leans against
the tray wall: the camera sees its top face foreshortened and one side face,
so no face is cleanly up. Sprites are pure functions of a :class:`DieLook`
and the light direction, so callers may cache them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.synth.palette import RGB

FloatImage = npt.NDArray[np.float32]

MIN_DIE_SIZE = 15
MAX_DIE_SIZE = 200

#: Pip centres per face value, in units of the pip spacing (x right, y down).
#: 2 and 3 run along a diagonal and 6 stands in two columns, as on real dice.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((1, -1), (-1, 1)),
    3: ((1, -1), (0, 0), (-1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

_PIP_SPACING = 0.52  # pip offset from the centre, in half-sides
_PIP_RADIUS = 0.17  # in half-sides
_ONE_PIP_RADIUS = 0.24  # the single pip of a 1 is larger
_CORNER_RADIUS = 0.26  # rounding of the cube's edges, in half-sides
_BEVEL = 0.24  # width of the shaded edge band, in half-sides


class DieLookError(EinhornError, ValueError):
    """A synthetic die was asked for that cannot be drawn."""


@dataclass(frozen=True)
class DieLook:
    """Everything that decides how one die looks, independent of where it lies.

    ``angle`` is the rotation in degrees; ``cocked`` dice lean by ``tilt`` degrees
    and show ``side_value`` on the side face the camera sees. ``lean`` is how far
    (screen pixels) the top face lies from the die's base in the picture: a camera
    at a finite height sees the top displaced away from the image centre and the
    sides that face the centre (plain sides, their pips are not drawn).
    """

    value: int
    body: RGB
    pips: RGB
    size: int
    angle: float = 0.0
    cocked: bool = False
    tilt: float = 40.0
    side_value: int = 2
    lean: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.value not in PIP_LAYOUT or self.side_value not in PIP_LAYOUT:
            raise DieLookError(
                f"a die face shows 1 to 6 pips, not {self.value}/{self.side_value}; "
                "pass values between 1 and 6"
            )
        if not MIN_DIE_SIZE <= self.size <= MAX_DIE_SIZE:
            raise DieLookError(
                f"die size {self.size} px is outside {MIN_DIE_SIZE}..{MAX_DIE_SIZE} px; "
                "choose a size in that range"
            )


@dataclass(frozen=True)
class Sprite:
    """A drawn die: BGR colour (float 0..255), coverage and shadow strength (0..1).

    ``centre`` is the pixel of the patch where the die's centre lies; ``box`` is the
    tight box of the die in patch pixels, ``(x0, y0, x1, y1)`` with x1, y1 exclusive.
    """

    color: FloatImage
    alpha: FloatImage
    shadow: FloatImage
    centre: tuple[int, int]
    box: tuple[int, int, int, int]


def _rounded_square_sdf(
    u: FloatImage, v: FloatImage, half_u: float, half_v: float, radius: float
) -> FloatImage:
    """Signed distance (pixels) to a rounded rectangle centred at 0: negative inside."""
    qx = np.abs(u) - (half_u - radius)
    qy = np.abs(v) - (half_v - radius)
    outside = np.sqrt(np.maximum(qx, 0.0) ** 2 + np.maximum(qy, 0.0) ** 2)
    inside = np.minimum(np.maximum(qx, qy), 0.0)
    sdf: FloatImage = (outside + inside - radius).astype(np.float32)
    return sdf


def _face_shading(
    u: FloatImage,
    v: FloatImage,
    half: float,
    value: int,
    light: tuple[float, float],
    squash: float,
) -> tuple[FloatImage, FloatImage, FloatImage, FloatImage]:
    """Shade, specular, pip coverage and pip shade of one face in face coordinates.

    ``squash`` (0..1] is how much the face is foreshortened along v, so that edge
    widths and antialiasing stay about one screen pixel.
    """
    lx, ly = light
    sdf = _rounded_square_sdf(u, v, half, half, _CORNER_RADIUS * half)
    bevel = max(_BEVEL * half, 1.0)
    inner = np.clip(-sdf * squash / bevel, 0.0, 1.0)
    edge = (1.0 - inner) ** 1.5
    nx = np.sign(u) * np.maximum(np.abs(u) - (half - bevel), 0.0)
    ny = np.sign(v) * np.maximum(np.abs(v) - (half - bevel), 0.0)
    norm = np.sqrt(nx * nx + ny * ny) + 1e-6
    facing = (nx * lx + ny * ly) / norm
    shade = 1.0 + edge * (0.32 * facing - 0.2) + 0.07 * (u * lx + v * ly) / half
    hx, hy = 0.42 * half * lx, 0.42 * half * ly
    spec = 0.16 * np.exp(-((u - hx) ** 2 + (v - hy) ** 2) / (0.32 * half) ** 2)

    spacing = _PIP_SPACING * half
    radius = (_ONE_PIP_RADIUS if value == 1 else _PIP_RADIUS) * half
    best = np.full(u.shape, np.inf, dtype=np.float32)
    off_x = np.zeros(u.shape, dtype=np.float32)
    off_y = np.zeros(u.shape, dtype=np.float32)
    for px, py in PIP_LAYOUT[value]:
        dx = u - px * spacing
        dy = v - py * spacing
        d2 = dx * dx + dy * dy
        closer = d2 < best
        best = np.where(closer, d2, best)
        off_x = np.where(closer, dx, off_x)
        off_y = np.where(closer, dy, off_y)
    dist = np.sqrt(best)
    pip_alpha = np.clip((radius - dist) * squash + 0.5, 0.0, 1.0)
    # Pips are drilled: the wall nearest the light is in shadow.
    pip_shade = 0.86 - 0.2 * (off_x * lx + off_y * ly) / (dist + 1e-6) * np.clip(
        dist / radius, 0.0, 1.0
    )
    return (
        shade.astype(np.float32),
        spec.astype(np.float32),
        pip_alpha.astype(np.float32),
        pip_shade.astype(np.float32),
    )


def _rotate(x: FloatImage, y: FloatImage, degrees: float) -> tuple[FloatImage, FloatImage]:
    """Screen offsets to die coordinates (the die turned by ``degrees``)."""
    c = math.cos(math.radians(degrees))
    s = math.sin(math.radians(degrees))
    return (x * c + y * s).astype(np.float32), (-x * s + y * c).astype(np.float32)


def render_die(look: DieLook, light: tuple[float, float]) -> Sprite:
    """Draw one die; ``light`` is the unit direction (screen x, y) towards the lamp."""
    half = look.size / 2.0
    tilt = math.radians(look.tilt) if look.cocked else 0.0
    cos_t, sin_t = math.cos(tilt), math.sin(tilt)
    half_v = half * (cos_t + sin_t)  # the footprint's half-height along die v
    lean_x, lean_y = (0.0, 0.0) if look.cocked else look.lean
    lean_len = math.hypot(lean_x, lean_y)
    reach = math.hypot(half, half_v) + lean_len
    shadow_shift = 0.1 * look.size + 1.0
    sigma = 0.07 * look.size + 0.8
    pad = math.ceil(reach + shadow_shift + 3 * sigma + 2)
    side = 2 * pad + 1
    # The die itself only covers a window around the centre; shade just that.
    win = min(pad, math.ceil(reach) + 2)
    grid = np.arange(-win, win + 1, dtype=np.float32)
    n = grid.size
    x = np.broadcast_to(grid[None, :], (n, n))
    y = np.broadcast_to(grid[:, None], (n, n))
    u, v = _rotate(x, y, look.angle)
    ca, sa = math.cos(math.radians(look.angle)), math.sin(math.radians(look.angle))
    lu = light[0] * ca + light[1] * sa
    lv = -light[0] * sa + light[1] * ca
    light_die = (lu, lv)

    hull = _rounded_square_sdf(u, v, half, half_v, _CORNER_RADIUS * half)
    alpha_win = np.clip(0.5 - hull, 0.0, 1.0).astype(np.float32)
    body = np.array(look.body[::-1], dtype=np.float32)
    pips = np.array(look.pips[::-1], dtype=np.float32)

    if not look.cocked:
        shade, spec, pip_a, pip_s = _face_shading(u, v, half, look.value, light_die, 1.0)
    else:
        seam = -half_v + 2.0 * half * sin_t
        top_centre = seam + half * cos_t
        side_centre = -half_v + half * sin_t
        on_top = v >= seam
        top_v = (v - top_centre) / cos_t
        side_v = (v - side_centre) / max(sin_t, 1e-3)
        ts, tsp, tpa, tps = _face_shading(u, top_v, half, look.value, light_die, cos_t)
        ss, ssp, spa, sps = _face_shading(u, side_v, half, look.side_value, light_die, sin_t)
        # The top face tips towards +v; the side face looks along -v, away from overhead light.
        top_light = 1.0 + 0.18 * lv * sin_t
        side_light = 0.62 + 0.2 * (-lv)
        shade = np.where(on_top, ts * top_light, ss * side_light)
        spec = np.where(on_top, tsp, ssp * 0.3)
        pip_a = np.where(on_top, tpa, spa)
        pip_s = np.where(on_top, tps, sps)

    face = body[None, None, :] * shade[..., None] + 255.0 * spec[..., None]
    pip_col = pips[None, None, :] * pip_s[..., None]
    color_win = face + (pip_col - face) * pip_a[..., None]
    if lean_len > 0.5:
        alpha_win, color_win = _with_sides(
            u,
            v,
            half,
            (lean_x * ca + lean_y * sa, -lean_x * sa + lean_y * ca),
            hull,
            color_win,
            body,
            light_die,
        )
    np.clip(color_win, 0.0, 255.0, out=color_win)
    lo, hi = pad - win, pad + win + 1
    alpha = np.zeros((side, side), dtype=np.float32)
    alpha[lo:hi, lo:hi] = alpha_win
    color = np.zeros((side, side, 3), dtype=np.float32)
    color[lo:hi, lo:hi] = color_win

    shadow = _shadow_of(alpha, light, look.size)

    box = _tight_box(alpha)
    return Sprite(
        color=color.astype(np.float32),
        alpha=alpha,
        shadow=shadow.astype(np.float32),
        centre=(pad, pad),
        box=box,
    )


def _with_sides(
    u: FloatImage,
    v: FloatImage,
    half: float,
    lean: tuple[float, float],
    top_sdf: FloatImage,
    top_color: FloatImage,
    body: npt.NDArray[np.float32],
    light: tuple[float, float],
) -> tuple[FloatImage, FloatImage]:
    """Coverage and colour of a die whose top lies ``lean`` (die coordinates) from its
    base: the top face over the (up to two) side faces between base and top."""
    du, dv = lean
    radius = _CORNER_RADIUS * half
    steps = min(12, math.ceil(math.hypot(du, dv))) + 1
    swept = top_sdf
    for k in range(1, steps):
        s = k / (steps - 1)
        swept = np.minimum(swept, _rounded_square_sdf(u + s * du, v + s * dv, half, half, radius))
    alpha = np.clip(0.5 - swept, 0.0, 1.0).astype(np.float32)
    on_top = np.clip(0.5 - top_sdf, 0.0, 1.0)[..., None]
    # Which side a pixel shows: follow it towards the top until it meets a side's plane.
    plane_u = -math.copysign(half, du) if du else 0.0
    hit_u = (plane_u - u) / du if abs(du) > 1e-6 else np.full(u.shape, -1.0, np.float32)
    sees_u = (hit_u >= 0) & (hit_u <= 1) & (np.abs(v + hit_u * dv) <= half)
    plane_v = -math.copysign(half, dv) if dv else 0.0
    hit_v = (plane_v - v) / dv if abs(dv) > 1e-6 else np.full(v.shape, -1.0, np.float32)
    depth = np.clip(np.where(sees_u, hit_u, hit_v), 0.0, 1.0)  # 0 at the top edge, 1 at the base
    lit_u = 0.66 + 0.22 * (-math.copysign(1.0, du) * light[0] if du else 0.0)
    lit_v = 0.66 + 0.22 * (-math.copysign(1.0, dv) * light[1] if dv else 0.0)
    side_shade = np.where(sees_u, lit_u, lit_v) * (1.0 - 0.2 * depth)
    side = body[None, None, :] * side_shade[..., None]
    color = side + (top_color - side) * on_top
    return alpha, color.astype(np.float32)


def _shadow_of(alpha: FloatImage, light: tuple[float, float], size: int) -> FloatImage:
    """The die's soft shadow: its coverage pushed away from the lamp and blurred."""
    shift_by = 0.1 * size + 1.0
    shift = np.array([[1, 0, -light[0] * shift_by], [0, 1, -light[1] * shift_by]], dtype=np.float32)
    h, w = alpha.shape
    shadow = cv2.warpAffine(alpha, shift, (w, h), flags=cv2.INTER_LINEAR)
    return np.asarray(cv2.GaussianBlur(shadow, (0, 0), 0.07 * size + 0.8), dtype=np.float32)


def tumbling(
    upright: Sprite,
    degrees: float,
    smear: tuple[float, float],
    light: tuple[float, float],
    size: int,
) -> Sprite:
    """A quick stand-in for drawing a tumbling die: the upright die's picture turned by
    ``degrees`` and smeared along ``smear`` (its highlights turn with it), its shadow
    cast anew. Two warps and a box blur instead of shading every angle afresh."""
    dx, dy = smear
    length = math.hypot(dx, dy)
    k = max(1, math.ceil(length)) | 1
    pad = k // 2 + 1
    premult = np.dstack((upright.color * upright.alpha[..., None], upright.alpha))
    premult = cv2.copyMakeBorder(premult, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h, w = premult.shape[:2]
    centre = (float(upright.centre[0] + pad), float(upright.centre[1] + pad))
    along = math.degrees(math.atan2(dy, dx)) if length > 0 else 0.0
    # Turn the die and bring its motion onto the x axis in one warp; smear; turn back.
    there = cv2.getRotationMatrix2D(centre, along - degrees, 1.0)
    back = cv2.invertAffineTransform(cv2.getRotationMatrix2D(centre, along, 1.0))
    smeared = cv2.warpAffine(premult, there, (w, h), flags=cv2.INTER_LINEAR)
    if k > 1:
        smeared = cv2.blur(smeared, (k, 1))
    smeared = cv2.warpAffine(smeared, back, (w, h), flags=cv2.INTER_LINEAR)
    alpha = np.ascontiguousarray(smeared[..., 3], dtype=np.float32)
    color = smeared[..., :3] / np.maximum(alpha, 1e-4)[..., None]
    np.clip(color, 0.0, 255.0, out=color)
    return Sprite(
        color=color.astype(np.float32),
        alpha=alpha,
        shadow=_shadow_of(alpha, light, size),
        centre=(upright.centre[0] + pad, upright.centre[1] + pad),
        box=_tight_box(alpha),
    )


def motion_blurred(sprite: Sprite, dx: float, dy: float) -> Sprite:
    """The sprite smeared along the screen motion ``(dx, dy)`` pixels of one exposure."""
    length = math.hypot(dx, dy)
    if length < 1.5:
        return sprite
    k = math.ceil(length) | 1
    pad = k // 2 + 1
    # Turn the motion onto the x axis, smear with a box along x, turn back.
    premult = np.dstack((sprite.color * sprite.alpha[..., None], sprite.alpha))
    premult = cv2.copyMakeBorder(premult, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    shadow = cv2.copyMakeBorder(sprite.shadow, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    h, w = shadow.shape
    centre = ((w - 1) / 2.0, (h - 1) / 2.0)
    turn = cv2.getRotationMatrix2D(centre, math.degrees(math.atan2(dy, dx)), 1.0)
    back = cv2.invertAffineTransform(turn)
    smeared = []
    for layer in (premult, shadow):
        turned = cv2.warpAffine(layer, turn, (w, h), flags=cv2.INTER_LINEAR)
        turned = cv2.blur(turned, (k, 1))
        smeared.append(cv2.warpAffine(turned, back, (w, h), flags=cv2.INTER_LINEAR))
    alpha_b = np.ascontiguousarray(smeared[0][..., 3], dtype=np.float32)
    shadow_b = smeared[1]
    color = smeared[0][..., :3] / np.maximum(alpha_b, 1e-4)[..., None]
    np.clip(color, 0.0, 255.0, out=color)
    return Sprite(
        color=color.astype(np.float32),
        alpha=alpha_b.astype(np.float32),
        shadow=shadow_b.astype(np.float32),
        centre=(sprite.centre[0] + pad, sprite.centre[1] + pad),
        box=_tight_box(alpha_b),
    )


def _tight_box(alpha: FloatImage) -> tuple[int, int, int, int]:
    """Box ``(x0, y0, x1, y1)``, x1/y1 exclusive, around the pixels at least half covered."""
    covered = (alpha >= 0.5).astype(np.uint8)
    if not covered.any():
        covered = (alpha >= 0.5 * float(alpha.max())).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(covered)
    return (x, y, x + w, y + h)
