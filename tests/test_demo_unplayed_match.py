"""A demo match nobody rolled in is no match to go on with, as at the real table (see
test_play_unplayed_match.py): ESC before the first throw keeps no match, and one left
behind (the computer lost its power at "Who starts?") is forgotten at the next start,
which begins a new match without asking whether to go on with it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pytest.importorskip("pygame")

from table_rig import open_store
from test_demo_review import (  # noqa: F401
    answer_the_question,
    at_the_keyboard,
    dummy_display,
    options,
    quit_demo,
    roll_then_quit,
)

import einhorn_table.cli.table_app as table_app
from einhorn_table.cli import main
from einhorn_table.cli.table_app import run_demo
from einhorn_table.screen.view_model import ScreenKind
from einhorn_table.table.loop import TableLoop


def stored(state: Path) -> list[tuple[str, str]]:
    store = open_store(state)
    try:
        return [(row.match_id, row.state) for row in store.matches()]
    finally:
        store.close()


def left_at_who_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first demo that stopped before anyone threw and could not tidy up (its power
    went): match 1 stays in the history, playing, without an input."""

    class PowerCut(Exception):
        pass

    def cut(loop: TableLoop, done: Callable[[], bool]) -> None:
        raise PowerCut

    with monkeypatch.context() as patched:
        at_the_keyboard(patched, cut)
        patched.setattr(table_app, "forget_unplayed", lambda store, match_id=None: False)
        with pytest.raises(PowerCut):
            run_demo(options(tmp_path, frozenset({1})))
    assert stored(tmp_path / "state") == [("1", "playing")]


def test_esc_before_anyone_threw_keeps_no_match(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    result = run_demo(options(tmp_path, frozenset({1})))
    assert not result.kept
    assert result.standings == ("Nobody rolled in match 1 yet: it is not kept, and the next "
                                "demo begins a new match.")
    assert stored(tmp_path / "state") == []


def test_the_terminal_does_not_point_at_a_match_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    state = tmp_path / "state"
    assert main(["demo", "--players", "2", "--bots", "1", "--fast", "--size", "400x240",
                 "--state-dir", str(state)]) == 0
    out, err = capsys.readouterr()
    assert "Nobody rolled in match 1 yet: it is not kept" in out
    assert "Go on with it" not in out and "kept in" not in err


def test_a_match_nobody_threw_in_is_not_offered_and_not_kept_as_abandoned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    left_at_who_starts(tmp_path, monkeypatch)
    capsys.readouterr()
    shown = answer_the_question(monkeypatch, "4")
    runs = at_the_keyboard(monkeypatch, roll_then_quit)
    again = run_demo(options(tmp_path, frozenset({1})))
    assert all(view.kind is not ScreenKind.RESUME for view in shown)
    assert len(runs) == 1 and again.kept
    assert stored(tmp_path / "state") == [(again.match_id, "playing")]
    err = capsys.readouterr().err
    assert "Nobody rolled in the match left last time: it is not kept, and a new match " \
           "begins." in err
    assert "abandoned" not in err


def test_continue_passes_over_a_match_nobody_threw_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    left_at_who_starts(tmp_path, monkeypatch)
    capsys.readouterr()
    state = tmp_path / "state"
    assert main(["demo", "--continue", "--bots", "all", "--fast", "--size", "400x240",
                 "--state-dir", str(state)]) == 1
    assert "--continue: there is no unfinished match to go on with; no match is kept in " \
           f"{state}." in capsys.readouterr().err
