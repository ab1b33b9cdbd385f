"""The guided calibration as a step machine: frames and button gestures in, a view out.

No pygame, no files: the runner (:mod:`~einhorn_table.calibration.session`)
feeds it camera frames (:meth:`CalibrationFlow.on_frame`) and the players'
gestures (:meth:`CalibrationFlow.on_gesture`), draws :meth:`CalibrationFlow.view`
and saves :attr:`CalibrationFlow.profile` once :attr:`CalibrationFlow.done`.

The steps: the tray (found, then its corners adjusted if need be), the light
(camera settles and is locked; flicker, glare and darkness are warned about),
the empty-tray picture, each player's dice colour (one roll each), the dice and
pip sizes, and the test rolls (each confirmed or corrected), ending with the
accuracy reached. The buttons are those of the match (docs/buttons.md):
− + OK ✗, the outer two together go back a step, the middle two show help.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.advice import advice
from einhorn_table.calibration.eyes import Eyes, Image, RestWatch
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
from einhorn_table.calibration.geometry import Corners, move_corner
from einhorn_table.calibration.light import LightReport, LightSample, light_report
from einhorn_table.calibration.measure import DieMeasure
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    CheckSection,
    DiceSection,
    PlayerDice,
    TraySection,
)
from einhorn_table.calibration.view import BoxMark, CalibrationView, Hint, Swatch
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.colours import colors_too_alike
from einhorn_table.vision.profile import ReaderProfile

if TYPE_CHECKING:
    from einhorn_table.vision.results import FrameReading

MINUS, PLUS, OK, NO = (
    Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
)
UNDO = (Button.UNVERMEIDLICH, Button.DREIFALTIGKEIT)
HELP = (Button.WUNSCH, Button.EINHORN)


class Step(StrEnum):
    TRAY = "tray"
    CORNERS = "corners"
    LIGHT = "light"
    REFERENCE = "reference"
    COLOURS = "colours"
    SIZES = "sizes"
    CHECK = "check"
    ENTER = "enter"
    RESULT = "result"
    SAVED = "saved"


#: Progress numbers shown to the parent ("step 3 of 7").
STEP_NUMBER = {
    Step.TRAY: 1, Step.CORNERS: 1, Step.LIGHT: 2, Step.REFERENCE: 3, Step.COLOURS: 4,
    Step.SIZES: 5, Step.CHECK: 6, Step.ENTER: 6, Step.RESULT: 7, Step.SAVED: 7,
}
STEPS = 7
#: Advice is given below this share of dice read right in the test rolls.
GOOD_ENOUGH = 0.95


@dataclass(frozen=True)
class CameraLock:
    """What locking the camera did: the settings to keep, and a line for the screen."""

    settings: CameraSettings
    message: str


@dataclass(frozen=True)
class FlowSettings:
    players: tuple[str, ...] = ("Player 1", "Player 2")
    test_rolls: int = 5
    #: Seconds the camera is left to settle, then seconds of light measured locked.
    settle_seconds: float = 2.0
    light_seconds: float = 1.0
    #: The tray is looked for on every n-th frame.
    tray_every: int = 3
    #: The empty-tray picture's file name, saved beside the profile.
    reference_name: str = "calibration-empty-tray.jpg"
    #: Pixels a corner moves per tap (five per long press).
    corner_step: float = 2.0

    def __post_init__(self) -> None:
        if not self.players:
            raise CalibrationError("calibrating needs at least one player")
        if self.test_rolls < 1:
            raise CalibrationError("calibrating needs at least one test roll")


@dataclass
class _Registration:
    """One player's roll for their colour, waiting for OK."""

    colour: RGB | None
    reading: FrameReading
    measures: list[DieMeasure]
    clash_with: str | None


RGB = tuple[int, int, int]


@dataclass(eq=False)
class _CheckRoll:
    read: tuple[int | None, ...]
    image: Image
    truth: tuple[int, ...] | None = None

    @property
    def right(self) -> int:
        return 0 if self.truth is None else roll_tally(self.read, self.truth).right


@dataclass
class _State:
    step: Step = Step.TRAY
    image: Image | None = None
    frames: int = 0
    corners: Corners | None = None
    corner: int = 0
    sideways: bool = False
    light_start: float | None = None
    light_elapsed: float = 0.0
    lock: CameraLock | None = None
    light_samples: list[LightSample] = field(default_factory=list)
    light: LightReport | None = None
    reference: Image | None = None
    watch: RestWatch | None = None
    player: int = 0
    registration: _Registration | None = None
    players: list[PlayerDice] = field(default_factory=list)
    measures: list[list[DieMeasure]] = field(default_factory=list)
    dice: DiceSection | None = None
    reader: ReaderProfile | None = None
    sizes_error: str = ""
    checks: list[_CheckRoll] = field(default_factory=list)
    current: _CheckRoll | None = None
    current_boxes: tuple[BoxMark, ...] = ()
    entry: list[int] = field(default_factory=list)
    marked: int = 0
    help: bool = False
    note: str = ""
    #: Test dice read right live, before the best reader was chosen.
    live_right: int = 0


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
    ) -> None:
        self.eyes = eyes
        self.lock_camera = lock_camera
        self.settings = settings or FlowSettings()
        self.base = base or ReaderProfile()
        self.made_by = made_by
        self.made_at = made_at
        self.s = _State()
        #: The finished profile (set when the parent presses OK on the result).
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
                s.corners = found
        elif s.step is Step.LIGHT and s.light is None:
            self._light_frame(image, t)
        elif s.step is Step.COLOURS and s.registration is None:
            if s.watch is not None and s.watch.at_rest(image, t):
                self._register(image)
        elif s.step is Step.CHECK and s.current is None:
            if s.watch is not None and s.watch.at_rest(image, t):
                self._read_check(image)
        elif s.watch is not None and s.step in (Step.COLOURS, Step.CHECK, Step.ENTER):
            s.watch.at_rest(image, t)  # keep the watcher up to date while the screen waits

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
        if s.corners is None:
            return
        if button is OK:
            self._go(Step.LIGHT)
        elif button is NO:
            s.corner, s.sideways = 0, False
            self._go(Step.CORNERS)

    def _on_corners(self, button: Button, times: int) -> None:
        s = self.s
        assert s.corners is not None and s.image is not None
        size = (int(s.image.shape[1]), int(s.image.shape[0]))
        if button in (MINUS, PLUS):
            steps = self.settings.corner_step * times * (1 if button is PLUS else -1)
            s.corners = move_corner(s.corners, s.corner, steps, s.sideways, size)
        elif button is NO:
            s.sideways = not s.sideways
        elif button is OK:
            s.sideways = False
            if s.corner < 3:
                s.corner += 1
            else:
                self._go(Step.LIGHT)

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
            s.light, s.light_start, s.lock, s.light_elapsed = None, None, None, 0.0

    def _on_reference(self, button: Button, times: int) -> None:
        s = self.s
        if button is OK and s.image is not None:
            s.reference = s.image.copy()
            s.watch = self.eyes.rest_watch(s.reference)
            s.player, s.registration = 0, None
            s.players, s.measures = [], []
            self._go(Step.COLOURS)

    def _register(self, image: Image) -> None:
        s = self.s
        reading = self.eyes.read(image, self.base, s.corners)
        colours = [self.eyes.die_colour(image, d.box) for d in reading.dice]
        measures = [
            self.eyes.measure(image, d.box, d.value) for d in reading.dice if d.value is not None
        ]
        colour: RGB | None = None
        clash: str | None = None
        if colours:
            colour = _median_colour(colours)
            clash = next(
                (p.name for p in s.players if colors_too_alike(p.colour, colour)), None
            )
        s.registration = _Registration(colour, reading, measures, clash)

    def _on_colours(self, button: Button, times: int) -> None:
        s = self.s
        registration = s.registration
        if registration is None:
            return
        if button is NO:
            s.registration = None  # roll again
        elif button is OK and registration.colour is not None:
            name = self.settings.players[s.player]
            s.players.append(PlayerDice(name, registration.colour))
            s.measures.append(registration.measures)
            s.registration = None
            if s.player + 1 < len(self.settings.players):
                s.player += 1
            else:
                self._fit_sizes()
                self._go(Step.SIZES)

    def _fit_sizes(self) -> None:
        s = self.s
        try:
            dice = dice_section([m for ms in s.measures for m in ms])
        except CalibrationError as error:
            s.dice, s.reader, s.sizes_error = None, None, str(error)
            return
        # Every player's dice must be read, also those whose pips were not measured.
        polarity = players_polarity(s.measures, [p.colour for p in s.players])
        s.dice = dice if polarity == dice.pip_polarity else replace(dice, pip_polarity="both")
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
        assert s.reader is not None
        reading = self.eyes.read(image, s.reader, s.corners)
        s.current = _CheckRoll(tuple(d.value for d in reading.dice), image)
        s.current_boxes = _marks(reading)

    def _on_check(self, button: Button, times: int) -> None:
        s = self.s
        current = s.current
        if current is None:
            return
        if button is OK and current.read and all(v is not None for v in current.read):
            current.truth = tuple(v for v in current.read if v is not None)
            self._next_check()
        elif button in (OK, NO):
            s.entry = [v if v is not None else 1 for v in current.read[:3]]
            s.entry += [1] * (3 - len(s.entry))
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
                tuple(d.value for d in self.eyes.read(c.image, reader, s.corners).dice)
                for c in s.checks
            ])
        tallies = [
            sum((roll_tally(r, c.truth or ()) for r, c in zip(rs, s.checks, strict=True)),
                Tally())
            for rs in reads
        ]
        best = best_reader(tallies)
        s.live_right = sum(c.right for c in s.checks)
        s.reader = candidates[best]
        for check, read in zip(s.checks, reads[best], strict=True):
            check.read = read

    def _on_result(self, button: Button, times: int) -> None:
        s = self.s
        if button is OK:
            self.profile = self.build_profile()
            self._go(Step.SAVED)
        elif button is NO:
            s.checks, s.current = [], None
            self._go(Step.CHECK)

    def _on_saved(self, button: Button, times: int) -> None:
        """Nothing more to do: the runner closes the screen."""

    def _go(self, step: Step) -> None:
        self.s.step = step
        self.s.note = ""

    def _back(self) -> None:
        """The outer two buttons together: one step back."""
        s = self.s
        step = s.step
        if step is Step.CORNERS or step is Step.LIGHT:
            s.light, s.light_start, s.lock, s.light_elapsed = None, None, None, 0.0
            self._go(Step.TRAY)
        elif step is Step.REFERENCE:
            s.light, s.light_start, s.lock, s.light_elapsed = None, None, None, 0.0
            self._go(Step.LIGHT)
        elif step is Step.COLOURS:
            if s.registration is not None:
                s.registration = None
            elif s.player > 0:
                s.player -= 1
                s.players.pop()
                s.measures.pop()
            else:
                self._go(Step.REFERENCE)
        elif step is Step.SIZES:
            s.player = len(s.players) - 1
            s.players.pop()
            s.measures.pop()
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
        checks = self.s.checks
        return CheckSection(
            rolls=len(checks),
            dice=sum(len(c.truth or ()) for c in checks),
            right=sum(c.right for c in checks),
        )

    def build_profile(self) -> CalibrationProfile:
        s = self.s
        if s.reader is None or s.dice is None or s.corners is None or s.image is None:
            raise CalibrationError("calibration is not finished: go through every step")
        camera = s.lock.settings if s.lock is not None else CameraSettings()
        return CalibrationProfile(
            made_by=self.made_by,
            made_at=self.made_at,
            camera=camera,
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
        s = self.s
        base = CalibrationView(
            screen=s.step.value,
            step=STEP_NUMBER[s.step],
            steps=STEPS,
            title="",
            image=s.image,
            corners=s.corners,
            help=HELP_LINES[s.step] if s.help else (),
        )
        view: CalibrationView = {
            Step.TRAY: self._view_tray,
            Step.CORNERS: self._view_corners,
            Step.LIGHT: self._view_light,
            Step.REFERENCE: self._view_reference,
            Step.COLOURS: self._view_colours,
            Step.SIZES: self._view_sizes,
            Step.CHECK: self._view_check,
            Step.ENTER: self._view_enter,
            Step.RESULT: self._view_result,
            Step.SAVED: self._view_saved,
        }[s.step](base)
        if s.help:
            view = replace(view, screen=view.screen + "-help")
        return view

    def _view_tray(self, v: CalibrationView) -> CalibrationView:
        if self.s.corners is None:
            return replace(
                v, title="Looking for the tray…",
                lines=("Point the camera so that the whole tray is in the picture.",
                       "Take everything out of the tray."),
                hints=_hints(),
            )
        return replace(
            v, title="Is this the tray?",
            lines=("The yellow line should run along the tray's floor.",),
            hints=_hints(ok="yes, go on", no="move the corners"),
        )

    def _view_corners(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        how = "sideways" if s.sideways else "in and out"
        names = ("top left", "top right", "bottom right", "bottom left")
        return replace(
            v, screen=f"corners-{s.corner + 1}",
            title=f"Corner {s.corner + 1} of 4: {names[s.corner]}",
            lines=(f"− and + move the marked corner {how} (hold: faster).",),
            selected_corner=s.corner,
            hints=_hints(minus="move " + ("back" if s.sideways else "in"),
                         plus="move " + ("on" if s.sideways else "out"),
                         ok="next corner" if s.corner < 3 else "done",
                         no="switch: in/out" if s.sideways else "switch: sideways"),
        )

    def _view_light(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        if s.light is None:
            total = self.settings.settle_seconds + self.settings.light_seconds
            return replace(
                v, screen="light-settling", title="The camera gets used to the light…",
                lines=("Keep the tray empty and your hands away.",),
                progress=min(s.light_elapsed / total, 0.99), hints=_hints(),
            )
        report = s.light
        lines = [
            f"Brightness {report.mean:.0f} of 255, glare {100 * report.glare:.1f} %, "
            f"flicker {100 * report.flicker:.1f} %.",
        ]
        if s.lock is not None:
            lines.append(s.lock.message)
        warnings = report.warnings
        return replace(
            v, title="The light is good." if not warnings else "Check the light",
            lines=tuple(lines), warnings=warnings,
            hints=_hints(ok="go on", no="measure again"),
        )

    def _view_reference(self, v: CalibrationView) -> CalibrationView:
        return replace(
            v, title="A picture of the empty tray",
            lines=("Take everything out of the tray and keep your hands away, "
                   "then press OK.",),
            hints=_hints(ok="take the picture"),
        )

    def _view_colours(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        name = self.settings.players[s.player]
        swatches = tuple(Swatch(p.name, p.colour) for p in s.players)
        registration = s.registration
        screen = f"colours-{s.player + 1}"
        if registration is None:
            return replace(
                v, screen=screen + "-roll", title=f"{name}: roll your dice",
                lines=("Roll your three dice into the tray, then wait.",
                       "(Everybody else: take your dice out first.)"),
                swatches=swatches, hints=_hints(), waiting_for_roll=s.player,
            )
        marks = _marks(registration.reading)
        if registration.colour is None:
            return replace(
                v, screen=screen + "-none", title="No dice found",
                lines=("Roll again: all dice inside the tray, lying flat.",),
                boxes=marks, swatches=swatches, hints=_hints(no="roll again"),
                waiting_for_roll=None,
            )
        swatches += (Swatch(name, registration.colour, registration.clash_with is not None),)
        warnings: tuple[str, ...] = ()
        if registration.clash_with is not None:
            warnings = (
                f"{name}'s dice look too much like {registration.clash_with}'s: the camera "
                "cannot tell them apart. Use dice of another colour and roll again (✗).",
            )
        return replace(
            v, screen=screen, title=f"{name}'s dice",
            lines=(f"{len(registration.reading.dice)} dice found; this is their colour.",),
            warnings=warnings, boxes=marks, swatches=swatches,
            hints=_hints(ok="keep it", no="roll again"),
        )

    def _view_sizes(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        if s.dice is None:
            return replace(
                v, title="The dice could not be measured",
                lines=(s.sizes_error,), warnings=(s.sizes_error,),
                hints=_hints(no="roll the colours again"),
            )
        d = s.dice
        pips = {"dark": "dark pips on light dice", "light": "light pips on dark dice",
                "both": "dark and light pips"}[d.pip_polarity]
        lines = [f"Dice: {d.die_px:.0f} pixels ({d.die_px_min:.0f} to {d.die_px_max:.0f})."]
        if d.pip_px is not None:
            lines.append(f"Pips: {d.pip_px:.0f} pixels, {pips}.")
        lines.append("Next: a few test rolls to check the reading.")
        return replace(
            v, title="Dice measured", lines=tuple(lines),
            swatches=tuple(Swatch(p.name, p.colour) for p in s.players),
            hints=_hints(ok="test rolls", no="back"),
        )

    def _view_check(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        k = len(s.checks) + 1
        n = self.settings.test_rolls
        if s.current is None:
            return replace(
                v, screen=f"check-{k}-roll", title=f"Test roll {k} of {n}",
                lines=("Anyone: roll three dice into the tray, then wait.",),
                hints=_hints(), waiting_for_roll=(k - 1) % len(self.settings.players),
            )
        read = s.current.read
        sure = bool(read) and all(x is not None for x in read)
        return replace(
            v, screen=f"check-{k}", title=f"Test roll {k} of {n}: are these the dice?",
            lines=("OK if the camera read every die right, ✗ if not.",),
            boxes=s.current_boxes, dice=read,
            hints=_hints(ok="yes, right" if sure else "", no="no, correct them"),
        )

    def _view_enter(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        k = len(s.checks) + 1
        return replace(
            v, screen=f"check-{k}-enter", title="Which dice lie in the tray?",
            lines=(f"Die {s.marked + 1} of 3: + and − change it, OK goes on.",),
            boxes=s.current_boxes, dice=tuple(s.entry), marked=s.marked,
            hints=_hints(minus="one lower", plus="one higher",
                         ok="next die" if s.marked < 2 else "done",
                         no="back one die"),
        )

    def _view_result(self, v: CalibrationView) -> CalibrationView:
        s = self.s
        check = self.check_section()
        accuracy = check.accuracy or 0.0
        lines = [f"{check.right} of {check.dice} dice read right ({100 * accuracy:.0f} %)."]
        if check.right != s.live_right:
            lines.append(f"(Live {s.live_right}; the settings that read them best are kept.)")
        tips: tuple[str, ...] = ()
        if accuracy < GOOD_ENOUGH:
            tips = advice(s.light, s.dice, _size(s.image))
            lines.append("To read better:")
        else:
            lines.append("The camera reads this table well.")
        return replace(
            v, title="Calibration checked", lines=tuple(lines), warnings=tips,
            hints=_hints(ok="save", no="test again"),
        )

    def _view_saved(self, v: CalibrationView) -> CalibrationView:
        return replace(
            v, title="Calibration saved",
            lines=("The table will read the dice with it from now on.",),
            hints=_hints(),
        )


def _hints(minus: str = "", plus: str = "", ok: str = "", no: str = "") -> tuple[Hint, ...]:
    return (Hint("-", minus), Hint("+", plus), Hint("OK", ok), Hint("X", no))


def _marks(reading: FrameReading) -> tuple[BoxMark, ...]:
    return tuple(
        BoxMark(d.box, "?" if d.value is None else str(d.value), d.value is not None)
        for d in reading.dice
    )


def _median_colour(colours: Sequence[RGB]) -> RGB:
    channels = list(zip(*colours, strict=True))
    middle = [sorted(c)[len(c) // 2] for c in channels]
    return (middle[0], middle[1], middle[2])


def _size(image: Image | None) -> tuple[int, int]:
    return (0, 0) if image is None else (int(image.shape[1]), int(image.shape[0]))


_ALWAYS = (
    "− and ✗ together (the outer two buttons): one step back.",
    "+ and OK together (the middle two buttons): this help; any button closes it.",
)
HELP_LINES: dict[Step, tuple[str, ...]] = {
    Step.TRAY: ("OK: the yellow outline is the tray, go on.",
                "✗: move its corners by hand.", *_ALWAYS),
    Step.CORNERS: ("− / +: move the marked corner (hold for faster).",
                   "✗: switch between in-and-out and sideways.",
                   "OK: next corner; after the fourth, go on.", *_ALWAYS),
    Step.LIGHT: ("Wait while the camera settles, then read the warnings.",
                 "OK: go on. ✗: measure the light again (after fixing it).", *_ALWAYS),
    Step.REFERENCE: ("Empty the tray, hands away, then OK takes its picture.", *_ALWAYS),
    Step.COLOURS: ("The player named rolls their own dice and waits.",
                   "OK: keep this colour. ✗: roll again.", *_ALWAYS),
    Step.SIZES: ("OK: start the test rolls. ✗: back to the colours.", *_ALWAYS),
    Step.CHECK: ("Roll three dice and wait for the picture.",
                 "OK: the dice shown are right. ✗: enter the right ones.", *_ALWAYS),
    Step.ENTER: ("+ / −: change the marked die (after 6 comes 1).",
                 "OK: next die (after the third: done). ✗: back one die.", *_ALWAYS),
    Step.RESULT: ("OK: save the calibration. ✗: do the test rolls again.", *_ALWAYS),
    Step.SAVED: _ALWAYS,
}
