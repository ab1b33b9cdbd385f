"""Six players' names on the table's screens, read from the chairs: a name with a space
in it is not broken across two lines of a wrapped text ("... (all Ngozi / Okonjo had)"),
the unicorn owner's name in the top bar is never drawn too small to read (cut short as
on the cards instead), and the names in the top-ups' column are one list at one size."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator

import pygame
import pytest
from screen_helpers import MakeDrawing, text_drawing
from test_screen_six_players import club_view

import einhorn_table.screen.renderer as renderer_module
from einhorn_table.rules import Category
from einhorn_table.screen.renderer import (
    LEAD_NAME_LEAST,
    OWNER_NAME_LEAST,
    OWNER_ROOM,
    Renderer,
    chunks,
)
from einhorn_table.screen.view_model import ButtonHint, HelpLine, ScreenKind, ScreenView

SIZES = [(800, 480), (1920, 1080)]
#: Words put before a line's names, more of them each try, until the line would break
#: inside "Ngozi Okonjo" were names not kept whole.
FILLER = ["Jo", "pays", "Zoë", "1,", "then", "Maximiliane", "pays", "Łukasz", "2", "and"]
HINTS = tuple(ButtonHint(sign, category, does) for sign, category, does in zip(
    ("-", "+", "OK", "X"), Category, ("less", "more", "done", "to 0"), strict=True))


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    yield text_drawing(monkeypatch, "size")


def club(**names: str) -> ScreenView:
    """The six-player club's view, seats renamed (``{"4": "Anne-Marie Weiß"}``)."""
    view = club_view()
    players = tuple(dataclasses.replace(card, name=names.get(str(k), card.name))
                    for k, card in enumerate(view.players))
    return dataclasses.replace(view, players=players)


def renderer(size: tuple[int, int] = (800, 480)) -> Renderer:
    pygame.display.init()
    pygame.font.init()
    return Renderer(pygame.Surface(size))


# ---------------------------------------------------------------- the wrap itself


def test_chunks_join_a_names_words_with_the_words_it_touches() -> None:
    names = ("Jo", "Ngozi Okonjo", "Anne-Marie  Weiß")
    assert chunks("Jo pays Anne-Marie Weiß 2 (all Ngozi Okonjo had)", names) == [
        "Jo", "pays", "Anne-Marie Weiß", "2", "(all", "Ngozi Okonjo", "had)"]
    assert chunks("(Ngozi Okonjo's turn)", names) == ["(Ngozi Okonjo's", "turn)"]
    # Not a name where it runs on into a longer word, nor without names to keep.
    assert chunks("Ngozi Okonjoson", names) == ["Ngozi", "Okonjoson"]
    assert chunks("Ngozi Okonjo", ()) == ["Ngozi", "Okonjo"]


@pytest.mark.parametrize("name", ["Ngozi Okonjo", "Anne-Marie Weiß"])
def test_wrap_keeps_a_players_name_on_one_line(name: str) -> None:
    drawer = renderer()
    text = f"Jo pays {name} 2 of 3 stones (all {name} had)"
    width = drawer.font(30).size(f"Jo pays {name.split()[0]}")[0]
    assert drawer.wrap(text, 30, width)[0] == f"Jo pays {name.split()[0]}"  # (no names)
    drawer.names = ("Jo", name, "Zoë")
    lines = drawer.wrap(text, 30, width)
    assert lines[0] == "Jo pays" and lines[1].startswith(name)
    assert not any(line.endswith(name.split()[0]) for line in lines)
    assert " ".join(lines) == text


def test_a_name_wider_than_the_line_is_broken_between_its_words() -> None:
    drawer = renderer()
    drawer.names = ("Ngozi Okonjo",)
    width = drawer.font(30).size("Ngozi Okon")[0]
    assert drawer.wrap("Jo pays Ngozi Okonjo", 30, width) == ["Jo pays", "Ngozi", "Okonjo"]


def test_a_cut_subtitle_does_not_end_in_half_a_name() -> None:
    drawer = renderer()
    text = "Your turn. Then Ngozi Okonjo rolls"
    width = drawer.font(28).size("Your turn. Then Ngozi...")[0]
    assert drawer.fit(text, 28, width) == "Your turn. Then Ngozi..."  # (no names)
    drawer.names = ("Ngozi Okonjo",)
    assert drawer.fit(text, 28, width) == "Your turn. Then..."


# ---------------------------------------------------------------- drawn on the screens


def _result(text: str) -> ScreenView:
    return dataclasses.replace(
        club(), kind=ScreenKind.RESULT, unicorn=3, title="Friedrich-Wilhelm rolled 2 3 4",
        lines=("Friedrich-Wilhelm called Einhorn - wrong", text))


def _notice(text: str) -> ScreenView:
    return dataclasses.replace(club(), kind=ScreenKind.TOPUP, title="Top-up", notice=text)


def _subtitle(text: str) -> ScreenView:
    return dataclasses.replace(club(), kind=ScreenKind.TOPUP, title="Top-up", subtitle=text)


def _help(text: str) -> ScreenView:
    return dataclasses.replace(club(), help_title="What the buttons do",
                               help=(HelpLine("Press OK", text),))


PLACES: dict[str, Callable[[str], ScreenView]] = {
    "result line": _result, "notice": _notice, "subtitle": _subtitle, "help": _help}


def _drawn(drawing: MakeDrawing, size: tuple[int, int], view: ScreenView) -> list[str]:
    drawer, texts = drawing(size)
    drawer.draw(view)
    return [words for words, _, _ in texts]


def _broken(drawn: list[str]) -> bool:
    """Whether a drawn line ends in "Ngozi" with "Okonjo" starting the next."""
    return any(a.endswith("Ngozi") and b.startswith("Okonjo")
               for a, b in itertools.pairwise(drawn))


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("size", SIZES)
def test_six_players_screens_do_not_break_a_name_across_lines(
        drawing: MakeDrawing, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
        place: str) -> None:
    make = PLACES[place]
    ending = "Anne-Marie Weiß pays Ngozi Okonjo 2 of 3 (all Ngozi Okonjo had)"
    # The words before the names, as many as break the line inside "Ngozi Okonjo" where
    # the wrap is given no names (as before it was).
    with monkeypatch.context() as unkept:
        unkept.setattr(renderer_module, "chunks", lambda text, names=(): text.split())
        texts = [" ".join([*FILLER[:k], ending]) for k in range(1, len(FILLER) + 1)]
        breaking = [t for t in texts if _broken(_drawn(drawing, size, make(t)))]
    assert breaking, "no line broke inside the name: the test shows nothing"
    drawn = _drawn(drawing, size, make(breaking[0]))
    assert not _broken(drawn)
    assert any("Ngozi Okonjo" in words for words in drawn)


@pytest.mark.parametrize("size", SIZES)
def test_the_owners_name_in_the_top_bar_is_cut_not_shrunk_past_reading(
        drawing: MakeDrawing, size: tuple[int, int]) -> None:
    long = "Maximiliane-Friederike von Hohenzollern"
    view = dataclasses.replace(club(**{"3": long}), unicorn=3)
    drawer, texts = drawing(size)
    drawer.draw(view)
    bar = [(words, font, rect) for words, font, rect in texts
           if rect.bottom <= drawer.s(56) and words.startswith("Maximiliane")]
    assert len(bar) == 1
    words, font, rect = bar[0]
    assert font >= OWNER_NAME_LEAST
    assert words.endswith(".") and words[-2].isalpha() and long.startswith(words[:-1])
    assert rect.width <= drawer.s(OWNER_ROOM) and rect.right <= drawer.w


@pytest.mark.parametrize("size", SIZES)
def test_the_topups_name_column_is_one_list_at_one_size(drawing: MakeDrawing,
                                                        size: tuple[int, int]) -> None:
    # Zoë calls (she owns the unicorn), Friedrich-Wilhelm tops up: "Zoë" at 32 above
    # "Friedrich-Wilhelm" at 24 read as if she mattered more.
    view = club()
    players = tuple(dataclasses.replace(card, status="ready") for card in view.players)
    view = dataclasses.replace(view, kind=ScreenKind.TOPUP, players=players, unicorn=3,
                               caller=3, buttons_for=(2,), buttons=HINTS, title="Top-up",
                               subtitle="Friedrich-Wilhelm: top up, OK when done.")
    drawer, texts = drawing(size)
    drawer.draw(view)
    cards_top = drawer.h - drawer.s(154)
    column = [(words, font) for words, font, rect in texts
              if words in ("Zoë", "Friedrich-Wilhelm")
              and drawer.s(56) < rect.top and rect.bottom <= cards_top]  # (not the top bar)
    assert sorted(words for words, _ in column) == ["Friedrich-Wilhelm", "Zoë"]  # whole
    assert column[0][1] == column[1][1] >= LEAD_NAME_LEAST
