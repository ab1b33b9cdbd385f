"""The result screen of the roll that ends a game: the cards as that roll left them (not
the next game's "to bid" and 0 game stones under "Game over")."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from table_helpers import MemoryRecorder
from test_screen_review8 import GAME_ONE

from einhorn_table.rules import CENTRAL, Ledger, Roll, RulesError, StonesLeft, TurnResult, replay
from einhorn_table.rules.match import replay_steps
from einhorn_table.screen.view_model import (
    FLOW_SECONDS,
    GAME_END_SECONDS,
    RESULT_SECONDS,
    ScreenKind,
    after_roll,
    build_view,
)
from einhorn_table.table.controller import Seat, Shown, TableController

GOLDEN = REPO.parent / "shared" / "golden"
NAMES = ("Ana", "Ben", "Cem")


def _game_one_ended() -> TableController:
    match = replay(GAME_ONE[:-1])  # Cem's last roll of game 1 still to come
    c = TableController(match, MemoryRecorder(), [Seat(n) for n in NAMES])
    before = match.ledger()
    roll = Roll("Cem", (1, 3, 6))  # Einhorn, called wrong: Cem pays his last 5 stones
    c.last = Shown(100.0, roll, match.apply(roll), before)
    c.game_ended_at = 100.0
    return c


def test_the_cards_under_game_over_show_the_stones_as_the_roll_left_them() -> None:
    # Before: every card said 0 game stones, the stash already banked and "to bid", and
    # the top bar "nobody" beside "Cem takes the unicorn".
    c = _game_one_ended()
    view = build_view(c, 100.0 + FLOW_SECONDS)  # (its stones landed)
    assert view.kind is ScreenKind.RESULT and "Game over" in view.lines
    assert [(p.game_stones, p.stash) for p in view.players] == [(1, 0), (8, 0), (0, 0)]
    assert [p.status for p in view.players] == ["", "", ""]
    assert not any(p.active for p in view.players)
    assert [p.unicorn for p in view.players] == [False, False, True]
    assert view.unicorn == 2 and view.central == 66
    # The game's end, after: the game stones in each stash, and nobody to act yet.
    over = build_view(c, 100.0 + RESULT_SECONDS + 1)
    assert over.kind is ScreenKind.GAME_END
    assert [(p.game_stones, p.stash) for p in over.players] == [(0, 1), (0, 8), (0, 0)]
    assert over.unicorn is None


def test_the_game_end_cards_say_no_bid_before_the_auction_asks_for_one() -> None:
    # "Game 1 is over" stood over three framed cards saying "to bid": the auction's words
    # before its screen (and its buttons) came.
    c = _game_one_ended()
    over = build_view(c, 100.0 + RESULT_SECONDS + 1)
    assert over.kind is ScreenKind.GAME_END
    assert [p.status for p in over.players] == ["", "", ""]
    assert not any(p.active for p in over.players)
    # What each moves into their stash (the cards show the stashes): "Ana 1 Ben 8 Cem 0"
    # said numbers without saying what they were.
    assert over.lines == ("Ana +1", "Ben +8", "Cem +0")
    auction = build_view(c, 100.0 + GAME_END_SECONDS + 1)
    assert auction.kind is ScreenKind.AUCTION
    assert [p.status for p in auction.players] == ["to bid"] * 3
    assert all(p.active for p in auction.players)


@pytest.mark.parametrize("name", ["full-match-einhorn-4p", "full-match-wuerfeln-5p",
                                  "owner-takes-from-player"])
def test_after_roll_is_the_engine_s_ledger_after_every_roll(name: str) -> None:
    # A roll that ends no game: the engine's ledger after it. One that ends a game (not the
    # match): what the engine banked, stash by stash.
    path = GOLDEN / f"{name}.jsonl"
    if not path.is_file():
        pytest.skip("the shared golden files are not beside this checkout")
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    before = None
    checked = 0
    for _, match, outcome in replay_steps(lines):
        after = match.ledger()
        if isinstance(outcome, TurnResult) and before is not None and not outcome.match_over:
            rolled = after_roll(before, outcome)
            assert rolled.central == after.central
            if outcome.game_over:
                assert [p.stash + p.game_stones for p in rolled.players] == [
                    p.stash for p in after.players]
            else:
                assert rolled.players == after.players and rolled.unicorn == after.unicorn
            checked += 1
        before = after
    assert checked > 0


def _by_transfers(before: Ledger, outcome: TurnResult) -> StonesLeft:
    """A second bookkeeping, kept only here: the stones ``before`` the roll moved by its
    transfers, and the unicorn to whoever took it."""
    stones = {p.name: p.game_stones for p in before.players}
    central = before.central
    for t in outcome.transfers:
        if t.payer == CENTRAL:
            central -= t.stones
        else:
            stones[t.payer] -= t.stones
        if t.payee == CENTRAL:
            central += t.stones
        else:
            stones[t.payee] += t.stones
    return StonesLeft(central, tuple(stones[p.name] for p in before.players),
                      outcome.unicorn_to or before.unicorn)


GOLDEN_MATCHES = sorted(p for p in GOLDEN.glob("*.jsonl")
                        if not p.name.endswith(".expected.jsonl"))


@pytest.mark.parametrize("path", GOLDEN_MATCHES, ids=lambda p: p.stem)
def test_the_engine_says_what_every_roll_left_and_the_screen_shows_its_figures(
        path: Path) -> None:
    # The screen kept its own bookkeeping of a roll's payments beside the engine's: the
    # engine now says the stones as the roll left them, and the screen draws those.
    before = None
    checked = 0
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        for _, match, outcome in replay_steps(lines):
            after = match.ledger()
            if isinstance(outcome, TurnResult) and before is not None:
                assert outcome.left == _by_transfers(before, outcome)
                if not outcome.game_over:  # no game's end after it: the ledger itself
                    assert outcome.left == StonesLeft(
                        after.central, tuple(p.game_stones for p in after.players),
                        after.unicorn)
                shown = after_roll(before, outcome)
                assert (shown.central, tuple(p.game_stones for p in shown.players),
                        shown.unicorn) == (outcome.left.central, outcome.left.game_stones,
                                           outcome.left.unicorn)
                checked += 1
            before = after
    except RulesError:  # a golden match of a refused line: the rolls before it count
        pass
    assert checked > 0 or not any('"roll"' in line for line in lines)
