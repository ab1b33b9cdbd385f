"""The view model (what the screen shows) and the renderer drawing every screen."""

from __future__ import annotations

import pytest
from table_helpers import BLUE, RED, chord, controller, reading, tap

from einhorn_table.ports import Button
from einhorn_table.rules import Category
from einhorn_table.screen.view_model import (
    FLOW_SECONDS,
    RESULT_SECONDS,
    Marker,
    ScreenKind,
    build_view,
)
from einhorn_table.table.controller import TableController
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int] = RED,
         t: float = 0.0) -> None:
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


def test_start_rolls_then_the_result_then_the_turn() -> None:
    c, _ = controller()
    assert build_view(c, 0.0).kind is ScreenKind.START_ROLLS
    roll(c, [6, 6, 5], t=0.0)
    roll(c, [1, 1, 2], BLUE, t=2.0)
    view = build_view(c, 3.5)
    assert view.kind is ScreenKind.RESULT and view.title == "Ben rolled 4"
    view = build_view(c, 3.0 + RESULT_SECONDS + 0.1)
    assert view.kind is ScreenKind.TURN and view.title == "Ana's turn"
    assert view.players[0].active and not view.players[1].active


def test_players_have_a_colour_and_a_shape_each() -> None:
    c, _ = controller(("A", "B", "C", "D", "E", "F"))
    cards = build_view(c, 0.0).players
    assert len({p.colour for p in cards}) == 6
    assert {p.marker for p in cards} == set(Marker)


def test_the_result_shows_the_payment_flying_then_landing() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    c.on_gesture(tap(0, W, 10.0))
    roll(c, [2, 2, 3], t=10.0)
    early = build_view(c, 11.2)
    late = build_view(c, 11.0 + FLOW_SECONDS)
    assert early.kind is ScreenKind.RESULT and early.category is Category.WUNSCH
    assert early.flows and early.flows[0].source == -1 and early.flows[0].target == 0
    assert early.flows[0].progress < late.flows[0].progress == 1.0
    assert "Central pays Ana 2" in early.lines
    assert "called Wunsch - right!" in early.lines
    assert build_view(c, 11.0 + FLOW_SECONDS + 1).flows == ()


def test_a_short_payment_says_what_was_due() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    t = 10.0
    for _ in range(4):  # Ana (7 stones) calls Einhorn and rolls Wunsch: -2 each time
        c.on_gesture(tap(0, E, t))
        roll(c, [2, 2, 3], t=t)
        last = build_view(c, t + 1.2)
        if c.match.ledger().player("Ana").game_stones:
            roll(c, [2, 2, 3], BLUE, t=t + 5)  # Ben silent: -1
        t += 10
    assert "Ana pays Central 1 of 2 (all Ana had)" in last.lines
    assert "Ana pays Central 2" not in last.lines


def test_the_turn_shows_the_call_and_its_lock() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    c.on_gesture(tap(0, E, 20.0))
    assert build_view(c, 20.0).call is Category.EINHORN
    c.on_tray(MotionStarted(21.0))
    view = build_view(c, 21.0)
    assert view.call_locked and "locked" in view.subtitle


def test_the_auction_never_shows_a_bid_before_all_have_bid() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    c.on_gesture(tap(0, D, 5.0))
    roll(c, [4, 4, 4], t=5.0)  # Dreifaltigkeit called and rolled: the game ends
    for _ in range(3):
        c.on_gesture(tap(0, W, 20.0))
    c.on_gesture(tap(0, E, 20.0))
    view = build_view(c, 20.5)
    assert view.kind is ScreenKind.AUCTION
    assert view.players[0].status == "done" and view.players[1].status == "to bid"
    assert not any("3" in line for line in view.lines)
    c.on_gesture(tap(1, E, 21.0))
    reveal = build_view(c, 21.5)
    assert reveal.kind is ScreenKind.AUCTION and "Ana: 3" in reveal.lines


def test_a_doubtful_reading_shows_what_was_read() -> None:
    c, _ = controller()
    roll(c, [6, None, 5])
    view = build_view(c, 1.5)
    assert view.kind is ScreenKind.DOUBT and "could not be read" in view.subtitle
    assert [d.value for d in view.dice] == [6, None, 5]
    assert view.entry == (6, 1, 5) and view.entry_position == 0
    # On the first die ✗ leaves the entry: the roller throws again.
    assert [b.does for b in view.buttons] == ["lower", "higher", "next die", "roll again"]


def test_help_lists_the_gestures_of_the_moment() -> None:
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    c.on_gesture(chord(0, W, E, 9.0))
    view = build_view(c, 9.5)
    assert view.help_title.startswith("Ana, it's your turn")
    assert any("undo" in line.does for line in view.help)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_renderer_draws_every_screen(size: tuple[int, int],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer

    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface(size)
    renderer = Renderer(surface)
    c, _ = controller()
    seen = set()
    views = [build_view(c, 0.0)]
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE, t=2.0)
    views += [build_view(c, 3.2), build_view(c, 9.0)]
    roll(c, [2, None, 3], t=10.0)
    views.append(build_view(c, 11.0))
    c.on_gesture(chord(0, W, E, 12.0))
    views.append(build_view(c, 12.0))
    for view in views:
        renderer.draw(view)
        seen.add(view.kind)
    assert {ScreenKind.START_ROLLS, ScreenKind.RESULT, ScreenKind.TURN,
            ScreenKind.DOUBT} <= seen
    colours = {surface.get_at((x, y))[:3] for x in range(0, size[0], 37)
               for y in range(0, size[1], 29)}
    assert len(colours) > 3




def test_a_new_photo_is_shown_even_where_it_takes_an_old_photos_place_in_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    import dataclasses

    import numpy as np

    from einhorn_table.screen.renderer import Renderer

    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    renderer = Renderer(surface)
    c, _ = controller()
    roll(c, [6, 6, 5])
    roll(c, [2, None, 3], BLUE, t=2.0)
    doubt = build_view(c, 3.0)
    assert doubt.kind is ScreenKind.DOUBT

    def shown(bgr: tuple[int, int, int]) -> int:
        rgb = pygame.Color(bgr[2], bgr[1], bgr[0])
        return sum(surface.get_at((x, y)) == rgb for x in range(0, 800, 4)
                   for y in range(0, 480, 4))

    green, magenta = (0, 200, 0), (200, 0, 200)
    renderer.draw(dataclasses.replace(doubt, photo=np.full((360, 480, 3), green, np.uint8)))
    assert shown(green) > 100
    # The last roll's photo is let go; the next one's array is often made where it lay.
    photo = np.full((360, 480, 3), magenta, np.uint8)
    renderer.draw(dataclasses.replace(doubt, photo=photo))
    assert shown(magenta) > 100 and shown(green) == 0


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)])
def test_the_resume_question_shows_six_long_names_stashes_and_why_in_full(
        size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer
    from einhorn_table.screen.resume_view import resume_view
    from einhorn_table.table.controller import Seat
    from einhorn_table.table.resume import Interrupted, ResumePrompt

    names = ("Alexandra", "Benedikt", "Cornelia", "Dorothea", "Emanuel", "Friederike")
    c, _ = controller(names)
    why = ("Emanuel and Friederike have no station in the table's configuration: add them "
           "to go on with this match, or press X for a new one.")
    prompt = ResumePrompt(Interrupted("7", "2026-11-22 19:40", c.match,
                                      tuple(Seat(n) for n in names), why), names)
    view = resume_view(prompt, 0.0)
    pygame.font.init()
    renderer = Renderer(pygame.Surface(size))
    drawn: list[str] = []
    text = renderer.text

    def noted(words: str, *args: object, **kwargs: object) -> object:
        drawn.append(words)
        return text(words, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(renderer, "text", noted)
    renderer.draw(view)
    shown = " ".join(drawn)
    for line in view.lines:  # every word of every line, none cut off at the foot
        assert " ".join(line.split()) in shown, line
    assert "for a new one." in shown
