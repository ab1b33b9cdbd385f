"""The roll watcher: tells from the camera stream when a roll starts and when it lies still.

Feed it one small frame at a time (:func:`shrink` makes one from a camera frame)
with that frame's timestamp; it never reads a clock. Small frames keep their
colour by default: in grey, a blue die on slate felt all but vanishes (both are
about as bright), so the watcher counts a pixel as changed when any of its
colour channels changed. Grey small frames work too. It compares each frame with

* an *anchor*: the frame at the start of the current still spell. Anything that
  differs from it beyond a few pixels is motion (so slow creeping counts too),
  except while the tray is empty and still looks empty (the light drifting);
* the *empty tray*: a reference given up front or taken from the first frame and
  then slowly learnt while the tray lies empty. What differs from it is something
  in the tray. Something in the frame's border band is an arm: dice never get there.
  But something there that has lain still for ``scene_seconds``, with all else still,
  and reaches only a little way in from the edge (a forearm resting on the table, a
  cup, a phone, a shadow) is part of the scene: the empty tray's picture takes it in
  (and gives it back once it has gone), and dice lying still beside it are told;
  but dice touching it (thrown against a resting hand, maybe partly under its
  fingers, and then read wrong) are waited for until it has gone. A hand reaching
  farther in, over the tray, is waited for however still it is held. What came to lie
  there while the dice were thrown (a hand held still by a die near the rim after the
  throw, maybe over it, taken in together with it) is told with the dice
  (:attr:`WatchEvent.taken_in`): the tray holds back the reading of dice against it
  until it has gone (``einhorn_table.adapters.vision_tray``).

Events (:class:`WatchEvent`):

* ``motion_started`` when the tray starts changing (this locks the player's call);
* ``settled`` once per roll, when dice have lain still for ``still_seconds`` with
  no hand in view; it carries the full-size frame to read and ``same_as_last``
  when the dice lie exactly as at the last settled roll (nobody rolled);
* ``nudged`` when settled dice lie still again, about one die moved (most of what
  lay in the tray still lies where it lay, no more lies there than before, and no
  more than about a die's worth of the tray was left or newly covered, nor seen
  empty while things moved; unlike after a new roll, also one thrown beside dice
  left lying, or one player's dice picked up and thrown again among the others'):
  it is not a new roll;
* ``emptied`` when the tray is empty and still again (dice taken away, or a hand
  came and went without rolling): no roll;
* ``unchanged`` when the tray lies still again just as before, only seen otherwise:
  under other light (a lamp switched on, a cloud; the Pi camera's exposure is
  locked; a person's shadow or sunlight from a window over part of the tray) or
  with the camera knocked a little on its mount: no roll. The empty tray's picture
  follows (``einhorn_table.vision.relight``), also where the light changed too
  little to tell at a rest of the same dice (a shadow creeping over them): under
  other light it is learnt anew from the frame, as the tray shows around the dice
  and, under them, in the light seen around them, so a shadow or the sun creeping
  over the dice for long leaves it as right as the frame. It follows the overall
  light too when the light changes while dice are thrown, and
  :attr:`RollWatcher.camera_warp` puts the knocks together (the reader's tray
  corners follow them).

A fluorescent or LED lamp flickers (the whole picture a few percent lighter or darker
from one frame to the next): each frame's overall brightness, per channel, is first
brought to that of the frames just before it (where it differs from the still picture
it is compared with by up to ``flicker``), so the flicker is no motion, and dice lying
under such a lamp are still (a stronger flicker is motion: the watcher waits). The
light's slower changes pass (within a second or so: a camera's exposure stepping, a lamp
switched on) and are told as above. :attr:`RollWatcher.reference` gives the empty tray
in the light of the last frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.knocks import after, no_move
from einhorn_table.vision.relight import (
    SameScene,
    Warp,
    a_knock,
    displacement,
    in_light,
    lined_up,
    off_mask,
    overall_gain,
    registration,
    relearnt,
    same_scene,
    unseen_edge,
)

SmallImage = npt.NDArray[np.uint8]
BgrImage = npt.NDArray[np.uint8]

#: Size (width, height) of the grey frames the watcher compares.
SMALL_SIZE = (160, 120)
#: Patches of fewer pixels than this, where dice lay, are specks (noise), not dice.
_SPECK = 4
#: Overall changes of brightness smaller than this are not worth dividing out.
_STEADY = 0.01
#: A small frame's pixel this light may be made of full camera pixels (the light there may
#: be more than they show).
_FULL = 235
#: How far (a share per frame) the overall brightness the frames are brought to
#: follows theirs: a flicker comes and goes faster, the light's slow changes pass.
_FOLLOW = 0.1


class WatcherError(EinhornError, ValueError):
    """The watcher was fed something it cannot use."""


class TrayState(StrEnum):
    """What the tray is doing, as far as the watcher can tell."""

    EMPTY = "empty"
    MOVING = "moving"
    SETTLED = "settled"


class EventKind(StrEnum):
    """The things the watcher reports."""

    MOTION_STARTED = "motion_started"
    SETTLED = "settled"
    NUDGED = "nudged"
    EMPTIED = "emptied"
    UNCHANGED = "unchanged"


@dataclass(frozen=True, eq=False)
class WatchEvent:
    """Something that happened at time ``t`` (the timestamp of the frame that showed it).

    ``frame`` is the full-size frame to read (settled and nudged events, when one was
    given); ``motion_started_at`` is when the motion leading here began;
    ``from_state`` is what the tray was doing before that motion; ``hand_seen`` says
    whether an arm reached in during it; ``camera_moved`` (``unchanged`` events) how
    far the camera's picture moved, in small-frame pixels (0: only the light changed);
    ``taken_in`` (settled and nudged events) where the empty tray's picture took in
    something lying still at the frame's edge during that motion (255 there, a small
    frame's size; None where nothing was): a die lying there, or against it, went into
    that picture with it and is not seen as a die in the tray.
    """

    kind: EventKind
    t: float
    frame: BgrImage | None = None
    same_as_last: bool = False
    motion_started_at: float | None = None
    from_state: TrayState | None = None
    hand_seen: bool = False
    camera_moved: float = 0.0
    taken_in: SmallImage | None = None


@dataclass(frozen=True)
class WatcherConfig:
    """How sensitive the watcher is. Fractions are shares of the small frame's pixels."""

    still_seconds: float = 0.4
    #: Grey-level change of one pixel that counts as a change.
    pixel_threshold: int = 12
    #: Changed share of the frame that counts as motion.
    motion_fraction: float = 0.0006
    #: Share differing from the empty tray that counts as something in the tray.
    occupied_fraction: float = 0.002
    #: Settled frames differing in less than this share show the same dice in the same places.
    same_fraction: float = 0.0012
    #: Width in pixels of the border band where an arm reaching in shows up.
    border: int = 3
    #: Pixels in the border band that mean an arm is in view.
    border_pixels: int = 6
    #: Overlap (intersection over union) of what lies in the tray, before and after a
    #: disturbance of settled dice, from which on it counts as a nudge and not a new roll.
    #: (On synthetic scenes one of three dice pushed a die's width or more still
    #: overlaps 0.44 to 0.49, a nudge of a third of a die 0.74 or more; all dice picked
    #: up and thrown again, 0.26 or less.)
    nudge_overlap: float = 0.4
    #: How much more of the tray may be covered after a nudge than before it: more means
    #: dice were thrown in beside those left lying, a new roll. (Synthetic nudges cover
    #: 0.98 to 1.02 times what they covered; three dice thrown beside three, 1.7 or more.)
    nudge_growth: float = 0.25
    #: A nudge moves about one die: it uncovers, and newly covers, at most this many
    #: dice's worth of the tray (a die's worth: the median patch that lay there). More
    #: is dice thrown beside many left lying, or one player's dice picked up and thrown
    #: again among others' (a starting roll): a new roll however much still lies as it
    #: lay. (Synthetic nudges, near or far: 1.1 dice or less; three dice thrown: 2.6 or more.)
    nudge_dice: float = 1.6
    #: Seconds something at the frame's edge must lie still, with all else still, to be
    #: taken for part of the scene (a forearm resting on the table, a cup, a shadow)
    #: and not an arm reaching in: till then the dice beside it are not told. (Never
    #: less than ``still_seconds``: only things lying still are looked at.)
    scene_seconds: float = 2.0
    #: How far such a thing may reach in from the frame's edge, as a share of the
    #: frame's shorter side: what reaches farther is a hand over the tray, waited for.
    #: (Synthetic forearms resting across a corner, cups, phones and shadows reach 0.22
    #: or less; a hand over the tray's middle, 0.5.)
    edge_depth: float = 0.3
    #: The most of the frame such things may cover together (those synthetic ones: 4 %
    #: or less; a camera knocked far, or a tray pushed far, changes much more).
    edge_share: float = 0.15
    #: How fast the empty-tray reference follows slow light changes while the tray is empty.
    learn_rate: float = 0.05
    #: Share of a pixel's expected level it may be off by after a change of light (see
    #: ``einhorn_table.vision.relight``); more than ``same_fraction`` of the pixels off
    #: means something changed in the tray.
    relit_tolerance: float = 0.15
    #: Overall change of brightness (per channel) from which on the empty tray's picture
    #: is brightened or darkened to match before anything is compared with it.
    gain_tolerance: float = 0.04
    #: Overall change of brightness (per channel) of a frame against the still picture
    #: it is compared with, up to which its quick part (a lamp's flicker) is divided
    #: out before anything is compared (more is other light, see ``unchanged``). (A
    #: lamp flickering by 5 % either way: up to 0.11; the lamps of ``LIGHT_CHANGES``:
    #: 0.15 or more.)
    flicker: float = 0.12

    def __post_init__(self) -> None:
        if self.still_seconds < 0:
            raise WatcherError(f"still_seconds must be 0 or more, not {self.still_seconds}")
        if not 0 < self.pixel_threshold < 255:
            raise WatcherError(f"pixel_threshold must be 1..254, not {self.pixel_threshold}")
        if not 0.0 <= self.learn_rate <= 1.0:
            raise WatcherError(f"learn_rate must be within 0..1, not {self.learn_rate}")
        if self.nudge_growth < 0:
            raise WatcherError(f"nudge_growth must be 0 or more, not {self.nudge_growth}")
        if self.nudge_dice <= 0:
            raise WatcherError(f"nudge_dice must be more than 0, not {self.nudge_dice}")
        if self.scene_seconds < 0:
            raise WatcherError(f"scene_seconds must be 0 or more, not {self.scene_seconds}")
        if not 0.0 <= self.flicker < 1.0:
            raise WatcherError(f"flicker must be within 0..1, not {self.flicker}")
        if not 0.0 <= self.edge_depth <= 0.5 or not 0.0 <= self.edge_share <= 1.0:
            raise WatcherError(
                f"edge_depth must be within 0..0.5 and edge_share within 0..1, not "
                f"{self.edge_depth} and {self.edge_share}")


def shrink(frame: BgrImage, size: tuple[int, int] = SMALL_SIZE) -> SmallImage:
    """A camera frame made small (``size`` is width, height) for the watcher; keeps colour.

    Area averaging and a slight blur leave little of the camera's pixel noise.
    """
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), dtype=np.uint8)


def shrink_grey(frame: BgrImage, size: tuple[int, int] = SMALL_SIZE) -> SmallImage:
    """A camera frame made small and grey (cheaper, but blind to dice as bright as the felt)."""
    small = shrink(frame, size)
    if small.ndim == 3:
        return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return small


def changed_mask(a: SmallImage, b: SmallImage, threshold: int) -> SmallImage:
    """255 where the two small frames differ by more than ``threshold`` in any channel."""
    mask = cv2.threshold(cv2.absdiff(a, b), threshold, 255, cv2.THRESH_BINARY)[1]
    if mask.ndim == 3:
        mask = cv2.threshold(cv2.cvtColor(mask, cv2.COLOR_BGR2GRAY), 0, 255, cv2.THRESH_BINARY)[1]
    return np.asarray(mask, dtype=np.uint8)


def _like(mask: SmallImage, image: SmallImage) -> npt.NDArray[np.bool_]:
    """``mask`` (255 where set) as a boolean mask for every channel of ``image``."""
    where = mask > 0
    return where[..., None] if image.ndim == 3 else where


def _check_small(image: SmallImage, what: str) -> None:
    if image.dtype != np.uint8 or not (
        image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 3)
    ):
        raise WatcherError(f"{what} must be a small uint8 frame (grey or BGR); pass shrink(frame)")


class RollWatcher:
    """Watches the tray frame by frame; see the module text for the events.

    ``reference`` is a small frame of the empty tray (made like the frames to come);
    without it the first frame fed is taken to show the empty tray.
    """

    def __init__(
        self, config: WatcherConfig | None = None, *, reference: SmallImage | None = None
    ) -> None:
        self.config = config if config is not None else WatcherConfig()
        self._reference: SmallImage | None = None
        self._reference_f: npt.NDArray[np.float32] | None = None
        self._anchor: SmallImage | None = None
        #: How much brighter (per channel) the camera sees the scene now than the
        #: watcher's pictures show it (a lamp's flicker; None: as bright).
        self._light: npt.NDArray[np.float32] | None = None
        #: The overall brightness of the frames against the still picture, smoothed
        #: over a few frames (None: as the still picture).
        self._slow_light: npt.NDArray[np.float32] | None = None
        self._state = TrayState.EMPTY
        self._came_from = TrayState.EMPTY
        self._last_t: float | None = None
        self._last_motion_t = 0.0
        self._motion_started_at: float | None = None
        self._hand_seen = False
        #: The most of the tray where dice had settled seen empty at once while things
        #: moved since (dice picked up to be thrown again leave all their places empty).
        self._uncovered_most = 0
        self._settled_small: SmallImage | None = None
        self._settled_occupied: SmallImage | None = None
        #: The still spell (its anchor frame) already looked at for other light or a
        #: knocked camera.
        self._looked_again_at: SmallImage | None = None
        self._camera = no_move()
        #: What the empty tray's picture showed where it took in things lying at the
        #: frame's edge, and where (given back once they have gone).
        self._behind: tuple[SmallImage, SmallImage] | None = None
        #: The still spells (their anchor frames) already looked at for that.
        self._bare_looked_at: SmallImage | None = None
        self._edge_looked_at: SmallImage | None = None
        #: Where the empty tray's picture took in what lies at the frame's edge during
        #: the current motion (None: nothing).
        self._taken_now: SmallImage | None = None
        if reference is not None:
            self.set_reference(reference)

    @property
    def state(self) -> TrayState:
        """What the tray is doing now."""
        return self._state

    @property
    def still_since(self) -> float | None:
        """Since when the picture has lain still, while something moved in the tray and
        no rest was told since (a hand held over the tray waited for); None otherwise."""
        return self._last_motion_t if self._state == TrayState.MOVING else None

    @property
    def reference(self) -> SmallImage | None:
        """The empty tray as the watcher knows it, in the light of the last frame
        (None until the first frame)."""
        if self._reference is None or self._light is None:
            return self._reference
        return in_light(self._reference, self._light)

    @property
    def camera_warp(self) -> Warp:
        """How the camera's knocks have moved its picture since the first frame: the
        turn and shift mapping a small frame's pixels now onto the first frame's (see
        ``einhorn_table.vision.knocks``)."""
        return self._camera.copy()

    def set_reference(self, empty_tray: SmallImage) -> None:
        """Take this small frame as the empty tray from now on."""
        _check_small(empty_tray, "the empty-tray reference")
        self._reference = empty_tray.copy()
        self._reference_f = empty_tray.astype(np.float32)
        self._light = self._slow_light = None
        if self._anchor is not None and self._anchor.shape != empty_tray.shape:
            self._anchor = None

    def mark_empty(self, frame: BgrImage) -> None:
        """The tray in ``frame``, which lay still, is empty (the dice reader found no
        die in it): take it as the empty tray and forget the dice that lay before.

        Without a reference up front the first frame is taken as the empty tray, and
        dice lying there at start (the companion restarted mid-match) would stay in
        it: their places would look occupied once cleared, and the next roll would
        look like those dice nudged."""
        small = shrink(frame)
        self.set_reference(small)
        self._anchor = small
        self._state = TrayState.EMPTY
        self._settled_small = None
        self._settled_occupied = None

    def feed(self, frame: BgrImage, t: float) -> list[WatchEvent]:
        """Shrink a full-size camera frame and :meth:`update` with it."""
        return self.update(shrink(frame), t, frame)

    def update(
        self, small: SmallImage, t: float, frame: BgrImage | None = None
    ) -> list[WatchEvent]:
        """Take the next small frame, shot at time ``t`` (seconds, never decreasing).

        ``frame`` is the full-size frame it was made from; settled and nudged events
        carry it so the dice can be read from it.
        """
        _check_small(small, "the frame")
        if self._last_t is not None and t < self._last_t:
            raise WatcherError(
                f"frame time {t} is before the previous frame's {self._last_t}; "
                "pass the camera's timestamps in order"
            )
        self._last_t = t
        if self._reference is None or self._reference.shape != small.shape:
            if self._reference is not None:
                raise WatcherError(
                    f"frame of shape {small.shape} after frames of shape "
                    f"{self._reference.shape}; shrink every frame the same way"
                )
            self.set_reference(small)
        if self._anchor is None:
            self._anchor = small
            self._last_motion_t = t
            if self._occupied(small)[0]:
                # Something already lies in the tray: read it once it is still.
                self._enter_moving(t, emit=False)
            return []
        small = self._steady(small)
        cfg = self.config
        pixels = small.shape[0] * small.shape[1]
        moved = cv2.countNonZero(changed_mask(small, self._anchor, cfg.pixel_threshold))
        events: list[WatchEvent] = []
        if moved > cfg.motion_fraction * pixels:
            self._anchor = small
            self._slow_light = None
            self._last_motion_t = t
            if self._state == TrayState.EMPTY and not self._occupied(small)[0]:
                # The empty tray changed but still looks empty: the light drifted.
                self._learn_empty(small)
                return events
            if self._state != TrayState.MOVING:
                events.append(
                    WatchEvent(
                        EventKind.MOTION_STARTED,
                        t,
                        motion_started_at=t,
                        from_state=self._state,
                    )
                )
                self._enter_moving(t, emit=True)
            assert self._reference is not None
            in_tray = changed_mask(small, self._reference, cfg.pixel_threshold)
            if self._arm_in_mask(in_tray):
                self._hand_seen = True
            self._note_uncovered(in_tray)
            return events
        if self._state == TrayState.EMPTY:
            self._learn_empty(small)
            return events
        # (A hair of slack: timestamps like i / fps do not add up exactly.)
        if self._state == TrayState.MOVING and t - self._last_motion_t >= cfg.still_seconds - 1e-9:
            events.extend(self._come_to_rest(small, t, frame))
        return events

    # ---------------------------------------------------------------- internals

    def _steady(self, small: SmallImage) -> SmallImage:
        """``small`` brought to the overall brightness of the frames just before it,
        where it differs from the still picture it is compared with by up to
        ``flicker`` (per channel; the median, which dice or a hand do not sway): a
        lamp's flicker taken out, the light's slow changes left; else as it is."""
        assert self._anchor is not None
        gain = np.asarray(overall_gain(small, self._anchor), dtype=np.float32)
        if float(np.max(np.abs(gain - 1.0))) > self.config.flicker:
            self._light = self._slow_light = None
            return small
        # (The light's slow changes pass: a lamp brightening, the sun; the empty tray's
        # picture follows them, and dice lying are seen in other light.)
        slow = np.ones_like(gain) if self._slow_light is None else self._slow_light
        slow = np.asarray(slow + _FOLLOW * (gain - slow), dtype=np.float32)
        self._slow_light = slow
        quick = np.asarray(gain / slow, dtype=np.float32)
        self._light = quick
        if float(np.max(np.abs(quick - 1.0))) < _STEADY:
            return small
        steady = in_light(small, np.asarray(1.0 / quick, dtype=np.float32))
        # Where the camera's pixels are full (a white die made lighter), they were only
        # at least as light as they show: as the still picture, where that is lighter.
        full = small >= _FULL
        if full.any():
            steady = np.where(full, np.maximum(steady, self._anchor), steady).astype(np.uint8)
        return steady

    def _enter_moving(self, t: float, *, emit: bool) -> None:
        self._came_from = self._state
        self._state = TrayState.MOVING
        self._motion_started_at = t if emit else None
        self._hand_seen = False
        self._uncovered_most = 0
        self._taken_now = None

    def _occupied(self, small: SmallImage) -> tuple[bool, SmallImage]:
        assert self._reference is not None
        mask = changed_mask(small, self._reference, self.config.pixel_threshold)
        count = cv2.countNonZero(mask)
        pixels = small.shape[0] * small.shape[1]
        return count > self.config.occupied_fraction * pixels, mask

    def _arm_in_view(
        self, small: SmallImage, reference: SmallImage | None = None, inset: int = 0
    ) -> bool:
        """Whether something differs from the empty tray in the frame's border band;
        given ``reference``, an estimate of it, ``inset`` pixels in from the edge."""
        i = inset
        if reference is None:
            assert self._reference is not None
            mask = changed_mask(small, self._reference, self.config.pixel_threshold)
        else:
            mask = off_mask(small, reference, self.config.pixel_threshold,
                            self.config.relit_tolerance)
        if i > 0:
            mask = mask[i:-i, i:-i]
        return self._arm_in_mask(mask)

    def _arm_in_mask(self, mask: SmallImage) -> bool:
        """Whether ``mask`` (what differs from the empty tray) shows something in the
        frame's border band."""
        b = self.config.border
        band = (
            cv2.countNonZero(mask[:b])
            + cv2.countNonZero(mask[-b:])
            + cv2.countNonZero(mask[b:-b, :b])
            + cv2.countNonZero(mask[b:-b, -b:])
        )
        return band >= self.config.border_pixels

    def _note_uncovered(self, in_tray: SmallImage) -> None:
        """Keeps count of how much of the tray where dice settled last looks empty now
        (``in_tray``: what differs from the empty tray), while moving after they settled."""
        if self._came_from != TrayState.SETTLED or self._settled_occupied is None:
            return
        uncovered = cv2.countNonZero(cv2.subtract(self._settled_occupied, in_tray))
        self._uncovered_most = max(self._uncovered_most, uncovered)

    def _follow_knocked_camera(self, small: SmallImage) -> bool:
        """Whether what differs at the frame's edge is the empty tray's edge seen by a
        camera knocked on its mount (then the empty tray's picture follows), not an arm."""
        assert self._reference is not None
        warp = registration(small, self._reference)
        if warp is None:
            return False
        moved = displacement(warp, small.shape)
        if not a_knock(moved, small.shape):
            return False
        gain = overall_gain(small, lined_up(self._reference, warp))
        followed = SameScene(gain, warp, moved).apply(self._reference, small)
        # (Within the unseen edge ``followed`` is this frame: look in from there.)
        if self._arm_in_view(small, followed, unseen_edge(moved)):
            return False  # still different in from the edge: an arm
        self.set_reference(followed)
        self._camera = after(self._camera, warp)
        return True

    def _edge_is_scene(self, small: SmallImage, t: float) -> bool:
        """Whether what differs from the empty tray at the frame's edge is no arm but
        part of the scene: what the empty tray's picture took in there has gone again
        (it gets back what lay behind), or something has lain still there for
        ``scene_seconds`` without reaching far in (the picture takes it in)."""
        assert self._reference is not None
        cfg = self.config
        # (Each once per still spell: a hand held still is looked at every frame.)
        if self._behind is not None and self._anchor is not self._bare_looked_at:
            self._bare_looked_at = self._anchor
            behind, where = self._behind
            bare = self._reference.copy()
            np.copyto(bare, behind, where=_like(where, bare))
            if not self._arm_in_mask(changed_mask(small, bare, cfg.pixel_threshold)):
                self._behind = None
                self._taken_now = None
                self._take_in(bare, where, small)
                return True
        if (t - self._last_motion_t < cfg.scene_seconds - 1e-9
                or self._anchor is self._edge_looked_at):
            return False
        self._edge_looked_at = self._anchor
        mask = changed_mask(small, self._reference, cfg.pixel_threshold)
        edge = self._at_edge(mask)
        if edge is None:
            return False
        where = np.asarray(cv2.dilate(edge, np.ones((5, 5), np.uint8)), dtype=np.uint8)
        if self._behind is not None:
            behind, before = self._behind
            behind = behind.copy()
            fresh = np.asarray(cv2.subtract(where, before), dtype=np.uint8)
            np.copyto(behind, self._reference, where=_like(fresh, behind))
            self._behind = behind, np.asarray(cv2.bitwise_or(where, before), dtype=np.uint8)
        else:
            self._behind = self._reference.copy(), where
        taken = self._reference.copy()
        np.copyto(taken, small, where=_like(where, taken))
        self._take_in(taken, where, small)
        self._taken_now = where if self._taken_now is None else np.asarray(
            cv2.bitwise_or(self._taken_now, where), dtype=np.uint8)
        return not self._arm_in_view(small)

    def _take_in(self, reference: SmallImage, where: SmallImage, small: SmallImage) -> None:
        """The empty tray's picture is ``reference`` from now on, changed ``where`` it
        shows what lies at the frame's edge (or no longer lies there); the dice's
        picture at the last rest (if any) shows it there as ``small`` does."""
        self.set_reference(reference)
        if self._settled_small is not None:
            settled = self._settled_small.copy()
            np.copyto(settled, small, where=_like(where, settled))
            self._settled_small = settled

    def _against_taken_in(self, small: SmallImage, mask: SmallImage) -> bool:
        """Whether something lying in the tray (``mask``: what differs from the empty
        tray) touches what the empty tray's picture took in at the frame's edge, where
        it is new (not what lay there before that was taken in, gone again): a die
        thrown against a resting hand or cup may lie partly under it, and a die partly
        covered may be read wrong."""
        if self._behind is None:
            return False
        behind, where = self._behind
        touching = cv2.bitwise_and(mask, where)
        new = cv2.bitwise_and(touching, changed_mask(small, behind, self.config.pixel_threshold))
        return cv2.countNonZero(new) >= _SPECK

    def _at_edge(self, mask: SmallImage) -> SmallImage | None:
        """The parts of ``mask`` (what differs from the empty tray) that touch the
        frame's border band, where they reach only a little way in and cover little of
        the frame (a thing lying at the edge); None where any reaches farther (a hand
        over the tray) or they cover more (the whole picture moved)."""
        cfg = self.config
        height, width = mask.shape[:2]
        count, labels = cv2.connectedComponents(mask, connectivity=8)
        if count <= 1:
            return None
        band = np.ones((height, width), bool)
        b = cfg.border
        band[b:-b, b:-b] = False
        touching = np.unique(labels[band & (labels > 0)])
        if touching.size == 0:
            return None
        edge = np.isin(labels, touching)
        if np.count_nonzero(edge) > cfg.edge_share * height * width:
            return None
        deep = max(1, round(cfg.edge_depth * min(height, width)))
        if deep * 2 < min(height, width) and edge[deep:-deep, deep:-deep].any():
            return None
        return np.asarray(edge, dtype=np.uint8) * np.uint8(255)

    def _learn_empty(self, small: SmallImage) -> None:
        """Follow slow light changes while the tray lies empty and still."""
        rate = self.config.learn_rate
        if rate <= 0 or self._reference_f is None:
            return
        if self._occupied(small)[0]:
            return
        cv2.accumulateWeighted(small, self._reference_f, rate)
        self._reference = np.asarray(cv2.convertScaleAbs(self._reference_f), dtype=np.uint8)

    def _come_to_rest(
        self, small: SmallImage, t: float, frame: BgrImage | None
    ) -> list[WatchEvent]:
        """The tray has been still for long enough: decide what the motion was."""
        if self._anchor is not self._looked_again_at:
            # Once per still spell (a hand held still is looked at again every frame):
            # the same tray seen otherwise, and the empty tray following the light.
            self._looked_again_at = self._anchor
            unchanged = self._seen_otherwise(small, t, frame)
            if unchanged:
                return unchanged
            self._follow_overall_light(small)
            if (self._arm_in_view(small) and not self._follow_knocked_camera(small)
                    and not self._edge_is_scene(small, t)):
                return []  # a hand held still over the tray: wait until it leaves
        elif self._arm_in_view(small) and not self._edge_is_scene(small, t):
            return []
        occupied, mask = self._occupied(small)
        if self._against_taken_in(small, mask):
            return []  # a die may lie partly under what lies at the edge: wait till it goes
        started = self._motion_started_at
        came_from = self._came_from
        if not occupied:
            self._state = TrayState.EMPTY
            self._settled_small = None
            self._settled_occupied = None
            return [
                WatchEvent(
                    EventKind.EMPTIED,
                    t,
                    motion_started_at=started,
                    from_state=came_from,
                    hand_seen=self._hand_seen,
                )
            ]
        same = self._same_as_settled(small)
        kind = EventKind.SETTLED
        if (
            not same
            and came_from == TrayState.SETTLED
            and self._overlap_with_settled(mask) >= self.config.nudge_overlap
            and self._covered_like_settled(mask)
            and self._about_one_die_moved(mask)
        ):
            kind = EventKind.NUDGED
        self._state = TrayState.SETTLED
        self._settled_small = small
        self._settled_occupied = mask
        return [
            WatchEvent(
                kind,
                t,
                frame=frame,
                same_as_last=same,
                motion_started_at=started,
                from_state=came_from,
                hand_seen=self._hand_seen,
                taken_in=self._taken_now,
            )
        ]

    def _seen_otherwise(
        self, small: SmallImage, t: float, frame: BgrImage | None
    ) -> list[WatchEvent]:
        """The tray lies as it lay before the motion, only lit otherwise or seen by a
        knocked camera: the empty tray's picture follows, and an ``unchanged`` event
        (else none; where the same dice lie seen alike, the empty tray's picture
        still follows the light's small change since their last rest)."""
        came_from = self._came_from
        settled = came_from == TrayState.SETTLED
        before = self._settled_small if settled else self._reference
        if before is None or before.shape != small.shape:
            return []
        cfg = self.config
        most = int(cfg.same_fraction * small.shape[0] * small.shape[1])
        if cv2.countNonZero(changed_mask(small, before, cfg.pixel_threshold)) <= most:
            if settled:
                # The light changed little, if at all (the same dice, a hand gone again):
                # the empty tray's picture follows it, a shadow or the sun creeping over
                # the tray a little at each rest (else, crept far, it looks like an arm).
                self.set_reference(self._relearnt_around_dice(small))
            return []  # the light did not change (the same dice, or the empty tray)
        scene = same_scene(small, before, threshold=cfg.pixel_threshold,
                           tolerance=cfg.relit_tolerance, most_pixels=most)
        if scene is None:
            return []
        if scene.warp is not None:
            self._camera = after(self._camera, scene.warp)
        if settled:
            assert self._reference is not None
            self.set_reference(scene.apply(self._reference, small) if scene.warp is not None
                               else self._relearnt_around_dice(small))
            self._settled_small = small
            self._settled_occupied = self._occupied(small)[1]
            self._state = TrayState.SETTLED
        else:
            self.set_reference(small)
            self._state = TrayState.EMPTY
        return [
            WatchEvent(
                EventKind.UNCHANGED,
                t,
                frame=frame,
                motion_started_at=self._motion_started_at,
                from_state=came_from,
                hand_seen=self._hand_seen,
                camera_moved=scene.moved_px,
            )
        ]

    def _relearnt_around_dice(self, small: SmallImage) -> SmallImage:
        """The empty tray's picture learnt again from ``small``, which shows the dice
        lying as they lay at the last rest, only lit otherwise: the tray as it shows
        around where they lay, and under them the light seen around them."""
        assert self._reference is not None
        lay = self._settled_occupied
        if lay is None:
            lay = self._occupied(small)[1]
        covered = cv2.dilate(lay, np.ones((5, 5), np.uint8))
        return relearnt(self._reference, small, np.asarray(covered, dtype=np.uint8))

    def _follow_overall_light(self, small: SmallImage) -> None:
        """Brighten or darken the empty tray's picture by as much as the whole picture
        changed, where the light changed while something happened in the tray."""
        if self._reference is None or self._reference.shape != small.shape:
            return
        gain = overall_gain(small, self._reference)
        if float(np.max(np.abs(gain - 1.0))) > self.config.gain_tolerance:
            self.set_reference(in_light(self._reference, gain))

    def _same_as_settled(self, small: SmallImage) -> bool:
        if self._settled_small is None:
            return False
        mask = changed_mask(small, self._settled_small, self.config.pixel_threshold)
        pixels = small.shape[0] * small.shape[1]
        return bool(cv2.countNonZero(mask) <= self.config.same_fraction * pixels)

    def _covered_like_settled(self, mask: SmallImage) -> bool:
        """Whether no more of the tray is covered than when the dice settled last."""
        if self._settled_occupied is None:
            return False
        before = cv2.countNonZero(self._settled_occupied)
        return bool(cv2.countNonZero(mask) <= (1.0 + self.config.nudge_growth) * before)

    def _about_one_die_moved(self, mask: SmallImage) -> bool:
        """Whether no more than about a die's worth of the tray was uncovered (now, or at
        any moment of the motion), nor newly covered, since the dice settled last (a
        die's worth: the median patch that lay there then, three dice touching each
        other taken as three)."""
        before = self._settled_occupied
        if before is None:
            return False
        count, _, stats, _ = cv2.connectedComponentsWithStats(before, connectivity=8)
        areas = sorted(int(a) for a in stats[1:count, cv2.CC_STAT_AREA] if a >= _SPECK)
        if not areas:
            return False
        die = min(float(np.median(areas)), sum(areas) / 3.0)
        most = self.config.nudge_dice * die
        # (Dice picked up and thrown again left their places empty meanwhile, even
        # where they came to lie near them again.)
        uncovered = max(cv2.countNonZero(cv2.subtract(before, mask)), self._uncovered_most)
        covered = cv2.countNonZero(cv2.subtract(mask, before))
        return uncovered <= most and covered <= most

    def _overlap_with_settled(self, mask: SmallImage) -> float:
        if self._settled_occupied is None:
            return 0.0
        both = cv2.countNonZero(cv2.bitwise_and(mask, self._settled_occupied))
        either = cv2.countNonZero(cv2.bitwise_or(mask, self._settled_occupied))
        return both / either if either else 0.0
