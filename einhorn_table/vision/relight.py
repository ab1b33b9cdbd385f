"""The same tray seen otherwise: a lamp switched on, or the camera knocked, is not
dice that moved.

The Pi camera locks its exposure and colour balance once they have settled, so
when a lamp is switched on, a curtain drawn or evening falls, every pixel of the
tray changes; a camera knocked on its mount shifts every edge. The roll watcher
compares small frames pixel by pixel and would take either for something in the
tray.

Light changes smoothly across the picture, and it changes all of it; dice that
came, went or moved change a few small places sharply, at their edges and pips.
So the ratio of the two pictures, taken as the median of each small cell and
spread smoothly between the cells, is the change of light (:func:`light_field`),
and what it does not explain changed in the scene; and when it does explain
everything, the light must have changed most of the picture, or the change was
only dice the light field took in (white dice on a pale tray). Light that changed
over only part of the picture (a person's shadow, a patch of sunlight from a window)
is soft and wide: taken over cells so large that no die sways their median, the
change of light still explains everything, and still changed a good part of the
picture (dice change little of it, and none of that field), or over less of it,
explains every changed pixel to within half the change it makes there (a die
changes pixels where the light did not). A knocked camera
turns and shifts the whole picture alike: lined up again (:func:`registration`),
the two pictures differ only by the light (:func:`same_scene`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

SmallImage = npt.NDArray[np.uint8]
LightField = npt.NDArray[np.float32]
Warp = npt.NDArray[np.float32]

#: Side of the cells (small-frame pixels) over which the change of light is taken as
#: even: a die (3 to 50 small-frame pixels across) fills less than half of one or is
#: seen at its edges and pips.
CELL = 8
#: A pixel brightened or darkened by more than this share has changed in the light.
LIGHT_STEP = 0.03
#: Share of the picture a change of light changes at least. (On synthetic trays lamps,
#: tints and dimming change 0.87 of it or more; three dice thrown, 0.06 or less.)
LIGHT_SHARE = 0.5
#: Moves of the picture smaller than this (pixels) are taken for no move at all.
MOVED_PX = 0.1
#: A knock moves the picture by at most this share of its shorter side; a larger
#: "move" is dice lined up with other dice, or a camera that needs setting back.
MOST_MOVED_SHARE = 0.08
#: Side of the cells (small-frame pixels) over which soft light over part of the
#: picture is taken: a die (at most 20 small-frame pixels across) covers less than
#: half of one.
SOFT_CELL = 40
#: Share of the picture such soft light changes at least. (Synthetic shadows and
#: patches of sunlight over part of the tray: 0.2 or more.)
SOFT_SHARE = 0.1
#: Soft light over less of the picture still explains what changed where each pixel
#: is as that light makes it to within this share of the change it makes there (the
#: soft cells measure it coarsely). Dice change pixels where the light did not: on
#: synthetic trays no die thrown (8 colours, 15 to 80 px, 3 lamps, 4 trays) is so
#: explained; the last of a patch of shade going at once from the picture's edge is.
SOFT_DOUBT = 0.5


def _ratio(now: SmallImage, before: SmallImage) -> npt.NDArray[np.float32]:
    return np.asarray((now.astype(np.float32) + 1.0) / (before.astype(np.float32) + 1.0),
                      dtype=np.float32)


def light_field(now: SmallImage, before: SmallImage, cell: int = CELL) -> LightField:
    """How much brighter each pixel of ``before`` became in ``now`` (per channel): the
    median of each ``cell`` x ``cell`` block, spread smoothly between the blocks."""
    ratio = _ratio(now, before)
    height, width = ratio.shape[:2]
    rows, cols = math.ceil(height / cell), math.ceil(width / cell)
    padded = cv2.copyMakeBorder(ratio, 0, rows * cell - height, 0, cols * cell - width,
                                cv2.BORDER_REPLICATE)
    channels = 1 if padded.ndim == 2 else padded.shape[2]
    blocks = padded.reshape(rows, cell, cols, cell, channels).transpose(0, 2, 1, 3, 4)
    grid = np.median(blocks.reshape(rows, cols, cell * cell, channels), axis=2)
    field = cv2.resize(grid.astype(np.float32), (cols * cell, rows * cell),
                       interpolation=cv2.INTER_LINEAR)
    return np.asarray(field, dtype=np.float32)[:height, :width].reshape(ratio.shape)


def off_mask(
    now: SmallImage, expected: npt.NDArray[np.float32] | SmallImage, threshold: int,
    tolerance: float,
) -> SmallImage:
    """255 where ``now`` is off ``expected`` by more than ``threshold`` plus
    ``tolerance`` of the expected level (the light is only ever estimated, and bright
    pixels clip), in any channel."""
    level = np.asarray(expected, dtype=np.float32)
    off = np.abs(now.astype(np.float32) - level) > threshold + tolerance * np.minimum(
        level, 255.0)
    if off.ndim == 3:
        off = off.any(axis=2)
    return np.asarray(off, dtype=np.uint8) * np.uint8(255)


def unexplained(
    now: SmallImage,
    before: SmallImage,
    field: LightField,
    threshold: int,
    tolerance: float,
    margin: int = 0,
) -> int:
    """How many pixels of ``now`` the light ``field`` on ``before`` does not explain
    (see :func:`off_mask`). ``margin`` pixels at each edge are not counted (what a
    moved camera newly sees there)."""
    off = off_mask(now, before.astype(np.float32) * field, threshold, tolerance)
    if margin > 0:
        off = off[margin:-margin, margin:-margin]
    return int(np.count_nonzero(off))


def _unexplained_by_soft(now: SmallImage, before: SmallImage, field: LightField,
                         threshold: int) -> int:
    """How many pixels of ``now`` the soft light ``field`` on ``before`` does not explain,
    taken as right to within :data:`SOFT_DOUBT` of the change it makes at each pixel
    (none where the light did not change: a faint die there stays as it changed)."""
    level = before.astype(np.float32) * field
    doubt = SOFT_DOUBT * np.abs(field - 1.0) * np.minimum(level, 255.0)
    off = np.abs(now.astype(np.float32) - level) > threshold + doubt
    if off.ndim == 3:
        off = off.any(axis=2)
    return int(np.count_nonzero(off))


def light_changed_share(now: SmallImage, before: SmallImage) -> float:
    """The share of the picture brightened or darkened by more than :data:`LIGHT_STEP`."""
    return _stepped_share(_ratio(now, before))


def _stepped_share(ratio: npt.NDArray[np.float32]) -> float:
    """The share of the picture whose change of light ``ratio`` (per pixel, maybe per
    channel) is more than :data:`LIGHT_STEP` either way."""
    step = np.abs(ratio - 1.0)
    if step.ndim == 3:
        step = step.max(axis=2)
    return float(np.mean(step > LIGHT_STEP))


def in_light(image: SmallImage, field: LightField) -> SmallImage:
    """``image`` as it looks under the change of light ``field``."""
    lit = np.clip(image.astype(np.float32) * field + 0.5, 0, 255)
    return np.asarray(lit, dtype=np.uint8)


def relearnt(reference: SmallImage, now: SmallImage, covered: SmallImage) -> SmallImage:
    """The empty tray's picture ``reference`` learnt again from ``now``, which shows the
    same tray in other light with things lying on it where ``covered`` is set (255): the
    tray as ``now`` shows it around them, and under them ``reference`` in the light seen
    around them (the change of light spread smoothly inwards). Learnt so at each rest,
    slow light (a shadow or the sun creeping over dice lying) leaves the picture as
    right as the frame, where relighting it step by step would gather each step's
    error."""
    seen = (covered == 0).astype(np.float32)
    if not seen.any():
        return reference.copy()
    ratio = _ratio(now, reference)
    weight = seen[..., None] if ratio.ndim == 3 else seen
    sigma = SOFT_CELL / 4.0
    spread = cv2.GaussianBlur(ratio * weight, (0, 0), sigma)
    reach = cv2.GaussianBlur(seen, (0, 0), sigma)
    if ratio.ndim == 3:
        reach = reach[..., None]
    field = np.asarray(spread / np.maximum(reach, 1e-6), dtype=np.float32)
    far = np.broadcast_to(reach <= 1e-3, field.shape)
    if far.any():  # (far from anything seen, the soft light of the whole picture)
        field = np.where(far, light_field(now, reference, SOFT_CELL), field)
    learnt = in_light(reference, np.asarray(field, dtype=np.float32))
    where = seen > 0
    learnt[where] = now[where]
    return learnt


def overall_gain(now: SmallImage, before: SmallImage) -> npt.NDArray[np.float32]:
    """The brightening of the whole picture, per channel: the median ratio, which dice,
    a hand or an arm (less than half of the picture) do not sway."""
    ratio = _ratio(now[::2, ::2], before[::2, ::2])  # every fourth pixel is plenty
    if ratio.ndim == 2:
        return np.asarray([np.median(ratio)], dtype=np.float32)
    return np.asarray(np.median(ratio.reshape(-1, ratio.shape[2]), axis=0), dtype=np.float32)


def _grey(image: SmallImage) -> npt.NDArray[np.float32]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return np.asarray(grey, dtype=np.float32)


def registration(now: SmallImage, before: SmallImage, *, shifted_only: bool = False
                 ) -> Warp | None:
    """The turn and shift (a 2x3 matrix) that line ``before`` up with ``now``, as a
    camera knocked on its mount turns and shifts the picture; None where the two
    pictures cannot be lined up (with ``shifted_only``, also where they are not
    shifted against each other at all: the quick answer for dice thrown into a still
    picture, which misses a camera only turned about its own axis)."""
    a, b = _grey(before), _grey(now)
    (dx, dy), _ = cv2.phaseCorrelate(a, b)
    if shifted_only and math.hypot(dx, dy) < MOVED_PX / 2:
        return None
    # ECC's matrix maps ``now``'s pixels onto ``before``'s: the shift taken back.
    warp = np.asarray([[1.0, 0.0, -dx], [0.0, 1.0, -dy]], dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
    try:
        _, found = cv2.findTransformECC(b, a, warp, cv2.MOTION_EUCLIDEAN, criteria)
    except cv2.error:
        return None  # the iteration did not converge: too much else changed
    return np.asarray(found, dtype=np.float32)


def lined_up(image: SmallImage, warp: Warp) -> SmallImage:
    """``image`` turned and shifted by ``warp`` (see :func:`registration`)."""
    height, width = image.shape[:2]
    moved = cv2.warpAffine(image, warp, (width, height),
                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(moved, dtype=np.uint8)


def unseen_edge(moved_px: float) -> int:
    """How many pixels along the edges a picture moved by ``moved_px`` shows anew (and
    the shrinking blur spreads into)."""
    return math.ceil(moved_px) + 2


def a_knock(moved_px: float, shape: tuple[int, ...]) -> bool:
    """Whether a move of the picture by ``moved_px`` is what a knocked camera does."""
    return MOVED_PX <= moved_px <= MOST_MOVED_SHARE * min(shape[:2])


def displacement(warp: Warp, shape: tuple[int, ...]) -> float:
    """How far ``warp`` moves the picture's farthest corner, in pixels."""
    height, width = shape[:2]
    corners = np.asarray([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]],
                         dtype=np.float32)
    moved = corners @ warp.T
    return float(np.max(np.hypot(*(moved - corners[:, :2]).T)))


@dataclass(frozen=True)
class SameScene:
    """How ``now`` is ``before`` seen otherwise (see :func:`same_scene`)."""

    #: The change of light, on ``before`` lined up.
    field: LightField
    #: The camera's turn and shift (None: it did not move).
    warp: Warp | None = None
    #: How far the camera's picture moved at its farthest corner, in pixels.
    moved_px: float = 0.0

    def apply(self, image: SmallImage, now: SmallImage) -> SmallImage:
        """``image`` (a picture taken with ``before``) as the camera sees it now. Where
        a moved camera newly sees along the picture's edges, ``now`` is taken (the
        empty tray's edges: dice never lie there)."""
        if self.warp is None:
            return in_light(image, self.field)
        seen = in_light(lined_up(image, self.warp), self.field)
        edge = unseen_edge(self.moved_px)
        inner = seen[edge:-edge, edge:-edge].copy()
        seen = now.copy()
        seen[edge:-edge, edge:-edge] = inner
        return seen


def same_scene(
    now: SmallImage,
    before: SmallImage,
    *,
    threshold: int,
    tolerance: float,
    most_pixels: int,
) -> SameScene | None:
    """How ``now`` shows just what ``before`` showed, under other light or with the
    camera knocked a little; None when something in the scene changed (at most
    ``most_pixels`` may be left unexplained)."""
    field = light_field(now, before)
    if unexplained(now, before, field, threshold, tolerance) <= most_pixels:
        if light_changed_share(now, before) >= LIGHT_SHARE:
            return SameScene(field)
        soft = light_field(now, before, SOFT_CELL)
        if (_stepped_share(soft) >= SOFT_SHARE
                and unexplained(now, before, soft, threshold, tolerance) <= most_pixels):
            return SameScene(soft)  # a shadow or sunlight over part of the picture
        if _unexplained_by_soft(now, before, soft, threshold) <= most_pixels:
            # Soft light over a little of the picture (a shadow's or the sun's edge
            # crept on, or went): it explains every pixel that changed.
            return SameScene(soft)
        return None  # a few places changed, too faintly to stand out: dice, not light
    warp = registration(now, before, shifted_only=True)
    if warp is None:
        return None
    moved_px = displacement(warp, now.shape)
    if not a_knock(moved_px, now.shape):
        return None  # the camera did not move (or not so): something in the tray did
    margin = unseen_edge(moved_px)
    before_lined_up = lined_up(before, warp)
    field = light_field(now, before_lined_up)
    if unexplained(now, before_lined_up, field, threshold, tolerance, margin) > most_pixels:
        return None
    return SameScene(field, warp, moved_px)
