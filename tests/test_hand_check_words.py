"""The hand check's titles speak to the roller in one sentence, as the help does.

"Ana, are these your dice?" (the help's own title for that moment, word for word) and
"Ana, enter your dice": a name and a colon before the question ("Ana: enter the
dice") reads as a label on the screen, not as the table talking to the player.
"""

from __future__ import annotations

from table_helpers import BLUE, RED, controller, reading, tap

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.stations.gesture_table import Context, help_title
from einhorn_table.table.controller import TableController
from einhorn_table.table.events import MotionStarted, Settled


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int],
         t: float) -> None:
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


def doubted() -> TableController:
    """Ana's turn; she threw dice of Ben's colour: the screen asks whether they are hers."""
    c, _ = controller()
    roll(c, [6, 6, 5], RED, 0.0)
    roll(c, [1, 1, 2], BLUE, 2.0)
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    roll(c, [2, 3, 4], BLUE, 6.0)
    assert c.pending is not None and c.entry is None
    return c


def test_the_question_is_one_sentence_to_the_roller_as_the_help_says_it() -> None:
    c = doubted()
    view = build_view(c, 8.0)
    assert view.kind is ScreenKind.DOUBT
    assert view.title == "Ana, are these your dice?"
    assert view.title == help_title(Context.CONFIRM_DICE, "Ana")


def test_the_entry_by_hand_is_one_sentence_to_the_roller() -> None:
    c = doubted()
    c.on_gesture(tap(0, Button.DREIFALTIGKEIT, 8.0))  # ✗: enter the dice by hand
    assert c.entry is not None
    view = build_view(c, 8.5)
    assert view.kind is ScreenKind.DOUBT and view.entry
    assert view.title == "Ana, enter your dice"
    assert ":" not in view.title
