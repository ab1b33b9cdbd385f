"""A question about a roll ("Ben, are these your dice?") stays on the screen while a hand
passes over the dice: no flicker to "Ben's turn / Dice moving: call locked" and back,
no "the question stands" after it; its buttons keep their meaning (an undo takes back
the question, not the roll before it). Dice thrown again while it is asked start over,
as ever; OK does not take the dice asked about while something moves in the tray."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from table_helpers import RED, chord, reading, tap
from test_table_moments import START, THREE, roll_line, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.rules import Roll, Undo
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.events import MotionStarted, NotRolled, SeenWhole, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
BLUE = (30, 60, 200)  # Ben's dice (test_table_moments.COLOURS)


def bens_roll_asked_about(values: list[int | None], colour: tuple[int, int, int] = BLUE
                          ):  # type: ignore[no-untyped-def]
    """Ana rolled; Ben's roll lies in the tray, read as ``values`` in ``colour``: asked
    about."""
    c, r = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])])
    c.on_tray(MotionStarted(5.0))
    c.on_tray(Settled(6.0, reading(values, colour)))
    assert c.pending is not None and c.pending.roller == 1
    return c, r


def test_the_question_stays_on_the_screen_while_a_hand_passes() -> None:
    c, r = bens_roll_asked_about([3, 3, 1], RED)  # Ana's colour: confirm or enter
    asked = build_view(c, 7.0)
    assert asked.kind is ScreenKind.DOUBT and asked.title == "Ben, are these your dice?"
    c.on_tray(MotionStarted(8.0))  # a hand over the dice
    for t in (8.1, 8.5, 8.9):
        view = build_view(c, t)
        assert view.kind is ScreenKind.DOUBT and view.title == asked.title
        assert view.subtitle == asked.subtitle and view.buttons == asked.buttons
        assert view.notice == ""
    assert c.context(1) is Context.CONFIRM_DICE
    c.on_tray(NotRolled(9.0, hand_seen=True, dice_still=True))
    view = build_view(c, 9.1)
    assert view.kind is ScreenKind.DOUBT and view.title == asked.title
    assert view.notice == "", "nothing was lost, so nothing needs saying"
    assert len(r.items) == 0


def test_the_dice_entry_stays_as_it_was_while_a_hand_passes() -> None:
    c, _ = bens_roll_asked_about([3, None, 1])
    c.on_gesture(tap(1, E, 7.0))  # first die right
    c.on_tray(MotionStarted(8.0))
    view = build_view(c, 8.2)
    assert view.kind is ScreenKind.DOUBT and view.title == "Ben, enter your dice"
    assert view.entry_position == 1
    c.on_gesture(tap(1, W, 8.4))  # he goes on entering meanwhile
    c.on_tray(NotRolled(8.8, hand_seen=True, dice_still=True))
    assert c.entry is not None and c.entry.values[1] == 2 and c.entry.position == 1


def test_an_undo_while_a_hand_passes_takes_back_the_question_not_anas_roll() -> None:
    c, r = bens_roll_asked_about([3, None, 1])
    c.on_tray(MotionStarted(8.0))
    c.on_gesture(chord(1, U, D, 8.3))
    assert not any(isinstance(i, Undo) for i in r.items), "Ana's roll stays"
    assert c.pending is None
    assert c.notice is not None and c.notice.text == "Undone: the dice as read. Ben: roll again"
    c.on_tray(NotRolled(8.8, hand_seen=True, dice_still=True))
    assert c.pending is None, "an undone question does not come back"
    assert c.context(1) is Context.CALL and c.call_locked


def test_dice_seen_whole_after_the_question_was_undone_are_nobodys_roll() -> None:
    c, r = bens_roll_asked_about([3, 3])
    c.on_tray(MotionStarted(8.0))  # the hand at the rim goes
    c.on_gesture(chord(1, U, D, 8.3))
    c.on_tray(SeenWhole(9.0, reading([3, 3, 1], BLUE)))
    assert r.items == [] and c.pending is None


def test_a_new_throw_during_the_question_starts_over() -> None:
    c, r = bens_roll_asked_about([3, None, 1])
    c.on_tray(MotionStarted(8.0))  # Ben throws again
    c.on_tray(Settled(9.0, reading([2, 4, 6], BLUE)))
    assert c.pending is None
    assert isinstance(r.items[-1], Roll) and r.items[-1].player == "Ben"
    assert sorted(r.items[-1].dice) == [2, 4, 6]


def test_a_new_throw_read_in_doubt_asks_again_about_the_new_dice() -> None:
    c, _ = bens_roll_asked_about([3, None, 1])
    first = c.pending
    c.on_tray(MotionStarted(8.0))
    c.on_tray(Settled(9.0, reading([5, 5, None], BLUE)))
    assert c.pending is not None and c.pending is not first
    assert c.pending.reading.values == (5, 5, None)


def test_dice_taken_out_during_the_question_leave_it_and_the_call_locked() -> None:
    c, _ = bens_roll_asked_about([3, None, 1])
    c.on_tray(MotionStarted(8.0))
    c.on_tray(Settled(9.0, reading([])))  # the dice taken out to roll again
    assert c.pending is None and c.call_locked
    assert build_view(c, 9.1).kind is ScreenKind.TURN


def test_ok_waits_until_the_tray_lies_still() -> None:
    c, r = bens_roll_asked_about([3, 3, 1], RED)
    c.on_tray(MotionStarted(8.0))
    c.on_gesture(tap(1, E, 8.3))  # OK while something moves: maybe a new throw
    assert r.items == [] and c.pending is not None
    assert c.notice is not None and c.notice.text == (
        "Ben: something moves in the tray. Press OK again once it lies still.")
    assert build_view(c, 8.4).kind is ScreenKind.DOUBT
    c.on_tray(NotRolled(9.0, hand_seen=True, dice_still=True))
    assert build_view(c, 9.1).notice == "", "the tray lies still: the wait is over"
    c.on_gesture(tap(1, E, 9.5))
    assert isinstance(r.items[-1], Roll) and r.items[-1].player == "Ben"


def test_the_entrys_last_ok_waits_until_the_tray_lies_still() -> None:
    c, r = bens_roll_asked_about([3, None, 1])
    c.on_gesture(tap(1, E, 7.0))
    c.on_gesture(tap(1, E, 7.1))
    c.on_tray(MotionStarted(8.0))
    c.on_gesture(tap(1, E, 8.3))  # the third die: would hand in the dice
    assert r.items == [] and c.entry is not None and c.entry.position == 2
    c.on_tray(NotRolled(9.0, hand_seen=True, dice_still=True))
    c.on_gesture(tap(1, E, 9.5))
    assert isinstance(r.items[-1], Roll) and sorted(r.items[-1].dice) == [1, 1, 3]


def test_a_bot_asked_about_its_roll_answers_once_the_tray_lies_still() -> None:
    """The demo's bot answers the question as a person would: not while a hand passes
    (its OK would only be told to wait)."""
    import random

    from einhorn_table.simulation.strategies import make_strategy
    from einhorn_table.table.bots import BotDriver, Press

    c, _ = bens_roll_asked_about([3, 3, 1], RED)
    bots = BotDriver(frozenset({1}), [make_strategy("odds")] * 3, random.Random(0))
    c.on_tray(MotionStarted(8.0))
    assert bots.moves(c, 8.3) == []
    c.on_tray(NotRolled(9.0, hand_seen=True, dice_still=True))
    assert bots.moves(c, 9.3) == [Press(1, (D,))]  # (not the dice it threw: enter them)


# ---------------------------------------------------------------- at the real table


def _hand_passing(camera: Any, player: int) -> None:
    """A hand reaches in over the dice on the synthetic camera and leaves again without
    touching them (the synthetic table's hand pass, planned as the camera's throws are)."""
    table = camera.table
    depths = [0.8 * math.sin(0.5 * math.pi * (k + 1) / 6) for k in range(6)]
    frames = [table.plan(table.layout, hand=table._hand_pose(player, max(d, 0.2), fist=False),
                         phase="hand") for d in depths + depths[::-1]]
    camera._enqueue(frames + table.settled_plan(15))


def test_at_the_real_table_a_hand_over_the_dice_asked_about_leaves_the_question(
        mock_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play` on mock pins and the synthetic camera: the roller throws another player's
    dice (asked about), a hand passes over them: the screen shows the question all the
    while, and says nothing of it; then a real throw of the roller's own dice is read."""
    pytest.importorskip("gpiozero")
    pytest.importorskip("pygame")
    from pin_table import PinTable, play_with_pins

    seen: dict[str, Any] = {}

    def script(table: PinTable) -> None:
        c = table.loop.controller
        table.bots_until(lambda v: v.kind is ScreenKind.TURN and c.roller() is not None
                         and not c.tray_busy and c.pending is None)
        roller = c.roller()
        assert roller is not None
        table.camera.roll([2, 4, 6], player=(roller + 1) % 3, settle_frames=15)
        asked = table.run_for(4.0)
        assert asked.kind is ScreenKind.DOUBT, [v.title for v in table.seen]
        first, moved = len(table.seen), c.moved_at
        _hand_passing(table.camera, roller)
        table.run_for(4.0)
        seen["moved"] = c.moved_at != moved
        seen["still"] = not c.tray_busy
        seen["during"] = [(v.kind, v.title, v.notice) for v in table.seen[first - 1:]]
        seen["pending"] = c.pending is not None
        table.camera.roll([5, 5, 1], player=roller, settle_frames=15)
        table.run_for(5.0)
        seen["roll"] = c.match.inputs[-1]

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    assert seen["moved"], "the hand was seen moving in the tray"
    assert seen["still"], "and the tray lay still again"
    assert {kind for kind, _, _ in seen["during"]} == {ScreenKind.DOUBT}, seen["during"]
    assert all(notice == "" for _, _, notice in seen["during"]), seen["during"]
    assert seen["pending"]
    roll = seen["roll"]
    assert isinstance(roll, Roll) and sorted(roll.dice) == [1, 5, 5]


def test_the_camera_lost_while_the_dice_asked_about_move_lets_the_roller_enter_them(
        ) -> None:
    """Lost as Ben throws again (or a hand passes): nobody will see the tray lie still,
    so the question and the wait for it go; Ben holds OK and enters his dice by hand, as
    the camera-lost banner says (else OK waited for the tray, and the hold did nothing)."""
    from einhorn_table.ports import Gesture, GestureKind
    from einhorn_table.table.events import CameraLost

    c, r = bens_roll_asked_about([3, 3, 1], RED)
    c.on_tray(MotionStarted(8.0))
    c.on_gesture(tap(1, E, 8.3))  # told to wait for the tray
    c.on_tray(CameraLost(8.5, "the camera sent no picture"))
    assert c.pending is None and c.context(1) is Context.CALL and c.call_locked
    assert c.notice is None, "the tray will not be seen to lie still"
    assert build_view(c, 8.6).kind is ScreenKind.TURN
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), 9.0))
    assert c.pending is not None and c.pending.by_hand and c.context(1) is Context.ENTER_DICE
    for t in (9.5, 9.6, 9.7):
        c.on_gesture(tap(1, E, t))
    assert isinstance(r.items[-1], Roll) and r.items[-1].player == "Ben"
    assert list(r.items[-1].dice) == [1, 1, 1]


def test_a_bot_asked_about_its_roll_enters_it_by_hand_once_the_camera_is_lost() -> None:
    import random

    from einhorn_table.simulation.strategies import make_strategy
    from einhorn_table.table.bots import BotDriver, Press
    from einhorn_table.table.events import CameraLost

    c, _ = bens_roll_asked_about([3, 3, 1], RED)
    bots = BotDriver(frozenset({1}), [make_strategy("odds")] * 3, random.Random(0))
    c.on_tray(MotionStarted(8.0))
    c.on_tray(CameraLost(8.5, "the camera sent no picture"))
    assert bots.moves(c, 9.0) == [Press(1, (E,), long=True)]


def test_the_camera_lost_with_the_tray_still_leaves_the_question() -> None:
    """Lost with nothing moving: the dice asked about were read, and OK still takes them."""
    from einhorn_table.table.events import CameraLost

    c, r = bens_roll_asked_about([3, 3, 1], RED)
    c.on_tray(CameraLost(8.0, "the camera sent no picture"))
    assert c.pending is not None and c.context(1) is Context.CONFIRM_DICE
    c.on_gesture(tap(1, E, 8.5))
    assert isinstance(r.items[-1], Roll) and sorted(r.items[-1].dice) == [1, 3, 3]
