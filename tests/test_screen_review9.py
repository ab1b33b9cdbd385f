"""The table's screens, looked at again: the help's title is one sentence said to the
player who asked, and the names over the top-ups' button rows read from the chairs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import chord
from test_screen_lines import START, setup_line, table
from test_screen_review4 import SIX_LONG, owner_calling_view

from einhorn_table.ports import Button
from einhorn_table.screen.view_model import build_view
from einhorn_table.stations.gesture_table import Context, help_title

W, E = Button.WUNSCH, Button.EINHORN


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


def test_the_help_title_speaks_to_the_player_in_one_sentence() -> None:
    # It read "Ana: Your turn: make your call, then roll": a name and a heading run
    # together, two colons in a row.
    c, _ = table([setup_line(), *START])
    c.on_gesture(chord(0, W, E, 1.0))
    assert build_view(c, 1.5).help_title == "Ana, it's your turn: make your call, then roll"


@pytest.mark.parametrize("context", list(Context))
def test_every_help_title_names_the_player_once_and_not_as_a_label(context: Context) -> None:
    title = help_title(context, "Ben")
    assert title.startswith("Ben, ") and title.count("Ben") == 1
    assert title.count(":") <= 1 and "Ben:" not in title
    assert title[len("Ben, ")].islower()  # the sentence goes on after the name
    assert help_title(context, None) == context.heading  # (nobody known: the heading)


# ---------------------------------------------------------------- the top-ups' names


def _lead_texts(renderer: Any, texts: list[tuple[str, Any, Any]]) -> list[tuple[str, Any]]:
    """The words drawn in the lead column left of the top-ups' two button rows (the
    caller's, right above the strip; the strip's, right above the cards)."""
    rows_top = renderer.h - renderer.s(160 + 112)
    cards_top = renderer.h - renderer.s(154)
    return [(words, rect) for words, _, rect in texts
            if rect.left < renderer.s(60) and rows_top < rect.centery < cards_top]


def _card_name_height(renderer: Any, texts: list[tuple[str, Any, Any]]) -> int:
    cards_top = renderer.h - renderer.s(154)
    return max(rect.height for words, _, rect in texts
               if cards_top < rect.top < cards_top + renderer.s(50) and words.strip(".")
               and not words.isdigit())


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("names", [("Ana", "Ben", "Cem", "Dora"), SIX_LONG])
def test_the_callers_name_beside_the_call_row_is_as_big_as_the_cards_names(
        drawing: Any, size: tuple[int, int], names: tuple[str, ...]) -> None:
    # "Ben" beside his call row was drawn at 28 over cards whose names stood at 32: the
    # smallest name on the screen, for the one player who calls already.
    renderer, texts = drawing(size)
    renderer.draw(owner_calling_view(names, ""))
    (caller,) = [(w, rect) for w, rect in _lead_texts(renderer, texts)
                 if names[1].startswith(w.rstrip("."))]
    assert caller[1].height >= _card_name_height(renderer, texts), (size, names)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_one_player_still_topping_up_is_named_beside_their_buttons(
        drawing: Any, size: tuple[int, int]) -> None:
    # The strip under the caller's row showed only a shape for whose buttons it told.
    names = ("Ana", "Ben", "Cem")
    view = replace(owner_calling_view(names, ""), buttons_for=(2,))
    renderer, texts = drawing(size)
    renderer.draw(view)
    lead = {w: rect for w, rect in _lead_texts(renderer, texts)}
    assert set(lead) == {"Ben", "Cem"}
    assert lead["Cem"].height >= _card_name_height(renderer, texts)
    assert lead["Cem"].top > lead["Ben"].bottom  # the strip, under the caller's row
