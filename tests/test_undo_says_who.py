"""An undo pressed by another player than the one whose input it takes back says who
pressed it ("Ana undid Cem's roll 3 3 2"): at a table of six, a child's chord by mistake
is seen. A player undoing their own input is told as before ("Undone: ...")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from table_helpers import chord, reading, tap
from test_table_moments import AUCTION, START, THREE, roll_line, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.rules import Undo
from einhorn_table.screen.view_model import build_view
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def cems_roll_done():  # type: ignore[no-untyped-def]
    """Ana, Ben and Cem; Ana, Ben and Cem have rolled: Ana's turn again."""
    return table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 4, 6]), roll_line("Cem", [3, 3, 2])])


def test_another_players_undo_names_who_pressed_it() -> None:
    c, r = cems_roll_done()
    c.on_gesture(chord(0, U, D, 10.0))  # Ana undoes Cem's roll
    assert isinstance(r.items[-1], Undo)
    assert c.notice is not None and c.notice.text == "Ana undid Cem's roll 3 3 2"
    assert build_view(c, 10.5).notice == "Ana undid Cem's roll 3 3 2"


def test_an_undo_of_ones_own_input_says_it_as_before() -> None:
    c, _ = cems_roll_done()
    c.on_gesture(chord(2, U, D, 10.0))  # Cem undoes his own roll
    assert c.notice is not None and c.notice.text == "Undone: Cem's roll 3 3 2"


def test_a_second_player_undoing_the_same_slip_is_told_it_counted_once() -> None:
    c, r = cems_roll_done()
    c.on_gesture(chord(0, U, D, 10.0))  # Ana
    c.on_gesture(chord(1, U, D, 10.4))  # and Ben, for the same slip
    assert [i for i in r.items if isinstance(i, Undo)] == [Undo()]
    assert c.notice is not None and c.notice.text == (
        "Undone once (Ana and Ben both asked): Cem's roll 3 3 2. To go back further, "
        "undo again.")


def test_a_question_undone_by_another_names_who_pressed_it_and_who_rolls_again() -> None:
    c, _ = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])])
    c.on_tray(MotionStarted(5.0))
    c.on_tray(Settled(6.0, reading([3, None, 1])))  # Ben's roll, a die unclear
    assert c.pending is not None and c.pending.roller == 1
    c.on_gesture(chord(2, U, D, 7.0))  # Cem takes it back
    assert c.pending is None
    assert c.notice is not None and c.notice.text == "Cem undid the dice as read. Ben: roll again"
    # Ana for the same slip: it counted once, and who rolls again stays said.
    c.on_gesture(chord(0, U, D, 7.5))
    assert c.notice_at(7.5) == ("Undone once (Cem and Ana both asked): the dice as read. "
                                "Ben: roll again")


def test_the_roller_undoing_the_question_about_their_own_roll_says_it_as_before() -> None:
    c, _ = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])])
    c.on_tray(MotionStarted(5.0))
    c.on_tray(Settled(6.0, reading([3, None, 1])))
    c.on_gesture(chord(1, U, D, 7.0))  # Ben himself
    assert c.notice is not None and c.notice.text == (
        "Undone: the dice as read. Ben: roll again")


def test_a_revealed_auction_undone_names_who_pressed_it() -> None:
    c, _ = table(AUCTION)
    for player, stones in ((2, 4), (1, 0), (0, 3)):
        for _ in range(stones):
            c.on_gesture(tap(player, W, 1.0))
        c.on_gesture(tap(player, E, 1.1))
    c.on_gesture(chord(2, U, D, 3.0))  # Cem pressed one too many
    assert c.notice is not None and c.notice.text == (
        "Cem undid the auction. The bids were seen, so everybody bids again")


def test_a_secret_bid_undone_by_another_names_who_pressed_it() -> None:
    c, _ = table(AUCTION)
    c.on_gesture(tap(2, E, 1.0))  # Cem bids 0
    c.on_gesture(chord(1, U, D, 3.0))  # Ben undoes it
    assert c.notice is not None and c.notice.text == "Ben undid Cem's bid"


# ---------------------------------------------------------------- the demo


def test_the_demo_says_who_undid_anothers_roll(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players at the keyboard: Ana throws her starting roll, and Ben's undo keys
    (Q and R together) take it back; the screen says Ben did."""
    pytest.importorskip("pygame")
    from test_demo_review import at_the_keyboard, options, quit_demo, steps_until
    from test_demo_review import tap as key_tap

    from einhorn_table.cli.table_app import run_demo
    from einhorn_table.table.loop import TableLoop

    said: list[str] = []

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        c = loop.controller
        key_tap(loop, " ")  # Ana throws for who starts
        steps_until(loop, lambda: len(c.match.inputs) >= 1 and not c.tray_busy)
        (first,) = c.match.inputs
        assert getattr(first, "player", None) == "Ana"
        key_tap(loop, "q", "r")  # Ben's outer keys: his undo
        assert c.match.inputs == []
        assert c.notice is not None
        said.append(c.notice.text)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    run_demo(options(tmp_path, frozenset()))
    assert len(said) == 1 and said[0].startswith("Ben undid Ana's roll "), said
