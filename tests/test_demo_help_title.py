"""The demo's help, asked for by a person at the keyboard (their middle two keys), says
what the person does: there is no tray in front of them, SPACE throws their dice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_demo_review import at_the_keyboard, quit_demo, steps_until, tap
from test_demo_review3 import DEMO, dummy_display, shown_views  # noqa: F401

from einhorn_table.cli import main
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.loop import TableLoop


def helps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          before: Callable[[TableLoop], None]) -> list[str]:
    """The help titles shown after Ana (keys 1 2 3 4) asks for it once ``before`` ran."""
    shown = shown_views(monkeypatch)

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        loop.step()
        before(loop)
        tap(loop, "2", "3")  # Ana's middle two keys: the help
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    assert main([*DEMO, "--players", "2", "--bots", "1", "--seed", "3",
                 "--state-dir", str(tmp_path / "state")]) == 0
    return [view.help_title for view in shown if view.help]


def test_the_help_at_a_roll_says_space_throws(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Who starts: Ana's start roll, her only move (no call before it).
    titles = helps(tmp_path, monkeypatch, lambda loop: None)
    assert titles, "the help never showed"
    assert titles[-1] == "Ana, it's your roll: SPACE throws your three dice"


def test_the_help_at_a_turn_keeps_the_tables_words(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def to_anas_turn(loop: TableLoop) -> None:
        c = loop.controller
        tap(loop, " ")  # Ana's start roll; Ben's follows by itself
        steps_until(loop, lambda: c.context(0) is Context.CALL and not c.tray_busy,
                    limit=20_000)

    titles = helps(tmp_path, monkeypatch, to_anas_turn)
    assert titles, "the help never showed"
    assert titles[-1] == "Ana, it's your turn: make your call, then roll"
