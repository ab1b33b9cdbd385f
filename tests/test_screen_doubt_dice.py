"""The dice asked about and the dice entered by hand: the question shows the dice in the
colour read (whose they look like), the entry in the roller's own dice colour, as the
roll's result will show them; and the question's line reads as short sentences."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import BLUE, RED, tap
from test_table_moments import START, THREE, setup_line, table
from test_table_screen import D, roll

from einhorn_table.screen.view_model import ScreenKind, ScreenView, build_view
from einhorn_table.table.controller import Seat


def _drawn(view: ScreenView) -> Any:
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    Renderer(surface).draw(view)
    return surface


def _count(surface: Any, colour: tuple[int, int, int]) -> int:
    width, height = surface.get_size()
    return sum(1 for x in range(0, width, 2) for y in range(0, height, 2)
               if tuple(surface.get_at((x, y)))[:3] == colour)


def test_dice_entered_by_hand_are_drawn_in_the_rollers_own_colour() -> None:
    c, _ = table([setup_line(THREE), *START])  # Ana's dice are red, Ben's blue; Ana rolls
    roll(c, [6, 5, 4], BLUE)  # Ana threw Ben's dice (or they look like his)
    asked = build_view(c, 1.5)
    assert asked.kind is ScreenKind.DOUBT and not asked.entry
    assert asked.subtitle == "These look like Ben's dice, not Ana's. You can also roll again"
    assert [d.colour for d in asked.dice] == [BLUE] * 3  # as read
    c.on_gesture(tap(0, D, 2.0))  # ✗: Ana enters her dice by hand
    entering = build_view(c, 2.5)
    assert entering.entry == (6, 5, 4) and entering.entry_colour == RED
    # Drawn: the three dice entered are red (before, white).
    assert _count(_drawn(entering), RED) > 2 * _count(_drawn(asked), RED)


def test_without_a_registered_colour_the_entry_keeps_the_colour_read() -> None:
    c, _ = table([setup_line(THREE), *START], [Seat(name) for name in THREE])
    roll(c, [6, None, 5], RED)  # a die not read: entered by hand at once
    view = build_view(c, 1.5)
    assert view.subtitle == "1 die could not be read. You can also roll again"
    assert view.entry == (6, 1, 5) and view.entry_colour == RED


def test_a_die_missing_is_said_in_sentences() -> None:
    c, _ = table([setup_line(THREE), *START])
    roll(c, [4, 5], RED)
    assert build_view(c, 1.5).subtitle == "2 dice seen, not 3. You can also roll again"


def test_a_subtitle_leaves_no_word_alone_on_its_last_line() -> None:
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer
    pygame.display.init()
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    _, _, small, _ = renderer._title_sizes()
    said = "3 dice thrown in two goes. You can also roll again"
    # Just too narrow for it all: plain wrapping would leave "again" alone.
    width = renderer.font(small).size(said)[0] - 4
    assert renderer.wrap(said, small, width)[-1] == "again"
    assert renderer.subtitle_lines(said, small, width) == [
        "3 dice thrown in two goes.", "You can also roll again"]
    # Drawn as the doubt screen's subtitle, the lines are those.
    drawn: list[str] = []
    renderer.text = lambda text, *_, **__: drawn.append(text)  # type: ignore[method-assign]
    area = pygame.Rect(0, 0, width + renderer.s(16), 200)
    renderer._title(ScreenView(ScreenKind.DOUBT, 1, 4, 50, None, (), "Ana, are these your dice?",
                               subtitle=said), area)
    assert drawn[1:] == ["3 dice thrown in two goes.", "You can also roll again"]
