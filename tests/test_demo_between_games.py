"""The demo between two games, as a person at the keyboard plays it: a key pressed
while the roll that ended the game and the game's end are still on the screen (OK, to
go on) bids for nothing seen yet, and one pressed while the auction's result is shown
tops up blind. The table takes bids and top-ups once their own screen shows, and says
so until then (SDL's dummy video driver, key events posted as a keyboard would, on the
demo's own clock)."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_helpers import BLUE, RED, controller, reading  # noqa: E402
from table_helpers import tap as helper_tap  # noqa: E402
from test_demo_review import (  # noqa: E402
    at_the_keyboard,
    dummy_display,  # noqa: F401
    options,
    quit_demo,
    steps_until,
    tap,
)

from einhorn_table.cli.table_app import run_demo  # noqa: E402
from einhorn_table.ports import Button  # noqa: E402
from einhorn_table.rules import (  # noqa: E402
    Awaiting,
    Bid,
    Roll,
    StartRoll,
    Topup,
    TurnResult,
    get_variant,
)
from einhorn_table.screen.view_model import RESULT_SECONDS, ScreenKind, ScreenView  # noqa: E402
from einhorn_table.simulation.strategies import make_strategy  # noqa: E402
from einhorn_table.stations.gesture_table import Context  # noqa: E402
from einhorn_table.table.bots import BotDriver  # noqa: E402
from einhorn_table.table.events import MotionStarted, Settled  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

#: Einhorn with one game stone each: a game is over after a few rolls.
QUICK = replace(get_variant("einhorn"), name="quick", deal=1)


def anas(loop: TableLoop, kind: type) -> list[object]:
    return [i for i in loop.controller.match.inputs
            if isinstance(i, kind) and getattr(i, "player", None) == "Ana"]


def anas_turn(loop: TableLoop) -> bool:
    """Whether the screen shows that Ana is to throw, as she waits for it to."""
    c, view = loop.controller, loop.view
    return c.roller() == 0 and not c.tray_busy and c.pending is None and view is not None \
        and view.kind in (ScreenKind.TURN, ScreenKind.START_ROLLS)


def play_to_the_game_end(loop: TableLoop) -> None:
    """Ana throws whenever she is to (silent), until the first game is over."""
    c = loop.controller

    def over() -> bool:
        return c.match.state.awaiting is Awaiting.BID

    for _ in range(200):
        if over():
            return
        steps_until(loop, lambda: over() or anas_turn(loop), limit=20000)
        if not over():
            tap(loop, " ")
            steps_until(loop, lambda: c.roller() != 0 or c.tray_busy or c.pending is not None)
    raise AssertionError("the first game never ended")


def test_ok_on_the_game_end_bids_nothing_and_the_auction_screen_then_takes_bids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, str] = {}

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        c = loop.controller
        play_to_the_game_end(loop)
        # The roll that ended the game is on the screen: OK does not seal a bid of 0.
        assert loop.view is not None and loop.view.kind is not ScreenKind.AUCTION
        assert c.context(0) is Context.BID
        tap(loop, "2")
        tap(loop, "3")
        assert anas(loop, Bid) == [] and c.drafts.get(0, 0) == 0
        seen["early"] = c.notice_at(loop.clock.monotonic())
        # Once the auction's own screen shows, the same keys bid and seal.
        steps_until(loop, lambda: loop.view is not None
                    and loop.view.kind is ScreenKind.AUCTION and bool(loop.view.buttons))
        seen["opened"] = c.notice_at(loop.clock.monotonic())
        stones = min(1, c.number_limit(0))  # (a bid is at most Ana's stash)
        tap(loop, "2")
        tap(loop, "3")
        assert anas(loop, Bid) == [Bid("Ana", stones)]
        # The bids are revealed (Ben, the bot, bids after the screen shows): OK on the
        # reveal does not close Ana's top-up.
        steps_until(loop, lambda: c.match.state.awaiting is not Awaiting.BID)
        if c.match.state.awaiting is Awaiting.TOPUP and c.context(0) is Context.TOPUP:
            tap(loop, "3")
            assert anas(loop, Topup) == []
            steps_until(loop, lambda: loop.view is not None
                        and loop.view.kind is ScreenKind.TOPUP)
            tap(loop, "3")
            assert c.context(0) is not Context.TOPUP
            seen["topup"] = "taken once its screen showed"
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    run_demo(options(tmp_path, frozenset({1}), games=2, variant=QUICK))
    assert seen["early"].startswith("The game is over: the auction for the unicorn opens "
                                    "in a moment. Ana, wait for its screen")
    assert seen["opened"] == ""  # (the line goes as the auction opens)
    assert seen["topup"] == "taken once its screen showed"


def bens_rolls(loop: TableLoop) -> int:
    return sum(isinstance(i, Roll) and i.player == "Ben" for i in loop.controller.match.inputs)


def test_a_bot_throws_only_once_the_last_rolls_result_was_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ben, a bot, came to throw some 2 seconds after Ana's roll (or after the unicorn
    owner settled it), taking her result off the screen before it was read (it stays
    RESULT_SECONDS): he now waits for it."""
    shown: list[tuple[float, object, object]] = []  # (when, input, outcome) as shown

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        c = loop.controller
        step = loop.step

        def watched() -> ScreenView:
            view = step()
            if c.last is not None and (not shown or shown[-1][0] != c.last.time):
                shown.append((c.last.time, c.last.item, c.last.outcome))
            return view

        loop.step = watched  # type: ignore[method-assign]
        while bens_rolls(loop) < 3:
            steps_until(loop, lambda: anas_turn(loop) or bens_rolls(loop) >= 3, limit=20000)
            if c.roller() == 0:
                tap(loop, " ")
                steps_until(loop, lambda: c.roller() != 0 or c.tray_busy
                            or c.pending is not None)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    run_demo(options(tmp_path, frozenset({1})))
    results = [(when, item) for when, item, outcome in shown
               if isinstance(item, Roll | StartRoll) or isinstance(outcome, TurnResult)]
    gaps = [later - earlier for (earlier, _), (later, item) in itertools.pairwise(results)
            if isinstance(item, Roll | StartRoll) and item.player == "Ben"]
    assert len(gaps) >= 3
    assert min(gaps) >= RESULT_SECONDS, gaps


def test_after_the_unicorn_owner_settles_the_bot_waits_for_the_result_too() -> None:
    """Ana owns the unicorn and settles her roll with the central stash: the result is
    shown from then (the view's result follows the settling), and Ben, a bot, throws only
    once it was."""
    c, _ = controller()
    for values, colour in (([6, 6, 5], RED), ([1, 1, 2], BLUE), ([1, 3, 5], RED),
                           ([2, 2, 3], BLUE), ([2, 2, 4], RED)):
        c.on_tray(MotionStarted(0.0))
        c.on_tray(Settled(1.0, reading(values, colour)))
    assert c.context(0) is Context.COUNTERPARTY
    c.on_gesture(helper_tap(0, Button.EINHORN, 10.0))  # settled with the central stash
    assert c.roller() == 1
    bots = BotDriver(frozenset({1}), [make_strategy("odds")] * 2, random.Random(0),
                     result=RESULT_SECONDS)
    assert bots.moves(c, 10.0 + RESULT_SECONDS - 0.5) == []
    assert bots.moves(c, 10.0 + RESULT_SECONDS) != []
