"""The table's screens, reviewed over whole bot matches of two to six players (long
names, names in other scripts): the final standings and the history's wins name everyone
at one size; names in another script stand as tall as the rest; the
starter's extra stone is said and flies; the game counter says the game a roll was in
until the next game's auction; the bots of the demo leave who took the unicorn on the
screen before they top up."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import BLUE, RED, MemoryRecorder, reading
from test_rules_review5 import GAME_ONE, GAME_TWO
from test_screen_review3 import cards
from test_screen_review4 import final_view

from einhorn_table.history.view import HistorySummary, Leader
from einhorn_table.rules import EINHORN, WUERFELN, Bid, Match, Roll, Setup, parse_line, replay
from einhorn_table.rules.variants import Variant
from einhorn_table.screen.view_model import (
    GAME_END_SECONDS,
    RESULT_SECONDS,
    REVEAL_SECONDS,
    Flow,
    ScreenKind,
    ScreenView,
    build_view,
    button_hints,
)
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.bots import BotDriver
from einhorn_table.table.controller import Seat, Shown, TableController
from einhorn_table.table.events import MotionStarted, Settled


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


# ---------------------------------------------------------------- the final standings


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_final_standings_name_everyone_at_one_size(drawing: Any,
                                                       size: tuple[int, int]) -> None:
    # "Bartholomäus" stood at 38 over "Maximilian-Alexa." at 24: as if the list were
    # two lists, the big names the ones that counted.
    names = ("Maximilian-Alexander", "Konstantinopel", "Bartholomäus", "Friederike-Luise",
             "Ana", "Wolfgang Amadeus")
    view = final_view(names, "")
    renderer, texts = drawing(size)
    renderer.draw(view)
    left = renderer.s(10) + renderer.s(74)
    drawn = [(words, font) for words, font, rect in texts if rect.left == left]
    assert len(drawn) == 6, drawn
    assert len({font for _, font in drawn}) == 1, drawn
    assert drawn[0][1] >= 24  # (read from the chairs)
    # Each name whole where it fits, else cut short: never another name's letters.
    for words, _ in drawn:
        assert words in names or any(n.startswith(words.rstrip(".")) for n in names)
    assert ("Ana", drawn[0][1]) in drawn


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_historys_wins_name_everyone_at_one_size(drawing: Any,
                                                     size: tuple[int, int]) -> None:
    # "Maximilian-Alexander" at 22 over "Bartholomäus" at 28, in the one list of wins.
    names = ("Maximilian-Alexander", "Wolfgang Amadeus", "Bartholomäus", "Anna-Katharina",
             "Ben", "Friederike-Luise")
    leaders = tuple(Leader(name, 6 - k, 6) for k, name in enumerate(names))
    summary = HistorySummary(title="6 matches kept", matches=(), leaders=leaders, dice=())
    view = ScreenView(ScreenKind.HISTORY, 4, 4, 50, None, cards(names), "Match history",
                      archive=summary, buttons=button_hints(Context.HISTORY))
    renderer, texts = drawing(size)
    renderer.draw(view)
    split = renderer.s(10) + round((renderer.w - renderer.s(20)) * 0.66)
    drawn = [(words, font) for words, font, rect in texts
             if rect.left == split + renderer.s(26)]
    assert len(drawn) == 6, drawn
    assert len({font for _, font in drawn}) == 1 and drawn[0][1] >= 22, drawn
    assert ("Ben", drawn[0][1]) in drawn


# ---------------------------------------------------------------- who starts


def started(variant: Variant) -> tuple[TableController, float]:
    """Ana and Ben have rolled for who starts, Ana higher; the clock just after."""
    match = Match(Setup.for_variant(variant, ["Ana", "Ben"], games=10))
    c = TableController(match, MemoryRecorder(), [Seat("Ana", RED), Seat("Ben", BLUE)])
    for t, (values, colour) in enumerate((([6, 6, 5], RED), ([1, 2, 1], BLUE))):
        c.on_tray(MotionStarted(2.0 * t))
        c.on_tray(Settled(2.0 * t + 1, reading(values, colour)))
    return c, 3.5


def test_the_starters_extra_stone_is_said_and_flies_from_the_central_stash() -> None:
    # "Ana starts" stood over Ana's card of 7 stones beside Ben's 6, and nothing said why.
    c, now = started(EINHORN)
    assert c.match.ledger().players[0].game_stones == 7
    view = build_view(c, now)
    assert view.lines == ("Ana starts and takes 1 stone from the central stash",)
    assert [(f.source, f.target, f.stones) for f in view.flows] == [(-1, 0, 1)]
    assert all(isinstance(f, Flow) and 0 < f.progress < 1 for f in view.flows)


def test_without_an_extra_stone_the_starter_only_starts() -> None:
    c, now = started(WUERFELN)  # the first draft: no extra stone
    assert c.match.ledger().players[0].game_stones == 6
    view = build_view(c, now)
    assert view.lines == ("Ana starts",) and view.flows == ()


# ---------------------------------------------------------------- the game counter


def test_the_roll_that_ends_a_game_and_the_game_end_count_the_game_that_ended() -> None:
    # "Game over" and "Game 1 is over" stood under "2 / 2" in the top bar.
    match = replay(GAME_ONE[:-1])  # Cem's last roll of game 1 still to come
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in ("Ana", "Ben", "Cem")])
    before = match.ledger()
    roll = Roll("Cem", (1, 3, 6))
    c.last = Shown(100.0, roll, match.apply(roll), before)
    c.game_ended_at = 100.0
    assert match.ledger().game == 2
    result = build_view(c, 101.0)
    assert result.kind is ScreenKind.RESULT and "Game over" in result.lines
    assert (result.game, result.games) == (1, 2)
    over = build_view(c, 100.0 + RESULT_SECONDS + 1)
    assert over.kind is ScreenKind.GAME_END and over.title == "Game 1 is over"
    assert over.game == 1
    auction = build_view(c, 100.0 + GAME_END_SECONDS + 1)
    assert auction.kind is ScreenKind.AUCTION and auction.game == 2


# ---------------------------------------------------------------- the bids revealed


@pytest.mark.parametrize("reveal", [0.0, REVEAL_SECONDS])
def test_the_bots_leave_the_bids_revealed_on_the_screen_before_they_top_up(
        reveal: float) -> None:
    # The demo's bots sealed their top-ups in the frame after the last bid: the bids and
    # "Ben takes the unicorn" were on the screen for a thirtieth of a second.
    names = ("Ana", "Ben", "Cem")
    match = replay(GAME_ONE)  # the auction for game 2: stashes Ana 1, Ben 8, Cem 0
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in names])
    for name, stones in zip(names, (0, 2, 0), strict=True):
        before = match.ledger()
        bid = Bid(name, stones)
        c.last = Shown(100.0, bid, match.apply(bid), before)
    assert [c.context(i) for i in range(3)] == [Context.TOPUP] * 3
    bots = BotDriver(frozenset(range(3)), [make_strategy("odds")] * 3, random.Random(1),
                     pace=0.35, linger=8.5, reveal=reveal)
    shown = build_view(c, 100.5)
    assert shown.kind is ScreenKind.AUCTION and shown.title == "Ben takes the unicorn"
    if reveal:
        assert bots.moves(c, 100.5) == [] and bots.moves(c, 100.0 + reveal - 0.1) == []
    # Then they top up (at once in fast headless runs, where no one watches).
    assert bots.moves(c, 100.0 + reveal + 0.1) != []


# ---------------------------------------------------------------- a tie for the most stones


def test_the_roll_that_ends_the_match_in_a_tie_says_who_rolls_off() -> None:
    # "The match is over", and then the bots' (or the family's) roll-off results: "Zoë
    # rolled no Einhorn", with nothing on the screen saying why anyone rolled on.
    match = replay(GAME_TWO[:-1])
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in ("Ana", "Ben", "Cem")])
    before = match.ledger()
    item = parse_line(GAME_TWO[-1])  # Ben's choice settles the match's last roll
    c.last = Shown(100.0, item, match.apply(item), before)
    assert [p.stash for p in match.ledger().players] == [7, 7, 7]
    view = build_view(c, 101.0)
    assert view.kind is ScreenKind.RESULT
    assert view.lines[-2:] == ("The match is over", "Tie on 7 stones: Ana, Ben and Cem roll "
                               "in turn until one rolls an Einhorn")
