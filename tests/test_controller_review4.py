"""Review 4 of the table controller: readings credited to the right player and turn.

A roll entered by hand while the camera was lost is not read again, as the next
player's roll, when the camera comes back (or when the tray settles late on the same
dice); dice that started moving for one turn do not count for another; dice that land
in two goes are read together and confirmed; and a bot's turn while the camera is lost.
"""

from __future__ import annotations

import random

from table_helpers import BLUE, RED, MemoryRecorder, controller, reading, tap

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher
from einhorn_table.ports import Button, Frame, Gesture, GestureKind
from einhorn_table.rules import (
    EINHORN,
    Awaiting,
    Counterparty,
    Match,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
    Topup,
)
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.bots import BotDriver, Press, Throw
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.doubt import DoubtKind
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, Settled
from einhorn_table.vision.results import FrameReading

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT



def hold_ok(player: int, t: float) -> Gesture:
    return Gesture(player, GestureKind.LONG, (E,), t)


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int] = RED,
         t: float = 0.0) -> None:
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


def enter(c: TableController, player: int, dice: tuple[int, ...], t: float) -> None:
    """Enter ``dice`` by hand from the marked die on (+ steps it, OK goes on)."""
    for die in dice:
        assert c.entry is not None
        while c.entry.values[c.entry.position] != die:
            c.on_gesture(tap(player, W, t))
        c.on_gesture(tap(player, E, t))


def started(colours: bool = True) -> tuple[TableController, MemoryRecorder]:
    """Ana starts; it is her turn. Without ``colours``: the family's one set of dice."""
    c, r = controller()
    roll(c, [6, 6, 5], RED)
    roll(c, [1, 1, 2], BLUE)
    if not colours:
        c.seats = [Seat(s.name) for s in c.seats]
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    return c, r


def rolls(r: MemoryRecorder) -> list[tuple[str, tuple[int, ...]]]:
    return [(i.player, tuple(i.dice)) for i in r.items
            if isinstance(i, Roll | StartRoll | TiebreakRoll)]


def by_hand(c: TableController, player: int, dice: tuple[int, ...], t: float) -> None:
    c.on_gesture(hold_ok(player, t))
    assert c.pending is not None and c.pending.by_hand
    enter(c, player, dice, t)


# ------------------------------------------------------------- the camera coming back


def test_the_camera_back_does_not_pay_the_next_player_for_dice_entered_by_hand() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    by_hand(c, 0, (2, 2, 3), 11.0)
    assert rolls(r)[-1] == ("Ana", (2, 2, 3)) and c.roller() == 1
    # The camera comes back: its first picture shows Ana's dice, lying in the tray.
    c.on_tray(CameraBack(20.0))
    c.on_tray(MotionStarted(20.0))
    c.on_tray(Settled(20.6, reading([2, 2, 3])))
    assert rolls(r)[-1] == ("Ana", (2, 2, 3)), "Ben never threw"
    assert c.pending is None and c.roller() == 1
    assert not c.call_locked, "Ben may still call"
    assert c.notice is not None and "Ben, roll now" in c.notice.text
    c.on_gesture(tap(1, U, 22.0))  # Ben calls, then throws: that counts
    roll(c, [1, 2, 3], t=23.0)
    assert rolls(r)[-1] == ("Ben", (1, 2, 3))
    assert c.match.ledger().player("Ben").game_stones == 6 + 2  # Unvermeidlich called


def test_a_late_settle_after_the_entry_is_not_the_next_players_roll() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    c.on_gesture(hold_ok(0, 11.0))
    c.on_gesture(tap(0, W, 11.5))
    c.on_gesture(tap(0, E, 11.6))  # first die: 2
    c.on_tray(CameraBack(12.0))  # the camera comes back while Ana enters her dice
    c.on_tray(MotionStarted(12.0))
    enter(c, 0, (2, 3), 12.3)
    assert rolls(r)[-1] == ("Ana", (2, 2, 3))
    c.on_tray(Settled(12.8, reading([2, 2, 3])))  # the tray settles on her dice late
    assert rolls(r)[-1] == ("Ana", (2, 2, 3)) and c.pending is None
    assert not c.call_locked and c.roller() == 1


def test_dice_moving_while_a_roll_was_entered_by_hand_do_not_count_for_the_next() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    c.on_gesture(hold_ok(0, 11.0))
    c.on_tray(CameraBack(12.0))  # nothing had changed in the tray meanwhile
    c.on_tray(MotionStarted(15.0))  # ... then Ana's hand moves her dice
    enter(c, 0, (2, 2, 3), 15.5)
    c.on_tray(Settled(16.0, reading([2, 2, 3])))
    assert rolls(r)[-1] == ("Ana", (2, 2, 3)) and c.pending is None
    assert not c.call_locked and c.roller() == 1
    assert c.notice is not None and c.notice.text == (
        "These dice moved while a roll was entered by hand and do not count: Ben, roll now.")


def test_a_throw_during_the_loss_with_nothing_entered_counts_for_the_roller() -> None:
    c, r = started(colours=False)
    c.on_gesture(tap(0, W, 9.0))
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    c.on_tray(CameraBack(14.0))  # Ana threw meanwhile, waiting for the camera
    c.on_tray(MotionStarted(14.0))
    c.on_tray(Settled(14.6, reading([5, 5, 1])))
    assert rolls(r)[-1] == ("Ana", (5, 5, 1))
    assert c.match.ledger().player("Ana").game_stones == 7 + 2  # her Wunsch counts


def test_after_the_camera_came_back_to_an_unchanged_tray_the_next_throw_counts() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    by_hand(c, 0, (2, 2, 3), 11.0)
    c.on_tray(CameraBack(20.0))  # Ana had taken her dice out before the camera came
    c.on_tray(MotionStarted(24.0))  # Ben throws, seconds later
    c.on_tray(Settled(24.8, reading([4, 4, 4])))
    assert rolls(r)[-1] == ("Ben", (4, 4, 4))


def test_the_tray_found_empty_again_ends_the_gap() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    by_hand(c, 0, (2, 2, 3), 11.0)
    c.on_tray(CameraBack(20.0))
    c.on_tray(MotionStarted(20.0))
    c.on_tray(Settled(20.5, FrameReading(())))  # the dice were taken out meanwhile
    c.on_tray(MotionStarted(20.9))  # Ben throws at once
    c.on_tray(Settled(21.5, reading([4, 4, 4])))
    assert rolls(r)[-1] == ("Ben", (4, 4, 4))


def test_a_camera_lost_twice_before_the_tray_lay_still_still_remembers_the_entry() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    by_hand(c, 0, (2, 2, 3), 11.0)
    c.on_tray(CameraBack(20.0))
    c.on_tray(MotionStarted(20.0))
    c.on_tray(CameraLost(20.2, "camera stopped sending frames"))  # a loose cable
    c.on_tray(CameraBack(23.0))
    c.on_tray(Settled(23.5, reading([2, 2, 3])))
    assert rolls(r)[-1] == ("Ana", (2, 2, 3)) and c.roller() == 1 and c.pending is None


def auction_tie(c: TableController) -> None:
    """Ana wins the game with a Dreifaltigkeit called; both bid 0: a tie-break."""
    c.on_gesture(tap(0, D, 1.0))
    roll(c, [3, 3, 3], t=2.0)
    for player in (0, 1):
        c.on_gesture(tap(player, E, 3.0))
    assert c.awaiting is Awaiting.TIEBREAK_ROLL


def test_a_tiebreak_entered_by_hand_is_not_read_again_as_the_owners_first_roll() -> None:
    c, recorder = started(colours=False)
    auction_tie(c)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    by_hand(c, 0, (6, 2, 4), 11.0)
    by_hand(c, 1, (2, 3, 4), 13.0)
    assert c.awaiting is Awaiting.TOPUP and c.roller() == 0  # Ana took the unicorn
    c.on_tray(CameraBack(20.0))
    c.on_tray(MotionStarted(20.0))
    c.on_tray(Settled(20.5, reading([2, 3, 4])))  # Ben's tie-break dice, lying there
    assert c.awaiting is Awaiting.TOPUP, "the top-ups are still open"
    assert isinstance(recorder.items[-1], TiebreakRoll)
    c.on_gesture(tap(1, E, 22.0))  # Ben tops up 0 ...
    assert isinstance(recorder.items[-1], Topup)


class Plug:
    """A synthetic camera whose cable can be pulled: while out, it reads nothing (the
    dice thrown meanwhile still land in the tray)."""

    description = "synthetic camera on a loose cable"
    simulated = True

    def __init__(self, inner: SynthSource) -> None:
        self.inner = inner
        self.out = False

    def open(self) -> None:
        if self.out:
            raise SourceError("camera unplugged")

    def read(self) -> Frame | None:
        if self.out:
            while self.inner.frames_queued:
                self.inner.read()
            raise SourceError("camera unplugged")
        return self.inner.read()

    def close(self) -> None:
        pass

    def __enter__(self) -> Plug:
        return self

    def __exit__(self, *args: object) -> None:
        pass


def test_through_the_real_tray_the_camera_back_does_not_pay_the_next_player() -> None:
    clock = FakeClock(100.0)
    camera = SynthSource(clock, seed=3, players=2, size=(240, 180))
    camera.open()
    plug = Plug(camera)
    tray = VisionTray(plug, make_watcher(), make_reader(), clock)
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Ben"], games=10))
    match.apply(StartRoll(player="Ana", dice=(6, 6, 5)))
    match.apply(StartRoll(player="Ben", dice=(1, 1, 2)))
    recorder = MemoryRecorder()
    c = TableController(match, recorder, [Seat("Ana"), Seat("Ben")])  # one set of dice

    def run(seconds: float) -> None:
        end = clock.now + seconds
        while clock.now < end:
            for event in tray.poll():
                c.on_tray(event)
            clock.advance(1 / 30)

    run(1.0)
    plug.out = True
    run(1.0)
    assert c.camera_lost is not None
    camera.roll([2, 2, 3], player=0, settle_frames=2)  # Ana throws, unseen
    run(1.0)
    by_hand(c, 0, (2, 2, 3), clock.now)
    plug.out = False
    run(5.0)
    assert c.camera_lost is None
    assert rolls(recorder) == [("Ana", (2, 2, 3))], "Ben never threw"
    assert c.roller() == 1 and c.pending is None and not c.call_locked
    camera.roll([1, 3, 5], player=1, settle_frames=2)  # now Ben throws
    run(4.0)
    assert rolls(recorder)[-1][0] == "Ben" and sorted(rolls(recorder)[-1][1]) == [1, 3, 5]


# ------------------------------------------------------------- dice thrown in two goes


def test_dice_landing_in_two_goes_are_read_together_and_confirmed() -> None:
    c, r = started()
    c.on_gesture(tap(0, W, 1.0))
    roll(c, [4, 4], t=2.0)  # the third die fell off the table
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COUNT
    # Ana throws the third die in; the tray tells only the die thrown now (the two
    # lying where they lay are the last rest's).
    roll(c, [6], t=5.0)
    pending = c.pending
    assert pending is not None and pending.doubt.kind is DoubtKind.TWO_GOES
    assert pending.reading.values == (4, 4, 6) and pending.confirmable
    view = build_view(c, 6.5)
    assert view.kind is ScreenKind.DOUBT and view.title == "Ana, are these your dice?"
    assert view.subtitle.startswith("3 dice thrown in two goes")
    assert c.context(0) is Context.CONFIRM_DICE
    c.on_gesture(tap(0, E, 7.0))
    assert rolls(r)[-1] == ("Ana", (4, 4, 6))
    roll_line = r.items[-1]
    assert isinstance(roll_line, Roll) and roll_line.extra["confirmed"] == "two_goes"
    assert c.match.ledger().player("Ana").game_stones == 7 + 2  # her Wunsch called


def test_an_unclear_die_thrown_again_is_read_with_the_two_lying() -> None:
    c, r = started()
    roll(c, [3, None, 5], t=2.0)
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.ABSTAINED
    roll(c, [1], t=5.0)  # she throws the cocked die again
    assert c.pending is not None and c.pending.reading.values == (3, 5, 1)
    c.on_gesture(tap(0, E, 7.0))
    assert rolls(r)[-1] == ("Ana", (3, 5, 1))


def test_all_three_thrown_again_replace_the_first_go() -> None:
    c, r = started()
    roll(c, [4, 4], t=2.0)
    roll(c, [1, 2, 2], t=5.0)
    assert c.pending is None and rolls(r)[-1] == ("Ana", (1, 2, 2))


def test_a_die_after_a_roll_taken_is_not_added_to_the_next_players_question() -> None:
    c, r = started()
    roll(c, [4, 4, 6], t=2.0)
    assert rolls(r)[-1] == ("Ana", (4, 4, 6))
    roll(c, [2], BLUE, t=5.0)
    assert c.pending is not None and c.pending.roller == 1
    assert c.pending.reading.values == (2,) and c.pending.doubt.kind is DoubtKind.COUNT


# ------------------------------------------------------------- dice thrown for another turn


def owner_rolls(c: TableController, values: list[int | None], t: float) -> None:
    """Ana rolls an Einhorn (takes the unicorn), Ben rolls, then Ana, the owner, rolls."""
    roll(c, [1, 3, 5], RED, t)
    roll(c, [2, 2, 3], BLUE, t + 2)
    roll(c, values, RED, t + 4)


def test_dice_thrown_while_the_owner_chooses_do_not_count_for_the_next_player() -> None:
    c, r = started()
    owner_rolls(c, [2, 2, 4], 2.0)
    assert c.awaiting is Awaiting.COUNTERPARTY
    c.on_tray(MotionStarted(10.0))  # dice move before Ben's turn
    c.on_gesture(tap(0, E, 10.3))  # Ana chooses the central stash meanwhile
    assert isinstance(r.items[-1], Counterparty) and c.roller() == 1
    c.on_tray(Settled(11.0, reading([6, 6, 6], BLUE)))
    assert rolls(r)[-1] == ("Ana", (2, 2, 4)), "Ben could not call before that throw"
    assert not c.call_locked and c.pending is None
    assert c.notice is not None and "Ben, roll now" in c.notice.text
    c.on_gesture(tap(1, D, 12.0))
    roll(c, [6, 6, 6], BLUE, 13.0)
    assert rolls(r)[-1] == ("Ben", (6, 6, 6)) and c.match.state.call is None


def test_the_owners_throw_while_the_others_top_up_still_counts() -> None:
    c, r = started()
    auction_tie(c)
    roll(c, [6, 6, 5], RED, 4.0)
    roll(c, [1, 1, 2], BLUE, 6.0)  # Ana wins the tie-break and the unicorn
    assert c.awaiting is Awaiting.TOPUP and c.roller() == 0
    c.on_tray(MotionStarted(8.0))  # Ana throws while Ben still tops up
    c.on_gesture(tap(1, E, 8.2))
    c.on_gesture(tap(0, E, 8.3))
    c.on_tray(Settled(9.0, reading([2, 3, 4])))
    assert rolls(r)[-1] == ("Ana", (2, 3, 4))


# ------------------------------------------------------------- a bot's turn, camera lost


def test_a_bots_turn_goes_on_by_hand_while_the_camera_is_lost() -> None:
    c, r = started(colours=False)
    c.on_tray(CameraLost(10.0, "camera stopped sending frames"))
    bots = BotDriver(frozenset({0, 1}), [make_strategy("silent")] * 2, random.Random(3))
    t = 11.0
    for _ in range(200):  # the bots' moves, as the loop performs them (no tray events)
        for move in bots.moves(c, t):
            if isinstance(move, Press):
                kind = GestureKind.CHORD if len(move.buttons) == 2 else (
                    GestureKind.LONG if move.long else GestureKind.TAP)
                c.on_gesture(Gesture(move.player, kind, move.buttons, t))
            else:
                assert isinstance(move, Throw)  # into the tray: the camera sees nothing
        t += 0.5
        if len(rolls(r)) >= 4:
            break
    assert len(rolls(r)) >= 4, "the bots' turns go on by hand"


def test_the_question_counts_the_dice_in_good_english() -> None:
    from einhorn_table.table.doubt import judge_reading

    def said(values: list[int | None]) -> str | None:
        doubt = judge_reading(reading(values, RED), 0, [RED, BLUE])
        return None if doubt is None else doubt.message

    assert said([4]) == "1 die seen, not 3"
    assert said([4, 5]) == "2 dice seen, not 3"
    assert said([]) == "No dice seen, not 3"
    assert said([4, 5, 6]) is None
