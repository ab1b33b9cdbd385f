"""A family at the real table's buttons, in the real `einhorn-table play` (mock pins,
fake clock, synthetic camera): taking a call back, the help and undo chords, two
stations at the same moment, bouncing and glitching buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from pin_table import PinTable, play_with_pins

from einhorn_table.ports import Button
from einhorn_table.rules.categories import Category
from einhorn_table.screen.view_model import ScreenKind, ScreenView

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def _first_turn(view: ScreenView) -> bool:
    return view.kind is ScreenKind.TURN


def test_the_callers_undo_chord_takes_back_their_call_not_the_roll_before(
    mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    views: list[ScreenView] = []
    kept: list[bool] = []

    def script(table: PinTable) -> None:
        table.bots_until(_first_turn)
        c = table.loop.controller
        roller = c.roller()
        assert roller is not None
        inputs = len(c.match.inputs)
        table.run_for(1.0)
        table.tap(roller, E)  # a wrong button: Einhorn called
        view = table.run_for(0.5)
        assert view.call is Category.EINHORN
        table.chord(roller, U, D)  # the undo chord
        view = table.run_for(1.0)
        views.append(view)
        kept.append(len(c.match.inputs) == inputs)

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    [view] = views
    assert view.kind is ScreenKind.TURN and view.call is None and kept == [True]
    assert view.notice == ("Undone: Ben's call of Einhorn (silent now). Tap a category to call "
                      "again, or roll.")


def test_another_players_undo_while_one_calls_still_takes_back_the_last_input(
    mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    counts: list[int] = []
    views: list[ScreenView] = []

    def script(table: PinTable) -> None:
        table.bots_until(_first_turn)
        c = table.loop.controller
        roller = c.roller()
        assert roller is not None
        other = (roller + 1) % 3
        inputs = len(c.match.inputs)
        table.run_for(1.0)
        table.tap(roller, D)  # the roller calls while another undoes, at the same moment
        table.chord(other, U, D)
        table.run_for(1.0)
        counts.extend((inputs, len(c.match.inputs)))
        views.append(table.run_for(0.1))

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    before, after = counts
    [view] = views
    assert after == before - 1
    assert view.notice.startswith("Undone: ")
