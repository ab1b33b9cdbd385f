"""Review of this session's later changes (5c2023c..3d264cb): a die another player left
in the tray at the colour roll, of their darker colour (grey beside white, brown beside
orange), is still pointed out; dice of a player who has had their starting roll,
moved while another's roll was entered by hand, do not count for the next one."""

from __future__ import annotations

import pytest
from table_helpers import BLUE, controller, reading
from test_controller_review4 import enter, hold_ok, rolls
from test_review_change6 import left_in_is_pointed_out

from einhorn_table.rules import Awaiting
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, Settled
from einhorn_table.vision.synth import DICE_PALETTE

WHITE, ORANGE = DICE_PALETTE[0], DICE_PALETTE[7]
GREY, BROWN = (110, 110, 108), (110, 55, 12)

# ------------------------------------------ the colour roll: a darker player's die left in


@pytest.mark.parametrize("theirs, own", [(GREY, WHITE), (BROWN, ORANGE)])
def test_a_die_of_a_darker_players_set_left_in_is_still_pointed_out(
        theirs: tuple[int, int, int], own: tuple[int, int, int]) -> None:
    """Anna's dice are grey (or brown), Ben's white (or orange). One of Anna's dice was
    left in the tray at Ben's colour roll: it looks like a white die in a shadow, and was
    taken for one of Ben's (his colour measured with it), though the camera tells
    Anna's dice from Ben's. A die of a registered player's colour is left in, not shade."""
    left_in_is_pointed_out(theirs, own)


# ------------------------------- a starting roll entered by hand while other dice moved


def test_dice_of_one_who_has_rolled_moved_while_another_enters_do_not_count() -> None:
    """Ben (blue) has had his starting roll; the camera is lost, Ana enters hers by
    hand, and Ben's dice move in the tray meanwhile (the camera back). They were asked
    about as Cem's roll ("not the roller's dice colour"), which Cem could confirm: they
    are none of Cem's, and Ben owes no roll."""
    c, r = controller(("Ana", "Ben", "Cem"))
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([1, 2, 2], BLUE)))
    c.on_tray(CameraLost(2.0, "camera stopped sending frames"))
    c.on_gesture(hold_ok(0, 3.0))
    c.on_tray(CameraBack(4.0))
    c.on_tray(MotionStarted(5.5))  # Ben's dice moved
    enter(c, 0, (6, 6, 5), 5.7)
    c.on_tray(Settled(6.0, reading([1, 2, 2], BLUE)))
    assert rolls(r) == [("Ben", (1, 2, 2)), ("Ana", (6, 6, 5))]
    assert c.pending is None and c.awaiting is Awaiting.START_ROLL
    assert c.notice is not None and c.notice.text == (
        "These dice moved while a roll was entered by hand and do not count: Cem, roll now.")
