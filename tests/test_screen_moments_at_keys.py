"""What a player at the buttons (or keys) sees at the moments that matter: the bid's
OK says "done" as the top-up's does; a call taken back says so; the last roll's result
gives way once the next roller calls or throws; a notice asking for a roll leaves once
the dice move; dice thrown before an undo are not said to lock the call; the notice
hides none of the buttons' words; a hold of OK at the final standings fills up."""

from __future__ import annotations

import pytest
from table_helpers import BLUE, RED, chord, reading, tap
from test_table_moments import COLOURS, START, THREE, roll, roll_line, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.stations.gesture_table import Context, help_lines
from einhorn_table.table.controller import Seat
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def test_the_bids_ok_says_done_as_the_top_ups_does() -> None:
    from test_table_moments import AUCTION
    c, _ = table(AUCTION)
    view = build_view(c, 100.0)
    assert view.kind is ScreenKind.AUCTION
    assert [b.does for b in view.buttons] == ["less", "more", "done", "from 0"]
    c.on_gesture(tap(0, E, 100.0))  # Ana bids 0
    assert build_view(c, 100.5).players[0].status == "done"
    ok = [line.does for line in help_lines(Context.BID, False)
          if line.gesture == "tap Einhorn (OK)"]
    assert ok and "seal" not in ok[0] and ok[0].startswith("done")


def test_a_call_taken_back_says_the_player_is_silent_until_the_throw() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_gesture(tap(0, W, 1.0))
    assert build_view(c, 1.1).notice == ""
    c.on_gesture(tap(0, W, 1.5))  # the same tile again: the call taken back
    assert c.call_draft is None
    notice = build_view(c, 1.6).notice
    assert "Ana" in notice and "silent" in notice
    c.on_tray(MotionStarted(2.0))  # she throws: said enough
    assert build_view(c, 2.1).notice == ""


def test_the_result_gives_way_once_the_next_roller_calls() -> None:
    c, _ = table([setup_line(THREE), *START])
    roll(c, [2, 4, 6], RED, t=1.0)  # Ana's roll, shown from 2.0
    assert build_view(c, 2.5).kind is ScreenKind.RESULT
    c.on_gesture(tap(1, W, 2.6))  # Ben calls Wunsch at once
    view = build_view(c, 2.7)
    assert view.kind is ScreenKind.TURN and view.call is not None
    c.on_gesture(tap(1, W, 2.8))  # ... and takes it back: the result does not come back
    assert build_view(c, 2.9).kind is ScreenKind.TURN


def test_the_result_gives_way_once_dice_move() -> None:
    c, _ = table([setup_line(THREE), *START])
    roll(c, [2, 4, 6], RED, t=1.0)
    assert build_view(c, 2.5).kind is ScreenKind.RESULT
    c.on_tray(MotionStarted(2.6))  # Ben throws
    view = build_view(c, 2.7)
    assert view.kind is ScreenKind.TURN and view.subtitle == "Dice moving: call locked"


def test_the_game_ending_roll_is_shown_even_if_a_hand_moves_the_dice() -> None:
    from test_table_moments import AUCTION
    lines = AUCTION[:-2]  # Ben's last roll and choice still to come
    c, _ = table(lines)
    c.on_gesture(tap(1, E, 0.5))
    roll(c, [2, 2, 3], BLUE, t=1.0)
    c.on_gesture(tap(1, E, 2.2))  # Ben takes from the central stash: the game ends
    assert c.match.state.awaiting is Awaiting.BID
    c.on_tray(MotionStarted(2.4))  # a hand takes the dice out
    assert build_view(c, 2.5).kind is ScreenKind.RESULT


def test_roll_now_after_dice_thrown_before_an_undo_leaves_with_her_throw() -> None:
    c, _ = table([setup_line(THREE), *START], [Seat(n) for n in THREE])
    roll(c, [2, 2, 3], t=1.0)  # Ana's roll, misread
    c.on_tray(MotionStarted(4.0))  # Ben throws ...
    c.on_gesture(chord(2, U, D, 4.3))  # ... while Cem undoes Ana's roll
    view = build_view(c, 4.4)
    assert view.kind is ScreenKind.TURN and view.title == "Ana's turn"
    assert "call locked" not in view.subtitle  # (the screen says why they move, not "call locked")
    assert "undo" in view.subtitle
    c.on_tray(Settled(5.0, reading([5, 5, 1])))
    assert "roll now" in build_view(c, 5.1).notice
    c.on_tray(MotionStarted(6.0))  # Ana throws: the notice has done its work
    assert build_view(c, 6.1).notice == ""
    c.on_tray(Settled(7.0, reading([2, 4, 6])))
    assert build_view(c, 7.5).notice == ""


def test_a_notice_of_the_tables_own_stays_through_a_throw() -> None:
    c, _ = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])],
                 [Seat(n, COLOURS[i]) for i, n in enumerate(THREE)])
    c.on_gesture(chord(1, U, D, 1.0))  # Ben undoes Ana's roll
    said = build_view(c, 1.1).notice
    assert said.startswith("Ben undid")
    c.on_tray(MotionStarted(1.5))
    assert build_view(c, 1.6).notice == said


LONG_NOTICE = ("The game is over: the auction for the unicorn opens in a moment. Ana, wait "
               "for its screen, then press again. Q W E R are Ben's keys, and Ben is a bot "
               "here.")


def _notice_and_the_rest(make: object, view: object, size: tuple[int, int],
                         ) -> tuple[object, list[tuple[str, object]]]:
    """The rectangle the notice's lines take, and every other text drawn with its own."""
    import pygame
    renderer, texts = make(size)  # type: ignore[operator]
    renderer.draw(view)
    words = set(LONG_NOTICE.split())
    lines = [rect for text, _, rect in texts if text and set(text.split()) <= words
             and len(text.split()) > 3]
    assert " ".join(text for text, _, _ in texts if text and set(text.split()) <= words
                    and len(text.split()) > 3) == LONG_NOTICE  # all of it, in full
    box = pygame.Rect(lines[0]).unionall(lines[1:]).inflate(8, 8)
    return box, [(text, rect) for text, _, rect in texts if rect not in lines]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_notice_hides_none_of_the_auctions_buttons(monkeypatch: pytest.MonkeyPatch,
                                                      size: tuple[int, int]) -> None:
    from dataclasses import replace

    from screen_helpers import text_drawing
    from test_table_moments import AUCTION
    c, _ = table(AUCTION)
    view = replace(build_view(c, 100.0), notice=LONG_NOTICE)
    box, rest = _notice_and_the_rest(text_drawing(monkeypatch, "size"), view, size)
    strip = [rect for text, rect in rest if text in ("less", "more", "done", "from 0")]
    assert len(strip) == 4
    assert not [rect for rect in strip if box.colliderect(rect)]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("banner", ["", "Camera lost: check its cable. To go on without it, "
                                    "throw, then hold OK (Einhorn) to enter your dice. "
                                    "(No frames for 2 s.)"])
def test_a_notice_hides_none_of_the_call_tiles(monkeypatch: pytest.MonkeyPatch,
                                               size: tuple[int, int], banner: str) -> None:
    from dataclasses import replace

    from screen_helpers import text_drawing
    c, _ = table([setup_line(THREE), *START])
    view = replace(build_view(c, 1.0), notice=LONG_NOTICE, banner=banner)
    assert view.kind is ScreenKind.TURN
    box, rest = _notice_and_the_rest(text_drawing(monkeypatch, "size"), view, size)
    names = [rect for text, rect in rest
             if text in ("Das", "Unvermeidliche", "Wunsch", "Einhorn", "Dreifaltigkeit")]
    assert len(names) == 5
    assert not [rect for rect in names if box.colliderect(rect)]


def test_holding_ok_at_the_final_standings_shows_it_filling_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from screen_helpers import text_drawing
    from test_camera_lost_entry import Buttons, ScriptedTray

    from einhorn_table.adapters.clock import FakeClock
    from einhorn_table.ports import RawButtonEvent
    from einhorn_table.table.loop import TableLoop
    c, _ = table([json.dumps({"v": 1, "type": "setup", "variant": "einhorn",
                              "players": ["Ana", "Ben"], "games": 1}), *START[:2]])
    c.archive = lambda: None  # type: ignore[assignment,return-value]  # (the hints shown)
    c.on_gesture(tap(0, D, 1.0))
    roll(c, [4, 4, 4], RED, t=2.0)
    clock = FakeClock(20.0)  # long after the end: a hold of OK starts the next match
    buttons = Buttons(clock)
    loop = TableLoop(c, ScriptedTray(), buttons, clock)
    assert loop.step().kind is ScreenKind.FINAL and loop.view is not None
    assert loop.view.held is None
    buttons.edges.append(RawButtonEvent(0, E, True, clock.now))
    while clock.now < 20.4:
        view = loop.step()
    assert view.kind is ScreenKind.FINAL and view.held is not None
    assert 0.4 < view.held < 0.7 and c.next_match_asked is None  # filling, not yet taken
    renderer, texts = text_drawing(monkeypatch, "colour")((800, 480))
    renderer.draw(view)
    assert "keep holding: new match" in [text for text, _, _ in texts]
    while c.next_match_asked is None and clock.now < 21.5:
        loop.step()
    assert c.next_match_asked is not None  # (the hold counts as before)
    buttons.edges.append(RawButtonEvent(0, E, False, clock.now))
    loop.step()
    assert loop.view is not None and loop.view.held is None


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_notice_under_the_camera_banner_leaves_the_title_and_the_tiles_in_view(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    from dataclasses import replace

    from screen_helpers import text_drawing
    camera = ("Camera lost: check its cable. To go on without it, throw, then hold OK "
              "(Einhorn) to enter your dice. (No frames for 2 s.)")
    c, _ = table([setup_line(THREE), *START])
    view = replace(build_view(c, 1.0), notice=LONG_NOTICE, banner=camera)
    renderer, texts = text_drawing(monkeypatch, "size")(size)
    box, rest = _notice_and_the_rest(lambda _: (renderer, texts), view, size)
    notice_sizes = {font for text, font, _ in texts
                    if text in LONG_NOTICE and len(text.split()) > 3}
    banner = [(text, font, rect) for text, font, rect in texts
              if text in camera and len(text.split()) > 3]
    assert " ".join(text for text, _, _ in banner) == camera
    title = [rect for text, rect in rest if text == view.title]
    names = [rect for text, rect in rest
             if text in ("Das", "Unvermeidliche", "Wunsch", "Einhorn", "Dreifaltigkeit")]
    assert len(title) == 1 and len(names) == 5
    # The title and the tiles' names: below the notice, above the cards, none hidden.
    cards_top = renderer.h - renderer.s(154)
    for rect in title + names:
        assert rect.top >= box.bottom and rect.bottom <= cards_top, rect
        assert not any(rect.colliderect(b) for _, _, b in banner)
    apart = title + names
    assert not [(a, b) for a in apart for b in apart if a is not b and a.colliderect(b)]
    # Read from the chairs: the notice no smaller than its floor, no bigger than the banner.
    assert min(notice_sizes) >= 22 and max(notice_sizes) <= min(f for _, f, _ in banner)
