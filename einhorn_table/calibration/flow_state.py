"""The calibration flow's state: its steps, settings and what it has gathered so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.fit import CalibrationError, roll_tally
from einhorn_table.calibration.geometry import Corners
from einhorn_table.calibration.light import LightReport, LightSample
from einhorn_table.calibration.profile import CheckSection, DiceSection, PlayerDice
from einhorn_table.calibration.seeing import RGB, DieMeasure, Image, RestWatch
from einhorn_table.calibration.view import BoxMark
from einhorn_table.vision.profile import ReaderProfile

if TYPE_CHECKING:
    from einhorn_table.vision.results import FrameReading



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
#: The dice a player rolls: each player's own three, and three in each test roll.
DICE = 3
#: Below this share of test dice read right the result says the table would misread
#: rolls, gives advice, and offers to calibrate again from step 1.
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
    #: Where no tray was found, the outline marked by hand starts this share of the
    #: picture's width and height in from its edges.
    hand_inset: float = 0.1
    #: Seconds the picture may lie still with something in it the roll watch waits to
    #: go (a hand held over the tray, an arm lying in it) before the screen says so.
    held_seconds: float = 3.0
    #: Whether the table will read the dice with the profile, said when it is saved.
    saved: str = "The table reads the dice with it from now on."

    def __post_init__(self) -> None:
        if not self.players:
            raise CalibrationError("calibrating needs at least one player")
        if self.test_rolls < 1:
            raise CalibrationError("calibrating needs at least one test roll")
        if not 0.0 <= self.hand_inset < 0.5:
            raise CalibrationError(
                f"hand_inset must be 0 or more and below 0.5 (a share of the picture), "
                f"not {self.hand_inset}"
            )


@dataclass
class Registration:
    """One player's roll for their colour, waiting for OK."""

    colour: RGB | None
    reading: FrameReading
    measures: list[DieMeasure]
    clash_with: str | None
    #: Whether the dice found are not all of one colour: another player's die left in
    #: the tray, or a stray one; their colours would be mixed into this player's, also
    #: where three or fewer dice lie in all. Such a roll is not kept. (More dice all of
    #: one colour, a die seen twice, leave the colour as it is; so does a die of the set
    #: that only looks darker: see :mod:`einhorn_table.calibration.dice_set`.)
    mixed: bool = False
    #: Whether the dice look much like the tray's floor (the camera may miss them).
    like_floor: bool = False
    #: The player already registered whose dice colour some of the dice found have
    #: (their dice left in the tray), if any.
    left_in: str | None = None
    #: Which of the dice found (indices) are not this player's, where that can be told:
    #: those of ``left_in``'s colour, else those unlike the colour of most of them.
    odd: tuple[int, ...] = ()

    @property
    def too_many(self) -> bool:
        """More dice than one player's, of more than one colour, lie in the tray."""
        return self.mixed and len(self.reading.dice) > DICE


@dataclass(eq=False)
class CheckRoll:
    #: The dice as read by the flow's reader: when rolled, then as read again by the
    #: reader chosen at the result (:attr:`first` keeps what was read when rolled).
    read: tuple[int | None, ...]
    image: Image
    truth: tuple[int, ...] | None = None
    #: The dice as read when rolled, shown on the screen (None: ``read`` as made).
    first: tuple[int | None, ...] | None = None

    def __post_init__(self) -> None:
        if self.first is None:
            self.first = self.read

    @property
    def right(self) -> int:
        return 0 if self.truth is None else roll_tally(self.read, self.truth).right

    @property
    def right_at_first(self) -> int:
        """Dice read right when rolled (before any reader chosen since read it again)."""
        if self.truth is None or self.first is None:
            return 0
        return roll_tally(self.first, self.truth).right

    @property
    def complete(self) -> bool:
        """Three dice read, each with a value: the parent may confirm it as it is (a die
        missed or one too many must be entered, else the tally would not count it)."""
        return len(self.read) == DICE and all(v is not None for v in self.read)


@dataclass
class FlowState:
    step: Step = Step.TRAY
    image: Image | None = None
    frames: int = 0
    corners: Corners | None = None
    #: Whether the corners were marked by hand from a rectangle (no tray was found).
    by_hand: bool = False
    #: The outline the eyes found at step 1, before any corner was moved: what the tray
    #: found again later is compared with (not the corners as the parent set them).
    found_corners: Corners | None = None
    corner: int = 0
    sideways: bool = False
    light_start: float | None = None
    light_elapsed: float = 0.0
    lock: CameraLock | None = None
    light_samples: list[LightSample] = field(default_factory=list)
    light: LightReport | None = None
    reference: Image | None = None
    #: The tray floor's colour in that picture (None: the eyes do not tell it).
    floor: RGB | None = None
    #: The players whose dice colour, kept, looks much like the floor's.
    like_floor: list[str] = field(default_factory=list)
    #: The dice found in the tray when OK asked for the empty tray's picture (not taken).
    reference_dice: tuple[BoxMark, ...] = ()
    #: What else was seen in the tray then (a hand, an arm, a cup), outlined in red.
    reference_things: tuple[BoxMark, ...] = ()
    #: Whether the tray was found moved when OK asked for that picture (not taken).
    tray_moved: bool = False
    #: Where something was seen in the tray when ✗ took the empty tray's picture all
    #: the same (a stain, a sticker): a die found there that looks as it does in that
    #: picture is that mark, no die.
    stains: tuple[BoxMark, ...] = ()
    watch: RestWatch | None = None
    player: int = 0
    registration: Registration | None = None
    players: list[PlayerDice] = field(default_factory=list)
    measures: list[list[DieMeasure]] = field(default_factory=list)
    #: Which of the rest watch's rests (:meth:`RestWatch.rests`) the dice were last
    #: read at: OK on a roll screen does not read the same dice again.
    rest_read: int | None = None
    #: Whether something has lain still over the tray for :attr:`FlowSettings.held_seconds`
    #: while a roll is waited for (a hand, an arm): the roll screen says to take it out.
    held: bool = False
    #: The players skipped at the colours (not at the table): no colour measured.
    skipped: list[str] = field(default_factory=list)
    dice: DiceSection | None = None
    reader: ReaderProfile | None = None
    sizes_error: str = ""
    checks: list[CheckRoll] = field(default_factory=list)
    current: CheckRoll | None = None
    current_boxes: tuple[BoxMark, ...] = ()
    entry: list[int] = field(default_factory=list)
    marked: int = 0
    help: bool = False
    #: A problem to show on the current screen (cleared on going to another step):
    #: dice in the "empty" tray, the profile that could not be saved.
    note: str = ""


def check_section(checks: Sequence[CheckRoll]) -> CheckSection:
    """The test rolls' tally for the profile: rolls, dice rolled, dice read right."""
    return CheckSection(
        rolls=len(checks),
        dice=sum(len(c.truth or ()) for c in checks),
        right=sum(c.right for c in checks),
    )


def right_at_first(checks: Sequence[CheckRoll]) -> int:
    """Test dice read right when rolled: each roll as the reader of that moment read it
    (a roll made after going back from the result, by the reader chosen there)."""
    return sum(c.right_at_first for c in checks)


def reads_poorly(checks: Sequence[CheckRoll]) -> bool:
    """Whether the test rolls were read too poorly to play with (below GOOD_ENOUGH)."""
    tally = check_section(checks)
    return reads_poorly_tally(tally.right, tally.dice)


def reads_poorly_tally(right: int, dice: int) -> bool:
    """Whether ``right`` of ``dice`` test dice read right is below GOOD_ENOUGH."""
    return right < GOOD_ENOUGH * dice or dice == 0


def may_skip(s: FlowState, settings: FlowSettings) -> bool:
    """Whether the player asked for their roll may be skipped (not at the table): not
    the last one where nobody's dice were measured (the dice sizes need some)."""
    return bool(s.players) or s.player + 1 < len(settings.players)
