"""The table controller, stepped by hand: calls and their lock, doubtful readings,
counterparty, auction, top-up, undo, help, a full disk and a lost camera."""

from __future__ import annotations

from table_helpers import BLUE, RED, MemoryRecorder, chord, controller, reading, tap

from einhorn_table.ports import Button
from einhorn_table.rules import (
    EINHORN,
    Awaiting,
    Bid,
    Call,
    Category,
    Counterparty,
    Match,
    Roll,
    Setup,
    StartRoll,
    Topup,
    Undo,
    replay,
)
from einhorn_table.screen.view_model import build_view
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.controller import Seat, Shown, TableController
from einhorn_table.table.doubt import DoubtKind, nearest_seat
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, NotRolled, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def roll(c, values, colour=RED, t=0.0):  # type: ignore[no-untyped-def]
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


def started():  # type: ignore[no-untyped-def]
    """Ana starts (she rolled the higher sum); it is her turn."""
    c, r = controller()
    roll(c, [6, 6, 5], RED)
    roll(c, [1, 1, 2], BLUE)
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    return c, r


def test_start_rolls_are_recorded_with_the_reading() -> None:
    _, r = started()
    assert [type(i) for i in r.items] == [StartRoll, StartRoll]
    assert r.items[0].extra["confidence"] == 0.95 and "t" in r.items[0].extra


def test_a_call_before_the_dice_move_is_recorded_before_the_roll() -> None:
    c, r = started()
    c.on_gesture(tap(0, W))
    roll(c, [2, 2, 3])
    assert isinstance(r.items[-2], Call) and r.items[-2].call is Category.WUNSCH
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (2, 2, 3)
    assert c.match.ledger().player("Ana").game_stones == 7 + 2


def test_tapping_the_same_category_again_takes_the_call_back() -> None:
    c, r = started()
    c.on_gesture(tap(0, W))
    c.on_gesture(tap(0, E))
    assert c.call_draft is Category.EINHORN
    c.on_gesture(tap(0, E))
    assert c.call_draft is None
    roll(c, [2, 2, 3])
    assert not any(isinstance(i, Call) for i in r.items)


def test_a_call_after_motion_started_counts_as_silent() -> None:
    c, r = started()
    c.on_tray(MotionStarted(5.0))
    c.on_gesture(tap(0, W, 5.2))
    assert c.notice is not None and "Too late" in c.notice.text
    c.on_tray(Settled(6.0, reading([2, 2, 3])))
    assert not any(isinstance(i, Call) for i in r.items)
    assert c.match.ledger().player("Ana").game_stones == 7 - 1  # silent Wunsch pays 1


def test_a_late_change_of_call_keeps_the_call_made_before() -> None:
    c, r = started()
    c.on_gesture(tap(0, U))
    c.on_tray(MotionStarted(5.0))
    c.on_gesture(tap(0, W, 5.1))
    c.on_tray(Settled(6.0, reading([2, 2, 3])))
    assert isinstance(r.items[-2], Call) and r.items[-2].call is Category.UNVERMEIDLICH


def test_dice_taken_out_of_the_tray_unlock_the_call() -> None:
    c, _ = started()
    c.on_tray(MotionStarted(1.0))
    assert c.call_locked
    c.on_tray(Settled(2.0, reading([])))
    assert not c.call_locked
    c.on_gesture(tap(0, W))
    assert c.call_draft is Category.WUNSCH


def test_dice_left_lying_and_bumped_do_not_lock_the_next_call() -> None:
    """Ana's dice still lie in the tray when someone bumps them: that is no roll, so
    Ben, who rolls next, may still make his call."""
    c, r = started()
    roll(c, [2, 2, 3])
    assert c.roller() == 1 and not c.call_locked
    c.on_tray(MotionStarted(5.0))
    assert c.call_locked and c.tray_busy  # it might have been Ben's throw
    settles = c.settles
    c.on_tray(NotRolled(5.6))
    assert not c.call_locked and not c.tray_busy
    assert c.settles == settles + 1, "the tray came to rest: a bot that threw throws again"
    c.on_gesture(tap(1, W, 6.0))
    assert c.call_draft is Category.WUNSCH and c.notice is None
    roll(c, [4, 4, 1], BLUE, t=8.0)
    assert isinstance(r.items[-2], Call) and r.items[-2].call is Category.WUNSCH


def test_other_players_cannot_call() -> None:
    c, _ = started()
    c.on_gesture(tap(1, W))
    assert c.call_draft is None
    assert c.context(1) is Context.WAIT


# ---------------------------------------------------------------- doubtful readings


def test_an_abstained_die_asks_for_the_dice_by_hand_and_records_them() -> None:
    c, r = started()
    before = len(r.items)
    roll(c, [2, None, 3])
    assert len(r.items) == before, "a doubtful reading is never paid out silently"
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.ABSTAINED
    assert c.context(0) is Context.ENTER_DICE
    assert c.entry is not None and c.entry.values == [2, 1, 3]
    c.on_gesture(tap(0, E))  # first die right
    c.on_gesture(tap(0, W))  # 1 -> 2
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(0, E))  # third die right: done
    item = r.items[-1]
    assert isinstance(item, Roll) and item.dice == (2, 2, 3)
    assert item.extra["entered"] == "by hand" and item.extra["read"] == [2, None, 3]
    assert c.pending is None


def test_a_question_about_a_roll_stands_when_the_dice_are_only_moved() -> None:
    """A cocked die pushed flat by hand is no new roll: the question about the roll
    stays as it was, on the screen all along, and nothing needs saying."""
    c, r = started()
    before = len(r.items)
    roll(c, [2, None, 3])
    pending = c.pending
    assert pending is not None
    c.on_gesture(tap(0, E))  # the first die is entered as read
    c.on_tray(MotionStarted(5.0))
    assert c.pending is pending  # (the question stays while the tray moves)
    c.on_tray(NotRolled(5.6, hand_seen=True))
    assert c.pending is pending and c.entry is not None and c.entry.position == 1
    assert c.notice is None
    # The light drifting over the dice: the question stands again, and nothing is said.
    c.on_tray(MotionStarted(8.0))
    assert c.pending is pending
    c.on_tray(NotRolled(8.4))
    assert c.pending is pending and c.entry is not None and c.entry.position == 1
    assert c.notice is None
    assert len(r.items) == before, "the moved dice are not read"
    c.on_gesture(tap(0, W))  # 1 -> 2
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(0, E))
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (2, 2, 3)


def test_a_camera_moved_a_little_is_told_and_the_table_goes_on() -> None:
    c, _ = started()
    roll(c, [2, 2, 3])
    c.on_tray(MotionStarted(5.0))
    c.on_tray(NotRolled(5.6, camera_moved_px=1.5))  # a wobble: nothing to say
    assert c.notice is None and not c.call_locked
    c.on_tray(MotionStarted(7.0))
    c.on_tray(NotRolled(7.6, camera_moved_px=12.0))
    assert c.notice is not None and c.notice.text.startswith("The camera moved a little")
    assert "calibrate again" in c.notice.text
    assert not c.call_locked and c.roller() == 1


def test_an_undo_while_the_dice_move_stands_after_a_nudge() -> None:
    c, r = started()
    roll(c, [2, 2, 3])
    c.on_tray(MotionStarted(5.0))
    c.on_gesture(chord(1, U, D, 5.2))  # Ana's roll is taken back while the dice move
    assert isinstance(r.items[-1], Undo)
    c.on_tray(NotRolled(5.6))
    assert c.roller() == 0 and c.call_locked, "Ana's call stays locked: her dice moved"


def test_two_dice_ask_for_the_dice_by_hand() -> None:
    c, r = started()
    roll(c, [4, 4])
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COUNT
    assert c.entry is not None and c.entry.values == [4, 4, 1]
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(0, U))  # 1 -> 6 (before 1 comes 6)
    c.on_gesture(tap(0, E))
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (4, 4, 6)


def test_four_dice_can_be_rolled_again() -> None:
    c, r = started()
    before = len(r.items)
    roll(c, [1, 2, 3, 4])
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COUNT
    roll(c, [5, 5, 5], t=10.0)  # the player rolls again: the new reading counts
    assert c.pending is None
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (5, 5, 5)
    assert len(r.items) == before + 1


def test_leaving_the_entry_on_the_first_die_waits_for_a_new_roll() -> None:
    c, r = started()
    before = len(r.items)
    roll(c, [1, 2, 3, 4])
    c.on_gesture(tap(0, D))
    assert c.pending is None and len(r.items) == before
    assert c.notice is not None and "roll again" in c.notice.text
    roll(c, [3, 3, 1], t=20.0)
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (3, 3, 1)


def test_dice_of_another_colour_are_confirmed_with_ok() -> None:
    c, r = started()
    roll(c, [1, 3, 5], BLUE)
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COLOUR
    assert c.context(0) is Context.CONFIRM_DICE
    c.on_gesture(tap(1, E))  # not Ben's question
    assert c.pending is not None
    c.on_gesture(tap(0, E))
    item = r.items[-1]
    assert isinstance(item, Roll) and item.dice == (1, 3, 5)
    assert item.extra["confirmed"] == "colour"


def test_players_whose_dice_look_alike_roll_without_a_colour_question() -> None:
    # Ana and Ben play with white dice the camera cannot tell apart (the config's
    # "white" and a calibrated white); Cem's are red.
    white, whitish = (240, 240, 240), (236, 238, 242)
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem"], games=10))
    r = MemoryRecorder()
    c = TableController(match, r, [Seat("Ana", whitish), Seat("Ben", white), Seat("Cem", RED)])
    roll(c, [6, 6, 5], white)  # the start: nearest to Ben's colour, yet Ana's roll
    assert isinstance(r.items[-1], StartRoll) and r.items[-1].player == "Ana"
    roll(c, [1, 1, 2], whitish)
    assert isinstance(r.items[-1], StartRoll) and r.items[-1].player == "Ben"
    roll(c, [1, 2, 2], RED)
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    roll(c, [2, 2, 3], white, t=10.0)  # Ana rolls white dice nearest to Ben's colour
    assert c.pending is None and isinstance(r.items[-1], Roll) and r.items[-1].player == "Ana"
    roll(c, [2, 2, 3], whitish, t=20.0)
    assert c.pending is None and isinstance(r.items[-1], Roll) and r.items[-1].player == "Ben"
    roll(c, [2, 2, 3], white, t=30.0)  # Cem with white dice: asked
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COLOUR


def test_a_starting_roll_of_dice_near_no_ones_colour_is_asked_not_credited_to_the_least_far(
) -> None:
    # Bea's teal dice, her colour only named "green" in table.toml; Ana's white and Cem's
    # blue measured. The teal is a little nearer Cem's blue than the others, yet far
    # from all three: her roll is asked about as hers (the next owing), not given to Cem.
    ana, green, cem = (242, 240, 235), (22, 140, 64), (38, 83, 195)
    teal = (25, 124, 134)
    assert nearest_seat(teal, [ana, green, cem]) == 2
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Bea", "Cem"], games=1))
    r = MemoryRecorder()
    c = TableController(match, r, [Seat("Ana", ana), Seat("Bea", green), Seat("Cem", cem)])
    roll(c, [1, 2, 1], ana)
    roll(c, [6, 5, 4], teal, t=10.0)
    assert [i.player for i in r.items] == ["Ana"]
    assert c.pending is not None and c.pending.doubt.kind is DoubtKind.COLOUR
    assert c.pending.roller == 1
    c.on_gesture(tap(1, E))  # Bea: yes, her dice
    assert isinstance(r.items[-1], StartRoll) and r.items[-1].player == "Bea"
    assert r.items[-1].dice == (6, 5, 4)


def test_a_starting_roll_under_a_brighter_lamp_is_still_credited_by_its_colour() -> None:
    # Orange dice under a lamp 1.6 times as bright as at calibration (read so on the
    # synthetic table): far from their calibrated orange, yet far further from the
    # others'. Cem throws first, before Ana and Bea, and no one is asked.
    red, orange, purple = (216, 37, 46), (252, 131, 31), (135, 55, 176)
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Bea", "Cem"], games=1))
    r = MemoryRecorder()
    c = TableController(match, r, [Seat("Ana", red), Seat("Bea", purple),
                                   Seat("Cem", orange)])
    roll(c, [3, 4, 5], (254, 207, 49))
    assert c.pending is None
    assert [(i.player, i.dice) for i in r.items] == [("Cem", (3, 4, 5))]


def test_dice_of_another_colour_can_be_entered_by_hand() -> None:
    c, r = started()
    roll(c, [1, 3, 5], BLUE)
    c.on_gesture(tap(0, D))  # no: enter by hand
    assert c.context(0) is Context.ENTER_DICE and c.entry is not None
    c.on_gesture(tap(0, W))  # 1 -> 2
    for _ in range(3):
        c.on_gesture(tap(0, E))
    assert isinstance(r.items[-1], Roll) and r.items[-1].dice == (2, 3, 5)


def test_back_in_the_entry_goes_to_the_die_before() -> None:
    c, _ = started()
    roll(c, [2, None, 3])
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(0, D))
    assert c.entry is not None and c.entry.position == 0 and c.pending is not None


# ---------------------------------------------------------------- choices


def owner_rolls(c, values):  # type: ignore[no-untyped-def]
    """Ana takes the unicorn with an Einhorn, Ben rolls, then Ana rolls ``values``."""
    roll(c, [1, 3, 5])
    roll(c, [2, 2, 3], BLUE)
    roll(c, values)


def test_the_unicorn_owner_steps_through_the_counterparties() -> None:
    c, r = started()
    owner_rolls(c, [2, 2, 4])
    assert c.awaiting is Awaiting.COUNTERPARTY and c.context(0) is Context.COUNTERPARTY
    assert c.parties() == ("central", "Ben")
    c.on_gesture(tap(0, W))
    c.on_gesture(tap(0, E))
    item = r.items[-1]
    assert isinstance(item, Counterparty) and item.party == "Ben"


def test_bids_are_secret_drafts_until_sealed() -> None:
    c, r = started()
    # End the game quickly: Ana calls and rolls Dreifaltigkeit (a WIN).
    c.on_gesture(tap(0, D))
    roll(c, [4, 4, 4])
    assert c.awaiting is Awaiting.BID
    assert c.match.state.stash[0] >= 2  # Ana took every game stone
    c.on_gesture(tap(0, W))
    c.on_gesture(tap(0, W))
    c.on_gesture(tap(0, U))
    assert c.drafts[0] == 1
    c.on_gesture(tap(0, E))
    assert isinstance(r.items[-1], Bid) and r.items[-1].stones == 1
    assert c.context(0) is Context.WAIT and c.context(1) is Context.BID
    # Undone while Ben still bids: the table says whose bid went, not how many stones.
    c.on_gesture(chord(1, U, D, 60.0))
    assert isinstance(r.items[-1], Undo) and c.context(0) is Context.BID
    assert c.notice is not None and c.notice.text == "Ben undid Ana's bid"


def test_top_up_and_then_the_owner_rolls() -> None:
    c, r = started()
    c.on_gesture(tap(0, D))
    roll(c, [4, 4, 4])
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(1, E))
    assert c.awaiting in (Awaiting.TOPUP, Awaiting.TIEBREAK_ROLL)
    if c.awaiting is Awaiting.TIEBREAK_ROLL:
        roll(c, [6, 6, 6])
        roll(c, [1, 1, 2], BLUE)
    assert c.awaiting is Awaiting.TOPUP
    c.on_gesture(tap(0, W))
    c.on_gesture(tap(0, E))
    assert isinstance(r.items[-1], Topup)


# ---------------------------------------------------------------- undo, help, trouble


def test_undo_chord_withdraws_the_last_input() -> None:
    c, r = started()
    roll(c, [2, 2, 3])
    c.on_gesture(chord(1, U, D))
    assert isinstance(r.items[-1], Undo)
    assert c.match.ledger().to_act == "Ana" and c.awaiting is Awaiting.ROLL
    # The table says what went: the cards change back, and the players see why.
    # (Ben pressed it, and the roll was Ana's: the screen says who.)
    assert c.notice is not None and c.notice.text == "Ben undid Ana's roll 2 2 3"
    assert build_view(c, c.notice.time + 1).notice == "Ben undid Ana's roll 2 2 3"


def test_help_chord_opens_and_closes_the_help_for_the_moment() -> None:
    c, _ = started()
    c.on_gesture(chord(0, W, E, 3.0))
    assert c.help is not None and c.help.context is Context.CALL
    c.on_gesture(chord(0, W, E, 4.0))
    assert c.help is None


def test_the_bots_wait_while_the_help_is_on_the_screen_and_go_on_once_it_left() -> None:
    import random

    from einhorn_table.simulation.strategies import make_strategy
    from einhorn_table.table.bots import BotDriver
    from einhorn_table.table.controller import HELP_SECONDS

    c, _ = started()  # Ana's turn: Ana is a bot here, Ben asks for the help
    bots = BotDriver(frozenset({0}), [make_strategy("odds"), make_strategy("odds")],
                     random.Random(1))
    c.on_gesture(chord(1, W, E, 3.0))
    assert c.help is not None
    assert bots.moves(c, 3.0 + HELP_SECONDS - 1) == []
    assert bots.moves(c, 3.0 + HELP_SECONDS + 1) != []  # the help left the screen


def test_a_full_disk_refuses_the_input_and_says_so() -> None:
    c, r = started()
    assert isinstance(r, MemoryRecorder)
    r.full = True
    ledger = c.match.ledger()
    roll(c, [6, 6, 6])
    assert c.halted is not None and "disk is full" in c.halted.message
    assert c.match.ledger() == ledger, "nothing changes that was not written down"
    r.full = False
    roll(c, [6, 6, 6], t=30.0)
    assert c.halted is None and isinstance(r.items[-1], Roll)


def test_a_lost_camera_is_shown_and_the_match_is_kept() -> None:
    c, _ = started()
    c.on_tray(CameraLost(1.0, "no frames. Check the cable or run the doctor"))
    assert c.camera_lost == "no frames. Check the cable or run the doctor"
    # What to do comes first, the reason's first sentence after: the banner has 4 lines.
    assert build_view(c, 2.0).banner == (
        "Camera lost: check its cable. To go on without it, throw, then hold OK (Einhorn) "
        "to enter your dice. (No frames.)")
    c.on_tray(CameraBack(5.0))
    assert c.camera_lost is None
    roll(c, [2, 2, 3], t=6.0)
    assert c.match.ledger().to_act == "Ben"


def test_a_tray_that_never_lies_still_asks_to_keep_hands_out_of_view() -> None:
    """A hand resting in the camera's view keeps the tray from lying still, and the
    table from reading anything: after a while the screen says why it waits."""
    c, _ = started()
    c.on_tray(MotionStarted(5.0))
    assert build_view(c, 10.9).notice == ""  # a roll lies still long before this
    assert build_view(c, 11.0).notice == (
        "Waiting for the tray to lie still: please keep hands and dice cups out of the "
        "camera's view. If nothing is in view, push the tray back into place, take the "
        "dice out and roll again.")
    c.on_gesture(tap(0, W, 12.0))  # a notice of its own goes first
    assert "Too late" in build_view(c, 12.5).notice
    c.on_tray(CameraLost(13.0, "no frames"))
    # (Once the "Too late" is read, some 8 seconds: no request to keep hands out of view.)
    assert build_view(c, 20.0).notice == "", "the lost camera's banner says what to do"
    c.on_tray(CameraBack(21.0))
    c.on_tray(Settled(22.0, reading([2, 2, 3])))
    assert build_view(c, 30.0).notice == "" and not c.tray_busy


def test_a_roll_when_none_is_expected_is_ignored_with_a_note() -> None:
    c, r = started()
    owner_rolls(c, [2, 2, 4])
    before = len(r.items)
    roll(c, [1, 1, 1], t=50.0)
    assert len(r.items) == before and c.notice is not None


def test_the_counterparty_question_says_whose_payment_will_be_short() -> None:
    lines = [
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 1}',
        '{"type": "start_roll", "player": "Ana", "dice": [4, 4, 1]}',
        '{"type": "start_roll", "player": "Ben", "dice": [6, 1, 4]}',
        '{"type": "call", "player": "Ben", "call": "unvermeidlich"}',
        '{"type": "roll", "player": "Ben", "dice": [3, 1, 5]}',  # Ben takes the unicorn
        '{"type": "call", "player": "Ana", "call": "wunsch"}',
        '{"type": "roll", "player": "Ana", "dice": [2, 5, 5]}',
        '{"type": "call", "player": "Ben", "call": "unvermeidlich"}',
        '{"type": "roll", "player": "Ben", "dice": [5, 6, 4]}',
        '{"type": "counterparty", "player": "Ben", "party": "Ana"}',
        '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ana", "dice": [3, 2, 2]}',
    ]
    seats = [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")]

    def question(*more: str) -> tuple[str, str]:
        match = replay([*lines, *more])
        before = replay([*lines, *more][:-1]).ledger()
        c = TableController(match, MemoryRecorder(), seats)
        c.last = Shown(10.0, match.record[-1], None, before)
        view = build_view(c, 11.0)
        return view.title, view.subtitle

    # Ben (the owner) rolls Dreifaltigkeit, silent: +5, and Ana holds 4.
    assert question('{"type": "roll", "player": "Ben", "dice": [5, 5, 5]}') == (
        "Ben gets 5: from whom?",
        "The central stash or Ana, who holds only 4 and would pay that")  # (two players)
    # Ben calls Einhorn and rolls Wunsch: he pays 2, and holds 4: nothing is short.
    assert question('{"type": "call", "player": "Ben", "call": "einhorn"}',
                    '{"type": "roll", "player": "Ben", "dice": [5, 5, 4]}') == (
        "Ben pays 2: to whom?", "The central stash, or Ana")
    # Three silent rolls each (-1): Ben holds 1 when he owes 2.
    silent = ['{"type": "roll", "player": "Ben", "dice": [1, 2, 3]}',
              '{"type": "counterparty", "player": "Ben", "party": "central"}',
              '{"type": "roll", "player": "Ana", "dice": [1, 2, 3]}'] * 3
    assert question(*silent, '{"type": "call", "player": "Ben", "call": "einhorn"}',
                    '{"type": "roll", "player": "Ben", "dice": [5, 5, 4]}') == (
        "Ben pays 2: to whom?", "The central stash or Ana: Ben holds only 1 and pays that")



def test_a_die_belongs_to_the_seat_whose_colour_looks_nearest_as_dice_thrown_together_do(
) -> None:
    # Navy dice under a dim lamp: nearer to black in plain RGB numbers, but blue to the
    # eye (and to the grouping of dice thrown together, CIEDE2000).
    black, blue = (20, 20, 20), (40, 60, 200)
    assert nearest_seat((30, 30, 90), [black, blue]) == 1
    assert nearest_seat((30, 30, 90), [None, black]) == 1
    assert nearest_seat((30, 30, 90), [None, None]) is None
