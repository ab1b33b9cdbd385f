"""A press that the table cannot take says why: + in the auction with an empty stash
(the player took the button for broken), + past the whole stash in a top-up; the demo
does not offer the starting rolls "all together", where SPACE throws for whoever is next
and the bots throw in turn."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_helpers import tap
from test_table_moments import AUCTION, START, THREE, roll_line, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting
from einhorn_table.screen.view_model import ScreenKind, ScreenView, build_view
from einhorn_table.table.loop import TableLoop
from einhorn_table.table.stash_limit import stash_limit_words

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT

#: The AUCTION's bids, then the top-ups asked (Ana 5 stones in her stash, Ben none).
TOPUPS = [*AUCTION, '{"type": "bid", "player": "Ana", "stones": 2}',
          '{"type": "bid", "player": "Ben", "stones": 0}',
          '{"type": "bid", "player": "Cem", "stones": 0}']


def test_plus_in_the_auction_with_an_empty_stash_says_why_nothing_counts() -> None:
    c, _ = table(AUCTION)
    assert c.awaiting is Awaiting.BID and c.match.state.stash == [5, 0, 5]
    c.on_gesture(tap(1, W, 100.0))  # Ben, nothing in his stash, presses +
    view = build_view(c, 100.2)
    assert view.kind is ScreenKind.AUCTION
    assert view.notice == "Ben has no stones to bid: OK (done) bids 0."
    c.on_gesture(tap(1, U, 106.0))  # − too (a bid of 0 is public: his stash is empty)
    assert build_view(c, 106.2).notice == "Ben has no stones to bid: OK (done) bids 0."
    c.on_gesture(tap(1, E, 107.0))  # he hands in 0
    assert c.match.state.has_bid(1)


def test_a_bid_at_the_whole_stash_stays_secret() -> None:
    c, _ = table(AUCTION)
    for k in range(7):  # Ana, 5 stones in her stash, presses + seven times
        c.on_gesture(tap(0, W, 100.0 + k))
    assert c.drafts[0] == 5
    assert build_view(c, 107.0).notice == ""  # (a line would tell everybody her bid)


def test_plus_past_the_whole_stash_in_a_top_up_says_so() -> None:
    c, _ = table(TOPUPS)
    assert c.awaiting is Awaiting.TOPUP and c.match.state.stash == [3, 0, 5]
    c.on_gesture(tap(1, W, 100.0))  # Ben: nothing to top up
    assert build_view(c, 100.2).notice == ("Ben has no stones in the stash to top up: OK "
                                           "(done) moves none.")
    for k in range(3):
        c.on_gesture(tap(0, W, 110.0 + k))  # Ana counts her whole stash: nothing said
    assert build_view(c, 112.2).notice == ""
    c.on_gesture(tap(0, W, 113.0))  # one more
    assert c.drafts[0] == 3
    assert build_view(c, 113.2).notice == "Ana, your whole stash is 3 stones: OK (done) " \
        "moves them."


def test_the_stash_limit_words() -> None:
    from einhorn_table.stations.gesture_table import Context
    assert stash_limit_words(Context.TOPUP, "Cem", 1, "key D") == (
        "Cem, your whole stash is 1 stone: key D (done) moves it.")


def test_plus_with_an_empty_stash_says_why_at_the_real_table(
    mock_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`play` on mock pins: the bots play the first game out (Cem ends it with nothing
    in his stash), then Cem presses + at the auction."""
    pytest.importorskip("gpiozero")
    pytest.importorskip("pygame")
    from pin_table import PinTable, play_with_pins

    seen: dict[str, Any] = {}

    def script(table: PinTable) -> None:
        table.bots_until(lambda v: v.kind is ScreenKind.AUCTION and bool(v.buttons))
        c = table.loop.controller
        seen["stash"] = list(c.match.state.stash)
        table.tap(2, W)
        seen["view"] = table.run_for(1.0)

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    assert seen["stash"][2] == 0, seen["stash"]  # (the seed's first game)
    view: ScreenView = seen["view"]
    assert view.kind is ScreenKind.AUCTION
    assert view.notice == "Cem has no stones to bid: OK (done) bids 0."


# ---------------------------------------------------------------- the demo


def demo_at(lines: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            bots: frozenset[int], person: Callable[[TableLoop], None]) -> None:
    """The demo going on with the match of ``lines`` (kept in its history, unfinished),
    ``person`` at the keyboard."""
    pytest.importorskip("pygame")
    from table_rig import open_store
    from test_demo_review import at_the_keyboard, options

    from einhorn_table.cli.table_app import run_demo
    from einhorn_table.history import TableLog
    from einhorn_table.rules import EINHORN, Setup
    from einhorn_table.rules.notation import parse_line

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    store = open_store(tmp_path / "state")
    first = json.loads(lines[0])
    log = TableLog(store)
    log.begin(Setup.for_variant(EINHORN, first["players"], games=first["games"]))
    assert log.recorder is not None
    for line in lines[1:]:
        log.recorder.append(parse_line(line))
    store.close()
    at_the_keyboard(monkeypatch, lambda loop, done: person(loop))
    run_demo(options(tmp_path, bots, names=list(first["players"]), resume=True))


def test_plus_with_an_empty_stash_says_why_in_the_demo_with_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_demo_review import quit_demo, steps_until
    from test_demo_review import tap as key_tap

    seen: dict[str, object] = {}

    def ben(loop: TableLoop) -> None:
        c = loop.controller
        steps_until(loop, lambda: loop.view is not None and loop.view.kind is ScreenKind.AUCTION)
        seen["stash"] = list(c.match.state.stash)
        key_tap(loop, "w")  # Ben's + (his keys are Q W E R)
        assert loop.view is not None
        seen["notice"] = loop.view.notice
        seen["drafts"] = dict(c.drafts)
        quit_demo(loop)

    demo_at(AUCTION, tmp_path, monkeypatch, frozenset({0, 2}), ben)
    assert seen["stash"] == [5, 0, 5]
    assert seen["notice"] == "Ben has no stones to bid: key E (done) bids 0."


def test_the_demos_who_starts_does_not_offer_throwing_all_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_demo_review import quit_demo, steps_until

    from einhorn_table.cli.table_app import KeyboardScreen

    seen: list[str] = []

    def ana(loop: TableLoop) -> None:
        steps_until(loop, lambda: loop.view is not None
                    and loop.view.kind is ScreenKind.START_ROLLS)
        assert loop.view is not None and isinstance(loop.screen, KeyboardScreen)
        seen.append(loop.screen.with_keys(loop.view).subtitle)
        quit_demo(loop)

    demo_at([setup_line(THREE)], tmp_path, monkeypatch, frozenset({1, 2}), ana)
    assert seen == ["Highest sum starts. Next: Ana (SPACE throws the dice)"]


def test_the_table_still_offers_the_starting_rolls_all_together() -> None:
    c, _ = table([setup_line(THREE)])
    assert "One by one or all together." in build_view(c, 0.0).subtitle
    c.throws_at_once = False
    assert build_view(c, 0.0).subtitle == "Highest sum starts. Next: Ana"


# ---------------------------------------------------------------- the other screens


def test_a_press_that_does_nothing_at_the_resume_question_says_which_buttons_answer(
        ) -> None:
    from einhorn_table.ports import Gesture, GestureKind
    from einhorn_table.screen.resume_view import resume_view
    from einhorn_table.table.controller import Seat
    from einhorn_table.table.resume import Interrupted, ResumePrompt

    c, _ = table([setup_line(THREE), *START])
    prompt = ResumePrompt(Interrupted("3", "2026-11-22 19:40", c.match,
                                      tuple(Seat(n) for n in THREE)), THREE)
    prompt.on_gesture(tap(1, U, 10.0))  # Ben's −: nothing on this question
    assert resume_view(prompt, 10.1).notice == (
        "Ben: tap OK to go on with this match, ✗ to start a new one, + for the match "
        "history.")
    # (As long as it takes to read aloud: some 8 seconds for these 84 letters.)
    assert resume_view(prompt, 17.0).notice.startswith("Ben: tap OK")
    assert resume_view(prompt, 19.0).notice == ""
    prompt.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 20.0))  # an undo: no match yet
    assert resume_view(prompt, 20.1).notice.startswith("Ana: tap OK to go on")
    assert prompt.choice is None
    prompt.answers_idle_presses = False  # (the demo's keys answer their own)
    prompt.on_gesture(tap(1, U, 30.0))
    assert resume_view(prompt, 30.1).notice == ""


def test_a_tap_in_a_roll_while_the_camera_is_lost_says_to_hold_ok() -> None:
    from einhorn_table.table.events import CameraLost

    c, _ = table([setup_line(THREE)])
    c.on_tray(CameraLost(1.0, "camera stopped sending frames"))
    c.on_gesture(tap(1, W, 2.0))  # Ben taps + in the starting rolls
    assert build_view(c, 2.1).notice == ("Ben: nobody calls in this roll. Throw your three "
                                         "dice, then hold OK to enter them by hand.")


def test_a_press_that_does_nothing_on_the_dice_question_or_the_owners_choice_says_what_does(
        ) -> None:
    from table_helpers import BLUE, reading

    from einhorn_table.table.events import MotionStarted, Settled

    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([2, 2, 3], BLUE)))  # Ana's roll in Ben's colour
    assert build_view(c, 2.1).kind is ScreenKind.DOUBT
    c.on_gesture(tap(0, W, 3.0))
    assert build_view(c, 3.1).notice == "Ana: tap OK if these are your dice, ✗ if not."
    c, _ = table([setup_line(["Ana", "Ben"]), *START[:2], roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 2, 3]), roll_line("Ana", [2, 2, 4])])
    assert build_view(c, 10.0).kind is ScreenKind.COUNTERPARTY
    c.on_gesture(tap(0, D, 10.0))
    assert build_view(c, 10.1).notice == ("Ana: − and + choose who pays or is paid, OK "
                                          "settles with the one shown.")


def test_a_refused_ok_at_the_resume_question_is_not_hidden_by_an_earlier_answer() -> None:
    from einhorn_table.screen.resume_view import resume_view
    from einhorn_table.table.controller import Seat
    from einhorn_table.table.resume import Interrupted, ResumePrompt

    c, _ = table([setup_line(THREE), *START])
    why = "Cem has no station in the table's configuration: add him, or press X."
    prompt = ResumePrompt(Interrupted("3", "2026-11-22 19:40", c.match,
                                      tuple(Seat(n) for n in THREE), why), THREE)
    prompt.on_gesture(tap(0, U, 10.0))
    assert resume_view(prompt, 10.5).notice.startswith("Ana: tap OK")
    prompt.on_gesture(tap(0, E, 11.0))  # OK, refused: the reason shows at once
    assert resume_view(prompt, 11.1).notice == why
