"""The table controller: the match flow between the tray, the stations and the rules.

It is stepped by events (:meth:`TableController.on_tray` with the roll watcher's
events, :meth:`TableController.on_gesture` with the stations' gestures); what it
waits for follows from what the rules engine awaits next. Every input goes to
the recorder first and only then into the match, so the screen never shows an
effect that is not on disk; an input the recorder refuses is not taken.
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import (
    CENTRAL,
    Awaiting,
    Bid,
    Call,
    Category,
    Counterparty,
    Input,
    Ledger,
    Match,
    Outcome,
    Phase,
    Roll,
    RuleViolation,
    StartRoll,
    TiebreakRoll,
    Topup,
    TurnResult,
    Undo,
)
from einhorn_table.stations.gesture_table import (
    NEXT_MATCH_AFTER_SECONDS,
    SIGNS,
    Action,
    Context,
    Intent,
    intent_for,
)
from einhorn_table.table.call_lock import (
    HeldCall,
    call_counts_words,
    called_before,
    held_calls_counting,
    toggled,
    too_late_words,
)
from einhorn_table.table.doubt import (
    RGB,
    Doubt,
    DoubtKind,
    alike_seats,
    credited_seat,
    dice_owners,
    judge_reading,
)
from einhorn_table.table.events import (
    CameraBack,
    CameraLost,
    LyingAtStart,
    MotionStarted,
    NotRolled,
    SeenWhole,
    Settled,
    TrayEvent,
)
from einhorn_table.table.history import stash_history
from einhorn_table.table.lying_at_start import looks_at_start, unread_among
from einhorn_table.table.notice_time import notice_shown
from einhorn_table.table.opening import not_open_words, opens_at
from einhorn_table.table.photos import PhotoStore
from einhorn_table.table.recorder import Halt, MatchRecorder, RecorderError
from einhorn_table.table.stash_limit import press_past_stash, stash_limit_words
from einhorn_table.table.still_waiting import (
    ButtonCheck,
    ControlsCheck,
    PressLog,
    Waited,
    asked_now,
    hands_in_check,
    station_check,
    still_waiting_words,
    waited_too_long,
)
from einhorn_table.table.together import rolls_at_once
from einhorn_table.table.undo import (
    LastInputUndo,
    UndoDone,
    call_undone_words,
    echo_of,
    own_call_words,
    presser_named,
    question_words,
    undone_once_words,
    undone_since,
    undone_words,
)
from einhorn_table.vision.results import FrameReading
from einhorn_table.words import counted, joined

if TYPE_CHECKING:
    from einhorn_table.history.view import HistorySummary
    from einhorn_table.ports import Image

ROLL_KINDS = (Awaiting.START_ROLL, Awaiting.ROLL, Awaiting.TIEBREAK_ROLL, Awaiting.TOPUP)
#: How far (camera pixels) the camera's picture may move before the table says so.
CAMERA_MOVED_PX = 4.0
#: How long the tray may keep moving before the screen asks to keep hands out of view
#: (a roll lies still within about two seconds; a hand resting in view never does).
STILL_WAIT_SECONDS = 6.0
#: How soon after the camera comes back a motion is the change seen across the gap (the
#: tray's first pictures differ from its last before the loss), not a throw seen starting.
FOUND_AGAIN_SECONDS = 1.0
#: The inputs that are rolls (a roll taken while dice move was entered by hand).
ROLL_INPUTS = (Roll, StartRoll, TiebreakRoll)


@dataclass(frozen=True)
class PendingRoll:
    """A doubtful reading waiting for the roller: confirm, enter by hand, or roll again."""

    roller: int
    reading: FrameReading
    doubt: Doubt
    time: float
    photo: Image | None = None
    photo_path: str | None = None
    #: Opened by the roller's hold of OK while the camera was lost: nothing was read,
    #: and the tray is not watched until the dice are entered (or the entry is left).
    by_hand: bool = False

    @property
    def confirmable(self) -> bool:
        """Three dice with values: OK may take them as read."""
        values = self.reading.values
        return len(values) == 3 and all(v is not None for v in values)


@dataclass(frozen=True)
class TrayMotion:
    """Something moving in the tray: since when, and what was so as it started (the
    call's lock is put back when nobody rolled after all)."""

    since: float
    #: How many lines the match had recorded when the motion started.
    recorded: int
    call_locked: bool
    #: The question about a roll asked as it started (it stays on the screen while the
    #: tray moves; dice that come to rest anew take its place).
    pending: PendingRoll | None
    #: Whose roll the tray waited for when the motion started (None: nobody's).
    roller: int | None = None


@dataclass(frozen=True)
class CameraGap:
    """The camera was lost: how many lines the match had recorded then, and when it
    came back (None: not yet). Until the tray has lain still once since, what it shows
    may be what happened while nobody watched (dice entered by hand, still lying)."""

    recorded: int
    back: float | None = None


@dataclass
class DiceEntry:
    """Three dice entered by hand: the values so far and the marked die (0..2)."""

    values: list[int]
    position: int = 0


@dataclass(frozen=True)
class Shown:
    """An input that went into the match, with what it did: the screen animates it."""

    time: float
    item: Input
    outcome: Outcome
    before: Ledger
    reading: FrameReading | None = None
    photo: Image | None = None
    #: The other players' rolls thrown in the tray at the same time (name, dice).
    together: tuple[tuple[str, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class Notice:
    text: str
    time: float
    player: int | None = None
    #: The answer to a press that did nothing ("Not your turn"): it never hides a fresh
    #: notice of the table's own (an undo said, the camera moved).
    idle: bool = False
    #: When it leaves the screen, fresh or not: once what it says has passed ("the
    #: auction opens in a moment").
    until: float = math.inf
    #: It asks for a throw ("Ana, roll now"): it leaves the screen once dice move for a
    #: roll (it stood over the roll it asked for, and into the next screen).
    until_thrown: bool = False
    #: It asks to wait while something moves in the tray: it leaves the screen once the
    #: tray lies still again (what it asked for is done).
    until_still: bool = False

    def fresh(self, now: float) -> bool:
        """Whether it is still on the screen at ``now``: for as long as it takes to read
        (see :mod:`einhorn_table.table.notice_time`), and not past ``until``."""
        return notice_shown(self.text, self.time, now) and now < self.until


#: How long a player's help stays on the screen, in seconds, unless asked away.
HELP_SECONDS = 30.0


@dataclass
class HelpRequest:
    player: int
    context: Context
    time: float

    def shown(self, now: float) -> bool:
        """Whether the help is still on the screen at ``now``."""
        return now - self.time < HELP_SECONDS


@dataclass
class Seat:
    """A seat at the table: the name the match knows and the dice colour (RGB) if any.

    ``dice_name`` names the player's set of dice in the history ("red"; the history's
    dice test groups the throws by it); without one, the colour is written as #rrggbb.
    """

    name: str
    dice_colour: RGB | None = None
    dice_name: str | None = None

    @property
    def dice_label(self) -> str | None:
        if self.dice_name:
            return self.dice_name
        if self.dice_colour is not None:
            return "#{:02x}{:02x}{:02x}".format(*self.dice_colour)
        return None


def station_sign(player: int, button: Button) -> str:
    """How the table's notices name ``player``'s ``button``: by the sign it carries
    besides its category ("OK", "✗")."""
    return SIGNS[button]


@dataclass
class HistoryShown:
    """The match history on the screen, opened by ``player`` at ``time``."""

    player: int
    time: float
    summary: HistorySummary


@dataclass
class TableController:
    """The match flow; see the module's description."""

    match: Match
    recorder: MatchRecorder
    seats: Sequence[Seat]
    photos: PhotoStore | None = None
    #: Reads the match history for its screen (None: the table keeps no history).
    archive: Callable[[], HistorySummary] | None = None
    #: The call being made by the player to roll (before the dice move).
    call_draft: Category | None = None
    call_locked: bool = False
    pending: PendingRoll | None = None
    entry: DiceEntry | None = None
    cursor: int = 0
    drafts: dict[int, int] = field(default_factory=dict)
    help: HelpRequest | None = None
    #: Why the last input could not be written down (no input is taken until one is).
    halted: Halt | None = None
    camera_lost: str | None = None
    #: Since the camera was lost, until the tray lies still again after it came back.
    gap: CameraGap | None = None
    notice: Notice | None = None
    last: Shown | None = None
    history: list[tuple[int, ...]] = field(default_factory=list)
    shown_history: HistoryShown | None = None
    #: How many times the tray came to rest (a bot that threw waits for the next one).
    settles: int = 0
    #: When the last game ended (the screen shows the game's end for a while).
    game_ended_at: float | None = None
    #: What moves in the tray, until it lies still again (None: still or empty).
    motion: TrayMotion | None = None
    #: Who last undid an input, when, and what (another player's undo just after is the
    #: same one).
    last_undo: UndoDone | None = None
    #: When a player held OK at the final standings to start the next match (None: not
    #: asked). Whoever runs the loop begins it (``cli.table_app.next_match``).
    next_match_asked: float | None = None
    #: How the notices name a player's button (the station's sign, "OK"); where a
    #: keyboard stands in for the stations, the key the player presses ("key 3").
    button_name: Callable[[int, Button], str] = station_sign
    #: Whether a press that does nothing now is answered on the screen ("Not your turn:
    #: it is Ben's turn to roll"); None: where the notices name the stations' signs (a
    #: desktop demo's keyboard answers its own keys, in the keys' words).
    answers_idle_presses: bool | None = None
    #: Whether the screen offers the starting rolls (and an auction's tie-break) to be
    #: thrown all together, each player's dice of their own colour; False where one
    #: throw is made at a time (the demo: SPACE throws for whoever is next, bots in turn).
    throws_at_once: bool = True
    #: Calls pressed while something moves in the tray, until it lies still again.
    held_calls: list[HeldCall] = field(default_factory=list)
    #: When the player to roll last tapped a call, and when something last started
    #: moving in the tray (None: not yet): the last roll's result gives way to the next
    #: turn once either comes after it.
    called_at: float | None = None
    moved_at: float | None = None
    #: Who holds OK at the final standings, and since when (the screen shows the hold
    #: filling up until it counts); None: nobody does.
    ok_held: tuple[int, float] | None = None
    #: Seconds after the roll that ended a game before bids are taken: as long as the
    #: screen shows that roll and the game's end, a press there (OK to go on) would seal
    #: a bid never seen asked for. 0: at once.
    auction_opens_after: float = 0.0
    #: Seconds after the auction's last bid before top-ups are taken: as long as the
    #: screen shows the bids and who took the unicorn. 0: at once.
    topup_opens_after: float = 0.0
    #: Seconds after a tie's deciding roll for the unicorn before top-ups are taken: as
    #: long as the screen shows that roll. 0: at once.
    roll_shown_for: float = 0.0
    #: The roller told, as the table started again, that dice lay in the tray which it
    #: did not read (a throw it asked about when the power went): until something moves
    #: in the tray or an input is taken. None: nothing to tell.
    unread_at_start: int | None = None
    #: When each player last pressed anything (a station that never does is unplugged,
    #: or its player is thinking: the screen tells which to check after a while).
    pressed_at: PressLog = field(default_factory=PressLog)
    #: What the players the table still waits for should check where their buttons do
    #: nothing ("check your station's plug"; the demo: which keys are theirs), and where
    #: only the button that hands it in does nothing (its wires; the demo: its key).
    controls_check: ControlsCheck = station_check
    button_check: ButtonCheck = hands_in_check
    #: Since when the players' input now asked for has been asked: how many lines the
    #: match had recorded then, and the time of the input that asked it (after a
    #: restart: the time the screen was first built for it).
    asked_since: tuple[int, float] | None = None
    #: Since when the kind of input now asked (an auction's bids, the top-ups, the
    #: owner's choice) has been asked, and which: another player's bid handed in asks the
    #: rest again (``asked_since``), but a player's presses before it still show that
    #: their buttons work.
    asked_first: tuple[Context, float] | None = None

    def __post_init__(self) -> None:
        if [s.name for s in self.seats] != list(self.match.names):
            raise ValueError("the seats must be the match's players, in seat order")
        self.history = stash_history(self.match.setup, self.match.inputs)
        self.call_draft = self.match.state.call

    def looks_at_start(self) -> bool:
        """Whether the tray should read the dice lying in its first picture (which the
        roll watcher takes for the empty tray): where a match goes on at a turn, they may
        be a throw the table was asking about when it stopped (a power cut)."""
        return looks_at_start(self.awaiting, self.match.inputs)

    # ------------------------------------------------------------------ what is asked

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    @property
    def awaiting(self) -> Awaiting:
        return self.match.state.awaiting

    @property
    def tray_busy(self) -> bool:
        """Whether something moves in the tray (dice thrown, a hand)."""
        return self.motion is not None

    @property
    def moving_since_before_undo(self) -> bool:
        """Whether what moves in the tray started moving before an undo taken since: no
        throw of the turn the undo gave back (those dice will not count)."""
        motion = self.motion
        return motion is not None and undone_since(self.match.record, motion.recorded)

    @property
    def seat_colours(self) -> list[RGB | None]:
        """Each seat's dice colour, in seat order (None: not known)."""
        return [seat.dice_colour for seat in self.seats]

    def roller(self) -> int | None:
        """Whose dice the tray waits for now (None: no roll expected)."""
        state = self.match.state
        awaiting = state.awaiting
        if awaiting is Awaiting.TOPUP:
            return state.unicorn
        if awaiting in ROLL_KINDS:
            return state.to_act
        return None

    def context(self, player: int) -> Context:
        """What ``player``'s buttons mean now (the gesture table's context)."""
        if self.shown_history is not None:
            return Context.HISTORY
        if self.pending is not None and self.pending.roller == player:
            return Context.ENTER_DICE if self.entry is not None else Context.CONFIRM_DICE
        state = self.match.state
        awaiting = state.awaiting
        owing = state.owing()
        if awaiting is Awaiting.ROLL and player == state.to_act:
            return Context.CALL
        if awaiting in (Awaiting.START_ROLL, Awaiting.TIEBREAK_ROLL) and player in owing:
            return Context.ROLL  # who starts, an auction's tie, the winner's roll-off
        if awaiting is Awaiting.TOPUP:
            if player in owing:
                return Context.TOPUP
            if player == state.unicorn:
                return Context.CALL
        if awaiting is Awaiting.BID and player in owing:
            return Context.BID
        if awaiting is Awaiting.COUNTERPARTY and player == state.to_act:
            return Context.COUNTERPARTY
        if awaiting is Awaiting.NOTHING and self.archive is not None:
            return Context.FINAL
        return Context.WAIT

    def parties(self) -> tuple[str, ...]:
        """The counterparty choices of the unicorn owner: central, then the others in turn."""
        owner = self.match.state.to_act
        if owner is None:
            return (CENTRAL,)
        count = len(self.names)
        return (CENTRAL, *(self.names[(owner + k) % count] for k in range(1, count)))

    # ------------------------------------------------------------------ the tray

    def on_tray(self, event: TrayEvent) -> None:
        self._on_tray(event)
        self._close_stale_help()

    def _on_tray(self, event: TrayEvent) -> None:
        waiting = self.notice if self.notice is not None and self.notice.until_still else None
        self._tray_news(event)
        if self.motion is None and waiting is not None and self.notice is waiting:
            self.notice = None  # (the tray lies still: the wait it asked for is over)
        if self.motion is None and not isinstance(event, MotionStarted):
            self._take_held_calls(event.time)

    def _tray_news(self, event: TrayEvent) -> None:
        if isinstance(event, CameraLost):
            self.camera_lost = event.reason
            # (Lost again before the tray lay still: the first loss still counts.)
            recorded = self.gap.recorded if self.gap is not None else len(self.match.record)
            self.gap = CameraGap(recorded)
            self._question_unseen()
        elif isinstance(event, CameraBack):
            self.camera_lost = None
            if self.gap is not None:
                self.gap = replace(self.gap, back=event.time)
        elif isinstance(event, MotionStarted):
            self._motion(event)
        elif isinstance(event, NotRolled):
            self._not_rolled(event)
        elif isinstance(event, SeenWhole):
            self._seen_whole(event)
        elif isinstance(event, LyingAtStart):
            self._lying_at_start(event)
        else:
            self._settled(event)

    def _question_unseen(self) -> None:
        """The camera is lost while something moves over the dice asked about (read by
        the camera): whether they were thrown again nobody will see, and the tray will
        not be seen to lie still. The question goes, as for dice thrown again: the
        roller enters the dice by hand (a hold of OK, as the banner says), and a request
        to wait for the tray to lie still is over."""
        motion, pending = self.motion, self.pending
        if motion is None or pending is None or pending.by_hand \
                or motion.pending is not pending:
            return
        self.pending, self.entry = None, None
        if self.notice is not None and self.notice.until_still:
            self.notice = None

    def _lying_at_start(self, event: LyingAtStart) -> None:
        """Dice found lying in the tray as the table started again, a match going on at a
        turn. The dice of the players' last rolls are left to lie, as ever. Others (also
        beside them) are a throw the table did not take before it stopped (a power cut
        while it asked about dice by a hand or cup): the watcher took them for the empty
        tray, and the call made before it was not saved (a call is written with its
        roll). So that throw does not count: the roller is told to take the dice out,
        call again and roll (the table cannot tell a call it never kept)."""
        roller = self.roller()
        if roller is None or not self.looks_at_start() or self.pending is not None \
                or self.motion is not None:
            return
        seen = [v for v in event.reading.values if v is not None]
        if unread_among(self.match.inputs, seen):
            self.unread_at_start = roller

    def _motion(self, event: MotionStarted) -> None:
        gap = self.gap
        if gap is not None and gap.back is not None \
                and event.time - gap.back > FOUND_AGAIN_SECONDS:
            self.gap = None  # the tray was seen as it lay: this is a throw seen starting
        self.unread_at_start = None  # (the dice taken out, or thrown again)
        self.motion = TrayMotion(event.time, len(self.match.record), self.call_locked,
                                 self.pending, self.roller())
        self.moved_at = event.time
        if self.roller() is not None:
            self.call_locked = True  # rules 4.1: the call is locked when the dice move
            if self.notice is not None and self.notice.until_thrown:
                self.notice = None  # (the throw it asked for is made)
        # A question about a roll stays on the screen, its buttons as they were: a hand
        # passing over the dice changes nothing. Only dice that come to rest anew (thrown
        # again, or taken out) take its place (``_settled``).

    def _not_rolled(self, event: NotRolled) -> None:
        """The tray lies still again and nobody rolled (dice moved a little, a hand
        over them, other light): what the motion changed is put back (the next roller's
        call is free again), unless something was decided on the buttons meanwhile. A
        question about the roll never left the screen: it stands, as it stood."""
        self.settles += 1  # a bot whose throw this was throws again
        before, self.motion = self.motion, None
        self._found_again()
        knocked = event.camera_moved_px >= CAMERA_MOVED_PX
        if knocked:
            self._say("The camera moved a little; the table goes on. If rolls are often "
                      "asked about from now on, set it back or calibrate again.", event.time)
        if before is None:
            return
        if before.recorded != len(self.match.record):
            # Inputs were taken while it moved (a bid, a top-up): where it moved while no
            # roll was awaited, or the same roller's turn goes on (nothing undone), the
            # motion locked no call. (An undo while the dice move gives the turn back to
            # the player whose dice moved: their call stays locked; where no die moved,
            # only a hand passing, it is free, as after an undo with the tray still.)
            undone = undone_since(self.match.record, before.recorded)
            if before.roller is None or (undone and event.dice_still):
                self.call_locked = False
            elif before.roller == self.roller() and not undone:
                self.call_locked = before.call_locked
            return
        self.call_locked = before.call_locked

    def _seen_whole(self, event: SeenWhole) -> None:
        """The dice asked about with something lying against them (a hand or cup at the
        rim), seen whole once it has gone: the roll asked about is read again, as if the
        tray had waited. Where nothing of that roll is asked about any more (answered on
        the buttons, taken, undone), it is nobody's roll."""
        before = self.motion
        asked = before.pending if before is not None \
            and before.recorded == len(self.match.record) else None
        if before is None or asked is None or asked.by_hand or self.pending is not asked:
            self._not_rolled(NotRolled(event.time, dice_still=True))
            return
        # The dice seen now include those asked about: they are the whole roll, never
        # the rest of one thrown in two goes (that would count the dice read twice).
        self.motion = replace(before, pending=None)
        self.pending, self.entry = None, None  # (read again in its place)
        self._settled(Settled(event.time, event.reading, event.photo))

    def _settled(self, event: Settled) -> None:
        before, self.motion = self.motion, None
        self.settles += 1
        reading = event.reading
        gap = self._found_again()
        if self.pending is not None and self.pending.by_hand:
            # The camera came back while dice are entered by hand: the entry counts.
            if reading.dice:
                entering = self.pending.roller
                no = self.button_name(entering, Button.DREIFALTIGKEIT)
                self._say(f"{self.names[entering]}: finish entering your dice by hand (or "
                          f"leave with {no} on the first die and roll again)", event.time,
                          entering)
            return
        # The question asked as it started moving, still unanswered: the doubtful dice
        # were thrown again (or taken out); what lies there now is read in its place.
        asked = before.pending if before is not None else None
        standing = asked is not None and self.pending is asked
        if standing:
            self.pending, self.entry = None, None
        if not reading.dice:
            if self.pending is None and (before is None or before.pending is None):
                # The dice were taken out: that was no roll. (Dice taken out after a
                # doubtful reading were rolled: the call stays locked for the roll again.)
                self.call_locked = False
            return
        if gap is not None and gap.recorded != len(self.match.record):
            # The camera found the tray again after dice were entered by hand (or other
            # inputs taken) meanwhile: what lies there is no throw of the turn now, whose
            # call is free again (or as it was, where nothing was taken since it moved).
            self.call_locked = before is not None and before.recorded == len(
                self.match.record) and before.call_locked
            roller = self.roller()
            go_on = f" {self.names[roller]}, roll now." if roller is not None else ""
            self._say("The camera is back. The dice it found in the tray are not read as "
                      f"a roll (they were thrown while it was lost).{go_on}", event.time,
                      roller, until_thrown=roller is not None)
            return
        if self._rolled_together(event):
            return
        roller = self._roller_for(reading)
        if roller is None:
            self._say("No roll is expected now: take the dice out of the tray.", event.time)
            return
        if before is not None and self._thrown_for_another_turn(before, roller, reading):
            self.call_locked = False
            since = self.match.record[before.recorded:]
            if undone_since(self.match.record, before.recorded):
                what = "were thrown before the undo"
            elif any(isinstance(i, ROLL_INPUTS) for i in since):
                what = "moved while a roll was entered by hand"
            else:
                what = f"were thrown before it was {self.names[roller]}'s turn"
            self._say(f"These dice {what} and do not count: "
                      f"{self.names[roller]}, roll now.", event.time, roller,
                      until_thrown=True)
            return
        photo_path = self._save_photo(event)
        reading, two_goes = self._with_first_go(reading, roller,
                                                before if standing else None)
        doubt = judge_reading(reading, roller, self.seat_colours)
        if doubt is None and two_goes:
            doubt = Doubt(DoubtKind.TWO_GOES, "3 dice thrown in two goes")
        if doubt is not None and doubt.kind is DoubtKind.COUNT and len(reading.dice) > 3 \
                and self._throws_together():
            # Several players' dice that could not be told apart (rolls_at_once).
            doubt = Doubt(DoubtKind.COUNT, f"{len(reading.dice)} dice seen, and whose is "
                          "whose is unclear: roll again one by one", again="")
        if doubt is not None and event.held_too_long and doubt.kind is DoubtKind.COUNT \
                and len(reading.dice) < 3:
            # (Told past the tray's limit for waiting: once what lies by the dice goes,
            # they are read again.)
            hidden = "one" if len(reading.dice) == 2 else "two"
            doubt = replace(doubt, again=f": a hand or cup may hide {hidden}. Take it away, "
                            "or roll again")
        if doubt is not None:
            self.pending = PendingRoll(roller, reading, doubt, event.time, event.photo, photo_path)
            self.entry = None
            if not self.pending.confirmable:
                self.entry = DiceEntry(_prefill(reading))
            return
        values = tuple(v for v in reading.values if v is not None)
        extra = self._reading_extra(roller, reading, photo_path, event.time)
        self._commit_roll(roller, values, extra, event.time, reading, event.photo)

    def _found_again(self) -> CameraGap | None:
        """The camera's gap, where the tray lies still for the first time since the
        camera came back (it is over then); else None."""
        gap = self.gap
        if gap is None or gap.back is None:
            return None
        self.gap = None
        return gap

    def _thrown_for_another_turn(self, before: TrayMotion, roller: int,
                                 reading: FrameReading) -> bool:
        """Whether dice that started moving at ``before`` were thrown for a turn that is
        not ``roller``'s now: a roll was entered by hand while they moved (the camera
        came back during the entry), or the match went on to another roller while they
        moved (an undo, the unicorn owner's choice of counterparty, the last bid). In a
        starting roll or an auction's tie-break, dice whose colour tells they are none
        of those entered are the throw of their owner, who still owes one."""
        since = self.match.record[before.recorded:]
        entered = {self.names.index(item.player) for item in since
                   if isinstance(item, ROLL_INPUTS)}
        if entered:
            return not (self._rolls_in_any_order()
                        and self._dice_of_none_of(reading, entered))
        return bool(since) and before.roller != roller and not self._rolls_in_any_order()

    def _dice_of_none_of(self, reading: FrameReading, seats: set[int]) -> bool:
        """Whether all of ``reading``'s dice are of one colour that the camera tells
        apart from the dice of every one of ``seats``, the colour of a player who still
        owes a roll (dice of one who has rolled are no throw of the one asked now)."""
        colours = self.seat_colours
        owners = dice_owners(reading, colours)
        if len(owners) != 1:
            return False
        (owner,) = owners
        if owner is None:
            return False
        sharing = alike_seats(colours, owner)
        return not sharing & seats and bool(sharing & set(self.match.state.owing()))

    def _with_first_go(self, reading: FrameReading, roller: int, before: TrayMotion | None
                       ) -> tuple[FrameReading, bool]:
        """``reading`` with the dice of the roller's first go, where it is the rest of a
        roll thrown in two goes: the roller's reading was asked about (too few dice, or
        a die unclear), and the dice thrown now (the tray does not count those still
        lying where they lay) make three with the first go's dice that were read. True
        with them (the roller confirms: a first go taken out of the tray looks alike)."""
        first = before.pending if before is not None else None
        if first is None or first.by_hand or first.roller != roller \
                or before is None or before.recorded != len(self.match.record) \
                or not 0 < len(reading.dice) < 3:
            return reading, False
        lying = tuple(d for d in first.reading.dice if d.value is not None)
        if len(lying) + len(reading.dice) != 3:
            return reading, False
        return FrameReading(lying + reading.dice), True

    def _save_photo(self, event: Settled) -> str | None:
        """The settled tray's photo kept with the match, where photos are kept."""
        if event.photo is None or self.photos is None:
            return None
        return self.photos.save(event.photo)

    def _rolls_in_any_order(self) -> bool:
        """A starting roll or an auction's tie-break: whoever owes one may roll."""
        state = self.match.state
        return state.awaiting is Awaiting.START_ROLL or state.phase is Phase.AUCTION_TIE

    def _throws_together(self) -> bool:
        """Whether several players may throw at once now (a starting roll or an
        auction's tie-break with more than one of them still to roll)."""
        return self._rolls_in_any_order() and len(self.match.state.owing()) > 1

    def rollers_at_once(self) -> int:
        """How many players' dice may lie in the tray as one throw now (the tray holds
        back a reading short of them while something lies by the dice)."""
        return len(self.match.state.owing()) if self._throws_together() else 1

    def _rolled_together(self, event: Settled) -> bool:
        """Several players' starting rolls (or an auction's tie-break) thrown at once,
        each in their own colour: each player's roll, in seat order. False (nothing
        done) unless :func:`rolls_at_once` is sure whose each die is."""
        state = self.match.state
        if self.pending is not None or not self._throws_together():
            return False
        rolls = rolls_at_once(event.reading, state.owing(), self.seat_colours)
        if rolls is None:
            return False
        photo_path = self._save_photo(event)
        done: list[tuple[str, tuple[int, ...]]] = []
        for roller, own in rolls:
            values = tuple(v for v in own.values if v is not None)
            extra = self._reading_extra(roller, own, photo_path, event.time)
            if not self._commit_roll(roller, values, extra, event.time, own, event.photo):
                break
            done.append((self.names[roller], values))
        if self.last is not None and len(done) > 1:
            self.last = replace(self.last, reading=event.reading, together=tuple(done[:-1]))
        return True

    def _roller_for(self, reading: FrameReading) -> int | None:
        """The roller: by dice colour among those who may roll now, else the next one owing."""
        state = self.match.state
        expected = self.roller()
        if expected is None:
            return None
        if self._rolls_in_any_order():
            colours = self.seat_colours
            # (Dice of no one's colour near enough: the next one owing, asked about them.)
            owner = credited_seat(reading, colours)
            if owner is not None and owner in state.owing():
                # Dice of a colour that several players owing now share: the first
                # of them in seat order, as the screen asks them.
                sharing = alike_seats(colours, owner) & set(state.owing())
                return expected if expected in sharing else min(sharing)
        return expected

    def _commit_roll(
        self,
        roller: int,
        dice: tuple[int, ...],
        extra: dict[str, Any],
        time: float,
        reading: FrameReading | None,
        photo: Image | None,
    ) -> bool:
        name = self.names[roller]
        awaiting = self.awaiting
        # The owner's roll closes the top-ups: a count not done with OK moves nothing.
        unsealed = sorted((p, n) for p, n in self.drafts.items() if n > 0) \
            if awaiting is Awaiting.TOPUP else []
        items: list[Input]
        if awaiting is Awaiting.START_ROLL:
            items = [StartRoll(player=name, dice=_dice(dice), extra=extra)]
        elif awaiting is Awaiting.TIEBREAK_ROLL:
            items = [TiebreakRoll(player=name, dice=_dice(dice), extra=extra)]
        else:
            items = [Roll(player=name, dice=_dice(dice), extra=extra)]
            if self.call_draft != self.match.state.call:
                # (Also a call taken back after an undo: the screen shows it silent, so
                # the match must count it silent.)
                items.insert(0, Call(player=name, call=self.call_draft))
        for item in items:
            if not self._commit(item, time, reading, photo):
                return False
        if unsealed:
            keys = {self.button_name(p, Button.EINHORN) for p, _ in unsealed}
            with_key = f" with {keys.pop()}" if len(keys) == 1 else ""
            who = joined([f"{self.names[p]}'s top-up of {n}" for p, n in unsealed])
            were, it = ("was", "it moves") if len(unsealed) == 1 else ("were", "they move")
            # (In the screen's words: "top up, OK when done", OK's "done".)
            self._say(f"{who} {were} counted but not done{with_key} before the unicorn "
                      f"owner rolled, so {it} nothing", time)
        self.pending = None
        self.entry = None
        self.call_locked = False
        self.call_draft = None
        return True

    # ------------------------------------------------------------------ the buttons

    def on_gesture(self, gesture: Gesture) -> None:
        self._on_gesture(gesture)
        self._close_stale_help()

    def _close_stale_help(self) -> None:
        """The help leaves the screen once its moment is over (a roll, a choice, the next
        turn): it would hide the new moment and tell the buttons of the old one."""
        if self.help is not None and self.context(self.help.player) is not self.help.context:
            self.help = None

    def _on_gesture(self, gesture: Gesture) -> None:
        player = gesture.player
        if not 0 <= player < len(self.names):
            return  # a station without a player at this match
        self.pressed_at.note(player, gesture.time)  # (their station works)
        context = self.context(player)
        intent = intent_for(context, gesture)
        if intent is None:
            self._answer_idle_press(player, gesture, context)
            return
        if intent.action is Action.HELP:
            same = self.help is not None and self.help.player == player
            self.help = None if same else HelpRequest(player, context, gesture.time)
            return
        if self.help is not None and self.help.player == player:
            self.help = None
        if intent.action is Action.HISTORY or (
                context is Context.HISTORY and intent.action is Action.NO):
            self._toggle_history(player, gesture.time)
            return
        if intent.action is Action.NEXT_MATCH:
            self._ask_next_match(player, gesture.time)
            return
        if intent.action is Action.ENTER_BY_HAND:
            if self.camera_lost is None:
                # The camera reads the dice: a hold means nothing here (as ever), which
                # the screen says (a hold of Einhorn to call it).
                self._answer_idle_press(player, gesture, context)
                return
            self._enter_by_hand(player, gesture.time)
            return
        if intent.action is Action.UNDO:
            self._undo(player, context, gesture.time)
            return
        if self.notice is not None and self.notice.player == player:
            # The player it spoke to has read it and does what it asked (a long notice
            # stays long to be read: it would stand over what the press does).
            self.notice = None
        if context is Context.CALL:
            self._call(player, intent, gesture.time, gesture.pressed)
            return
        if context in (Context.BID, Context.TOPUP) and self._not_open_yet(
                player, context, gesture.time):
            return
        handler = {
            Context.COUNTERPARTY: self._counterparty,
            Context.BID: self._number,
            Context.TOPUP: self._number,
            Context.CONFIRM_DICE: self._confirm,
            Context.ENTER_DICE: self._enter,
        }.get(context)
        if handler is not None:
            handler(player, intent, gesture.time)

    def _not_open_yet(self, player: int, context: Context, time: float) -> bool:
        """Whether the bids (``context`` BID) or top-ups (TOPUP) are not taken yet at
        ``time``, the screen still showing the game's end or the auction's result; the
        screen then says so to ``player``."""
        opens = self._opens_at(context)
        if opens is None or time >= opens:
            return False
        self.notice = Notice(not_open_words(context, self.names[player]), time, player,
                             idle=True, until=opens)
        return True

    def _opens_at(self, context: Context) -> float | None:
        """From when the bids (``context`` BID) or top-ups (TOPUP) are taken, where their
        screen waits for the game's end or the auction's result to be seen; None: at once."""
        return opens_at(context, last=self.last, game_ended_at=self.game_ended_at,
                        auction_opens_after=self.auction_opens_after,
                        topup_opens_after=self.topup_opens_after,
                        roll_shown_for=self.roll_shown_for)

    def _toggle_history(self, player: int, time: float) -> None:
        if self.shown_history is not None:
            self.shown_history = None
        elif self.archive is not None:
            self.shown_history = HistoryShown(player, time, self.archive())

    def next_match_opens_at(self) -> float | None:
        """From when a hold of OK at the final standings is taken for a new match (the
        match has been over long enough for everybody to see them); None: at once (a
        match ended before a restart)."""
        return None if self.last is None else self.last.time + NEXT_MATCH_AFTER_SECONDS

    def _ask_next_match(self, player: int, time: float) -> None:
        """A new match is asked for, once the match has been over long enough for everybody
        to see the final standings (a hold by accident right at the end loses nothing)."""
        opens = self.next_match_opens_at()
        if opens is not None and time < opens:
            wait = math.ceil(opens - time)
            ok = self.button_name(player, Button.EINHORN)
            # (Gone once the hold is taken: its count of seconds would stand past it.)
            self._say(f"The final standings stay a moment: hold {ok} again in "
                      f"{counted(wait, 'second')} for a new match.", time, player,
                      until=opens)
            return
        self.next_match_asked = time

    def _enter_by_hand(self, player: int, time: float) -> None:
        """The camera is lost: ``player``, who is to roll (their context is CALL or ROLL),
        threw the dice and enters them by hand (the caller answers the hold otherwise).
        The call is locked as when dice move."""
        if self.pending is not None:
            other = self.names[self.pending.roller]
            ok = self.button_name(player, Button.EINHORN)
            self._say(f"{other} is entering their dice first: hold {ok} again after that.",
                      time, player)
            return
        self.motion = None  # (what moved when the camera went, nobody will ever see)
        self.call_locked = True
        doubt = Doubt(DoubtKind.COUNT, "Camera lost: enter the dice you threw", again="")
        self.pending = PendingRoll(player, FrameReading(()), doubt, time, by_hand=True)
        self.entry = DiceEntry([1, 1, 1])

    def _call(self, player: int, intent: Intent, time: float,
              pressed: float | None = None) -> None:
        """``player`` taps a category at ``time``, its button pressed at ``pressed``
        (None: not known; then at ``time``)."""
        assert intent.button is not None
        category = Button(intent.button).category
        began = time if pressed is None else min(pressed, time)
        if self.call_locked and not called_before(self.motion, player, began,
                                                  len(self.match.record),
                                                  asking=self.pending is not None):
            if self.tray_busy:
                # Kept: where nobody threw after all (a die nudged, a hand), it counts.
                self.held_calls.append(HeldCall(player, category, len(self.match.record)))
            self._say(too_late_words(moving=self.tray_busy), time, player)
            return
        self.call_draft = toggled(self.call_draft, category)
        self.called_at = time
        if self.call_locked and self.motion is not None and time > self.motion.since:
            # Pressed before the dice moved, let go after (only then known to be a tap):
            # made in time (rules 4.1). The screen says so, the dice already moving.
            self._say(f"{self._call_words(player)}: pressed before the dice moved.", time,
                      player)
        elif self.call_draft is None:
            # The same tile tapped again: no tile is lit, which alone is easily taken for
            # a press that did not count. Said until the throw.
            self._say(f"{self._call_words(player)}: tap a category to call again, or "
                      "roll.", time, player, until_thrown=True)

    def _take_held_calls(self, time: float) -> None:
        """The tray lies still again: the calls pressed while it moved count where nobody
        threw (the call is free again, nothing was taken meanwhile), in the order pressed."""
        held, self.held_calls = self.held_calls, []
        taken = held_calls_counting(
            held, free=not self.call_locked and self.pending is None,
            recorded=len(self.match.record),
            calling=lambda player: self.context(player) is Context.CALL)
        for h in taken:
            self.call_draft = toggled(self.call_draft, h.category)
        if taken:
            player = taken[-1].player
            self._say(f"Nobody threw: {self._call_words(player)}.", time, player)

    def _call_words(self, player: int) -> str:
        """What ``player``'s press made of the call, in words: the call that counts now,
        or none."""
        return call_counts_words(self.names[player], self.call_draft)

    def _counterparty(self, player: int, intent: Intent, time: float) -> None:
        parties = self.parties()
        if intent.action is Action.MORE:
            self.cursor = (self.cursor + 1) % len(parties)
        elif intent.action is Action.LESS:
            self.cursor = (self.cursor - 1) % len(parties)
        elif intent.action is Action.OK:
            party = parties[self.cursor % len(parties)]
            self._commit(Counterparty(player=self.names[player], party=party), time)

    def number_limit(self, player: int) -> int:
        """The most stones ``player`` may bid or top up: their stash."""
        return self.match.state.stash[player]

    def _number(self, player: int, intent: Intent, time: float) -> None:
        value = self.drafts.get(player, 0)
        limit = self.number_limit(player)
        context = Context.BID if self.awaiting is Awaiting.BID else Context.TOPUP
        if press_past_stash(context, intent.action, value, limit):
            # (+ with the whole stash counted did nothing, and nothing said why.)
            done = self.button_name(player, Button.EINHORN)
            self._say(stash_limit_words(context, self.names[player], limit, done), time,
                      player)
        if intent.action is Action.MORE:
            self.drafts[player] = min(limit, value + intent.amount)
        elif intent.action is Action.LESS:
            self.drafts[player] = max(0, value - intent.amount)
        elif intent.action is Action.NO:
            self.drafts[player] = 0
        elif intent.action is Action.OK:
            name = self.names[player]
            item: Input = (
                Bid(player=name, stones=value)
                if self.awaiting is Awaiting.BID
                else Topup(player=name, stones=value)
            )
            if self._commit(item, time):
                self.drafts.pop(player, None)

    def _confirm(self, player: int, intent: Intent, time: float) -> None:
        pending = self.pending
        assert pending is not None
        if intent.action is Action.OK and pending.confirmable:
            if self._dice_may_move(player, time):
                return
            values = tuple(v for v in pending.reading.values if v is not None)
            extra = self._reading_extra(player, pending.reading, pending.photo_path,
                                        pending.time)
            extra["confirmed"] = pending.doubt.kind.value
            self._commit_roll(player, values, extra, time, pending.reading, pending.photo)
        elif intent.action is Action.NO:
            self.entry = DiceEntry(_prefill(pending.reading))

    def _dice_may_move(self, player: int, time: float) -> bool:
        """Whether something moves in the tray as ``player`` hands in the dice asked
        about (read by the camera): they may be thrown again, to be read anew, so they
        are taken only once the tray lies still. The screen says so to ``player``."""
        if not self.tray_busy:
            return False
        ok = self.button_name(player, Button.EINHORN)
        self.notice = Notice(f"{self.names[player]}: something moves in the tray. Press "
                             f"{ok} again once it lies still.", time, player,
                             until_still=True)
        return True

    def _undo(self, player: int, context: Context, time: float) -> None:
        """``player``'s undo chord at ``time`` in ``context``: what it takes back, in the
        order :mod:`einhorn_table.table.undo` describes, and what the screen says."""
        echo = echo_of(self.last_undo, player, time)
        if echo is not None:
            # Two players undoing the same slip at once: it is undone once, and the
            # second is told so (it was silent: the player thought it lost).
            self._undone_once(echo, player, time)
            return
        if self.pending is not None:
            # The roll the screen asks about is the misread roll to undo: it is no
            # input yet, so the question goes and the input before it stays.
            what = question_words(self.pending.by_hand)
            by = presser_named(self.names[player], self.names[self.pending.roller])
            self._drop_question(time, f"{undone_words(what, by)}. ")
            self.last_undo = UndoDone(player, time, what, by)
            return
        if context is Context.CALL and not self.call_locked and self.call_draft is not None:
            # The caller's own undo takes back their call (the wrong button they just
            # pressed), not the roll before it, which was someone else's.
            what = own_call_words(self.names[player], self.call_draft)
            self.call_draft = None
            self.called_at = time
            self.last_undo = UndoDone(player, time, what)
            self._say(call_undone_words(what), time, player, until_thrown=True)
            return
        undoing = LastInputUndo.of(self.match.inputs, self.awaiting)
        if not self._commit(Undo(), time):
            return
        by = presser_named(self.names[player], undoing.owner)
        self.last_undo = UndoDone(player, time, undoing.what, by)
        self.pending = None
        self.entry = None
        while undoing.revealed and self.match.inputs \
                and isinstance(self.match.inputs[-1], Bid) and self._commit(Undo(), time):
            pass  # (the rest of the revealed auction's bids)
        said = undoing.said(by)
        if said is not None:  # the table says what went (who undid it), as the cards change
            self._say(said, time)

    def _undone_once(self, echo: UndoDone, player: int, time: float) -> None:
        """``player``'s undo at ``time``, just after ``echo`` (another's), counts once: the
        screen says so, what the table said then kept (who rolls again), or else how to
        go back further."""
        told = self.notice
        said = told.text if told is not None and told.time == echo.time else None
        text, kept = undone_once_words(echo, self.names, player, said)
        if kept and told is not None:
            self.notice = replace(told, text=text, time=time)
        else:
            self._say(text, time, player)

    def _drop_question(self, time: float, why: str = "") -> None:
        """The doubtful roll is not taken: its roller throws again (the call stays
        locked, as for any roll thrown again)."""
        assert self.pending is not None
        roller = self.pending.roller
        self.pending = None
        self.entry = None
        again = (f"throw again, then hold {self.button_name(roller, Button.EINHORN)} to "
                 "enter the dice" if self.camera_lost else "roll again")
        self._say(f"{why}{self.names[roller]}: {again}", time, roller)

    def _enter(self, player: int, intent: Intent, time: float) -> None:
        pending, entry = self.pending, self.entry
        assert pending is not None and entry is not None
        die = entry.values[entry.position]
        if intent.action is Action.MORE:
            entry.values[entry.position] = die % 6 + 1
        elif intent.action is Action.LESS:
            entry.values[entry.position] = (die - 2) % 6 + 1
        elif intent.action is Action.NO:
            if entry.position == 0:
                self._drop_question(time)  # leave: the player rolls again
            else:
                entry.position -= 1
        elif intent.action is Action.OK:
            if entry.position < 2:
                entry.position += 1
                return
            if not pending.by_hand and self._dice_may_move(player, time):
                return
            extra = self._reading_extra(player, pending.reading, pending.photo_path,
                                        pending.time)
            extra["entered"] = "by hand"
            extra["read"] = list(pending.reading.values)
            if pending.by_hand:
                extra["camera"] = "lost"  # nothing was read: the camera gave no picture
            self._commit_roll(player, tuple(entry.values), extra, time, pending.reading,
                              pending.photo)

    # ------------------------------------------------------------------ committing

    def _commit(
        self,
        item: Input,
        time: float,
        reading: FrameReading | None = None,
        photo: Image | None = None,
    ) -> bool:
        """Check ``item`` against the rules, write it down, then apply it. False if refused."""
        try:
            if isinstance(item, Undo):
                if not self.match.inputs:
                    raise RuleViolation("nothing to undo yet", rule="8")
            else:
                copy.deepcopy(self.match.state).apply(item)
        except RuleViolation as error:
            # The reason in the table's words; the rule's section is for the match file.
            self._say(f"Not now: {error.reason}.", time)
            return False
        try:
            self.recorder.append(item)
        except RecorderError as error:
            if self.halted is None:  # (the screen says it in the family's words)
                print(f"einhorn-table: the match could not be saved: {error}", file=sys.stderr)
            self.halted = Halt.of(error)
            return False
        self.halted = None
        before = self.match.ledger()
        outcome = self.match.apply(item)
        self.last = Shown(time, item, outcome, before, reading, photo)
        self.asked_since = (len(self.match.record), time)  # (what comes next is asked now)
        asked = asked_now(self.match.state)
        # (An undo asks anew: presses before it handed in what it took back, so an OK
        # that worked is not told to be broken.)
        if asked is None or self.asked_first is None or self.asked_first[0] is not asked[1] \
                or isinstance(item, Undo):
            self.asked_first = None if asked is None else (asked[1], time)
        if isinstance(outcome, TurnResult) and outcome.game_over:
            self.game_ended_at = time
        self._after_commit(item)
        return True

    def see_held(self, held: dict[int, tuple[Button, ...]], time: float) -> None:
        """The buttons each player holds down now (seen once a frame): a hold of OK alone
        at the final standings is kept with when it was first seen."""
        holding = [p for p, buttons in sorted(held.items())
                   if buttons == (Button.EINHORN,) and self.context(p) is Context.FINAL]
        if not holding:
            self.ok_held = None
        elif self.ok_held is None or self.ok_held[0] not in holding:
            self.ok_held = (holding[0], time)

    def _after_commit(self, item: Input) -> None:
        state = self.match.state
        self.cursor = 0
        self.unread_at_start = None
        if self.notice is not None and self.notice.idle:
            # (Why a press did nothing, said of the moment before: "Not your turn, Ben:
            # it is Ana's turn to roll" stood over Ben's own turn once Ana had rolled.)
            self.notice = None
        owing = set(state.owing()) if state.awaiting in (Awaiting.BID, Awaiting.TOPUP) else set()
        self.drafts = {p: v for p, v in self.drafts.items() if p in owing}
        owner_calling = isinstance(item, Topup) and state.awaiting is Awaiting.TOPUP
        if isinstance(item, Undo) or (state.awaiting is not Awaiting.ROLL
                                      and not owner_calling):
            # (The unicorn owner may call while the others still top up: their top-ups
            # leave that call as it is.)
            self.call_draft = state.call
            self.call_locked = self.tray_busy and self.roller() is not None
        self.history = stash_history(self.match.setup, self.match.inputs)

    def _say(self, text: str, time: float, player: int | None = None,
             until_thrown: bool = False, until: float = math.inf) -> None:
        self.notice = Notice(text, time, player, until=until, until_thrown=until_thrown)

    def _answer_idle_press(self, player: int, gesture: Gesture, context: Context) -> None:
        """A press that means nothing now: the screen says why nothing happened, unless
        the table said something else just now (that stays) or the controls answer it
        themselves (``answers_idle_presses``)."""
        answers = self.answers_idle_presses
        if answers is None:
            answers = self.button_name is station_sign
        told = self.notice
        if not answers or (told is not None and not told.idle and told.fresh(gesture.time)):
            return
        text = self._idle_words(player, gesture, context)
        self.notice = Notice(text, gesture.time, player, idle=True)

    def _idle_words(self, player: int, gesture: Gesture, context: Context) -> str:
        """Why ``player``'s ``gesture`` did nothing in ``context``, and what would."""
        name = self.names[player]
        if context is Context.WAIT:
            return f"Not your turn, {name}: {self.waiting_words()}."
        if context is Context.CALL:
            how = "holding a button" if gesture.kind is GestureKind.LONG \
                else "pressing two buttons together"
            return f"{name}: {how} calls nothing. Tap one button to call, then roll."
        if context is Context.ROLL:
            if self.camera_lost is not None:  # (the tray sees no throw: OK's hold)
                ok = self.button_name(player, Button.EINHORN)
                return (f"{name}: nobody calls in this roll. Throw your three dice, then "
                        f"hold {ok} to enter them by hand.")
            return (f"{name}: nobody calls in this roll. Throw your three dice into the "
                    "tray.")
        if context is Context.CONFIRM_DICE:
            ok = self.button_name(player, Button.EINHORN)
            no = self.button_name(player, Button.DREIFALTIGKEIT)
            return f"{name}: tap {ok} if these are your dice, {no} if not."
        if context in (Context.BID, Context.TOPUP):
            # (A hold of OK or ✗, two buttons together: a tap is asked.)
            less, more, ok = (self.button_name(player, b) for b in
                              (Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN))
            what = "bid" if context is Context.BID else "top-up"
            return f"{name}: tap {less} and {more} to count your {what}, {ok} when done."
        if context is Context.ENTER_DICE:
            less, more, ok, no = (self.button_name(player, b) for b in
                                  (Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN,
                                   Button.DREIFALTIGKEIT))
            # (✗ on the first die leaves the entry for a new throw, as its tile says.)
            back = "roll again" if self.entry is None or self.entry.position == 0 \
                else "go back one"
            return (f"{name}: tap {less} and {more} to change the marked die, {ok} when it "
                    f"is right, {no} to {back}.")
        if context is Context.COUNTERPARTY:
            less, more, ok = (self.button_name(player, b) for b in
                              (Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN))
            return (f"{name}: {less} and {more} choose who pays or is paid, {ok} settles "
                    "with the one shown.")
        if context is Context.FINAL:
            history = self.button_name(player, Button.WUNSCH)
            ok = self.button_name(player, Button.EINHORN)
            return (f"The match is over: tap {history} for the match history, hold {ok} "
                    "for a new match.")
        if context is Context.HISTORY:
            return f"{name}: tap {self.button_name(player, Button.DREIFALTIGKEIT)} to " \
                "close the match history."
        return (f"{name}: that press does nothing here. Tap one button at a time: the "
                "screen shows what each does.")

    def waiting_words(self) -> str:
        """Whom the table waits for, in words: "it is Ben's turn to roll"."""
        state = self.match.state
        names = self.names
        owing = [names[i] for i in state.owing()]
        if self.pending is not None:
            return f"{names[self.pending.roller]} is telling the table their dice"
        if state.awaiting is Awaiting.BID and owing:
            return f"{joined(owing)} still {'bids' if len(owing) == 1 else 'bid'}"
        if state.awaiting is Awaiting.TOPUP and owing:
            return f"{joined(owing)} still {'tops' if len(owing) == 1 else 'top'} up"
        if self._rolls_in_any_order() and len(owing) > 1:
            return f"{joined(owing)} still roll"
        roller = self.roller()
        if roller is not None:
            return f"it is {names[roller]}'s turn to roll"
        if state.awaiting is Awaiting.COUNTERPARTY and state.to_act is not None:
            return f"{names[state.to_act]} chooses who pays or is paid"
        if state.awaiting is Awaiting.NOTHING:
            return "the match is over"
        return "it is another player's turn"

    def notice_at(self, now: float) -> str:
        """What the screen notes at ``now``: the last notice while it is fresh, else a
        request to keep hands out of view while the tray has not lain still for long."""
        if self.notice is not None and self.notice.fresh(now):
            return self.notice.text
        unread = self.unread_at_start
        if unread is not None:
            name = self.names[unread]
            return (f"The table started again with dice in the tray that it did not read. "
                    f"{name}: take them out, make your call again, and roll.")
        if self.motion is not None and now - self.motion.since >= STILL_WAIT_SECONDS \
                and self.camera_lost is None:
            return ("Waiting for the tray to lie still: please keep hands and dice cups "
                    "out of the camera's view. If nothing is in view, push the tray back "
                    "into place, take the dice out and roll again.")
        return self.still_waiting_words(now)

    def still_waiting_for(self, now: float) -> Waited:
        """The players the table has waited for a while at ``now`` for a bid, a top-up or
        the unicorn owner's choice, who have pressed nothing since it was asked (their
        station may be unplugged) or not handed it in (its button may be broken: see
        :func:`waited_too_long`). Not the player to call and roll (the dice show them
        thinking), nor while the table itself waits (the camera lost, dice asked about,
        the match not saved, the history open)."""
        recorded = len(self.match.record)
        if self.asked_since is None or self.asked_since[0] != recorded:
            self.asked_since = (recorded, now)
        asked = asked_now(self.match.state)
        if asked is not None and (self.asked_first is None
                                  or self.asked_first[0] is not asked[1]):
            self.asked_first = (asked[1], self.asked_since[1])  # (after a restart)
        if asked is None or self.pending is not None or self.camera_lost is not None \
                or self.halted is not None or self.shown_history is not None:
            return Waited()
        players, context = asked
        opens = self._opens_at(context) if context is not Context.COUNTERPARTY else None
        since = max(self.asked_since[1], opens or -math.inf)
        # (Presses before the input is taken answer the screen before it: not counted.)
        taken_from = max(self.asked_first[1], opens or -math.inf) \
            if self.asked_first is not None else since
        return waited_too_long(players, since, self.pressed_at, now, pressed_from=taken_from)

    def still_waiting_words(self, now: float) -> str:
        """Whose input the table has waited for a while at ``now``, and what they check
        where their buttons do nothing ("" while nobody's)."""
        return still_waiting_words(self.awaiting, self.names, self.still_waiting_for(now),
                                   self.controls_check, self.button_check)

    def _reading_extra(self, roller: int, reading: FrameReading, photo: str | None,
                       time: float) -> dict[str, Any]:
        """What a roll line keeps besides the dice: photo, confidence, whose dice, time."""
        extra: dict[str, Any] = {}
        if photo:
            extra["photo"] = photo
        if reading.dice:
            extra["confidence"] = round(min(d.confidence for d in reading.dice), 3)
        label = self.seats[self._dice_owner(roller, reading)].dice_label
        if label is not None:
            extra["dice_color"] = label
        extra["t"] = round(time, 3)
        return extra

    def _dice_owner(self, roller: int, reading: FrameReading) -> int:
        """Whose set of dice was thrown: the one all dice look like, else the roller's."""
        colours = self.seat_colours
        owners = dice_owners(reading, colours)
        if len(owners) == 1:
            (owner,) = owners
            if owner is not None and owner not in alike_seats(colours, roller):
                return owner
        return roller


def _dice(values: tuple[int, ...]) -> tuple[int, int, int]:
    a, b, c = values
    return (a, b, c)


def _prefill(reading: FrameReading) -> list[int]:
    """The values to start entering from: what was read, 1 where nothing was."""
    values = [v or 1 for v in reading.values[:3]]
    return values + [1] * (3 - len(values))
