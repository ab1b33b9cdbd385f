"""A notice stays as long as it takes to read it aloud to a child: about four seconds
for a short one, longer for a long one, never past a cap. Before, every notice left
after four seconds, three lines at 800x480 half read. What makes a notice go early
stays (the throw it asks for, an input taken after a press that did nothing), and a
press by the player it speaks to takes it away (they have read it); a press that does
nothing within a fresh notice still gets no answer over it. And a hold where a tap is
asked (a bid, a top-up, the dice entry) says what a tap does there."""

from __future__ import annotations

from table_helpers import reading, tap
from test_presses_say_why import TOPUPS
from test_table_moments import AUCTION, START, THREE, setup_line, table

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Awaiting
from einhorn_table.screen.view_model import build_view
from einhorn_table.table.controller import Notice
from einhorn_table.table.events import MotionStarted, NotRolled, Settled
from einhorn_table.table.notice_time import (
    NOTICE_MOST_SECONDS,
    NOTICE_SECONDS,
    notice_seconds,
)

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT

MOVED = ("The camera moved a little; the table goes on. If rolls are often asked about "
         "from now on, set it back or calibrate again.")


def test_the_reading_time_grows_with_the_notice_between_four_seconds_and_the_cap() -> None:
    assert notice_seconds("Not now: nothing to undo yet.") == NOTICE_SECONDS
    assert NOTICE_SECONDS < notice_seconds("Not your turn, Ben: it is Ana's turn to roll.") < 5
    assert 10.0 < notice_seconds(MOVED) < NOTICE_MOST_SECONDS  # (121 letters)
    assert notice_seconds("x" * 400) == NOTICE_MOST_SECONDS


def test_a_long_notice_stays_long_enough_to_read() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(NotRolled(2.0, camera_moved_px=6.0))  # the camera was knocked
    assert c.notice_at(2.1) == MOVED
    assert c.notice_at(8.0) == MOVED  # (it was gone at 6.0, the second line unread)
    assert c.notice_at(2.0 + notice_seconds(MOVED)) == ""


def test_a_short_notice_still_goes_after_four_seconds() -> None:
    c, _ = table([setup_line(THREE)])
    c.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 1.0))  # an undo: nothing yet
    assert c.notice_at(4.9) == "Not now: nothing to undo yet."
    assert c.notice_at(5.0) == ""


def test_no_notice_stays_past_the_cap() -> None:
    c, _ = table([setup_line(THREE)])
    told = ("Ben sits at a station not in use since the table started: this match has the "
            "same players as before. Restart the table to play with Ben. Changes to the "
            "camera and the screen in table.toml take effect once the table restarts.")
    c.notice = Notice(told, 0.0)  # (the next match's first screen)
    assert c.notice_at(14.9) == told
    assert c.notice_at(NOTICE_MOST_SECONDS) == ""


def test_a_press_that_does_nothing_within_a_long_notice_gets_no_answer_over_it() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(NotRolled(2.0, camera_moved_px=6.0))
    c.on_gesture(tap(1, W, 7.0))  # Ben presses on Ana's turn, the notice half read
    assert c.notice_at(7.1) == MOVED
    c.on_gesture(tap(1, W, 2.0 + notice_seconds(MOVED)))  # (read: now he is answered)
    assert c.notice_at(14.5) == "Not your turn, Ben: it is Ana's turn to roll."


def test_a_long_notice_asking_for_a_throw_still_goes_at_the_throw() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_gesture(tap(0, W, 1.0))
    c.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 2.0))  # Ana takes her call back
    told = c.notice_at(2.1)
    assert told.startswith("Undone: Ana's call of Wunsch") and notice_seconds(told) > 5.0
    assert c.notice_at(6.5) == told
    c.on_tray(MotionStarted(6.6))  # she throws
    assert c.notice_at(6.7) == ""


def test_a_long_answer_to_a_press_that_did_nothing_goes_once_an_input_is_taken() -> None:
    from einhorn_table.table.events import CameraLost

    c, _ = table([setup_line(THREE)])
    c.on_tray(CameraLost(1.0, "camera stopped sending frames"))
    c.on_gesture(tap(1, W, 2.0))  # Ben taps + in the starting rolls
    told = c.notice_at(2.1)
    assert told.startswith("Ben: nobody calls in this roll") and c.notice_at(7.0) == told
    c.on_gesture(Gesture(0, GestureKind.LONG, (E,), 7.5))  # Ana enters her dice by hand
    for k in range(3):
        c.on_gesture(tap(0, E, 8.0 + k))
    assert len(c.match.inputs) == 1 and c.notice_at(10.5) == ""


def test_a_press_by_the_player_a_long_notice_speaks_to_takes_it_away() -> None:
    c, _ = table(TOPUPS)
    assert c.awaiting is Awaiting.TOPUP and c.match.state.stash == [3, 0, 5]
    for k in range(4):
        c.on_gesture(tap(0, W, 100.0 + k))  # Ana: one + past her whole stash
    told = "Ana, your whole stash is 3 stones: OK (done) moves them."
    assert c.notice_at(103.1) == told
    c.on_gesture(tap(2, W, 104.0))  # Cem counts his own: it stays for Ana
    assert c.notice_at(104.1) == told
    c.on_gesture(tap(0, U, 105.0))  # Ana, having read it, counts one back
    assert c.drafts[0] == 2 and c.notice_at(105.1) == ""


def test_a_hold_where_a_tap_is_asked_says_what_a_tap_does() -> None:
    c, _ = table(AUCTION)
    assert c.awaiting is Awaiting.BID
    c.on_gesture(Gesture(0, GestureKind.LONG, (E,), 100.0))  # Ana holds OK to bid
    assert build_view(c, 100.1).notice == "Ana: tap − and + to count your bid, OK when done."
    assert not c.match.state.has_bid(0)
    c, _ = table(TOPUPS)
    c.on_gesture(Gesture(2, GestureKind.CHORD, (W, D), 100.0))  # Cem: + and ✗ together
    assert build_view(c, 100.1).notice == ("Cem: tap − and + to count your top-up, OK when "
                                           "done.")
    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([2, None, 3])))  # a die unread: Ana enters them
    c.on_gesture(Gesture(0, GestureKind.LONG, (W,), 3.0))
    assert build_view(c, 3.1).notice == ("Ana: tap − and + to change the marked die, OK "
                                         "when it is right, ✗ to roll again.")
    assert c.entry is not None and c.entry.values == [2, 1, 3]


def test_the_resume_questions_answer_stays_long_enough_to_read() -> None:
    from einhorn_table.table.controller import Seat
    from einhorn_table.table.resume import Interrupted, ResumePrompt

    c, _ = table([setup_line(THREE), *START])
    prompt = ResumePrompt(Interrupted("3", "2026-11-22 19:40", c.match,
                                      tuple(Seat(n) for n in THREE)), THREE)
    prompt.on_gesture(tap(1, U, 10.0))
    told = prompt.notice_at(10.1)
    assert told.startswith("Ben: tap OK to go on") and prompt.notice_at(16.0) == told
    assert prompt.notice_at(10.0 + notice_seconds(told)) == ""
