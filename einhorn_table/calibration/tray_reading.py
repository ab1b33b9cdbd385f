"""Reading the dice in the calibrated tray, as ``einhorn-table play`` does.

The calibration found the tray floor's four corners. The reader reads the picture
cut to them, a little wider (a die against a wall shows its top face over the wall),
and keeps the dice whose middle lies on the floor or just past its edge
(:func:`read_in_tray`); a die found cocked against a wall there
(``einhorn_table.vision.leaning``, measured against the empty tray last seen, where
the tray has not moved since) is given no value, so that the table asks about it.
:class:`TrayReader` keeps that outline where the camera sees the tray now: moved
with the knocks the roll watcher saw and the pushes the tray saw its dice make,
moved as far as the tray finder finds an empty tray moved since calibration (where
it found the tray in the calibration's empty-tray picture: a tray set back a little
off its place on another evening, or a camera stand set up again), else since it
first found it, and scaled to the frames' size.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from einhorn_table.adapters.image_files import picture_or_none
from einhorn_table.calibration.geometry import Corners, bounding_box
from einhorn_table.calibration.profile import CalibrationProfile
from einhorn_table.calibration.seeing import Image
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.vision.knocks import after, no_move, seen_now, undone
from einhorn_table.vision.leaning import leans_on_wall
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.relight import Warp
from einhorn_table.vision.results import DieReading, FrameReading

#: How far past the tray floor's outline the reader looks, in dice: a die against a
#: wall shows its top face over the wall, away from the middle of the picture (the
#: camera sees it from above the middle: by about half a die at the mount guide's
#: height, and more with a wide lens or a low camera).
LOOK_PAST_FLOOR = 1.25
#: How far past the outline a die's middle may lie, in dice. A die lying outside
#: the tray has the wall between it and the floor, and its own half: farther.
MIDDLE_PAST_FLOOR = 0.6
#: A tray found again is the same tray turned and shifted where its size is the same
#: and each corner lies where the move takes it, both to within this share.
RIGID_TOLERANCE = 0.03
#: A tray found again farther than this share of the picture's shorter side from
#: where it was first found is something else the tray finder found.
MOST_MOVED_SHARE = 0.15
#: The tray lies where it lay when last seen empty where it has moved no more than
#: this many pixels in the picture since (knocks and pushes told).
STILL_PX = 1.0
#: The die's size as a share of the floor's shorter side, where no calibration
#: measured it (a 16 mm die in a tray 20 cm wide is 0.08 of it).
DIE_SHARE_OF_FLOOR = 0.1


def read_in_tray(image: Image, profile: ReaderProfile, corners: Corners | None,
                 die_px: float | None = None, empty: Image | None = None) -> FrameReading:
    """The dice in the tray whose floor has these ``corners``, boxes in frame pixels.

    The reader looks a little past the floor's outline, as far as the top face of a
    die lying against a wall shows (:data:`LOOK_PAST_FLOOR` dice of ``die_px``,
    the size the calibration measured, else of the profile's, else a share of the
    floor), and keeps the dice whose middle lies on the floor or just past its edge.
    What lies farther out (the table, a hand, things beside the tray) is never read
    as dice. Given ``empty``, the same tray lying empty as the camera sees it now, a
    die leaning on a wall (:func:`~einhorn_table.vision.leaning.leans_on_wall`) gets
    no value: no face of it is up.
    """
    if corners is None:
        return read_frame(image, profile)
    outline = np.asarray(corners, dtype=np.float32).reshape(-1, 1, 2)
    die = die_px or profile.max_die_px or profile.typical_die_px
    if not die:
        (_, _), (w, h), _ = cv2.minAreaRect(outline)
        die = DIE_SHARE_OF_FLOOR * min(w, h)
    x0, y0, x1, y1 = bounding_box(corners, LOOK_PAST_FLOOR * die, (image.shape[1], image.shape[0]))
    reading = read_frame(np.ascontiguousarray(image[y0:y1, x0:x1]), profile)
    dice = []
    for d in reading.dice:
        box = (d.box[0] + x0, d.box[1] + y0, d.box[2] + x0, d.box[3] + y0)
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if cv2.pointPolygonTest(outline, middle, True) >= -MIDDLE_PAST_FLOOR * die:
            dice.append(DieReading(box, d.value, d.confidence, d.color))
    if empty is not None:
        dice = [_unless_leaning(image, empty, d, corners, die, dice) for d in dice]
    return FrameReading(tuple(dice))


def _unless_leaning(image: Image, empty: Image, die: DieReading, corners: Corners,
                    die_px: float, dice: list[DieReading]) -> DieReading:
    """``die`` as read, or with no value where it leans on a wall of the tray."""
    if die.value is None:
        return die
    others = [d.box for d in dice if d is not die]
    if not leans_on_wall(image, empty, die.box, corners, die_px, others):
        return die
    return DieReading(die.box, None, 0.0, die.color)


class TrayReader:
    """Reads the dice in the calibrated tray (:func:`read_in_tray`) as the camera sees
    it now: after a knock on its mount the outline moves with the picture
    (:meth:`camera_moved`), and where the camera gives frames of another size than
    at calibration (``frame_size``: the same view at another resolution), the outline
    and the die's size are scaled to it."""

    def __init__(self, profile: ReaderProfile, corners: Corners | None,
                 die_px: float | None = None,
                 frame_size: tuple[int, int] | None = None,
                 anchor: Corners | None = None) -> None:
        self.profile = profile
        self.calibrated = corners
        self.die_px = die_px
        self.frame_size = frame_size
        #: Where the tray finder found the tray at calibration (in its empty-tray
        #: picture, of ``frame_size``): the place the tray's moves are measured from.
        self.anchor = anchor
        #: How far the tray moved in the picture since the table started, as told.
        self.warp = no_move()
        #: The tray as the tray finder found it empty at calibration, else first since
        #: the table started, and the move then.
        self._first_seen: tuple[Corners, Warp] | None = None
        #: The move the tray finder last measured, and the move told then.
        self._measured: tuple[Warp, Warp] | None = None
        #: The outline the last frame was read in (None: the whole frame is read).
        self.corners = corners
        #: The tray last seen lying empty, and how far it had moved then (as told):
        #: what a die leaning on a wall is told by, while the tray lies there still.
        self._empty: tuple[Image, Warp] | None = None

    def camera_moved(self, warp: Warp) -> None:
        """The tray moved by ``warp`` in the picture since the table started (a turn
        and shift mapping its pixels now onto those then, in the frames' pixels)."""
        self.warp = warp

    def _move(self) -> Warp:
        """How far the tray moved since calibration: as last measured on an empty tray,
        and as told since."""
        if self._measured is None:
            return self.warp
        measured, told_then = self._measured
        return after(measured, after(undone(told_then), self.warp))

    def tray_seen_empty(self, image: Image) -> None:
        """The tray lies empty and still in ``image``: where the tray finder finds it,
        against where it found it at calibration (else first), measures how far the
        tray moved, also where nobody could tell (a tray set back off its place since
        calibrating; an empty tray pushed along a patterned table, which the roll
        watcher cannot line up). A finding that is no rigid move of that one, or
        moves it far, is left out (something else was found)."""
        self._empty = (image, self.warp)
        if self.calibrated is None:
            return
        if self._first_seen is None and self.anchor is not None:
            self._first_seen = (self.in_frame(self.anchor, image), no_move())
        found = find_tray(image)
        if found is None:
            return
        if self._first_seen is None:
            self._first_seen = (found, self._move())
            return
        first, move_then = self._first_seen
        back = rigid_move(found, first, farthest_followed(image))
        if back is not None:
            self._measured = (after(move_then, back), self.warp)

    def scale(self, image: Image) -> tuple[float, float]:
        """How much larger this frame is than the calibration's, across and down."""
        if self.frame_size is None or min(self.frame_size) <= 0:
            return 1.0, 1.0
        return image.shape[1] / self.frame_size[0], image.shape[0] / self.frame_size[1]

    def in_frame(self, corners: Corners, image: Image) -> Corners:
        """``corners`` in the calibration's frame pixels, in those of ``image``."""
        sx, sy = self.scale(image)
        (a, b, c, d) = ((x * sx, y * sy) for x, y in corners)
        return a, b, c, d

    def __call__(self, image: Image) -> FrameReading:
        sx, sy = self.scale(image)
        die_px = None if self.die_px is None else self.die_px * min(sx, sy)
        corners = self.calibrated
        if corners is not None:
            points = seen_now(self.in_frame(corners, image), self._move())
            corners = (points[0], points[1], points[2], points[3])
        self.corners = corners
        return read_in_tray(image, self.profile, corners, die_px, self._empty_now(image))

    def _empty_now(self, image: Image) -> Image | None:
        """The tray last seen empty, where it lies as it lay then (not moved since, as
        told, and pictured at the same size as ``image``); else None."""
        if self._empty is None:
            return None
        empty, moved_then = self._empty
        if empty.shape != image.shape or not unmoved(moved_then, self.warp):
            return None
        return empty


def unmoved(then: Warp, now: Warp) -> bool:
    """Whether two moves of the tray in the picture are the same, to within
    :data:`STILL_PX` across a picture of 2000 pixels."""
    turn = float(np.max(np.abs(np.asarray(then)[:, :2] - np.asarray(now)[:, :2])))
    shift = float(np.max(np.abs(np.asarray(then)[:, 2] - np.asarray(now)[:, 2])))
    return turn * 2000.0 <= STILL_PX and shift <= STILL_PX


def farthest_followed(image: Image) -> float:
    """How far (pixels) a tray found again may have moved from where it was found
    before and still be followed (:data:`MOST_MOVED_SHARE` of the picture)."""
    return MOST_MOVED_SHARE * float(min(image.shape[:2]))


def rigid_move(now: Corners, then: Corners, farthest: float) -> Warp | None:
    """The turn and shift mapping the tray's corners ``now`` onto ``then``; None where
    the two outlines are not the same tray turned and shifted (to within
    :data:`RIGID_TOLERANCE` of its size), or where a corner moved more than
    ``farthest`` pixels."""
    src = np.asarray(now, dtype=np.float32).reshape(-1, 1, 2)
    dst = np.asarray(then, dtype=np.float32).reshape(-1, 1, 2)
    move, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
    if move is None:
        return None
    scale = float(np.hypot(move[0, 0], move[1, 0]))
    size = float(min(np.ptp(dst[:, 0, 0]), np.ptp(dst[:, 0, 1])))
    fitted = cv2.transform(src, move)
    if abs(scale - 1.0) > RIGID_TOLERANCE or float(
            np.max(np.hypot(*(fitted - dst)[:, 0].T))) > RIGID_TOLERANCE * size:
        return None
    if float(np.max(np.hypot(*(src - dst)[:, 0].T))) > farthest:
        return None
    return np.asarray(move, dtype=np.float32)


def tray_reader_for(calibration: CalibrationProfile | None,
                    profile_path: Path | None = None) -> TrayReader:
    """The tray reader for a table's calibration (None: not calibrated, the whole
    frame is read with the reader's defaults), loaded from ``profile_path``: the
    tray's moves are measured from where the tray finder finds the tray in the
    calibration's empty-tray picture beside it (missing: from where it first finds
    the tray empty)."""
    if calibration is None:
        return TrayReader(ReaderProfile(), None)
    tray, dice = calibration.tray, calibration.dice
    corners = tray.corners
    picture = None if profile_path is None else calibration.reference_path(profile_path)
    empty = None if picture is None or not picture.is_file() else picture_or_none(picture)
    return TrayReader(
        calibration.reader_profile(),
        (corners[0], corners[1], corners[2], corners[3]) if len(corners) == 4 else None,
        dice.die_px_max or dice.die_px,
        tray.frame_size,
        None if empty is None else find_tray(np.asarray(empty, dtype=np.uint8)),
    )
