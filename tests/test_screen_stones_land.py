"""Stones fly only over the screen that says what they pay: where a roll's result gives
way early (a hand lifts the dice out, the next roller calls or throws at once), the
stones still in flight have landed, and none cross the next player's screen."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import BLUE, RED, reading, tap
from test_table_moments import START, THREE, roll, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.screen.view_model import FLOW_SECONDS, ScreenKind, ScreenView, build_view
from einhorn_table.table.controller import TableController
from einhorn_table.table.events import MotionStarted, Settled

#: Ana's roll is read at 2.0: she called Einhorn and rolled it, the central stash pays.
SHOWN = 2.0


def _anas_einhorn() -> TableController:
    c, _ = table([setup_line(THREE), *START])
    c.on_gesture(tap(0, Button.EINHORN, 0.5))
    roll(c, [2, 4, 6], RED, t=SHOWN - 1)
    return c


def _drawn(view: ScreenView, size: tuple[int, int]) -> Any:
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface(size)
    Renderer(surface).draw(view)
    return pygame.image.tobytes(surface, "RGB")


def test_the_result_shows_its_stones_flying() -> None:
    view = build_view(_anas_einhorn(), SHOWN + 0.5)
    assert view.kind is ScreenKind.RESULT and "Central pays Ana 5" in view.lines
    assert view.flows and 0 < view.flows[0].progress < 1


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_hand_lifting_the_dice_out_brings_the_turn_with_no_stones_over_it(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    c = _anas_einhorn()
    c.on_tray(MotionStarted(SHOWN + 0.6))  # Ana takes her dice out of the tray
    frames = [build_view(c, SHOWN + t) for t in (0.7, 1.0, 1.3, FLOW_SECONDS + 1)]
    assert [v.kind for v in frames] == [ScreenKind.TURN] * 4
    assert [v.flows for v in frames] == [()] * 4
    # Drawn, the frames while her stones would still fly are the one after they landed.
    landed = _drawn(frames[-1], size)
    assert all(_drawn(v, size) == landed for v in frames[:-1])
    c.on_tray(Settled(SHOWN + 1.5, reading([])))  # the tray empty: Ben may call again
    assert build_view(c, SHOWN + 1.6).flows == ()


def test_a_call_at_once_brings_the_turn_with_no_stones_over_it() -> None:
    c = _anas_einhorn()
    c.on_gesture(tap(1, Button.WUNSCH, SHOWN + 0.4))  # Ben calls at once
    view = build_view(c, SHOWN + 0.5)
    assert view.kind is ScreenKind.TURN and view.call is not None
    assert view.flows == ()


def test_no_stones_fly_over_the_question_about_the_next_rollers_dice() -> None:
    c = _anas_einhorn()
    c.on_tray(MotionStarted(SHOWN + 0.2))  # Ben throws at once ...
    c.on_tray(Settled(SHOWN + 0.9, reading([3, None, 5])))  # ... a die unclear
    view = build_view(c, SHOWN + 1.0)
    assert view.kind is ScreenKind.DOUBT and view.flows == ()


def test_the_roll_that_ends_a_game_shows_its_stones_though_a_hand_takes_the_dice() -> None:
    from test_table_moments import AUCTION
    c, _ = table(AUCTION[:-2])  # Ben's last roll and choice still to come
    c.on_gesture(tap(1, Button.EINHORN, 0.5))
    roll(c, [2, 2, 3], BLUE, t=1.0)
    c.on_gesture(tap(1, Button.EINHORN, 2.2))  # from the central stash: the game ends
    c.on_tray(MotionStarted(2.4))  # a hand takes the dice out
    view = build_view(c, 2.5)
    assert view.kind is ScreenKind.RESULT and "Game over" in view.lines
    assert view.flows and 0 < view.flows[0].progress < 1
