"""The table's screen under the "could not save" banner, reviewed as a family reads it: the
banner says in two lines what happened and what to do (the history's own message goes to
the journal), the screens below stay readable at 800x480 and bigger with six long names,
the unicorn owner's call row in the top-ups keeps its size, and the documented top-up
screenshot is staged at the moment docs/screens.md describes."""

from __future__ import annotations

import importlib.util
import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import RED, MemoryRecorder, controller, reading, tap
from test_screen_review3 import LONG, SIZES, banner_views, cards, topups

from einhorn_table.adapters.history_log import recorder_error
from einhorn_table.history.errors import HistoryError, StoreRefusing, explain
from einhorn_table.ports import Button
from einhorn_table.rules import Category
from einhorn_table.screen.banner import FULL, READ_ONLY, UNKNOWN, save_banner, save_trouble
from einhorn_table.screen.view_model import (
    DieView,
    ScreenKind,
    ScreenView,
    build_view,
    button_hints,
)
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.events import CameraLost, MotionStarted, Settled
from einhorn_table.table.recorder import Halt, RecorderError, SaveKind

W = Button.WUNSCH
STATE = Path("/home/pi/.local/state/einhorn-table/history.sqlite3")
#: Six players of twelve letters and more.
SIX_LONG = ("Alexandra-Marie", "Maximilian Fried", "Großmutter Hilde", "Konstantinopel",
            "Emmanuelle Sophie", "Johannes Baptist")


def history_error(sqlite_words: str) -> HistoryError:
    """The history's error for SQLite's ``sqlite_words``."""
    return explain(sqlite3.OperationalError(sqlite_words), STATE, "save this input")


FULL_DISK = recorder_error(history_error("database or disk is full"))
READ_ONLY_CARD = recorder_error(history_error("attempt to write a readonly database"))
#: Every later input, after the first failure: the earlier failure quoted.
REFUSED = recorder_error(StoreRefusing(
    f"the history takes no more inputs for match 12 after an earlier failure ({FULL_DISK}). "
    "Restart the table to continue the match.", history_error("database or disk is full")))


class FailingRecorder(MemoryRecorder):
    """Refuses every input with ``error`` (the history's, as the recorder raises it)."""

    def __init__(self, error: RecorderError) -> None:
        super().__init__()
        self.error = error

    def append(self, item: Any) -> None:
        raise self.error


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    """Makes a renderer of a size that notes every text it draws (words, size, rectangle)."""
    yield text_drawing(monkeypatch, "size")


def halted(error: RecorderError) -> Any:
    """A table whose first throw could not be saved, with ``error``."""
    c, _ = controller(("Ana", "Ben"))
    c.recorder = FailingRecorder(error)
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5], RED)))
    assert c.halted == Halt(error.kind, str(error))
    return c


# ---------------------------------------------------------------- the banner's words


@pytest.mark.parametrize(("error", "trouble"), [
    (FULL_DISK, FULL), (READ_ONLY_CARD, READ_ONLY), (REFUSED, FULL),
    (RecorderError("Cannot write the match: the disk is full. Free some space.",
                   SaveKind.FULL), FULL),
    (recorder_error(history_error("disk I/O error")), UNKNOWN)])
def test_the_banner_tells_the_family_what_happened_and_what_to_do(
        error: RecorderError, trouble: Any) -> None:
    assert save_trouble(error.kind) is trouble
    banner = build_view(halted(error), 2.0).banner
    assert banner.startswith(f"Match not saved: {trouble.what}.")
    assert "Play is stopped" in banner and "the match so far is safe" in banner
    assert "restart the" in banner.lower()
    # The installer's words stay out of the family's banner.
    assert str(STATE) not in banner and "--state-dir" not in banner
    assert "EINHORN_STATE_DIR" not in banner


def test_the_history_message_goes_to_the_journal_once(capsys: pytest.CaptureFixture[str],
                                                      ) -> None:
    c = halted(FULL_DISK)
    c.on_tray(MotionStarted(10.0))
    c.on_tray(Settled(11.0, reading([6, 6, 5], RED)))  # the same failure again
    err = capsys.readouterr().err
    assert err.count(str(STATE)) == 1 and "could not be saved" in err


def test_with_the_camera_lost_too_the_save_banner_says_both() -> None:
    c = halted(FULL_DISK)
    c.on_tray(CameraLost(3.0, "no frames for 2 s"))
    banner = build_view(c, 4.0).banner
    assert banner.startswith("Match not saved: the SD card is full.")
    assert banner.endswith("Check the camera cable too.")
    assert "hold OK" not in banner  # no throw is taken by hand while nothing is saved


@pytest.mark.parametrize("size", [*SIZES, (1366, 768)])
def test_every_save_banner_takes_two_lines(drawing: Any, size: tuple[int, int]) -> None:
    renderer, _ = drawing(size)
    for kind in SaveKind:
        for camera in (False, True):
            lines, font = renderer._banner_lines(save_banner(kind, camera))
            assert len(lines) <= 2 and font >= 24, (size, kind, camera, lines)


def test_a_banner_too_long_for_two_lines_is_drawn_a_little_smaller_in_two(
        drawing: Any) -> None:
    words = save_banner(SaveKind.READ_ONLY, camera_lost=True)
    renderer, texts = drawing((800, 480))
    assert len(renderer.wrap(words, 28, renderer.w - renderer.s(48))) == 3
    (view,) = [v for v in banner_views(words, ("Ana", "Ben", "Cem", "Dora"))
               if v.kind is ScreenKind.TURN]
    renderer.draw(view)
    drawn = [(w, size, rect) for w, size, rect in texts
             if w and w in words and rect.left == renderer.s(24)]
    assert len(drawn) == 2 and all(24 <= size < 28 for _, size, _ in drawn)
    (title,) = [rect for w, _, rect in texts if w == view.title]
    assert title.top >= max(rect.bottom for _, _, rect in drawn)


# ---------------------------------------------------------------- the screens below it


def owner_calling_view(names: tuple[str, ...], banner: str) -> ScreenView:
    owing = tuple(i for i in range(len(names)) if i != 1)
    return ScreenView(ScreenKind.TOPUP, 2, 10, 50, 1, cards(names, "+0 ?"),
                      "Top-up: stash to game stones", focus=0, banner=banner,
                      subtitle=f"{', '.join(names[i] for i in owing)}: top up, OK when done. "
                               f"Then {names[1]} rolls (Wunsch).", call=Category.WUNSCH,
                      caller=1, buttons=button_hints(Context.TOPUP), buttons_for=owing)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("names", [LONG, SIX_LONG])
@pytest.mark.parametrize("camera", [False, True])
def test_the_owners_call_row_keeps_its_size_under_the_banner(
        drawing: Any, size: tuple[int, int], names: tuple[str, ...], camera: bool) -> None:
    view = owner_calling_view(names, save_banner(SaveKind.FULL, camera))
    renderer, texts = drawing(size)
    renderer.draw(view)
    strip_top = renderer.h - renderer.s(160) - renderer.s(54)
    words = {"Unvermeidliche", "Wunsch", "Einhorn", "Dreifaltigkeit"}
    row = [(w, font, rect) for w, font, rect in texts if w in words]
    assert {w for w, _, _ in row} == words
    for w, font, rect in row:  # read from the chairs, right above the others' strip
        assert font >= 22 and rect.bottom <= strip_top, (w, font, size)
    (title,) = [rect for w, _, rect in texts if w == view.title]
    subtitle = [w for w, _, rect in texts if rect.top > title.top and rect.bottom <= min(
        r.top for _, _, r in row)]
    assert any("top up, OK when done" in w for w in subtitle), subtitle


def test_a_subtitle_cut_short_ends_with_dots(drawing: Any) -> None:
    names = tuple(f"{name} von Hohenzollern" for name in SIX_LONG)
    view = owner_calling_view(names, save_banner(SaveKind.FULL))
    renderer, texts = drawing((800, 480))
    renderer.draw(view)
    (title,) = [rect for w, _, rect in texts if w == view.title]
    row_top = min(rect.top for w, _, rect in texts if w == "Wunsch")
    subtitle = [w for w, _, rect in texts if title.bottom <= rect.top < row_top]
    assert subtitle and subtitle[-1].endswith("...")


@pytest.mark.parametrize("size", SIZES)
def test_the_rolls_lines_stay_readable_under_the_banner(drawing: Any,
                                                        size: tuple[int, int]) -> None:
    names = SIX_LONG
    lines = ("Called Unvermeidliche - right!", f"{names[2]} pays {names[1]} 2",
             f"{names[3]} pays {names[1]} 2", "Game 2 is over")
    view = ScreenView(ScreenKind.RESULT, 2, 10, 50, 1, cards(names), f"{names[1]} rolled",
                      focus=1, dice=tuple(DieView(v, None, True) for v in (2, 3, 4)),
                      category=Category.UNVERMEIDLICH, lines=lines,
                      banner=save_banner(SaveKind.FULL))
    renderer, texts = drawing(size)
    renderer.draw(view)
    drawn = [(w, font, rect) for w, font, rect in texts if w in lines]
    assert len(drawn) == len(lines)
    cards_top = renderer.h - renderer.s(154)
    assert all(font >= 25 and rect.bottom <= cards_top for _, font, rect in drawn), drawn


def final_view(names: tuple[str, ...], banner: str) -> ScreenView:
    """The final standings of six players, the second of ``names`` winning."""
    return ScreenView(ScreenKind.FINAL, 10, 10, 0, 1, cards(names), "Final standings",
                      subtitle=f"{names[1]} wins!", winner=1, banner=banner,
                      buttons=button_hints(Context.FINAL),
                      chart=((0,) * 6, (3,) * 6, tuple(range(6))))


@pytest.mark.parametrize("banner", ["", save_banner(SaveKind.FULL)])
def test_the_final_standings_keep_a_long_winners_name_and_the_rows_apart(
        drawing: Any, banner: str) -> None:
    view = final_view(SIX_LONG, banner)
    renderer, texts = drawing((800, 480))
    renderer.draw(view)
    chart_left = renderer.s(10) + renderer.s(320)
    (subtitle,) = [rect for w, _, rect in texts if w == view.subtitle]
    assert subtitle.right <= chart_left  # not under the chart's panel
    ranks = sorted((rect for w, _, rect in texts if w in {f"{k}." for k in range(1, 7)}),
                   key=lambda rect: rect.top)
    assert len(ranks) == 6
    for above, below in itertools.pairwise(ranks):
        assert above.bottom <= below.top + 1, (above, below)


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_under_the_save_banner_keeps_its_title_and_words_apart(
        drawing: Any, size: tuple[int, int]) -> None:
    banner = save_banner(SaveKind.FULL, camera_lost=True)
    for view in banner_views(banner, SIX_LONG):
        renderer, texts = drawing(size)
        renderer.draw(view)
        first = [rect for w, _, rect in texts if w.startswith("Match not saved")]
        assert len(first) == 1
        below = max(rect.bottom for w, _, rect in texts
                    if w in banner and rect.left == first[0].left)
        (title,) = [rect for w, _, rect in texts if w == view.title]
        assert title.top >= below, (view.kind, size)
        assert below - renderer.s(56) <= renderer.s(12 + 2 * 28)  # two lines at most


# ---------------------------------------------------------------- the documented top-up


def test_the_top_up_screenshot_is_staged_with_the_owner_calling_on_a_copy() -> None:
    path = Path(__file__).parent.parent / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots_script", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    c, recorder = topups()  # Ana owns the unicorn
    c.on_gesture(tap(0, W, 1.0))  # Ana counts one (Ben and Cem have no stash to count)
    staged = script.owner_calling(c, 2.0)
    view = build_view(staged, 2.5)
    assert view.caller == 0 and view.call is Category.WUNSCH
    assert view.subtitle == "Ben and Cem: top up, OK when done. Then Ana rolls (Wunsch)."
    assert [p.status for p in view.players] == ["ready", "+0 ?", "+0 ?"]
    # The match itself goes on as it was: nothing recorded, nobody sealed, no call.
    assert recorder.items == [] and c.call_draft is None
    assert set(c.match.state.owing()) == {0, 1, 2} and c.drafts == {0: 1}
    assert build_view(c, 2.5).caller is None


def test_the_documented_top_up_shows_what_the_page_says() -> None:
    page = (Path(__file__).parent.parent / "docs" / "screens.md").read_text()
    section = page[page.index("## Top-up"):page.index("## The end of a game")]
    assert "still count" in section and "![top-up](screenshots/topup.png)" in section
    assert "(Wunsch)" in section

