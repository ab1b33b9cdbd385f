"""The table's screen, reviewed as a family reads it: the camera-lost banner leaves each
screen's title in view, the help lists the hold of OK only while the camera is lost, and
during the top-ups the unicorn owner who is done is told that their buttons call."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import BLUE, RED, MemoryRecorder, chord, controller, tap

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting, Category, replay
from einhorn_table.screen.view_model import (
    SEAT_COLOURS,
    DieView,
    Marker,
    PlayerCard,
    ScreenKind,
    ScreenView,
    build_view,
    button_hints,
)
from einhorn_table.stations.gesture_table import GESTURES, Context, help_lines, help_markdown
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
WHITE = (240, 240, 240)
HOLD = "hold Einhorn (OK)"
SIZES = [(800, 480), (1024, 600), (1280, 720), (1920, 1080)]
LONG = ("Alexandra", "Maximilian Friedrich", "Großmutter Hildegard", "Konstantin", "Emma",
        "Jo")


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, colour, rectangle)."""
    yield text_drawing(monkeypatch, "colour")


def lose_camera(c: TableController, t: float = 0.0) -> None:
    c.on_tray(CameraLost(t, "Failed to start camera: Device or resource busy. Close it"))


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int],
         t: float) -> None:
    from table_helpers import reading

    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


# ---------------------------------------------------------------- the camera-lost banner


def cards(names: tuple[str, ...], status: str = "") -> tuple[PlayerCard, ...]:
    return tuple(PlayerCard(name, SEAT_COLOURS[i], list(Marker)[i], 6, 3, i == 1, i == 1,
                            status) for i, name in enumerate(names))


def banner_views(banner: str, names: tuple[str, ...]) -> list[ScreenView]:
    """Each screen that can show the banner, as busy as it gets."""
    players = cards(names)
    dice = tuple(DieView(v, None, True) for v in (2, 3, 4))
    owing = tuple(i for i in range(len(names)) if i != 1)
    return [
        ScreenView(ScreenKind.START_ROLLS, 1, 10, 76, None, players,
                   "Who starts? Everyone rolls", focus=0, banner=banner,
                   subtitle=f"Highest sum starts. One by one or all together. Next: {names[0]}"),
        ScreenView(ScreenKind.START_ROLLS, 9, 10, 3, None, players, "Roll-off", focus=0,
                   subtitle=f"{', '.join(names[:3])} roll in turn until one rolls an "
                            f"Einhorn. Next: {names[0]}", banner=banner),
        ScreenView(ScreenKind.TURN, 2, 10, 50, 1, players, f"{names[1]}'s turn", focus=1,
                   subtitle="Call a category, or stay silent, then roll",
                   call=Category.EINHORN, banner=banner),
        ScreenView(ScreenKind.COUNTERPARTY, 2, 10, 3, 1, players,
                   f"{names[1]} gets 5: from whom?", focus=1, dice=dice,
                   subtitle="The central stash holds only 3: taking from it empties it and "
                            "ends the match. Or one other player",
                   category=Category.UNVERMEIDLICH, choices=("Central", *names[2:]),
                   buttons=button_hints(Context.COUNTERPARTY), banner=banner),
        ScreenView(ScreenKind.AUCTION, 2, 10, 50, None, players,
                   "Auction: bid for the unicorn", banner=banner,
                   subtitle="Everyone at once, secretly. Count your + presses.",
                   buttons=button_hints(Context.BID)),
        ScreenView(ScreenKind.AUCTION, 2, 10, 50, 1, players, f"{names[1]} takes the unicorn",
                   subtitle="The bids, all paid to the central stash", banner=banner,
                   lines=tuple(f"{name}: 2" for name in names)),
        ScreenView(ScreenKind.TOPUP, 2, 10, 50, 1, cards(names, "+0 ?"),
                   "Top-up: stash to game stones", focus=0, banner=banner,
                   subtitle=f"Everyone at once; OK when done. Then {names[1]} rolls.",
                   buttons=button_hints(Context.TOPUP)),
        ScreenView(ScreenKind.TOPUP, 2, 10, 50, 1, cards(names, "+0 ?"),
                   "Top-up: stash to game stones", focus=0, banner=banner,
                   subtitle=f"{', '.join(names[i] for i in owing)}: top up, OK when done. "
                            f"Then {names[1]} rolls (Wunsch).", call=Category.WUNSCH,
                   caller=1, buttons=button_hints(Context.TOPUP), buttons_for=owing),
        ScreenView(ScreenKind.DOUBT, 2, 10, 50, 1, players, f"{names[1]}, are these your dice?",
                   focus=1, subtitle="One die unclear - or roll again", dice=dice,
                   buttons=button_hints(Context.CONFIRM_DICE), banner=banner),
        ScreenView(ScreenKind.GAME_END, 3, 10, 50, 1, players, "Game 2 is over",
                   subtitle="Game stones go into each stash", banner=banner,
                   lines=tuple(f"{name} 3" for name in names)),
        ScreenView(ScreenKind.FINAL, 10, 10, 0, 1, players, "Final standings",
                   subtitle=f"{names[1]} wins!", winner=1, banner=banner,
                   chart=((0,) * len(names), (3,) * len(names))),
    ]


def banner_bottom(renderer: Any, texts: list[tuple[str, Any, Any]], banner: str) -> int:
    """Where the banner's last line ends (its lines as drawn: two at 800x480)."""
    lines = [rect for words, _, rect in texts if words.startswith("Camera lost")]
    assert len(lines) == 1, "the banner's first line is drawn once"
    rects = [rect for words, _, rect in texts
             if words in banner.replace("…", "...") and rect.left == lines[0].left
             and rect.top >= lines[0].top and rect.top < renderer.h // 2]
    return max(rect.bottom for rect in rects)


def test_the_starting_rolls_title_is_not_hidden_under_the_camera_lost_banner(
        drawing: Any) -> None:
    c, _ = controller(("Ana", "Ben", "Cem", "Dora"))
    lose_camera(c)
    view = build_view(c, 1.0)
    assert view.kind is ScreenKind.START_ROLLS and "hold OK" in view.banner
    for size in SIZES:
        renderer, texts = drawing(size)
        renderer.draw(view)
        below = banner_bottom(renderer, texts, view.banner)
        (title,) = [rect for words, _, rect in texts if words == view.title]
        assert title.top >= below, (size, title, below)
        subtitle = [rect for words, colour, rect in texts
                    if words and words in view.subtitle and rect.top > title.top]
        assert subtitle and all(rect.top >= below for rect in subtitle), size


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("names", [("Ana", "Ben", "Cem", "Dora"), LONG])
def test_every_screen_under_the_banner_keeps_its_words_clear_of_it_and_the_buttons(
        drawing: Any, size: tuple[int, int], names: tuple[str, ...]) -> None:
    banner = ("Camera lost: check its cable. To go on without it, throw, then hold OK "
              "(Einhorn) to enter your dice. (Failed to start camera: Device…)")
    for view in banner_views(banner, names):
        renderer, texts = drawing(size)
        renderer.draw(view)
        below = banner_bottom(renderer, texts, banner)
        (title,) = [rect for words, _, rect in texts if words == view.title]
        assert title.top >= below, (view.kind, size)
        strip_top = renderer.h - renderer.s(160) - renderer.s(54)
        cards_top = renderer.h - renderer.s(154)
        for words, _, rect in texts:
            if rect.top >= below and view.kind is not ScreenKind.FINAL:
                assert rect.bottom <= cards_top or rect.top >= cards_top, (view.kind, words)
                if view.buttons:  # nothing of the screen runs into the button strip
                    assert rect.bottom <= strip_top + 1 or rect.top >= strip_top, (
                        view.kind, words, size)


# ---------------------------------------------------------------- the help


def test_the_help_shows_the_hold_of_ok_only_while_the_camera_is_lost() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5], RED, 0.0)
    roll(c, [1, 1, 2], BLUE, 2.0)
    c.on_gesture(chord(0, W, E, 9.0))  # Ana's turn: the help
    view = build_view(c, 9.5)
    assert view.help_title.startswith("Ana, it's your turn")
    assert [line.gesture for line in view.help] == [
        "tap a category", "press Das Unvermeidliche (−) + Dreifaltigkeit (✗) together",
        "press Wunsch (+) + Einhorn (OK) together"]
    lose_camera(c, 10.0)
    assert any(line.gesture == HOLD and "camera is lost" in line.does
               for line in build_view(c, 10.5).help)
    c.on_tray(CameraBack(11.0))
    assert all(line.gesture != HOLD for line in build_view(c, 11.5).help)


def test_the_gesture_table_and_its_page_keep_the_hold_of_ok() -> None:
    for context in (Context.CALL, Context.ROLL):
        assert any(line.gesture == HOLD for line in GESTURES[context])
        assert help_lines(context, camera_lost=True) == GESTURES[context]
        assert all(line.gesture != HOLD for line in help_lines(context, camera_lost=False))
    assert "| hold Einhorn (OK) | only while the camera is lost" in help_markdown()


# ---------------------------------------------------------------- the top-ups


def topups() -> tuple[TableController, MemoryRecorder]:
    """Ana owns the unicorn; all three top up."""
    setup = json.dumps({"v": 1, "type": "setup", "variant": "einhorn",
                        "players": ["Ana", "Ben", "Cem"], "games": 10})
    lines = [setup] + [json.dumps(item) for item in [
        {"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]},
        {"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]},
        {"type": "start_roll", "player": "Cem", "dice": [1, 2, 2]},
        {"type": "call", "player": "Ana", "call": "dreifaltigkeit"},
        {"type": "roll", "player": "Ana", "dice": [4, 4, 4]},
        {"type": "bid", "player": "Ana", "stones": 3},
        {"type": "bid", "player": "Ben", "stones": 0},
        {"type": "bid", "player": "Cem", "stones": 0}]]
    match = replay(lines)
    recorder = MemoryRecorder()
    seats = [Seat(n, (RED, BLUE, WHITE)[i]) for i, n in enumerate(match.names)]
    c = TableController(match, recorder, seats)
    assert c.awaiting is Awaiting.TOPUP and c.match.ledger().unicorn == "Ana"
    return c, recorder


def test_while_everyone_tops_up_the_strip_is_everyones() -> None:
    c, _ = topups()
    view = build_view(c, 1.0)
    assert view.kind is ScreenKind.TOPUP and view.caller is None and view.buttons_for == ()
    assert [h.does for h in view.buttons] == ["less", "more", "done", "to 0"]
    assert view.subtitle.startswith("Everyone at once; OK when done.")


def test_the_owner_done_with_the_top_up_sees_their_buttons_call(drawing: Any) -> None:
    c, _ = topups()
    c.on_gesture(tap(0, E, 1.0))  # Ana, the owner, seals 0
    c.on_gesture(tap(0, W, 2.0))  # and calls Wunsch while Ben and Cem still count
    assert c.context(0) is Context.CALL and c.call_draft is Category.WUNSCH
    view = build_view(c, 2.5)
    assert view.caller == 0 and view.buttons_for == (1, 2)
    assert view.subtitle == "Ben and Cem: top up, OK when done. Then Ana rolls (Wunsch)."
    for size in ((800, 480), (1920, 1080)):
        renderer, texts = drawing(size)
        renderer.draw(view)
        strip_top = renderer.h - renderer.s(160) - renderer.s(54)
        shown = {words: (colour, rect) for words, colour, rect in texts}
        # Ana's row: her name, then her four buttons as the categories, Wunsch lit;
        # right above the strip of the others' − + OK ✗, aligned with it.
        assert shown["Ana"][1].bottom <= strip_top
        row = [shown[w] for w in ("Unvermeidliche", "Wunsch", "Einhorn", "Dreifaltigkeit")]
        assert all(rect.bottom <= strip_top for _, rect in row)
        tiles = [shown[w][1] for w in ("less", "more", "done", "to 0")]
        assert all(rect.top >= strip_top for rect in tiles)
        for above, below in zip(row, tiles, strict=True):
            assert abs(above[1].centerx - below.centerx) < renderer.s(100)
        assert shown["Wunsch"][0] != shown["Einhorn"][0]  # the called one is lit
    c.on_gesture(tap(1, E, 3.0))  # Ben seals; Cem still counts
    assert build_view(c, 3.5).buttons_for == (2,)


def test_a_top_up_strip_for_some_shows_whose_it_is(drawing: Any) -> None:
    """The shapes of those still topping up stand left of their strip."""
    c, _ = topups()
    c.on_gesture(tap(0, E, 1.0))
    view = build_view(c, 1.5)
    renderer, _ = drawing((800, 480))
    drawn: list[Any] = []
    original = renderer._marker

    def marker(kind: Marker, colour: Any, centre: Any, r: float) -> None:
        drawn.append((kind, centre))
        original(kind, colour, centre, r)

    renderer._marker = marker  # type: ignore[method-assign]
    renderer.draw(view)
    strip_top = renderer.h - renderer.s(160) - renderer.s(54)
    in_strip = [kind for kind, (x, y) in drawn if strip_top <= y <= strip_top + renderer.s(54)]
    assert in_strip == [Marker.SQUARE, Marker.TRIANGLE]  # Ben's and Cem's, not Ana's
    everyone = replace(view, caller=None, buttons_for=())
    drawn.clear()
    renderer.draw(everyone)
    assert not [k for k, (x, y) in drawn if strip_top <= y <= strip_top + renderer.s(54)]
