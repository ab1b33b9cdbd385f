"""The demo as a first-time visitor on a laptop meets it (fifth review): the line
answering a key that did nothing no longer hides what the table itself says; a
misspelt ``--strategy`` keeps no match that was never played; the line saying how to
go on keeps the window and the camera the match was played with, and Ctrl-C at the
question whether to go on says it too."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_helpers import chord  # noqa: E402
from test_demo_review import (  # noqa: E402
    at_the_keyboard,
    leave_a_match,
    options,
    quit_demo,
    tap,
)
from test_demo_review3 import DEMO, dummy_display, shown_views  # noqa: E402, F401
from test_demo_review4 import at_the_auction  # noqa: E402

import einhorn_table.table.resume as resume  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.table_app import (  # noqa: E402
    NOTICE_LETTERS,
    DemoKeys,
    KeyNote,
    go_on_words,
    run_demo,
    with_key_note,
)
from einhorn_table.ports import Button  # noqa: E402
from einhorn_table.screen.renderer import Renderer  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

U, W = Button.UNVERMEIDLICH, Button.WUNSCH


def last_notice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                person: Callable[[TableLoop], None]) -> str:
    """The notice on the screen after ``person`` pressed keys (Ana at the keyboard, Ben
    a bot), at the start of a match: who starts, Ana to throw."""
    shown = shown_views(monkeypatch)

    def run(loop: TableLoop, done: Callable[[], bool]) -> None:
        loop.step()
        person(loop)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, run)
    run_demo(options(tmp_path, frozenset({1})))
    return shown[-1].notice


# ---------------------------------------------------------------- the key note and the table


def test_a_key_that_does_nothing_leaves_the_tables_notice_on_the_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana tries the undo (nothing to undo: the table says "Not now"), then taps 2: the
    screen says both, the table's words first."""

    def person(loop: TableLoop) -> None:
        tap(loop, "1", "4")
        tap(loop, "2")

    assert last_notice(monkeypatch, tmp_path, person) == (
        "Not now: nothing to undo yet. Ana: key 2 does nothing now; SPACE throws your dice.")


def test_what_the_table_says_after_the_key_is_not_hidden_by_the_keys_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana taps 2 (a line about her keys), then tries the undo: the table's answer to the
    undo is what the screen shows, not the older line about key 2."""

    def person(loop: TableLoop) -> None:
        tap(loop, "2")
        tap(loop, "1", "4")

    assert last_notice(monkeypatch, tmp_path, person) == "Not now: nothing to undo yet."


def test_both_notices_fit_the_box_or_the_tables_stands_alone() -> None:
    note = KeyNote()
    note.say("Ana: key 2 does nothing now; keys now: 1 less, 2 more, 3 done, 4 from 0.", 5.0)
    # (A notice of the table without a full stop gets one before the key's line.)
    assert with_key_note("Undone: Ana's top-up of 0", 4.0, note, 6.0) == (
        "Undone: Ana's top-up of 0. Ana: key 2 does nothing now; keys now: 1 less, "
        "2 more, 3 done, 4 from 0.")
    long = ("Waiting for the tray to lie still: please keep hands and dice cups out of the "
            "camera's view. If nothing is in view, push the tray back into place.")
    assert with_key_note(long, None, note, 6.0) == f"{long} Ana: key 2 does nothing now."
    longer = f"{long} Take the dice out and roll again, one by one."
    assert with_key_note(longer, None, note, 6.0) == longer
    assert with_key_note("", None, note, 6.0) == note.text
    assert with_key_note("Undone: Ana's roll 6 5 5", 4.0, note, 12.5) == \
        "Undone: Ana's roll 6 5 5"  # (the key's line is gone once read: some 7 seconds)
    # What the box shows whole: three lines at 800x480 and at a larger window.
    text = with_key_note(long, None, note, 6.0)
    assert len(text) <= NOTICE_LETTERS
    for size in ((800, 480), (1280, 800)):
        renderer = Renderer(pygame.Surface(size))
        assert len(renderer.wrap(text, 30, renderer.w - renderer.s(80))) <= 3


def test_keys_pressed_together_that_do_nothing_are_said_in_good_english() -> None:
    c = at_the_auction()
    keys = DemoKeys(["Ana", "Ben"], frozenset({1}))
    keys.check(c, chord(0, U, W, 3.0), open_to=True)
    assert keys.note.at(3.0) == ("Ana: keys 1 and 2 together do nothing now; keys now: "
                                 "1 less, 2 more, 3 done, 4 from 0.")


# ---------------------------------------------------------------- the command line


def test_a_misspelt_strategy_keeps_no_match(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Before: the match was begun before the strategy was looked up, and the next run
    at the keyboard asked whether to go on with a match nobody played."""
    state = tmp_path / "state"
    assert main([*DEMO, "--bots", "all", "--strategy", "smart",
                 "--state-dir", str(state)]) == 1
    assert "there is no strategy called 'smart'; choose from silent, random, odds, " \
           "bidder" in capsys.readouterr().err
    assert not state.exists()


def test_the_go_on_line_keeps_the_window_and_the_camera(tmp_path: Path) -> None:
    kept = options(tmp_path, frozenset({1}), size=(1280, 800), fullscreen=True, mount=True,
                   calibration_path=Path("calibration/synth.toml"))
    assert go_on_words(kept).startswith(
        f"Go on with it: einhorn-table demo --continue --state-dir {tmp_path / 'state'} "
        "--bots Ben --size 1280x800 --profile calibration/synth.toml --fullscreen --mount")
    plain = options(tmp_path, frozenset({1}), size=(800, 480))
    assert "--size" not in go_on_words(plain)


def test_ctrl_c_at_the_question_whether_to_go_on_says_how_to_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C stops the demo as ESC does, at the question too: the match stays as it was
    and the terminal says how to go on (before: the demo ended without a word)."""
    leave_a_match(tmp_path, monkeypatch)
    capsys.readouterr()

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(resume, "ask", interrupted)
    state = tmp_path / "state"
    assert main([*DEMO, "--players", "2", "--bots", "1", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    assert "Match not finished (game 1 of 10); it is kept." in out
    assert f"Go on with it: einhorn-table demo --continue --state-dir {state} --bots Ben" \
        in out


def test_names_typed_with_their_accents_apart_are_read_in_one_form() -> None:
    # As the match's own lines are read after a restart: --continue finds the same players.
    from einhorn_table.cli.demo import players_named

    assert players_named("Zoe\u0308,Ben", None) == ["Zo\u00eb", "Ben"]
