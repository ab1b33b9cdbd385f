"""A family's match at the table, reviewed: what the screen says must be what the match
did, and every screen must keep its words readable and in their place with six
players and long names."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from table_helpers import controller, reading

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Category
from einhorn_table.screen.view_model import (
    SEAT_COLOURS,
    Marker,
    PlayerCard,
    ScreenKind,
    ScreenView,
    build_view,
)
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
LONG_NAMES = ("Alexandra-Charlotte", "Maximilian Friedrich", "Bartholomew", "Wilhelmina",
              "Konstantinos", "Großmutter Hildegard")


class Table:
    """A controller with a clock: rolls in each player's own dice colour."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.c, self.recorder = controller(names)
        self.t = 0.0

    def roll(self, player: int, values: list[int]) -> None:
        colour = self.c.seats[player].dice_colour
        assert colour is not None
        self.c.on_tray(MotionStarted(self.t))
        self.c.on_tray(Settled(self.t + 1, reading(list(values), colour)))
        self.t += 2

    def press(self, player: int, *buttons: Button) -> None:
        kind = GestureKind.CHORD if len(buttons) == 2 else GestureKind.TAP
        self.c.on_gesture(Gesture(player, kind, buttons, self.t))
        self.t += 0.5

    def view(self) -> ScreenView:
        return build_view(self.c, self.t)


def started(names: tuple[str, ...]) -> Table:
    """A match whose first player won the starting rolls and is to roll."""
    table = Table(names)
    table.roll(0, [6, 6, 6])
    for player in range(1, len(names)):
        table.roll(player, [1, 1, 2])
    table.t += 10
    return table


# ---------------------------------------------------------------- screen and match agree


def test_a_call_taken_back_after_an_undo_counts_silent_as_the_screen_shows() -> None:
    table = started(("Ana", "Ben", "Cem"))
    table.press(0, W)
    table.roll(0, [2, 2, 3])  # misread: the family undoes it
    table.t += 5
    table.press(1, U, D)
    assert table.view().call is Category.WUNSCH  # the call made before the roll stands
    table.press(0, W)  # Ana takes her call back: she stays silent
    view = table.view()
    assert view.kind is ScreenKind.TURN and view.call is None
    table.roll(0, [2, 2, 3])
    result = build_view(table.c, table.t - 0.5)
    assert result.lines[0] == "silent"
    assert table.c.match.ledger().player("Ana").game_stones == 7 - 1  # silent Wunsch: -1


def test_a_call_changed_after_an_undo_counts_as_changed() -> None:
    table = started(("Ana", "Ben", "Cem"))
    table.press(0, W)
    table.roll(0, [2, 2, 3])
    table.t += 5
    table.press(1, U, D)
    table.press(0, E)
    table.roll(0, [1, 3, 5])
    assert build_view(table.c, table.t - 0.5).lines[0] == "called Einhorn - right!"


def test_a_dreifaltigkeit_won_with_six_players_says_so_in_one_line() -> None:
    table = started(("Ana", "Ben", "Cem", "Dora", "Emil", "Fay"))
    table.press(0, D)
    table.roll(0, [3, 3, 3])
    view = build_view(table.c, table.t - 0.5)
    assert view.kind is ScreenKind.RESULT
    assert view.lines == ("called Dreifaltigkeit - right!",
                          "Ana takes everyone's game stones: 30", "Game over")
    assert table.c.match.ledger().player("Ana").stash == 7 + 30


# ---------------------------------------------------------------- drawn in their place


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, list[tuple[str, Any]]]]:
    """A renderer on an 800x480 surface, and every text it draws with its rectangle."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer

    pygame.display.init()
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    texts: list[tuple[str, Any]] = []
    original = renderer.text

    def text(words: str, size: float, *args: Any, **kwargs: Any) -> Any:
        rect = original(words, size, *args, **kwargs)
        texts.append((words, rect))
        return rect

    monkeypatch.setattr(renderer, "text", text)
    yield renderer, texts


def cards(names: tuple[str, ...], status: str = "") -> tuple[PlayerCard, ...]:
    return tuple(PlayerCard(name, SEAT_COLOURS[i], list(Marker)[i], 6, 3, False, False, status)
                 for i, name in enumerate(names))


def test_every_line_of_a_busy_result_is_drawn_above_the_cards(drawn: Any) -> None:
    renderer, texts = drawn
    lines = ("called Einhorn - wrong", "Ana pays Central 1 of 5 (all Ana had)",
             "Ben pays Ana 1", "Ana takes the unicorn", "The match is over")
    view = ScreenView(ScreenKind.RESULT, 3, 10, 0, 0, cards(LONG_NAMES), "Ana rolled",
                      category=Category.EINHORN, lines=lines)
    renderer.draw(view)
    cards_top = renderer._card_rects(6)[0].top
    shown = dict(texts)
    for line in lines:
        assert line in shown, line
        assert shown[line].bottom <= cards_top


def test_the_top_up_of_six_long_names_stays_above_the_buttons(drawn: Any) -> None:
    from einhorn_table.screen.view_model import button_hints
    from einhorn_table.stations.gesture_table import Context

    renderer, texts = drawn
    # Five are done ("ready"), Maximilian Friedrich, the unicorn owner, still counts.
    players = tuple(card if i != 1 else replace(card, status="+12 ?")
                    for i, card in enumerate(cards(LONG_NAMES, "ready")))
    view = ScreenView(ScreenKind.TOPUP, 2, 10, 50, 1, players,
                      "Top-up: stash to game stones", focus=1,
                      subtitle="Everyone at once; OK when done. The unicorn owner then rolls.",
                      buttons=button_hints(Context.TOPUP))
    renderer.draw(view)
    # The button strip's top: the middle area's bottom, less the strip.
    strip_top = renderer.s(62) + (renderer.h - renderer.s(62) - renderer.s(160)) \
        - renderer.s(54)
    labels = [(words, rect) for words, rect in texts if words.endswith((" ready", " +12"))]
    assert len(labels) == 6
    for words, rect in labels:
        assert rect.bottom <= strip_top, words


def test_the_counterparty_keeps_long_names_readable(drawn: Any) -> None:
    renderer, texts = drawn
    choices = ("Central", *LONG_NAMES[1:])
    view = ScreenView(ScreenKind.COUNTERPARTY, 1, 10, 100, 0, cards(LONG_NAMES),
                      "Alexandra-Charlotte gets 2: from whom?", focus=0, choices=choices)
    renderer.draw(view)
    readable = renderer.font(22).get_height()
    drawn_choices = [(words, rect.height) for words, rect in texts
                     if words.startswith(("Maximilia", "Großmutt", "Konstanti"))]
    assert len(drawn_choices) >= 3
    assert all(height >= readable for _, height in drawn_choices), drawn_choices


# ---------------------------------------------------------------- the demo


def test_the_demo_shows_the_final_standings_before_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from einhorn_table.cli import main

    shots = tmp_path / "shots"
    assert main(["demo", "--bots", "all", "--games", "1", "--players", "2",
                 "--state-dir", str(tmp_path / "s"), "--screenshots", str(shots)]) == 0
    assert "Winner" in capsys.readouterr().out
    kinds = [path.stem.split("-", 1)[1] for path in sorted(shots.glob("*.png"))]
    assert kinds[-1] == "final"



def test_the_roll_that_closes_the_starting_round_says_who_starts_or_who_rolls_again() -> None:
    table = Table(("Ana", "Ben", "Cem"))
    table.roll(0, [6, 6, 5])
    table.roll(1, [6, 6, 5])
    table.roll(2, [1, 1, 2])
    tie = build_view(table.c, table.t - 0.5)
    assert tie.lines == ("Tie: Ana and Ben roll again",)
    assert tie.category is None  # who starts goes by the sum, not the category
    table.roll(1, [1, 1, 2])
    assert build_view(table.c, table.t - 0.5).lines == ()
    table.roll(0, [1, 3, 5])  # an Einhorn's shape, summing 9: only the sum counts here
    view = build_view(table.c, table.t - 0.5)
    assert view.lines == ("Ana starts and takes 1 stone from the central stash",) \
        and view.category is None
    assert table.c.match.state.to_act == 0


def test_the_auction_s_tie_break_says_who_takes_the_unicorn() -> None:
    table = started(("Ana", "Ben", "Cem"))
    table.press(0, D)
    table.roll(0, [3, 3, 3])  # Dreifaltigkeit called and rolled: the game ends
    table.t += 10
    for player in range(3):  # all bid 0: all tie
        table.press(player, E)
    table.t += 10
    table.roll(0, [1, 2, 3])
    table.roll(1, [1, 2, 3])
    table.roll(2, [6, 6, 5])
    view = build_view(table.c, table.t - 0.5)
    assert view.kind is ScreenKind.RESULT and view.lines == ("Cem takes the unicorn",)
    assert table.c.match.ledger().unicorn == "Cem"
