"""A game club's evening: six players with names of every length, all six dice
colours, on the Pi's 800x480 panel and on 1920x1080. The cards name everyone as
whole as the card's width allows, and a name cut short ends in a letter and "."."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import MemoryRecorder

from einhorn_table.rules import EINHORN, Match, Setup
from einhorn_table.screen.renderer import Renderer
from einhorn_table.screen.view_model import ScreenView, build_view
from einhorn_table.table.config import DICE_COLOURS
from einhorn_table.table.controller import Seat, TableController

CLUB = ("Jo", "Maximiliane", "Friedrich-Wilhelm", "Zoë", "Łukasz", "Ngozi Okonjo")
DICE = ("white", "red", "blue", "green", "yellow", "black")
SIZES = [(800, 480), (1920, 1080)]


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    yield text_drawing(monkeypatch, "size")


def club_view() -> ScreenView:
    """Who starts: the club's six cards, each with its dice."""
    seats = [Seat(name, DICE_COLOURS[dice], dice) for name, dice in zip(CLUB, DICE, strict=True)]
    controller = TableController(Match(Setup.for_variant(EINHORN, list(CLUB), games=10)),
                                 MemoryRecorder(), seats)
    return build_view(controller, 0.0)


def card_names(renderer: Any, texts: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, Any]]:
    """The names drawn in the cards' top row, left to right."""
    top = renderer.h - renderer.s(154)
    return sorted(((w, size, r) for w, size, r in texts
                   if r.top >= top and r.bottom <= top + renderer.s(50)),
                  key=lambda t: t[2].x)


@pytest.mark.parametrize("size", SIZES)
def test_six_cards_name_maximiliane_and_ngozi_okonjo_whole(drawing: Any,
                                                           size: tuple[int, int]) -> None:
    # The marker took the row's left beside the name while the stacked layout left the
    # corner left of the stones empty: "Maximilia.", "Ngozi Ok.", "Friedrich-.".
    view = club_view()
    assert all(card.dice_colour is not None for card in view.players)
    renderer, texts = drawing(size)
    renderer.draw(view)
    names = card_names(renderer, texts)
    shown = [w for w, _, _ in names]
    assert shown[:2] + shown[3:] == ["Jo", "Maximiliane", "Zoë", "Łukasz", "Ngozi Okonjo"]
    assert shown[2].startswith("Friedrich-Wil") and shown[2].endswith(".")
    assert len({size for _, size, _ in names}) == 1 and names[0][1] >= 22
    for (_, _, rect), card in zip(names, renderer._card_rects(6), strict=True):
        assert card.left < rect.left and rect.right <= card.right - renderer.s(4)


@pytest.mark.parametrize("size", SIZES)
def test_six_cards_keep_each_marker_clear_of_its_name_and_stones(size: tuple[int, int]) -> None:
    """The marker (a shape in the player's colour) stands left of the stones, in no
    text's way: the name's row above it shows no marker colour."""
    pygame.display.init()
    pygame.font.init()
    view = club_view()
    renderer = Renderer(pygame.Surface(size))
    marked: list[tuple[float, float, float]] = []
    original = renderer._marker

    def marker(kind: Any, colour: Any, centre: tuple[float, float], r: float) -> None:
        marked.append((centre[0], centre[1], r))
        original(kind, colour, centre, r)

    renderer._marker = marker  # type: ignore[method-assign,assignment]
    renderer.draw(view)
    marked = [m for m in marked if m[1] > renderer.h - renderer.s(154)]  # (the cards')
    for (x, y, r), card in zip(marked, renderer._card_rects(6), strict=True):
        assert card.left < x - r and y - r > card.top + renderer.s(42)  # under the name row
        assert x + r < card.centerx - renderer.s(22)  # left of the big number
        for dx in range(card.left + renderer.s(8), card.right - renderer.s(8)):
            assert renderer.surface.get_at((dx, card.top + renderer.s(44)))[:3] \
                != view.players[marked.index((x, y, r))].colour


@pytest.mark.parametrize("name", ["Friedrich-Wilhelm", "Ngozi Okonjo", "Anne-Marie Weiß"])
def test_a_name_cut_short_ends_in_a_letter_and_a_full_stop(name: str) -> None:
    pygame.display.init()
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    for width in range(30, renderer.font(22).size(name)[0], 2):
        cut, _ = renderer.shortened(name, 22, 22, width)
        assert cut.endswith(".") and cut[-2].isalpha(), (width, cut)
        assert renderer.font(22).size(cut)[0] <= width or len(cut) == 2
