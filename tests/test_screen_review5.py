"""The table's screens at 800x480 and bigger with a German or Turkish family's names,
reviewed as they would meet them: a roll's many lines stay readable under a banner, a
row of counterparty chips uses one size, long names are cut short rather than shrunk
past reading, every letter is drawn in the screen's own font, and the screenshots can
be made for two players."""

from __future__ import annotations

import importlib.util
import itertools
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import BLUE, RED, controller, reading
from test_screen_review3 import SIZES, cards
from test_screen_review4 import final_view

from einhorn_table.history.view import HistorySummary, Leader
from einhorn_table.rules import Category
from einhorn_table.screen.renderer import RESULT_LEAST, plain
from einhorn_table.screen.view_model import (
    DieView,
    ScreenKind,
    ScreenView,
    build_view,
    button_hints,
)
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.events import MotionStarted, Settled
from einhorn_table.vision.results import DieReading, FrameReading

SIX = ("Jürgen Weißmüller", "Ömer", "Çağla", "İsmail Şahin", "Ayşe", "Großmutter Hildegard")
#: The longest banners (the save banner with the camera lost too; the camera's own).
SAVE = ("Match not saved: the SD card is read-only. Play is stopped; the match so far is "
        "safe. Restart the Pi to go on; if it comes back, replace the card. Check the "
        "camera cable too.")
CAMERA = ("Camera lost: check its cable. To go on without it, throw, then hold OK "
          "(Einhorn) to enter your dice. (Failed to start camera: Device…)")
BOXES = ((100.0, 100.0, 140.0, 140.0), (200.0, 150.0, 240.0, 190.0), (300.0, 90.0, 340.0, 130.0))
PHOTO = np.full((360, 480, 3), 90, np.uint8)
#: A roll of many lines: a short payment, the unicorn passing, the match's end.
MANY = ("called Einhorn - right!", f"{SIX[1]} pays {SIX[0]} 3", f"{SIX[2]} pays {SIX[0]} 3",
        f"{SIX[3]} pays {SIX[0]} 3", f"{SIX[4]} pays {SIX[0]} 3",
        f"{SIX[5]} pays {SIX[0]} 2 of 3 (all {SIX[5]} had)", f"{SIX[0]} takes the unicorn",
        "The match is over")
SHORT = ("called Wunsch - wrong", f"{SIX[5]} pays Central 2 of 5 (all {SIX[5]} had)",
         f"{SIX[0]} pays {SIX[5]} 1", f"{SIX[5]} takes the unicorn", "The match is over")
TOGETHER = (*(f"{name}: 6 5 {k + 1} = {12 + k}" for k, name in enumerate(SIX)),
            f"{SIX[5]} starts")


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


def result(lines: tuple[str, ...], banner: str, dice: bool = True) -> ScreenView:
    shown = tuple(DieView(v, b, True) for v, b in zip((1, 3, 5), BOXES, strict=True))
    return ScreenView(ScreenKind.RESULT, 2, 10, 50, 0, cards(SIX), f"{SIX[5]} rolled",
                      focus=5, dice=shown if dice else (), photo=PHOTO, banner=banner,
                      category=Category.EINHORN if dice else None, lines=lines,
                      photo_dice=tuple(DieView(None, b, True) for b in BOXES))


def apart(rects: list[Any]) -> None:
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b), (a, b)


# ---------------------------------------------------------------- the roll's lines


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("banner", ["", SAVE, CAMERA])
@pytest.mark.parametrize(("lines", "dice"), [(MANY, True), (SHORT, True), (TOGETHER, False)])
def test_a_rolls_many_lines_stay_readable_under_a_banner(
        drawing: Any, size: tuple[int, int], banner: str, lines: tuple[str, ...],
        dice: bool) -> None:
    renderer, texts = drawing(size)
    view = result(lines, banner, dice)
    photos: list[Any] = []
    original = renderer._photo
    renderer._photo = lambda view, box: photos.append(original(view, box))  # type: ignore
    renderer.draw(view)
    (title,) = [rect for w, _, rect in texts if w == view.title]
    cards_top = renderer.h - renderer.s(154)
    drawn = [(w, font, rect) for w, font, rect in texts
             if title.bottom <= rect.top and rect.bottom <= cards_top and w != "Einhorn"
             and not any(photo.contains(rect) for photo in photos)]  # (the dice's tags)
    # Every word of every line, in order, none left out; read from the chairs.
    assert " ".join(w for w, _, _ in drawn).split() == " ".join(lines).split()
    least = renderer.font(RESULT_LEAST).get_height()
    for words, font, rect in drawn:
        assert font >= RESULT_LEAST and rect.height >= least, (words, font, rect)
        assert rect.right <= renderer.w - renderer.s(8), words
    apart([rect for _, _, rect in drawn])
    if banner:
        below = max(rect.bottom for w, _, rect in texts
                    if w and w in plain(banner) and rect.left == renderer.s(24))
        assert title.top >= below


def test_the_photo_stays_where_the_lines_fit_beside_it(drawing: Any) -> None:
    renderer, texts = drawing((800, 480))
    photos: list[Any] = []
    original = renderer._photo
    renderer._photo = lambda view, box: photos.append(original(view, box))  # type: ignore
    renderer.draw(result(MANY[:3], ""))
    assert photos and photos[0] is not None
    (first,) = [rect for w, _, rect in texts if w == MANY[0]]
    assert first.left > photos[0].right  # beside the photo, in one column
    photos.clear()
    renderer.draw(result(MANY, SAVE))  # the lines need the room: the photo gives way
    assert not photos


def test_six_players_rolling_together_are_counted_in_the_title() -> None:
    names = SIX[:4]
    colours = (RED, BLUE, (240, 240, 240), (30, 30, 30))
    c, _ = controller(names)
    dice = [(v, colour) for colour, values in zip(colours, ((6, 6, 5), (1, 2, 1), (2, 2, 3),
                                                            (1, 1, 3)), strict=True)
            for v in values]
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, FrameReading(tuple(
        DieReading((10.0 + 40 * i, 10.0, 40.0 + 40 * i, 40.0), value, 0.95, colour)
        for i, (value, colour) in enumerate(dice)))))
    view = build_view(c, 1.5)
    assert view.kind is ScreenKind.RESULT and view.title == "4 players rolled together"
    assert view.lines[:4] == (f"{SIX[0]}: 6 6 5 = 17", f"{SIX[1]}: 1 2 1 = 4",
                              f"{SIX[2]}: 2 2 3 = 7", f"{SIX[3]}: 1 1 3 = 5")


def test_a_long_title_takes_two_lines_rather_than_a_tiny_one(drawing: Any) -> None:
    renderer, texts = drawing((800, 480))
    view = result(TOGETHER, "", dice=False)
    long = f"{SIX[0]}, {SIX[5]} and {SIX[3]} rolled together"
    renderer.draw(ScreenView(**{**view.__dict__, "title": long}))
    cards_top = renderer.h - renderer.s(154)  # (a card's name whole is in the title too)
    parts = [(w, r) for w, _, r in texts
             if w and w in long and renderer.s(56) <= r.top and r.bottom <= cards_top]
    assert " ".join(w for w, _ in parts) == long
    assert all(r.height >= renderer.font(30).get_height() for _, r in parts), parts


# ---------------------------------------------------------------- the counterparty


def counterparty(banner: str) -> ScreenView:
    dice = tuple(DieView(v, None, True) for v in (2, 3, 4))
    return ScreenView(ScreenKind.COUNTERPARTY, 2, 10, 30, 1, cards(SIX),
                      f"{SIX[1]} gets 5: from whom?", focus=1, dice=dice,
                      subtitle="The central stash, or one other player",
                      category=Category.UNVERMEIDLICH, choices=("Central", SIX[0], *SIX[2:]),
                      chosen=1, buttons=button_hints(Context.COUNTERPARTY), banner=banner)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("banner", ["", SAVE])
def test_a_row_of_chips_uses_one_size(drawing: Any, size: tuple[int, int],
                                      banner: str) -> None:
    view = counterparty(banner)
    renderer, texts = drawing(size)
    renderer.draw(view)
    (title,) = [r for w, _, r in texts if w == view.title]
    strip_top = renderer.h - renderer.s(160) - renderer.s(54)
    names = [(w, font, r) for w, font, r in texts
             if title.bottom < r.top and r.bottom <= strip_top and r.left > renderer.s(190)
             and any(choice.startswith(w.rstrip(".")) for choice in view.choices)]
    assert len(names) == len(view.choices), names
    assert len({font for _, font, _ in names}) == 1, names
    assert names[0][1] >= 22
    apart([r for _, _, r in names])
    if not banner:  # room for two rows: every name whole
        assert sorted(w for w, _, _ in names) == sorted(view.choices)


def test_a_name_cut_short_has_no_space_before_its_dot(drawing: Any) -> None:
    renderer, _ = drawing((800, 480))
    width = renderer.font(22).size("Großmutter H")[0]
    name, _ = renderer.shortened("Großmutter Hildegard", 32, 22, width)
    assert name.endswith(".") and not name.endswith(" .")


# ---------------------------------------------------------------- the standings, the history


@pytest.mark.parametrize("banner", ["", SAVE])
def test_the_final_standings_cut_a_long_name_rather_than_shrink_it(drawing: Any,
                                                                     banner: str) -> None:
    view = final_view(SIX, banner)
    renderer, texts = drawing((800, 480))
    renderer.draw(view)
    rows = [(w, r) for w, _, r in texts if r.left == renderer.s(10) + renderer.s(74)]
    assert len(rows) == 6
    # As tall as the rank beside it, or a card's name at its smallest (six rows under a
    # banner): never the tiny letters of a name squeezed into the column.
    ranks = [r for w, _, r in texts if w in {f"{k}." for k in range(1, 7)}]
    least = min(min(r.height for r in ranks), renderer.font(24).get_height())
    assert all(r.height >= least for _, r in rows), rows
    assert any(w.startswith("Großmutter") for w, _ in rows)


def test_the_historys_leaders_cut_a_long_name_rather_than_shrink_it(drawing: Any) -> None:
    leaders = tuple(Leader(name, 6 - k, 6) for k, name in enumerate(SIX))
    summary = HistorySummary(title="6 matches kept", matches=(), leaders=leaders, dice=())
    view = ScreenView(ScreenKind.HISTORY, 4, 4, 50, None, cards(SIX), "Match history",
                      archive=summary, buttons=button_hints(Context.HISTORY))
    for size in ((800, 480), (1280, 720)):
        renderer, texts = drawing(size)
        renderer.draw(view)
        shown = [(w, font, r) for w, font, r in texts
                 if any(name.startswith(w.rstrip(".")) for name in SIX) and w]
        least = renderer.font(22).get_height()
        assert len(shown) == 6 and all(r.height >= least for _, _, r in shown), shown
        wins = [r for w, _, r in texts if w.endswith(" of 6")]
        apart([r for _, _, r in shown] + wins)


# ---------------------------------------------------------------- letters


def test_a_name_typed_with_separate_accents_is_drawn_in_the_screens_font(
        drawing: Any) -> None:
    from einhorn_table.screen.fonts import machine_chooser

    renderer, _ = drawing((800, 480))
    for name in (*SIX, "Şükrü Öztürk-Çelik", "İlknur Ağaoğlu"):
        typed = unicodedata.normalize("NFD", name)
        assert plain(typed) == name
        assert machine_chooser().path_for(plain(typed)) is None, name  # no other font
        assert renderer.font(32).size(plain(typed)) == renderer.font(32).size(name)


# ---------------------------------------------------------------- the screenshots


def test_the_screenshots_are_made_for_two_players(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = Path(__file__).parent.parent / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots_script_two", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(sys, "argv", ["screenshots.py", "--names", "Şükrü Öztürk-Çelik,İlknur",
                                      str(tmp_path)])
    script.main()
    assert "missing: none" in capsys.readouterr().out
    assert (tmp_path / "doubt.png").is_file()


def test_the_start_rolls_show_the_last_roll_as_read_and_no_dice_before_it() -> None:
    # The screen drew three dice 2 4 6 for show, which a family took for a reading
    # (Ana had rolled 2 3 4).
    c, _ = controller(("Ana", "Ben", "Cem"))
    first = build_view(c, 0.0)
    assert first.kind is ScreenKind.START_ROLLS and first.dice == () and first.lines == ()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([2, 3, 4])))
    view = build_view(c, 60.0)
    assert view.kind is ScreenKind.START_ROLLS
    assert [d.value for d in view.dice] == [2, 3, 4] and view.lines == ("Ana rolled 9",)


def test_names_are_measured_again_after_pygame_was_quit_and_started_again() -> None:
    # The one chooser of the machine's fonts kept faces of a FreeType that pygame.quit()
    # (calibrate closing its screen) had shut: the next screen drawn in the same process
    # stopped at its first name with an accent.
    import pygame

    from einhorn_table.screen.fonts import machine_chooser

    pygame.display.init()
    pygame.font.init()
    chooser = machine_chooser()
    chooser.shows("Jürgen")
    pygame.quit()
    pygame.display.init()  # (as every screen opens pygame: not its FreeType)
    pygame.font.init()
    assert chooser.shows("Çağla Öztürk")
