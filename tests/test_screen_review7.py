"""The table's screens, reviewed as a family meets them: a tie of four or more players
for who starts is counted, not six names in a small line; names are listed as said
("Ana and Ben", "Ana, Ben and Cem"); the dice of a roll are drawn in the roller's dice
colour, their pips readable on every colour; a row of cards names everyone at one
size."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import MemoryRecorder, controller, reading
from test_rules_review5 import GAME_TWO

from einhorn_table.rules import (
    EINHORN,
    AuctionResult,
    Bid,
    Call,
    Category,
    Match,
    Roll,
    Setup,
    StartRoll,
    replay,
)
from einhorn_table.screen.contrast import (
    EDGE_BELOW,
    contrast,
    needs_edge,
    pip_colour,
)
from einhorn_table.screen.renderer import BACKGROUND, DIM, Renderer
from einhorn_table.screen.view_model import (
    RESULT_SECONDS,
    DieView,
    ScreenKind,
    ScreenView,
    build_view,
)
from einhorn_table.table.config import DICE_COLOURS
from einhorn_table.table.controller import Seat, Shown, TableController
from einhorn_table.table.events import MotionStarted, Settled
from einhorn_table.words import number_word

SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]
SIX = ("Ana", "Ben", "Cem", "Dora", "Emil", "Fay")
LONG = ("Alexandra", "Benedikt", "Großmutter Hildegard", "Dorothea", "Emilia", "Friedrich")
#: Each seat's dice, as table.toml names them.
DICE = ("red", "blue", "white", "black", "green", "yellow")


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


class Table:
    """Six players, each throwing their own dice (of the colour table.toml gives them)
    one after another."""

    def __init__(self, names: tuple[str, ...] = SIX) -> None:
        self.c, _ = controller(names)
        self.c.seats[:] = [Seat(name, DICE_COLOURS[DICE[i]], DICE[i])
                           for i, name in enumerate(names)]
        self.t = 0.0

    def roll(self, seat: int, values: list[int]) -> None:
        self.c.on_tray(MotionStarted(self.t))
        self.c.on_tray(Settled(self.t + 1, reading(list(values), DICE_COLOURS[DICE[seat]])))
        self.t += 10

    def shown(self) -> ScreenView:
        """The screen while the last roll is shown."""
        return build_view(self.c, self.t - 9 + 0.5)

    def waiting(self) -> ScreenView:
        """The screen once the last roll's result has been shown."""
        return build_view(self.c, self.t + RESULT_SECONDS + 1)


def tied(names: tuple[str, ...], count: int) -> Table:
    """The first ``count`` players tied on 14 for who starts, the others lower."""
    table = Table(names)
    for seat in range(len(names)):
        table.roll(seat, [6, 5, 3] if seat < count else [1, 2, 3])
    return table


# ---------------------------------------------------------------- a tie of many


@pytest.mark.parametrize(("count", "line", "who"), [
    (6, "All six rolled 14", "Everyone rolls"),
    (5, "Five players rolled 14", "Ana, Ben, Cem, Dora and Emil roll"),
    (4, "Four players rolled 14", "Ana, Ben, Cem and Dora roll"),
    (3, "Ana, Ben and Cem all rolled 14", "Ana, Ben and Cem roll"),
])
def test_a_tie_of_many_is_counted_not_named_in_its_line(count: int, line: str,
                                                        who: str) -> None:
    # It said "Ana, Ben, Cem, Dora, Emil and Fay all rolled 14", shrunk to fit.
    table = tied(SIX, count)
    view = table.waiting()
    assert view.kind is ScreenKind.START_ROLLS and view.title == "Who starts? Tie on 14"
    assert view.lines == (line,)
    assert view.subtitle.startswith(f"{who} again; highest sum starts.")
    assert [p.active for p in view.players] == [i < count for i in range(6)]


def test_the_roll_that_ends_a_tie_of_everyone_says_everyone_rolls_again() -> None:
    table = tied(SIX, 6)
    assert table.shown().lines == ("Tie: everyone rolls again",)
    two = tied(SIX, 2)  # (names, where they are few)
    assert two.shown().lines == ("Tie: Ana and Ben roll again",)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("count", [6, 5, 4])
def test_a_tie_of_many_long_names_is_drawn_whole_and_big(drawing: Any, size: tuple[int, int],
                                                         count: int) -> None:
    view = tied(LONG, count).waiting()
    renderer, texts = drawing(size)
    renderer.draw(view)
    (line,) = view.lines
    (rect,) = [r for w, _, r in texts if w == line]
    # As big as a single roll's line (six names shrank it to 22 to fit).
    assert rect.height >= renderer.font(30).get_height()
    assert rect.right <= renderer.w - renderer.s(10)


# ---------------------------------------------------------------- names joined as said


def test_the_roll_off_names_its_players_as_said() -> None:
    match = replay(GAME_TWO)
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in match.names])
    view = build_view(c, 100.0)
    assert view.title == "Roll-off"
    # It said "Ana, Ben, Cem roll in turn ...".
    assert view.subtitle.startswith("Ana, Ben and Cem roll in turn until one rolls an Einhorn.")


def revealed(names: tuple[str, ...], bids: list[int]) -> ScreenView:
    """The auction's bids revealed, after Ana's Dreifaltigkeit ended game 1."""
    match = Match(Setup.for_variant(EINHORN, list(names), games=3))
    for k, name in enumerate(names):
        match.apply(StartRoll(name, (6, 6, 5) if k == 0 else (1, 2, 3)))
    match.apply(Call(names[0], Category.DREIFALTIGKEIT))
    match.apply(Roll(names[0], (6, 6, 6)))
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in names])
    for name, stones in zip(names, bids, strict=True):
        before = match.ledger()
        item = Bid(name, stones)
        c.last = Shown(100.0, item, match.apply(item), before)
    return build_view(c, 101.0)


def test_a_tied_auction_names_who_rolls_for_the_unicorn_as_said() -> None:
    view = revealed(("Ana", "Ben", "Cem"), [0, 0, 0])
    assert view.kind is ScreenKind.AUCTION
    assert view.title == "Tie: Ana, Ben and Cem roll for it"  # (it said "Ana, Ben, Cem")
    assert revealed(SIX, [0] * 6).title == "Tie: everyone rolls for it"


@pytest.mark.parametrize(("count", "title"), [
    (5, "Tie: five players roll for it"),  # (five long names shrank the title to 12)
    (4, "Tie: four players roll for it"),
    (3, "Tie: Alexandra, Benedikt and Großmutter Hildegard roll for it"),
])
def test_a_tied_auction_of_many_counts_them_in_its_title(count: int, title: str) -> None:
    c = TableController(Match(Setup.for_variant(EINHORN, list(LONG), games=3)),
                        MemoryRecorder(), [Seat(n) for n in LONG])
    assert c.last is None
    bids = tuple((name, 1 if k < count else 0) for k, name in enumerate(LONG))
    outcome = AuctionResult(bids, None, LONG[:count])
    c.last = Shown(100.0, Bid(LONG[-1], 0), outcome, c.match.ledger())
    view = build_view(c, 101.0)
    assert view.kind is ScreenKind.AUCTION and view.title == title


def test_a_count_is_said_as_a_word() -> None:
    assert [number_word(n) for n in (1, 4, 6, 12, 13)] == ["one", "four", "six", "twelve", "13"]


# ---------------------------------------------------------------- the dice's colour


@pytest.mark.parametrize("seat", range(6))
def test_a_start_roll_is_drawn_in_the_rollers_dice_colour(seat: int) -> None:
    # They were drawn white: with several players' dice in the tray, whose were read?
    table = Table()
    for k in range(seat + 1):
        table.roll(k, [6 - k, 2, 1])
    colour = DICE_COLOURS[DICE[seat]]
    shown = table.shown()
    assert shown.kind is ScreenKind.RESULT
    assert [d.colour for d in shown.dice] == [colour] * 3
    if seat < 5:  # (the last roll of the round: the first turn comes next)
        waiting = table.waiting()
        assert waiting.kind is ScreenKind.START_ROLLS
        assert [d.colour for d in waiting.dice] == [colour] * 3


def test_a_turns_roll_and_its_counterparty_show_the_rollers_dice_colour() -> None:
    table = Table(("Ana", "Ben"))
    table.roll(0, [6, 6, 5])
    table.roll(1, [1, 2, 3])
    table.roll(0, [1, 3, 5])  # Ana, silent: Einhorn, the unicorn is hers
    assert [d.colour for d in table.shown().dice] == [DICE_COLOURS["red"]] * 3
    table.roll(1, [2, 2, 1])
    assert [d.colour for d in table.shown().dice] == [DICE_COLOURS["blue"]] * 3
    table.roll(0, [2, 2, 1])  # the owner's roll: from whom, or to whom?
    view = table.waiting()
    assert view.kind is ScreenKind.COUNTERPARTY
    assert [d.colour for d in view.dice] == [DICE_COLOURS["red"]] * 3


def test_a_player_without_dice_colour_gets_white_dice() -> None:
    table = Table(("Ana", "Ben"))
    table.c.seats[:] = [Seat("Ana"), Seat("Ben")]
    table.roll(0, [6, 6, 5])
    assert [d.colour for d in table.shown().dice] == [None] * 3


@pytest.mark.parametrize("name", list(DICE_COLOURS))
def test_every_dice_colour_has_readable_pips_and_stands_out(name: str) -> None:
    body = DICE_COLOURS[name]
    assert contrast(body, pip_colour(body)) >= 3
    assert needs_edge(body, BACKGROUND) == (contrast(body, BACKGROUND) < EDGE_BELOW)
    assert needs_edge(body, BACKGROUND) == (name == "black")


def pixel(renderer: Renderer, x: float, y: float) -> tuple[int, int, int]:
    colour = renderer.surface.get_at((round(x), round(y)))
    return (colour.r, colour.g, colour.b)


@pytest.mark.parametrize(("name", "pips", "edge"), [
    ("black", (245, 245, 245), True),  # white pips, and an edge on the dark screen
    ("yellow", (20, 20, 20), False),  # dark pips
    ("red", (245, 245, 245), False),
    ("white", (20, 20, 20), False),
])
def test_a_coloured_die_is_drawn_with_readable_pips(name: str, pips: tuple[int, int, int],
                                                    edge: bool) -> None:
    pygame.display.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    renderer.surface.fill(BACKGROUND)
    body = DICE_COLOURS[name]
    renderer._dice_row((DieView(1, None, True, body),), 100, 100, 60)
    assert pixel(renderer, 130, 130) == pips  # the one pip, in the middle
    assert pixel(renderer, 112, 130) == body
    assert pixel(renderer, 100, 130) == (DIM if edge else body)


# ---------------------------------------------------------------- the cards' names


@pytest.mark.parametrize("size", SIZES)
def test_the_cards_name_everyone_at_one_size(drawing: Any, size: tuple[int, int]) -> None:
    # "Emilia" stood at 32 beside "Alexandra" at 24 and "Großmutt." at 22: as if lit.
    view = tied(LONG, 2).waiting()
    renderer, texts = drawing(size)
    renderer.draw(view)
    cards_top = renderer.h - renderer.s(154)
    names = [(w, font) for w, font, r in texts
             if r.top >= cards_top and r.bottom <= cards_top + renderer.s(50)]
    assert len(names) == 6 and len({font for _, font in names}) == 1, names
    assert [w for w, _ in names if not w.endswith(".")] == \
        [n for n in LONG if any(w == n for w, _ in names)]


@pytest.mark.parametrize("size", SIZES)
def test_the_unicorn_on_a_narrow_card_stays_clear_of_its_stash(size: tuple[int, int]) -> None:
    # Six long names stack the dice and the unicorn at the right of the stones: the
    # horn ran into "stash 17".
    pygame.display.init()
    pygame.font.init()
    table = tied(LONG, 2)
    view = table.waiting()
    players = tuple(dataclasses.replace(p, unicorn=i == 1, stash=17)
                    for i, p in enumerate(view.players))
    view = dataclasses.replace(view, players=players, unicorn=1)
    renderer = Renderer(pygame.Surface(size))
    horns: list[Any] = []
    stashes: list[Any] = []
    icon, text = renderer._unicorn_icon, renderer.text

    def unicorn(centre: tuple[float, float], r: float) -> None:
        x, y = centre
        horns.append(pygame.Rect(round(x - 0.55 * r), round(y - r), round(1.1 * r),
                                 round(2 * r)))
        icon(centre, r)

    def noted(words: str, *args: Any, **kwargs: Any) -> Any:
        rect = text(words, *args, **kwargs)
        if words == "stash 17":
            stashes.append(rect)
        return rect

    renderer._unicorn_icon = unicorn  # type: ignore[method-assign]
    renderer.text = noted  # type: ignore[method-assign]
    renderer.draw(view)
    card = renderer._card_rects(6)[1]
    (horn,) = [h for h in horns if card.contains(h)]
    (stash,) = [r for r in stashes if card.contains(r)]
    # (the glyphs: the font's rectangle has room above the letters)
    ink = stash.inflate(0, -renderer.s(6))
    assert not horn.colliderect(ink), (horn, ink)


def test_the_help_closes_with_the_words_its_view_gives(drawing: MakeDrawing) -> None:
    """The help's last line said "Middle two buttons together" even in the demo, where
    a person at the keyboard has keys; the view now gives it (the demo names the keys)."""
    from table_helpers import chord

    from einhorn_table.ports import Button
    from einhorn_table.screen.view_model import build_view

    c, _ = controller()
    c.on_gesture(chord(0, Button.WUNSCH, Button.EINHORN, 1.0))  # the help
    view = build_view(c, 1.5)
    assert view.help and view.help_close == "Middle two buttons together: close this help"
    keyed = dataclasses.replace(view, help_close="Keys 2 + 3 together: close this help")
    for shown, last in ((view, "Middle two buttons"), (keyed, "Keys 2 + 3")):
        renderer, texts = drawing((800, 480))
        renderer.draw(shown)
        assert any(words.startswith(last) for words, _, _ in texts), texts
