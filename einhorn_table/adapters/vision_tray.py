"""The tray as the controller hears it: camera frames -> roll watcher -> dice reader.

:class:`VisionTray` reads one frame per :meth:`VisionTray.poll`, hands it to the
roll watcher (``einhorn_table.vision.watcher``) and, when the dice come to rest,
to the reader (``einhorn_table.vision.reader``; its tray outline told first, if it
follows the tray, how far knocks and pushes moved the tray in the picture, and told
each empty tray seen), keeps only the dice found where
the tray differs from the empty tray the watcher knows and from the dice left lying
since it last lay still (the last player's dice, when the next one throws beside
them), and returns the controller's :mod:`~einhorn_table.table.events`. The dice
that lay there, all pushed alike (the tray bumped along the table), are no roll;
after such a push the watcher's empty tray no longer fits, so dice lying still again
after a nudge are read too, and a tray found empty is the empty tray. The outline is
told of the first frame too (the watcher takes it for the empty tray), so that a
tray set back off its calibrated place is found there before the first roll. Where a
hand was in that first picture, the watcher would wait for it even after it has gone:
once a picture has lain still for :data:`STALE_START_SECONDS`, with the arm in the
first picture and not in this one (``einhorn_table.vision.arm_side``), it is the tray
as it lies (empty, the dice lying at start after a power cut, or a roll thrown since).
A camera that stops delivering frames is reported once (:class:`CameraLost`) and
reopened every few seconds until frames come again (:class:`CameraBack`); meanwhile
the players may go on entering their dice by hand.

Something that came to lie still at the picture's edge while the dice were thrown (a
hand held still by a die near the tray's rim, over it or touching it) may be taken by
the watcher for part of the scene, and a die lying under or against it with it: the
reader would see two dice, and the table would ask. A roll whose dice touch what was
taken in so, or of fewer dice thrown than a whole roll (three; in a starting roll or
an auction's tie-break, where several players may throw at once, three for each of
some of them: :attr:`VisionTray.rollers_at_once`), is held back until that has gone
(the dice are read then), for at most :data:`HOLD_SECONDS`, after which it is told as
read (the table asks about it). Should what lay by the dice go after all, and the dice
lie just as they lay, they are read again: more dice seen then are told
(:class:`~einhorn_table.table.events.SeenWhole`), and the table reads the roll it asked
about from them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from einhorn_table.adapters.source_base import REOPEN_SECONDS
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Clock, FrameSource
from einhorn_table.table import events as tray
from einhorn_table.table.events import TrayEvent
from einhorn_table.vision.arm_side import arm_in_first
from einhorn_table.vision.empty_tray import changed_share, drop_unchanged
from einhorn_table.vision.knocks import after, in_frame_pixels, pushed_by
from einhorn_table.vision.moved_together import moved_together
from einhorn_table.vision.relight import Warp, in_light, overall_gain
from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.watcher import WatcherConfig, changed_mask, shrink

if TYPE_CHECKING:
    from einhorn_table.ports import Image
    from einhorn_table.vision.profile import ReaderProfile

#: The most seconds a roll is held back while its dice lie against something the
#: watcher took for part of the scene at the picture's edge (a hand resting by them);
#: then it is told as read (the table asks, where a die is missing).
HOLD_SECONDS = 6.0
#: The dice of one player's roll (RULES.md section 1).
DICE_IN_A_ROLL = 3
#: Where the table starts again at a throw it asked about (``VisionTray.dice_at_start``),
#: the most seconds it waits for the picture to lie still before it looks at the tray
#: anyway (a hand that never keeps still).
START_STILL_LIMIT_SECONDS = 10.0
#: Frames after the first in which the first picture must be seen again unchanged, at
#: such a start, for it to be taken for the tray as it lies at start when something then
#: moves (dice thrown at once; a lamp's flicker is no change). A hand in the picture from
#: the start mostly trembles sooner; one held still that long and taken away is found
#: out once the picture has lain still for ``STALE_START_SECONDS`` (the picture then is
#: the tray as it lies at start).
START_STILL_FRAMES = 2
#: Seconds a picture must lie still, far longer than dice take to settle, for the tray to
#: be looked at where the watcher's empty tray is still its first picture and it waits
#: for what it sees there to go (a hand in that first picture, gone since: for good; and
#: maybe dice thrown since, which are read then).
STALE_START_SECONDS = 3.0
#: Seconds after the arm of such a first picture was first seen gone that something must
#: still move in the tray for the dice lying still then to be a throw (tumbling dice):
#: dice that lay under the hand are bared as it goes, and nothing moves after.
MOVED_AFTER_ARM_SECONDS = 0.15


class Watcher(Protocol):
    """The roll watcher's interface as the tray uses it."""

    def feed(self, frame: Image, t: float) -> Sequence[Any]: ...

    @property
    def reference(self) -> Image | None:
        """The watcher's small picture of the empty tray, once it has one."""
        ...

    @property
    def camera_warp(self) -> Warp:
        """How knocks moved the camera's picture since the first frame (small frames)."""
        ...

    def mark_empty(self, frame: Image) -> None:
        """The still tray in ``frame`` is empty: it is the empty tray from now on."""
        ...


Reader = Callable[["Image"], FrameReading]


@dataclass(frozen=True)
class _Held:
    """A roll held back (see the module's description): since when, the frame and all
    the dice the reader found in it, and whether something moves in the tray now (what
    lay against the dice going: the limit waits for the tray to lie still again, and
    the dice are read then)."""

    since: float
    image: Image
    found: FrameReading
    moving: bool = False


@dataclass(frozen=True)
class _StartLook:
    """The pictures before the first look at the tray, where it looks at the dice lying
    there at start: the last picture that differed from the one before (small), since
    when it has lain so, and when the first came (camera seconds); the first picture
    itself while nothing has changed since (None after), and in how many frames after it
    it was seen again unchanged."""

    anchor: Image
    since: float
    first: float
    first_image: Image | None
    still_frames: int = 0


@dataclass(frozen=True)
class _ToldAtLimit:
    """A roll told at the limit with something still lying against its dice: how many
    dice were told, and the tray's last still frame with dice before that roll (the
    dice left lying then are not the roll's). Once what lay against them has gone and
    they lie as they lay, they are read again (``events.SeenWhole``)."""

    count: int
    lying: Image | None


class TrayFollower(Protocol):
    """What keeps the reader's tray outline where the camera sees the tray now."""

    def camera_moved(self, warp: Warp) -> None:
        """How far the tray has moved in the picture since the table started (knocks
        on the camera's mount, the tray pushed along the table with its dice), in
        camera pixels: a turn and shift mapping its pixels now onto those then."""
        ...

    def tray_seen_empty(self, image: Image) -> None:
        """The tray lies empty and still in ``image``."""
        ...


def make_watcher(still_seconds: float | None = None) -> Watcher:
    """The vision package's roll watcher (``still_seconds``: how long dice lie still)."""
    try:
        from einhorn_table.vision.watcher import RollWatcher, WatcherConfig
    except ImportError as error:
        raise EinhornError(
            "The roll watcher (einhorn_table/vision/watcher.py) is missing from this "
            f"installation; install the full package again ({error})"
        ) from None
    config = WatcherConfig() if still_seconds is None else WatcherConfig(
        still_seconds=still_seconds)
    watcher: Watcher = RollWatcher(config)
    return watcher


def make_reader(profile: ReaderProfile | None = None) -> Reader:
    """The dice reader, with a table's calibrated settings if given."""
    from einhorn_table.vision.reader import read_frame

    return lambda image: read_frame(image, profile)


class VisionTray:
    """See the module's description."""

    def __init__(self, source: FrameSource, watcher: Watcher, reader: Reader,
                 clock: Clock, follower: TrayFollower | None = None, *,
                 hold_seconds: float = HOLD_SECONDS) -> None:
        self.source = source
        self.watcher = watcher
        self.reader = reader
        self.clock = clock
        self.follower = follower
        self.lost: str | None = None
        self._retry_at = 0.0
        self._opened = False
        #: The tray's last still frame with dice in it (None: empty since, or not known),
        #: and all the dice the reader found in the tray then.
        self._lying: Image | None = None
        self._rest: FrameReading | None = None
        #: How far the tray was pushed along the table, in the picture (pixels).
        self._tray_shift = (0.0, 0.0)
        self.hold_seconds = hold_seconds
        self._held: _Held | None = None
        self._told_at_limit: _ToldAtLimit | None = None
        #: How many players may throw their dice at once now (a starting roll or an
        #: auction's tie-break with several still to roll; 1 otherwise), asked at each
        #: roll; None: not known (then what is not three for each of some players
        #: is short). Whoever runs the table sets it from the table's controller.
        self.rollers_at_once: Callable[[], int | None] = lambda: None
        #: Whether dice lying in the first picture (the watcher's empty tray, so never
        #: told otherwise) are read and told (``events.LyingAtStart``): a match going on
        #: after a power cut, at a throw the table was asking about. Whoever runs the
        #: table sets it from the table's controller (``looks_at_start``).
        self.dice_at_start: Callable[[], bool] = lambda: False
        self._start: _StartLook | None = None
        #: Whether the watcher's empty tray is still its first picture, no rest told since.
        self._first_unsure = False
        #: Since when the picture lay still when it was last looked at for that (above).
        self._stale_looked: float | None = None
        #: When the arm of the first picture was first seen gone (None: not yet): what
        #: moves after that is a throw, whereas dice seen once it went, nothing moving
        #: since, lay under it.
        self._gone_at: float | None = None
        #: Whether the watcher has its empty tray (it never loses it once it has it).
        self._has_reference = False

    def poll(self) -> list[TrayEvent]:
        now = self.clock.monotonic()
        if self.lost is not None and now < self._retry_at:
            return []
        try:
            if not self._opened:
                self.source.open()
                self._opened = True
            frame = self.source.read()
            if frame is None:
                raise EinhornError("the camera sent no picture")
        except (EinhornError, OSError, RuntimeError) as error:
            return self._lose(str(error), now)
        events: list[TrayEvent] = []
        if self.lost is not None:
            self.lost = None
            self._forget_rest()  # the camera may have been moved meanwhile
            events.append(tray.CameraBack(now))
        # The watcher works on the frames' own timeline; the controller on the clock's.
        first = not self._watcher_has_reference()
        if first and self.dice_at_start():
            # (A hand in the first picture would be taken for the empty tray, hiding a
            # die of the last roll or read as one: the dice are looked at once it is still.)
            start = self._still_at_start(frame.image, frame.timestamp)
            if start is None:
                return events
            if start[0] is not frame.image:
                # The first picture lay still until dice were thrown at once: it is the
                # tray at start, and the throw, fed after it, is a roll.
                events += self._first_seen(*start, now)
                first = False
        for event in self.watcher.feed(frame.image, frame.timestamp):
            events += self._told(event, frame.image, now)
        if first and self._watcher_has_reference():
            events += self._first_taken(frame.image, now)
        if self._first_unsure:
            events += self._still_long_at_start(frame.image, frame.timestamp, now)
        if self._held is not None and not self._held.moving \
                and now - self._held.since >= self.hold_seconds - 1e-9:
            held, self._held = self._held, None
            lying = self._lying
            thrown = self._thrown(held.image, held.found)
            self._told_at_limit = _ToldAtLimit(len(thrown.dice), lying)
            events.append(tray.Settled(now, thrown, held.image, held_too_long=True))
        return events

    def _watcher_has_reference(self) -> bool:
        """Whether the watcher has its empty tray yet. (Asked at every frame: the
        watcher's ``reference`` is its picture redrawn in the last frame's light, so it
        is asked only until there is one.)"""
        if not self._has_reference:
            self._has_reference = self.watcher.reference is not None
        return self._has_reference

    def _told(self, event: Any, shown: Image, t: float) -> list[TrayEvent]:
        """What one watcher event tells the controller (``shown``: the frame fed)."""
        kind = str(getattr(event, "kind", ""))
        if kind != "motion_started":
            self._first_unsure = False  # (a rest told: the watcher's empty tray was fine)
        image = getattr(event, "frame", None)
        image = shown if image is None else image
        if self._held is not None:
            if kind in ("settled", "nudged"):
                # The dice lie still again (what lay against them gone, or still there).
                return self._rolled(event, image, t, self._held.since)
            if kind != "emptied":
                # The same roll, still held back (moving until the tray is still again).
                self._held = replace(self._held, moving=kind == "motion_started")
                return []
            self._held = None  # the dice taken out before they were read: no roll
        told, self._told_at_limit = self._told_at_limit, None
        if told is not None:
            if kind == "motion_started":
                self._told_at_limit = told  # (what lay against the dice going, maybe)
            elif kind == "settled" and getattr(event, "same_as_last", False):
                # (Not a nudge: a die pushed, a cocked one laid flat, is no roll.)
                whole = self._seen_whole(told, event, image, t)
                if whole:
                    return whole
        if kind == "motion_started":
            return [tray.MotionStarted(t)]
        if kind == "emptied":
            self._forget_rest()
            self._seen_empty(image)
            return [tray.Settled(t, FrameReading(()))]
        if kind == "settled" and not getattr(event, "same_as_last", False):
            return self._rolled(event, image, t, t)
        if kind == "nudged":
            # A die pushed; or, where the tray was bumped along the table meanwhile (the
            # watcher's empty tray no longer fits it), the dice taken out.
            found = self._look(image)
            if not found.dice:
                self._found_empty(image)
                self._forget_rest()
                return [tray.Settled(t, found)]
            self._lying, self._rest = image, found
        elif kind in ("settled", "unchanged") and self._lying is not None:
            # The same dice (a hand passed over them), under other light or seen by a
            # knocked camera.
            self._lying = image
        if kind in ("settled", "nudged", "unchanged"):
            return [tray.NotRolled(t, self._camera_moved_px(event, shown),
                                   hand_seen=_hand_seen(event), dice_still=kind != "nudged")]
        return []

    def _first_seen(self, image: Image, t: float, now: float) -> list[TrayEvent]:
        """The watcher fed ``image`` (shot at ``t``) as its first frame, and what that
        tells."""
        events: list[TrayEvent] = []
        for event in self.watcher.feed(image, t):
            events += self._told(event, image, now)
        if self._watcher_has_reference():
            # (Not told: the throw fed next clears it at the table, and where the first
            # picture held a hand, still a moment, it was read wrong.)
            self._first_taken(image, now)
        return events

    def _first_taken(self, image: Image, now: float) -> list[TrayEvent]:
        """The watcher took the first frame, ``image``, for the empty tray: the outline
        finds out whether the tray lies where it lay at calibration, and dice lying there
        (a roll asked about when the power went) are told, where asked for."""
        self._seen_empty(image)
        self._first_unsure = True
        return self._lying_at_start(image, now) if self.dice_at_start() else []

    def _still_long_at_start(self, image: Image, t: float, now: float) -> list[TrayEvent]:
        """Where the watcher took a first picture with something in it (a hand) for the
        empty tray, it waits for that to go, for good: a picture that has lain still far
        longer than dice take to settle (``image``, shot at ``t``), with the arm the
        watcher waits for in its first picture and not in this one (a hand held still
        over the tray since is waited for, as ever), is the tray as it lies now, the
        watcher's empty tray from now on. With no die read in it, it is the empty tray
        (told as emptied). Dice in it, where the table looks at the dice lying at start
        (after a power cut), are those lying at start (a throw since counts as unread);
        else those not where they lay in the first picture were thrown since (told as a
        roll), where something still moved once the arm had gone (the dice tumbling);
        none, or nothing moving since the arm went (dice it lay over, bared as it went):
        nobody rolled."""
        since = getattr(self.watcher, "still_since", None)
        if not isinstance(since, int | float):
            return []
        if self._gone_at is None and self._first_arm_gone(image):
            self._gone_at = t
        if t - since < STALE_START_SECONDS - 1e-9 or since == self._stale_looked:
            return []
        self._stale_looked = since  # (looked at once while it lies so)
        arm = self._first_arm_gone(image)
        if arm is False:
            return []  # (a hand held still over the tray now: it is waited for)
        found = self._look(image)
        if not found.dice:
            self._first_unsure = False
            self._found_empty(image)
            self._forget_rest()
            return [tray.Settled(now, found)]
        if not arm:
            return []
        self._first_unsure = False
        if self.dice_at_start():
            self.watcher.mark_empty(image)
            self._lying, self._rest = image, found
            return [tray.NotRolled(now, hand_seen=True, dice_still=True),
                    tray.LyingAtStart(now, found, image)]
        thrown = self._thrown(image, found)
        self.watcher.mark_empty(image)  # (the dice in it, as in a first picture)
        if not thrown.dice or self._gone_at is None \
                or since - self._gone_at < MOVED_AFTER_ARM_SECONDS - 1e-9:
            # (None thrown; or the dice lay under the hand in the first picture, bared
            # as it went, nothing moving since: they lie there, as dice seen at start.)
            return [tray.NotRolled(now, hand_seen=True, dice_still=True)]
        return [tray.Settled(now, thrown, image)]

    def _first_arm_gone(self, image: Image) -> bool | None:
        """Whether the arm that differs between the watcher's first picture (its empty
        tray) and ``image`` is in that first picture (True: gone since) or in ``image``
        (False: a hand held over the tray now); None: no telling."""
        reference = self.watcher.reference
        if reference is None:
            return None
        small = shrink(image, (reference.shape[1], reference.shape[0]))
        return arm_in_first(reference, small, self._watcher_config().pixel_threshold)

    def _watcher_config(self) -> WatcherConfig:
        """The watcher's settings (the roll watcher's defaults for another watcher)."""
        config = getattr(self.watcher, "config", None)
        return config if isinstance(config, WatcherConfig) else WatcherConfig()

    def _still_at_start(self, image: Image, t: float) -> tuple[Image, float] | None:
        """The picture taken for the tray as it lies at start, the dice in it read, and
        when it was shot, once ``image`` (shot at ``t``) has lain still for as long as
        the watcher waits for dice to lie still (or the start has waited its limit): that
        picture. Where the first picture lay still a moment before ``image`` changed it
        (dice thrown at once), the first; None: not yet (a hand in the picture)."""
        config = self._watcher_config()
        small = shrink(image)
        start = self._start
        if start is None or start.anchor.shape != small.shape:
            self._start = start = _StartLook(small, t, t, image.copy())  # (kept a while)
        else:
            changed = int((changed_mask(_steadied(small, start.anchor, config.flicker),
                                        start.anchor, config.pixel_threshold) > 0).sum())
            if changed <= config.motion_fraction * small.shape[0] * small.shape[1]:
                self._start = start = replace(start, still_frames=start.still_frames + 1)
            elif start.first_image is not None and start.still_frames >= START_STILL_FRAMES:
                self._start = None
                return start.first_image, start.first
            else:
                self._start = start = replace(start, anchor=small, since=t, first_image=None)
        if t - start.since >= config.still_seconds - 1e-9 \
                or t - start.first >= START_STILL_LIMIT_SECONDS:
            self._start = None
            return image, t
        return None

    def _lying_at_start(self, image: Image, t: float) -> list[TrayEvent]:
        """The dice the reader finds in the first frame, told (none: nothing)."""
        found = self._look(image)
        if not found.dice:
            return []
        self._lying, self._rest = image, found  # (the next throw is the dice beside them)
        return [tray.LyingAtStart(t, found, image)]

    def _rolled(self, event: Any, image: Image, t: float, since: float) -> list[TrayEvent]:
        """What dice lying still in ``image`` after a motion tell (a roll held back
        ``since`` then, or a new one)."""
        self._held = None
        found = self._look(image)
        shift = None if self._rest is None else moved_together(self._rest, found)
        if shift is not None:
            # The dice lying there, all pushed alike: the tray was bumped along the
            # table with them, nobody rolled. The tray's outline moved as far.
            self._lying, self._rest = image, found
            self._tray_shift = (self._tray_shift[0] + shift[0],
                                self._tray_shift[1] + shift[1])
            return [tray.NotRolled(t, hand_seen=_hand_seen(event))]
        if self._against_taken_in(event, image, found):
            self._held = _Held(since, image, found)
            return []
        return [tray.Settled(t, self._thrown(image, found), image)]

    def _seen_whole(self, told: _ToldAtLimit, event: Any, image: Image, t: float
                    ) -> list[TrayEvent]:
        """The dice of a roll told at the limit lying just as they lay in ``image``:
        read again, where what lay against them has gone and more of them are seen now
        (the table asked about too few); else nothing (the event is told as ever)."""
        if getattr(event, "taken_in", None) is not None:
            self._told_at_limit = told  # (something lies against them still)
            return []
        found = self._look(image)
        thrown = self._new_dice(image, found, told.lying)
        if len(thrown.dice) <= told.count:
            return []
        self._lying, self._rest = image, found
        return [tray.SeenWhole(t, thrown, image)]

    def _against_taken_in(self, event: Any, image: Image, found: FrameReading) -> bool:
        """Whether the dice ``found`` in ``image`` may lie against, or under, what the
        watcher took for part of the scene at the picture's edge during this motion: a
        die found touching it, or, where it does not see one, fewer dice thrown than a
        roll's (the dice left lying since the last rest not counted: the last player's,
        in a starting roll; see :func:`short_of_a_roll`)."""
        taken = getattr(event, "taken_in", None)
        reference = self.watcher.reference
        if taken is None or reference is None:
            return False
        scale = (taken.shape[1] / image.shape[1], taken.shape[0] / image.shape[0])
        if any(changed_share(taken, die.box, scale) > 0 for die in found.dice):
            return True
        return short_of_a_roll(len(self._new_dice(image, found, self._lying).dice),
                               self.rollers_at_once())

    def _found_empty(self, image: Image) -> None:
        """The reader found the still tray in ``image`` empty: it is the empty tray."""
        self.watcher.mark_empty(image)
        self._seen_empty(image)

    def _seen_empty(self, image: Image) -> None:
        """Tells the outline that the tray lies empty in ``image``, once told how far
        the tray has moved in the picture so far."""
        if self.follower is not None:
            self._follow(image)
            self.follower.tray_seen_empty(image)

    def _follow(self, image: Image) -> None:
        """Tells the outline how far knocks on the camera's mount and pushes along the
        table have moved the tray in the picture (in the pixels of ``image``)."""
        reference = self.watcher.reference
        if self.follower is not None and reference is not None:
            small, size = reference.shape, image.shape
            camera = in_frame_pixels(self.watcher.camera_warp, (small[1], small[0]),
                                     (size[1], size[0]))
            self.follower.camera_moved(after(camera, pushed_by(*self._tray_shift)))

    def _forget_rest(self) -> None:
        self._lying = None
        self._rest = None

    def _camera_moved_px(self, event: Any, image: Image) -> float:
        """How far the watcher saw the camera's picture move, in the camera's pixels."""
        moved = float(getattr(event, "camera_moved", 0.0))
        reference = self.watcher.reference
        if moved <= 0 or reference is None:
            return 0.0
        return float(moved * image.shape[1] / reference.shape[1])

    def _look(self, image: Image) -> FrameReading:
        """All the dice the reader finds in ``image`` (in the tray as the camera sees
        it now, where the reader follows knocks on the camera's mount)."""
        self._follow(image)
        return self.reader(image)

    def _thrown(self, image: Image, reading: FrameReading) -> FrameReading:
        """The dice of ``reading`` (all found in ``image``) that were thrown: where the
        tray is not empty, and not just where dice lay at the last rest."""
        lying, self._lying = self._lying, image if reading.dice else None
        self._rest = reading if reading.dice else None
        if not reading.dice:
            self._found_empty(image)
            return reading
        return self._new_dice(image, reading, lying)

    def _new_dice(self, image: Image, reading: FrameReading, lying: Image | None
                  ) -> FrameReading:
        """The dice of ``reading`` (all found in ``image``) where the tray is not empty,
        and not just where dice lay in ``lying`` (the tray's last still frame with dice
        in it, if any)."""
        reference = self.watcher.reference
        if reference is None:
            return reading
        reading = drop_unchanged(reading, image, reference)
        if lying is not None and reading.dice:
            # Dice just where they lay at the last rest were not thrown now (the last
            # player's, when the next one throws beside them): the roll is the others.
            # Fewer than three dice left make the table ask. (The last rest's picture
            # is first brought to the light of this one, where a lamp went on meanwhile.)
            size = (reference.shape[1], reference.shape[0])
            then = shrink(lying, size)
            then = in_light(then, overall_gain(shrink(image, size), then))
            reading = drop_unchanged(reading, image, then)
        return reading

    def _lose(self, reason: str, now: float) -> list[TrayEvent]:
        self._retry_at = now + REOPEN_SECONDS
        self._held = None  # (the dice are entered by hand meanwhile)
        self._told_at_limit = None
        first = self.lost is None
        self.lost = reason
        if self._opened:
            with contextlib.suppress(EinhornError, OSError, RuntimeError):
                self.source.close()
            self._opened = False
        return [tray.CameraLost(now, reason)] if first else []

    def close(self) -> None:
        if self._opened:
            self.source.close()
            self._opened = False


def short_of_a_roll(count: int, rollers: int | None) -> bool:
    """Whether ``count`` dice thrown are fewer than a whole roll, where ``rollers``
    players may throw at once (None: not known): fewer than three, or, short of three
    for each of them, not three for each of some of them (five of two players' six)."""
    if count < DICE_IN_A_ROLL:
        return True
    if rollers is not None and count >= rollers * DICE_IN_A_ROLL:
        return False
    return count % DICE_IN_A_ROLL != 0


def _steadied(small: Image, still: Image, flicker: float) -> Image:
    """``small`` brought to the overall brightness of ``still`` (the picture it is
    compared with), where the two differ by up to ``flicker`` per channel: a lamp's
    flicker is no change in the tray; more is other light, left as it is."""
    gain = overall_gain(small, still)
    if float(np.max(np.abs(gain - 1.0))) > flicker:
        return small
    return in_light(small, np.asarray(1.0 / gain, dtype=np.float32))


def _hand_seen(event: Any) -> bool:
    """Whether a hand reached into the tray during the motion a watcher event ends. An
    ``unchanged`` event is the light or the camera (the watcher's arm test sees the
    whole picture change at the frame's edge then, as an arm would)."""
    return str(getattr(event, "kind", "")) != "unchanged" and bool(
        getattr(event, "hand_seen", False))
