"""Review of change 14 (the table at play, its screens, rotation and the demo).

- A press that did nothing was answered for four seconds ("Not your turn, Ben: it is
  Ana's turn to roll"), also once the match had moved on: Ana rolled within those
  seconds, and Ben's own turn was shown under words saying it was not his.
- After a power cut while the table asked about a throw, dice lying beside the last
  roll's (the last roller had left theirs in the tray, as players do) were taken for
  that roll's: the unread throw was never told, the fault the power-cut check was made
  for.
"""

from __future__ import annotations

from table_helpers import reading, tap
from test_table_review7 import after_anas_roll, table

from einhorn_table.ports import Button
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import LyingAtStart, MotionStarted, Settled

W = Button.WUNSCH

UNREAD = ("The table started again with dice in the tray that it did not read. Ben: take "
          "them out, make your call again, and roll.")


def test_an_answer_to_a_press_goes_once_the_turn_moves_on() -> None:
    c, _ = table()
    c.on_gesture(tap(1, W, 3.0))  # Ben presses on Ana's turn
    assert c.notice_at(3.0) == "Not your turn, Ben: it is Ana's turn to roll."
    c.on_tray(MotionStarted(3.5))  # Ana throws at once
    assert c.notice_at(3.6) == "Not your turn, Ben: it is Ana's turn to roll."
    c.on_tray(Settled(4.5, reading([2, 2, 5])))
    assert c.context(1) is Context.CALL
    assert c.notice_at(5.0) == ""  # (it is Ben's turn now)


def test_what_the_table_says_itself_stays_when_the_turn_moves_on() -> None:
    c, _ = after_anas_roll()
    c.on_tray(MotionStarted(5.0))  # Ana's dice nudged
    c.on_gesture(tap(1, W, 5.3))
    c.on_tray(Settled(6.0, reading([])))  # taken out: Ben's call counts
    said = "Nobody threw: Ben's call of Wunsch counts."
    assert c.notice_at(6.0) == said
    c.on_gesture(tap(0, W, 6.5))  # Ana presses: the table's words stay
    assert c.notice_at(6.5) == said


def resumed_at_bens_turn() -> TableController:
    """Ana rolled 2 2 5 (her dice left in the tray); the table starts again at Ben's turn."""
    c, r = after_anas_roll()
    return TableController(c.match, r, [Seat("Ana"), Seat("Ben")])


def test_a_throw_lying_beside_the_last_rolls_dice_is_told_after_a_power_cut() -> None:
    """Ben threw 6 6 1 beside Ana's 2 2 5 and the table asked about it when the power
    went: his throw is unread, though Ana's dice lie there too."""
    c = resumed_at_bens_turn()
    assert c.looks_at_start()
    c.on_tray(LyingAtStart(1.0, reading([2, 6, 2, 6, 5, 1])))
    assert c.unread_at_start == 1
    assert c.notice_at(1.0) == UNREAD


def test_the_dice_of_every_players_last_roll_lying_are_left_as_ever() -> None:
    """Ben's start roll (1 1 2) and Ana's roll (2 2 5) both still lie: nothing unread."""
    c = resumed_at_bens_turn()
    c.on_tray(LyingAtStart(1.0, reading([1, 2, 5, 1, 2, 2])))
    assert c.unread_at_start is None and c.notice_at(1.0) == ""
    c = resumed_at_bens_turn()
    c.on_tray(LyingAtStart(1.0, reading([5, 2, 2])))  # (only Ana's)
    assert c.unread_at_start is None and c.notice_at(1.0) == ""
