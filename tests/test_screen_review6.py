"""The table's screens, reviewed again as a family meets them: a tie for who starts says
who rolls again and why (no dice of the round before), six names on the counterparty's
chips stay whole under a banner, the busiest roll under a banner keeps its lines big,
and the roll's photo is scaled once while it is shown."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pygame
import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import BLUE, RED, MemoryRecorder, controller, reading
from test_renderer_cache import counted
from test_screen_review5 import CAMERA, MANY, SAVE, SIX, apart, counterparty, result

from einhorn_table.rules import (
    EINHORN,
    Bid,
    Call,
    Category,
    Match,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
)
from einhorn_table.screen.renderer import Renderer
from einhorn_table.screen.view_model import (
    RESULT_SECONDS,
    ScreenKind,
    ScreenView,
    build_view,
)
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled

WHITE = (240, 240, 240)
SIZES = [(800, 480), (1024, 600), (1280, 720), (1920, 1080)]


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


# ---------------------------------------------------------------- a tie for who starts


class Table:
    """Ana, Ben and Cem at the table, each throwing their own dice one after another."""

    def __init__(self, names: tuple[str, ...] = ("Ana", "Ben", "Cem")) -> None:
        self.c, _ = controller(names)
        self.t = 0.0

    def roll(self, values: list[int], colour: tuple[int, int, int]) -> None:
        self.c.on_tray(MotionStarted(self.t))
        self.c.on_tray(Settled(self.t + 1, reading(list(values), colour)))
        self.t += 10

    def waiting(self) -> ScreenView:
        """The screen once the last roll's result has been shown."""
        return build_view(self.c, self.t + RESULT_SECONDS + 1)


def test_a_tie_for_who_starts_says_who_rolls_again_and_why_without_the_last_dice() -> None:
    # The screen went on showing Cem's 2 3 4 ("Cem rolled 9") under "Roll-off" while
    # Ana and Ben, tied on 14, were to roll again.
    table = Table()
    table.roll([6, 5, 3], RED)
    table.roll([6, 4, 4], BLUE)
    table.roll([2, 3, 4], WHITE)
    view = table.waiting()
    assert view.kind is ScreenKind.START_ROLLS
    assert view.dice == ()
    assert view.title == "Who starts? Tie on 14"
    assert view.subtitle.startswith("Ana and Ben roll again; highest sum starts.")
    assert view.lines == ("Ana and Ben both rolled 14",)
    assert [p.status for p in view.players] == ["", "", "rolled 9"]  # (no sum before)
    assert [p.active for p in view.players] == [True, True, False]
    # The first roll of the tie-break is shown as read; Ben still rolls again.
    table.roll([1, 2, 3], RED)
    view = table.waiting()
    assert [d.value for d in view.dice] == [1, 2, 3] and view.lines == ("Ana rolled 6",)
    assert view.title == "Who starts? Tie on 14"
    assert [p.status for p in view.players] == ["rolled 6", "", "rolled 9"]


def test_a_second_tie_names_its_own_sum_and_everyone_tied_is_no_first_round() -> None:
    table = Table(("Ana", "Ben"))
    table.roll([4, 4, 4], RED)
    table.roll([6, 5, 1], BLUE)  # everyone tied on 12: not "Everyone rolls" again
    view = table.waiting()
    assert view.title == "Who starts? Tie on 12" and view.dice == ()
    assert view.lines == ("Ana and Ben both rolled 12",)
    table.roll([5, 4, 1], RED)
    table.roll([6, 3, 1], BLUE)
    view = table.waiting()
    assert view.title == "Who starts? Tie on 10" and view.dice == ()
    assert view.lines == ("Ana and Ben both rolled 10",)
    table.roll([6, 6, 6], RED)
    table.roll([1, 1, 2], BLUE)
    assert table.waiting().kind is ScreenKind.TURN


def test_a_tie_after_a_tied_auction_says_who_rolls_again_for_the_unicorn() -> None:
    # Ana calls Dreifaltigkeit and rolls it: the game ends; both bid 0 and tie, then
    # tie again on 9.
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Ben"], games=3))
    for item in (StartRoll("Ana", (6, 6, 5)), StartRoll("Ben", (1, 2, 3)),
                 Call("Ana", Category.DREIFALTIGKEIT), Roll("Ana", (6, 6, 6)),
                 Bid("Ana", 0), Bid("Ben", 0)):
        match.apply(item)
    c = TableController(match, MemoryRecorder(), [Seat("Ana", RED), Seat("Ben", BLUE)])
    first = build_view(c, 100.0)
    assert first.title == "Who takes the unicorn? Tied bids"
    assert first.subtitle.startswith("Ana and Ben roll; highest sum takes it.")
    assert first.lines == () and first.dice == ()
    for item in (TiebreakRoll("Ana", (2, 3, 4)), TiebreakRoll("Ben", (5, 3, 1))):
        match.apply(item)
    view = build_view(c, 100.0)
    assert view.title == "Who takes the unicorn? Tie on 9"
    assert view.subtitle.startswith("Ana and Ben roll again; highest sum takes it.")
    assert view.lines == ("Ana and Ben both rolled 9",) and view.dice == ()


@pytest.mark.parametrize("size", SIZES)
def test_the_tie_is_drawn_in_words_and_no_dice(drawing: Any, size: tuple[int, int]) -> None:
    table = Table()
    table.roll([6, 5, 3], RED)
    table.roll([6, 4, 4], BLUE)
    table.roll([2, 3, 4], WHITE)
    renderer, texts = drawing(size)
    dice = counted(renderer, "_dice_row")
    renderer.draw(table.waiting())
    assert dice == []
    (title,) = [r for w, _, r in texts if w == "Who starts? Tie on 14"]
    (why,) = [r for w, _, r in texts if w == "Ana and Ben both rolled 14"]
    assert title.bottom < why.top and why.bottom < renderer.h - renderer.s(154)


# ---------------------------------------------------------------- the counterparty


def chips(renderer: Any, texts: list[tuple[str, Any, Any]],
          view: ScreenView) -> list[tuple[str, Any, Any]]:
    (title,) = [r for w, _, r in texts if w == view.title]
    strip_top = renderer.h - renderer.s(160) - renderer.s(54)
    return [(w, font, r) for w, font, r in texts
            if title.bottom < r.top and r.bottom <= strip_top and r.left > renderer.s(190)
            and any(choice.startswith(w.rstrip(".")) for choice in view.choices)]


SUBTITLES = ("The central stash, or one other player",
             f"The central stash or a player: {SIX[5]} holds only 2 and would pay that",
             "The central stash holds only 3: taking from it empties it and ends the match. "
             "Or one other player")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("banner", [SAVE, CAMERA])
@pytest.mark.parametrize("subtitle", SUBTITLES)
def test_six_names_on_the_chips_stay_whole_under_a_banner(
        drawing: Any, size: tuple[int, int], banner: str, subtitle: str) -> None:
    # Under the banner the six chips stayed in one row: "Jürgen We.", "Großmutte.".
    view = dataclasses.replace(counterparty(banner), subtitle=subtitle)
    renderer, texts = drawing(size)
    renderer.draw(view)
    names = chips(renderer, texts, view)
    assert sorted(w for w, _, _ in names) == sorted(view.choices)
    assert len({font for _, font, _ in names}) == 1 and names[0][1] >= 24, names
    middles = sorted(r.centery for _, _, r in names)  # two rows
    assert middles[-1] - middles[0] >= renderer.s(24)
    assert all(min(abs(m - middles[0]), abs(m - middles[-1])) <= 3 for m in middles)
    apart([r for _, _, r in names])
    # The subtitle keeps its first line at least, above the chips.
    first = subtitle.split()[0]
    (said,) = [r for w, _, r in texts if w.startswith(first) and w != view.title
               and r.left < renderer.s(190)]
    assert said.bottom <= min(r.top for _, _, r in names)


def test_a_short_subtitle_stays_whole_above_two_rows_of_chips(drawing: Any) -> None:
    view = counterparty(CAMERA)
    renderer, texts = drawing((800, 480))
    renderer.draw(view)
    assert view.subtitle in [w for w, _, _ in texts]


# ---------------------------------------------------------------- the busiest roll


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("banner", [SAVE, CAMERA])
def test_the_busiest_roll_keeps_its_lines_big_under_a_banner(
        drawing: Any, size: tuple[int, int], banner: str) -> None:
    # Eight lines under a banner went down to 24: the dice now stand beside the title.
    renderer, texts = drawing(size)
    view = result(MANY, banner)
    renderer.draw(view)
    (title,) = [r for w, _, r in texts if w == view.title]
    (label,) = [r for w, _, r in texts if w == "Einhorn"]
    cards_top = renderer.h - renderer.s(154)
    drawn = [(w, font, r) for w, font, r in texts
             if title.bottom <= r.top and r.bottom <= cards_top]
    # Every word of every line, in order, at 28 or bigger, none over another.
    assert " ".join(w for w, _, _ in drawn).split() == " ".join(MANY).split()
    assert min(font for _, font, _ in drawn) >= 28, drawn
    apart([title, label, *(r for _, _, r in drawn)])
    assert label.left > title.right and label.top < title.bottom  # beside the title


def test_the_dice_beside_the_title_do_not_cover_it() -> None:
    # (Each die's place, not only the words: the dice are drawn, not written.)
    pygame.display.init()
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    rows: list[Any] = []
    original = renderer._dice_row

    def dice_row(dice: Any, x: float, y: float, size: float, marked: Any = None) -> None:
        rows.append(pygame.Rect(round(x), round(y), round(len(dice) * size * 1.2), size))
        original(dice, x, y, size, marked)

    renderer._dice_row = dice_row  # type: ignore[method-assign]
    titles: list[Any] = []
    text = renderer.text

    def noted(words: str, *args: Any, **kwargs: Any) -> Any:
        rect = text(words, *args, **kwargs)
        if words == "Großmutter Hildegard rolled":
            titles.append(rect)
        return rect

    renderer.text = noted  # type: ignore[method-assign]
    renderer.draw(result(MANY, SAVE))
    (row,) = rows
    (title,) = titles
    assert not row.colliderect(title) and row.right <= 800 - renderer.s(8)


# ---------------------------------------------------------------- the photo


PHOTO = np.random.default_rng(3).integers(0, 255, (360, 480, 3), dtype=np.uint8)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", [ScreenKind.RESULT, ScreenKind.DOUBT])
def test_the_photo_is_scaled_once_while_it_is_shown(monkeypatch: pytest.MonkeyPatch,
                                                    size: tuple[int, int],
                                                    kind: ScreenKind) -> None:
    pygame.display.init()
    pygame.font.init()
    view = dataclasses.replace(result(MANY[:2], ""), photo=PHOTO, kind=kind)
    renderer = Renderer(pygame.Surface(size))
    scaled: list[Any] = []
    smoothscale = pygame.transform.smoothscale

    def counting(surface: Any, to: Any, *args: Any) -> Any:
        scaled.append(to)
        return smoothscale(surface, to, *args)

    monkeypatch.setattr(pygame.transform, "smoothscale", counting)
    renderer.draw(view)
    first = pygame.image.tobytes(renderer.surface, "RGB")
    for _ in range(3):
        renderer.draw(view)
        assert pygame.image.tobytes(renderer.surface, "RGB") == first
    assert len(scaled) == 1
    # Another photo (a new roll) or another size of it is scaled afresh, as a fresh
    # renderer draws it.
    other = dataclasses.replace(view, photo=PHOTO.copy())
    zoomed = dataclasses.replace(view, photo=other.photo, dice=(), photo_dice=())
    for changed in (other, zoomed):
        before = len(scaled)
        renderer.draw(changed)
        assert len(scaled) == before + 1
        fresh = Renderer(pygame.Surface(size))
        fresh.draw(changed)
        assert (pygame.image.tobytes(renderer.surface, "RGB")
                == pygame.image.tobytes(fresh.surface, "RGB"))
