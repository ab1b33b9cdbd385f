"""The guided calibration as a step machine: frames and button gestures in, a view out.

No pygame, no files: the runner (:mod:`~einhorn_table.calibration.session`)
feeds it camera frames (:meth:`CalibrationFlow.on_frame`) and the players'
gestures (:meth:`CalibrationFlow.on_gesture`) and draws :meth:`CalibrationFlow.view`.
The profile is saved by the ``save`` function the flow is given, when the parent
presses OK on the result and before the screen says it is saved (a save that fails
with an :class:`~einhorn_table.errors.EinhornError` is told on the result screen, to
try again); without one, the runner saves :attr:`CalibrationFlow.profile` once
:attr:`CalibrationFlow.done`.

The steps: the tray (found, then its corners adjusted if need be; where none is
found, its corners are marked by hand from a rectangle), the light (camera settles
and is locked; flicker, glare and darkness are warned about), the empty-tray
picture (refused while dice, a hand or anything else is seen in the tray; where it
is only a mark, a stain, ✗ takes it, and the mark is not read as a die after), each
player's dice colour (one roll each, refused where the dice are not all of one
colour), the dice and pip sizes, and the test rolls (each confirmed or corrected),
ending with the accuracy reached. The buttons are those of the match
(docs/buttons.md): − + OK ✗, the outer two together go back a step, the middle two
show help.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.source_base import CameraView
from einhorn_table.calibration.dice_set import one_set
from einhorn_table.calibration.fit import (
    CalibrationError,
    Tally,
    best_reader,
    candidate_readers,
    dice_section,
    players_polarity,
    reader_for,
    roll_tally,
)
from einhorn_table.calibration.flow_state import (
    DICE,
    CameraLock,
    CheckRoll,
    FlowSettings,
    FlowState,
    Registration,
    Step,
    check_section,
    may_skip,
    reads_poorly,
)
from einhorn_table.calibration.geometry import inset_rectangle, move_corner
from einhorn_table.calibration.light import light_report
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    CheckSection,
    PlayerDice,
    ProfileError,
    TraySection,
    ViewSection,
    check_tray,
)
from einhorn_table.calibration.screens import build_view, marks
from einhorn_table.calibration.seeing import RGB, Eyes, Image, SeesFloor, SeesThings
from einhorn_table.calibration.view import BoxMark, CalibrationView
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.scoring import boxes_overlap

#: The tray found shifted by this share of the picture's shorter side, all four corners
#: alike (within SAME_SHIFT_PX pixels, or SAME_SHIFT_SHARE of the shift), has moved since
#: its outline was set at step 1.
TRAY_SHIFT_SHARE, SAME_SHIFT_PX, SAME_SHIFT_SHARE = 0.025, 6.0, 0.35
#: Said where it has (the picture is not taken).
TRAY_MOVED = ("The tray has moved since step 1: the yellow line no longer runs along its "
              "floor. Put it back where it was and press OK, or press ✗ to find it again "
              "where it is now.")
#: A die is at most this share of the tray floor's shorter side across.
MAX_DIE_SHARE = 0.2
#: Said where OK asked for the empty tray's picture and dice lie in it (not taken).
DICE_IN_TRAY = "There are dice in the tray: take them out, then press OK."
#: Said where something else lies in it: a hand, an arm, a cup (not taken).
THING_IN_TRAY = ("Something is in the tray (outlined in red): a hand, an arm, a cup? Take "
                 "it out of the picture and keep your hands away, then press OK.")

__all__ = ["CalibrationFlow", "CameraLock", "FlowSettings", "SaveProfile", "Step"]

#: Writes the finished profile and the empty-tray picture (None: none was taken);
#: raises an :class:`~einhorn_table.errors.EinhornError` saying what to fix where it
#: cannot.
SaveProfile = Callable[[CalibrationProfile, Image | None], None]

MINUS, PLUS, OK, NO = (
    Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
)
UNDO = (Button.UNVERMEIDLICH, Button.DREIFALTIGKEIT)
HELP = (Button.WUNSCH, Button.EINHORN)


class CalibrationFlow:
    """The guided calibration; see the module text."""

    def __init__(
        self,
        eyes: Eyes,
        lock_camera: Callable[[], CameraLock],
        settings: FlowSettings | None = None,
        *,
        base: ReaderProfile | None = None,
        made_by: str = "",
        made_at: str = "",
        save: SaveProfile | None = None,
        camera_view: CameraView | None = None,
    ) -> None:
        self.eyes = eyes
        self.lock_camera = lock_camera
        self.settings = settings or FlowSettings()
        self.base = base or ReaderProfile()
        self.made_by = made_by
        self.made_at = made_at
        #: The camera's view (the Pi camera's sensor and sensor mode), kept in the
        #: profile so that play and the doctor can tell when it is not the same.
        self.camera_view = camera_view
        #: Called with the profile and the empty-tray picture on OK on the result,
        #: before the screen says "saved"; None: the runner saves :attr:`profile`.
        self.save = save
        self.s = FlowState()
        #: The finished profile (set when the parent presses OK on the result and,
        #: with ``save``, it was saved).
        self.profile: CalibrationProfile | None = None

    # ------------------------------------------------------------------ inputs

    @property
    def step(self) -> Step:
        return self.s.step

    @property
    def done(self) -> bool:
        return self.s.step is Step.SAVED

    @property
    def reference(self) -> Image | None:
        """The empty-tray picture (to save beside the profile)."""
        return self.s.reference

    def on_frame(self, image: Image, t: float) -> None:
        """A camera frame taken at ``t`` seconds (the source's own timeline)."""
        s = self.s
        s.image = image
        s.frames += 1
        if s.step is Step.TRAY and (s.frames - 1) % self.settings.tray_every == 0:
            found = self.eyes.find_tray(image)
            if found is not None:
                s.corners, s.found_corners, s.by_hand = found, found, False
        elif s.step is Step.LIGHT and s.light is None:
            self._light_frame(image, t)
        elif s.step is Step.COLOURS and s.registration is None:
            if self._came_to_rest(image, t):
                s.rest_read = s.watch.rests() if s.watch is not None else None
                self._register(image)
        elif s.step is Step.CHECK and s.current is None:
            if self._came_to_rest(image, t):
                s.rest_read = s.watch.rests() if s.watch is not None else None
                self._read_check(image)
        elif s.step in (Step.COLOURS, Step.CHECK, Step.ENTER):
            self._came_to_rest(image, t)  # keep the watcher up to date while the screen waits

    def _came_to_rest(self, image: Image, t: float) -> bool:
        """Whether dice just came to rest in ``image`` (shot at ``t``); notes meanwhile
        whether something has lain still over the tray long enough to be told (a hand
        held over it: the watch waits for it to go, and the dice are not read)."""
        s = self.s
        if s.watch is None:
            return False
        rested = s.watch.at_rest(image, t)
        since = s.watch.held_since()
        s.held = (not rested and since is not None
                  and t - since >= self.settings.held_seconds - 1e-9)
        return rested

    def camera_back(self) -> None:
        """The camera sends pictures again after it sent none for a while (its cable
        pulled and put back): a light measurement under way starts again, on pictures
        of the camera settled anew (a camera opened again sets its exposure afresh)."""
        if self.s.step is Step.LIGHT and self.s.light is None:
            self._forget_light()

    def on_gesture(self, gesture: Gesture) -> None:
        s = self.s
        if gesture.kind is GestureKind.CHORD:
            if gesture.buttons == HELP:
                s.help = not s.help
            elif gesture.buttons == UNDO:
                s.help = False
                self._back()
            return
        if s.help:
            s.help = False  # any button closes the help
            return
        times = 5 if gesture.kind is GestureKind.LONG else 1
        handler = {
            Step.TRAY: self._on_tray,
            Step.CORNERS: self._on_corners,
            Step.LIGHT: self._on_light,
            Step.REFERENCE: self._on_reference,
            Step.COLOURS: self._on_colours,
            Step.SIZES: self._on_sizes,
            Step.CHECK: self._on_check,
            Step.ENTER: self._on_enter,
            Step.RESULT: self._on_result,
            Step.SAVED: self._on_saved,
        }[s.step]
        handler(gesture.button, times)

    # ------------------------------------------------------------------ steps

    def _on_tray(self, button: Button, times: int) -> None:
        s = self.s
        if button is OK and s.corners is not None:
            self._go(Step.LIGHT)
        elif button is NO and (s.corners is not None or s.image is not None):
            if s.corners is None:  # no tray found: its corners are marked by hand
                assert s.image is not None
                size = (int(s.image.shape[1]), int(s.image.shape[0]))
                s.corners, s.by_hand = inset_rectangle(size, self.settings.hand_inset), True
                s.found_corners = None
            s.corner, s.sideways = 0, False
            self._go(Step.CORNERS)

    def _on_corners(self, button: Button, times: int) -> None:
        s = self.s
        assert s.corners is not None and s.image is not None
        size = (int(s.image.shape[1]), int(s.image.shape[0]))
        if button in (MINUS, PLUS):
            steps = self.settings.corner_step * times * (1 if button is PLUS else -1)
            s.corners = move_corner(s.corners, s.corner, steps, s.sideways, size)
            s.note = ""
        elif button is NO:
            s.sideways = not s.sideways
        elif button is OK:
            s.sideways = False
            if s.corner < 3:
                s.corner += 1
            elif self._outline_problem(size):
                # Back to corner 1: the corner at fault may be any of the four.
                s.corner = 0
                s.note = ("These corners do not outline the tray's floor (two sides cross, "
                          "or three corners lie on a line): go round them again from "
                          "corner 1.")
            else:
                self._go(Step.LIGHT)

    def _outline_problem(self, size: tuple[int, int]) -> bool:
        """Whether the marked corners could not be saved (the profile refuses them)."""
        assert self.s.corners is not None
        try:
            check_tray(TraySection(corners=tuple(self.s.corners), frame_size=size))
        except ProfileError:
            return True
        return False

    def _light_frame(self, image: Image, t: float) -> None:
        s = self.s
        assert s.corners is not None
        if s.light_start is None:
            s.light_start = t
        elapsed = s.light_elapsed = t - s.light_start
        if elapsed < self.settings.settle_seconds:
            return
        if s.lock is None:
            s.lock = self.lock_camera()
            s.light_samples = []
            return  # the next frames are taken with the settings locked
        s.light_samples.append(self.eyes.light(image, s.corners))
        if elapsed >= self.settings.settle_seconds + self.settings.light_seconds:
            s.light = light_report(s.light_samples)

    def _on_light(self, button: Button, times: int) -> None:
        s = self.s
        if s.light is None:
            return
        if button is OK:
            self._go(Step.REFERENCE)
        elif button is NO:
            self._forget_light()

    def _on_reference(self, button: Button, times: int) -> None:
        """OK takes the empty tray's picture, unless dice or other things (a hand, an
        arm, a cup) are seen in the tray; after that, ✗ takes it all the same (what was
        seen is only a mark on the tray: a stain, a sticker)."""
        s = self.s
        if s.image is None:
            return
        if button is OK:
            if self._tray_moved(s.image):
                s.tray_moved, s.note = True, TRAY_MOVED
                return
            reading = self.eyes.read(s.image, self.base, s.corners)
            dice = marks(reading)
            things = self._things_in_tray(s.image, dice)
            if dice or things:
                s.reference_dice, s.reference_things = dice, things
                s.note = THING_IN_TRAY if things else DICE_IN_TRAY
                return
            self._take_reference(s.image, ())
        elif button is NO and s.tray_moved:  # find it where it stands now
            self._forget_light()
            self._go(Step.TRAY)
        elif button is NO and (s.reference_dice or s.reference_things):
            self._take_reference(s.image, s.reference_dice + s.reference_things)

    def _tray_moved(self, image: Image) -> bool:
        """Whether the tray is found shifted as a whole from where it was found at step 1
        (a hand or an arm at the tray's edge moves one or two of its corners, not all four
        alike; corners the parent moved at step 1 do not count: the eyes find the tray
        as they did then)."""
        then = self.s.found_corners
        if then is None:  # (marked by hand: no tray to find)
            return False
        found = self.eyes.find_tray(image)
        if found is None:
            return False
        shifts = [(x - x0, y - y0) for (x, y), (x0, y0) in zip(found, then, strict=True)]
        mx, my = sum(d[0] for d in shifts) / 4.0, sum(d[1] for d in shifts) / 4.0
        shift = math.hypot(mx, my)
        alike = max(SAME_SHIFT_PX, SAME_SHIFT_SHARE * shift)  # (a tray half out of the picture)
        return shift >= TRAY_SHIFT_SHARE * min(int(image.shape[0]), int(image.shape[1])) and all(
            math.hypot(dx - mx, dy - my) <= alike for dx, dy in shifts)

    def _things_in_tray(self, image: Image, dice: tuple[BoxMark, ...]) -> tuple[BoxMark, ...]:
        """What lies in the tray besides the ``dice`` found (a hand, an arm, a cup),
        outlined in red; () where the eyes cannot tell, or where the tray is unknown."""
        corners = self.s.corners
        if corners is None or not isinstance(self.eyes, SeesThings):
            return ()
        # (A die wider than a fifth of the floor is a hand's fingers read as one.)
        largest = MAX_DIE_SHARE * min(math.dist(corners[0], corners[1]),
                                      math.dist(corners[1], corners[2]))
        dice_boxes = [d.box for d in dice if max(d.box[2] - d.box[0], d.box[3] - d.box[1])
                      <= largest]
        # (A thing overlapping a die found is that die: with its shadow, dice together.)
        return tuple(BoxMark(box, "!", False) for box in self.eyes.things_in_tray(image, corners)
                     if not any(boxes_overlap(box, die) for die in dice_boxes))

    def _take_reference(self, image: Image, stains: tuple[BoxMark, ...]) -> None:
        s = self.s
        s.reference, s.stains = image.copy(), stains
        s.floor = (self.eyes.floor_colour(image, s.corners)
                   if isinstance(self.eyes, SeesFloor) and s.corners is not None else None)
        s.watch = self.eyes.rest_watch(s.reference)
        s.player, s.registration = 0, None
        s.players, s.measures, s.skipped, s.like_floor = [], [], [], []
        self._go(Step.COLOURS)

    def _lying_unread(self) -> bool:
        """Whether dice lie still in the tray that were not read yet (OK on a roll
        screen reads them); else the screen says why not. (Dice still rolling, or the
        ones just read and confirmed, would be read twice once they come to rest, or
        counted as two rolls; a hand in the picture would be read with them.)"""
        s = self.s
        rests = None if s.watch is None else s.watch.rests()
        if rests is None:
            s.note = ("The tray is not still yet (dice rolling, or a hand in the picture): "
                      "the dice are read once they lie still.")
            return False
        if rests == s.rest_read:
            s.note = "These dice were read already: roll them again."
            return False
        s.rest_read = rests
        return True

    def _read(self, image: Image, reader: ReaderProfile) -> FrameReading:
        """The dice in the tray; without what was seen in it when its empty picture was
        taken all the same (a stain, a sticker), where it still looks as it did then."""
        s = self.s
        reading = self.eyes.read(image, reader, s.corners)
        if not s.stains or s.reference is None:
            return reading
        kept = self.eyes.changed_since(reading, image, s.reference)
        return FrameReading(tuple(
            d for d in reading.dice if d in kept.dice or not any(
                boxes_overlap(d.box, m.box) for m in s.stains)
        ))

    def _register(self, image: Image) -> None:
        s = self.s
        s.note = ""
        reading = self._read(image, self.base)
        measures = [
            self.eyes.measure(image, d.box, d.value) for d in reading.dice if d.value is not None
        ]
        colour: RGB | None = None
        clash: str | None = None
        if reading.dice:
            colour = self.eyes.dice_colour(image, [d.box for d in reading.dice])
            clash = next(
                (p.name for p in s.players if self.eyes.colours_too_alike(p.colour, colour)), None
            )
        alike = self.eyes.colours_too_alike

        def same(a: RGB, b: RGB) -> bool:  # (a die of the set may lie in a shadow)
            return one_set(alike, a, b, [p.colour for p in s.players])

        mixed = any(not same(a.color, b.color) for a, b in combinations(reading.dice, 2))
        like_floor = (colour is not None and s.floor is not None
                      and self.eyes.colours_too_alike(colour, s.floor))
        registration = Registration(colour, reading, measures, clash, mixed, like_floor)
        if mixed and colour is not None:
            # Whose die was left in, and which dice are not this player's.
            left = next((p for p in s.players
                         if any(alike(p.colour, d.color) for d in reading.dice)), None)
            odd = tuple(k for k, d in enumerate(reading.dice)
                        if (alike(left.colour, d.color) if left is not None
                            else not same(colour, d.color)))
            registration = replace(registration, left_in=None if left is None else left.name,
                                   odd=odd)
        s.registration = registration

    def _on_colours(self, button: Button, times: int) -> None:
        s = self.s
        registration = s.registration
        if registration is None:
            if button is OK and s.image is not None and self._lying_unread():
                # Dice rolled before the screen asked lie still: no roll is coming.
                self._register(s.image)
            elif button is NO and may_skip(s, self.settings):
                s.skipped.append(self.settings.players[s.player])
                self._next_player()
            return
        if button is NO:
            s.registration = None  # roll again
        elif button is OK and registration.colour is not None and not registration.mixed:
            name = self.settings.players[s.player]
            s.players.append(PlayerDice(name, registration.colour))
            s.measures.append(registration.measures)
            if registration.like_floor:
                s.like_floor.append(name)
            s.registration = None
            self._next_player()

    def _next_player(self) -> None:
        s = self.s
        s.note = ""
        if s.player + 1 < len(self.settings.players):
            s.player += 1
        else:
            self._fit_sizes()
            self._go(Step.SIZES)

    def _forget_player(self, index: int) -> None:
        """Back to player ``index``'s turn: their colour (or their skip) is forgotten."""
        s = self.s
        s.player = index
        name = self.settings.players[index]
        if name in s.skipped:
            s.skipped.remove(name)
        else:
            s.players.pop()
            s.measures.pop()
            if name in s.like_floor:
                s.like_floor.remove(name)

    def _fit_sizes(self) -> None:
        s = self.s
        try:
            dice = dice_section([m for ms in s.measures for m in ms])
        except CalibrationError as error:
            s.dice, s.reader, s.sizes_error = None, None, str(error)
            return
        # Every player's dice must be read, also those whose pips were not measured,
        # and those of a player skipped (their dice never seen: either kind of pip).
        polarity = players_polarity(s.measures, [p.colour for p in s.players])
        s.dice = dice if polarity == dice.pip_polarity and not s.skipped else replace(
            dice, pip_polarity="both")
        s.reader = reader_for(s.dice, self.base)
        s.sizes_error = ""

    def _on_sizes(self, button: Button, times: int) -> None:
        s = self.s
        if button is OK and s.reader is not None:
            s.checks, s.current = [], None
            self._go(Step.CHECK)
        elif button is NO:
            self._back()

    def _read_check(self, image: Image) -> None:
        s = self.s
        s.note = ""
        assert s.reader is not None
        reading = self._read(image, s.reader)
        s.current = CheckRoll(tuple(d.value for d in reading.dice), image)
        s.current_boxes = marks(reading)

    def _on_check(self, button: Button, times: int) -> None:
        s = self.s
        current = s.current
        if current is None:
            if button is OK and s.image is not None and self._lying_unread():
                # Dice rolled before the screen asked lie still: no roll is coming.
                self._read_check(s.image)
            return
        if button is MINUS:  # a die leaning on the wall, a hand in the picture: not counted
            s.current, s.current_boxes = None, ()
            return
        if button is OK and current.complete:
            current.truth = tuple(v for v in current.read if v is not None)
            self._next_check()
        elif button in (OK, NO):
            s.entry = [v if v is not None else 1 for v in current.read[:DICE]]
            s.entry += [1] * (DICE - len(s.entry))
            s.marked = 0
            self._go(Step.ENTER)

    def _on_enter(self, button: Button, times: int) -> None:
        s = self.s
        assert s.current is not None
        if button in (MINUS, PLUS):
            delta = times if button is PLUS else -times
            s.entry[s.marked] = (s.entry[s.marked] - 1 + delta) % 6 + 1
        elif button is OK:
            if s.marked < len(s.entry) - 1:
                s.marked += 1
            else:
                s.current.truth = tuple(s.entry)
                self._next_check()
        elif button is NO:
            if s.marked > 0:
                s.marked -= 1
            else:
                self._go(Step.CHECK)

    def _next_check(self) -> None:
        s = self.s
        assert s.current is not None
        s.note = ""
        s.checks.append(s.current)
        s.current, s.current_boxes = None, ()
        if len(s.checks) < self.settings.test_rolls:
            self._go(Step.CHECK)
            return
        self._choose_reader()
        self._go(Step.RESULT)

    def _choose_reader(self) -> None:
        """Of the candidate readers, keep the one that reads the test rolls best.

        The test rolls' pictures are read again by each candidate (the narrowed
        reader that read them live, a wider one, the uncalibrated one); the live
        reads are what the parent confirmed or corrected, so the truth is known.
        """
        s = self.s
        assert s.dice is not None and s.reader is not None
        candidates = candidate_readers(s.dice, self.base)
        reads: list[list[tuple[int | None, ...]]] = []
        for reader in candidates:
            if reader == s.reader:
                reads.append([c.read for c in s.checks])
                continue
            reads.append([
                tuple(d.value for d in self._read(c.image, reader).dice) for c in s.checks
            ])
        tallies = [
            sum((roll_tally(r, c.truth or ()) for r, c in zip(rs, s.checks, strict=True)),
                Tally())
            for rs in reads
        ]
        best = best_reader(tallies)
        s.reader = candidates[best]
        for check, read in zip(s.checks, reads[best], strict=True):
            check.read = read

    def _on_result(self, button: Button, times: int) -> None:
        s = self.s
        if button is OK:
            profile = self.build_profile()
            if self.save is not None:
                try:
                    self.save(profile, s.reference)
                except EinhornError as error:
                    s.note = _save_problem(str(error))
                    return
                except OSError as error:  # a save function that let one through
                    s.note = _save_problem(_os_problem(error))
                    return
            self.profile = profile
            self._go(Step.SAVED)
        elif button is NO:
            s.checks, s.current = [], None
            self._go(Step.CHECK)
        elif button is MINUS and reads_poorly(s.checks):
            self._start_again()

    def _start_again(self) -> None:
        """Calibrating again from step 1, all measured so far forgotten (the camera, the
        tray, the lamp or the dice were changed after a poor result)."""
        s = self.s
        self.s = FlowState(image=s.image, frames=s.frames)

    def _on_saved(self, button: Button, times: int) -> None:
        """Nothing more to do: the runner closes the screen."""

    def _forget_light(self) -> None:
        """The light measured again from the start (the camera unlocked)."""
        s = self.s
        s.light, s.light_start, s.lock, s.light_elapsed = None, None, None, 0.0

    def _go(self, step: Step) -> None:
        self.s.step = step
        self.s.note = ""
        self.s.reference_dice, self.s.reference_things = (), ()
        self.s.tray_moved = False

    def _back(self) -> None:
        """The outer two buttons together: one step back."""
        s = self.s
        s.rest_read = None  # (what was read is forgotten: the dice lying may be read again)
        step = s.step
        if step is Step.CORNERS or step is Step.LIGHT:
            self._forget_light()
            self._go(Step.TRAY)
        elif step is Step.REFERENCE:
            self._forget_light()
            self._go(Step.LIGHT)
        elif step is Step.COLOURS:
            if s.registration is not None:
                s.registration = None
            elif s.player > 0:
                self._forget_player(s.player - 1)
            else:
                self._go(Step.REFERENCE)
        elif step is Step.SIZES:
            self._forget_player(len(self.settings.players) - 1)
            self._go(Step.COLOURS)
        elif step is Step.CHECK:
            if s.current is not None:
                s.current, s.current_boxes = None, ()
            elif s.checks:
                s.checks.pop()
            else:
                self._go(Step.SIZES)
        elif step is Step.ENTER:
            self._go(Step.CHECK)
        elif step is Step.RESULT:
            s.checks.pop()
            self._go(Step.CHECK)

    # ------------------------------------------------------------------ result

    def check_section(self) -> CheckSection:
        return check_section(self.s.checks)

    def build_profile(self) -> CalibrationProfile:
        s = self.s
        if s.reader is None or s.dice is None or s.corners is None or s.image is None:
            raise CalibrationError("calibration is not finished: go through every step")
        camera = s.lock.settings if s.lock is not None else CameraSettings()
        return CalibrationProfile(
            made_by=self.made_by,
            made_at=self.made_at,
            camera=camera,
            view=ViewSection.of(self.camera_view),
            tray=TraySection(
                corners=tuple((round(x, 1), round(y, 1)) for x, y in s.corners),
                frame_size=(int(s.image.shape[1]), int(s.image.shape[0])),
                empty_reference=self.settings.reference_name if s.reference is not None else "",
            ),
            dice=s.dice,
            reader=s.reader,
            players=tuple(s.players),
            check=self.check_section(),
        )

    # ------------------------------------------------------------------ the view

    def view(self) -> CalibrationView:
        """What the screen shows now (see :mod:`~einhorn_table.calibration.screens`)."""
        return build_view(self.s, self.settings)


def _os_problem(error: OSError) -> str:
    """A file error in words: what went wrong, and with which file."""
    what = error.strerror or str(error)
    return f"{what} ({error.filename})" if error.filename else what


def _save_problem(message: str) -> str:
    """The note on the result screen: "Could not save: ..." (once, where the message
    says so itself)."""
    if message.lower().startswith(("could not save", "cannot save")):
        return message[:1].upper() + message[1:]
    return f"Could not save: {message}"
