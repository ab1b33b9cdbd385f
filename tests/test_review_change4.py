"""Review of the tray's holding back of a roll (a hand resting by a die at the rim) and
of the guided calibration's OK on a roll screen ("read them now")."""

from __future__ import annotations

from test_calibration_review3 import Show, at_the_colours
from test_calibration_steps import OK, tap
from test_watcher_resting_hand import (
    SCENE_SECONDS,
    THREE,
    _die,
    _held_after_the_throw,
    _rolls,
    _run,
    _settled,
    _taken_in_over_first_die,
    _tray_events,
)

from einhorn_table.adapters.vision_tray import HOLD_SECONDS
from einhorn_table.calibration.flow import CalibrationFlow, Step
from einhorn_table.table.events import MotionStarted, NotRolled, Settled
from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.synth import SynthTable
from einhorn_table.vision.watcher import EventKind, WatchEvent

# ---------------------------------------------------------------- the tray's limit


def test_the_limit_does_not_tell_a_held_roll_while_the_hand_is_going() -> None:
    """The hand starts to go just before the limit: the tray waits for the dice to lie
    still without it and reads them then (before, the limit told the two dice seen
    with the hand while it was leaving, the table asked, and the right reading a
    moment later was dropped as no roll)."""
    two = FrameReading((_die(60.0), _die(110.0, 6)))
    going = HOLD_SECONDS + 0.5
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [_settled(1.0, _taken_in_over_first_die())],
              going: [WatchEvent(EventKind.MOTION_STARTED, going)],
              going + 1.0: [_settled(going + 1.0, same=True)]}
    told = _run(script, [two, THREE], going + 2.0)
    assert [(t, type(e)) for t, e in told] == [(0.0, MotionStarted),
                                               (going + 1.0, Settled)]
    settled = told[1][1]
    assert isinstance(settled, Settled)
    assert sorted(v or 0 for v in settled.reading.values) == [4, 4, 6]


def test_a_hand_going_just_before_the_limit_leaves_the_roll_read_right() -> None:
    """The same on a synthetic table, read as ``play`` reads: fingertips on the 6 by the
    rim, gone a moment before the limit."""
    hold = 2.0
    table, frames, _, gone = _held_after_the_throw(SCENE_SECONDS + hold - 0.3)
    told = _tray_events(table, frames, hold_seconds=hold)
    assert [values for _, values in _rolls(told)] == [[4, 4, 6]]
    assert _rolls(told)[0][0] >= gone
    assert not [e for _, e in told if isinstance(e, NotRolled)]


# ---------------------------------------------------------------- OK on a roll screen


def _at_the_test_rolls() -> tuple[CalibrationFlow, SynthTable, Show]:
    """A one-player calibration on a synthetic table, at the first test roll's screen."""
    table = SynthTable(5, players=1)
    flow, show = at_the_colours(table, ("Anna",), test_rolls=3)
    for frame in table.roll_sequence([2, 4, 6], settle_frames=60):
        show(frame.image, 1)
    tap(flow, OK)  # Anna's colour
    tap(flow, OK)  # the sizes: the test rolls
    assert flow.view().screen == "check-1-roll"
    return flow, table, show


def test_ok_pressed_as_the_dice_land_does_not_count_the_roll_twice() -> None:
    """OK ("read them now") the moment the dice land, then OK ("yes, right"): before,
    the same dice came to rest a moment later and were read as the next test roll."""
    flow, table, show = _at_the_test_rolls()
    for frame in table.roll_sequence([1, 3, 5], settle_frames=0):
        show(frame.image, 1)
    still = table.settled_frames(1)[0].image
    show(still, 2)
    tap(flow, OK)  # read them now: they are not read before they lie still
    view = flow.view()
    assert view.screen == "check-1-roll"
    assert view.warnings == ("The tray is not still yet (dice rolling, or a hand in the "
                             "picture): the dice are read once they lie still.",)
    show(still, 30)
    assert flow.view().screen == "check-1" and flow.view().warnings == ()
    tap(flow, OK)  # yes, right
    show(still, 60)
    assert flow.view().screen == "check-2-roll" and len(flow.s.checks) == 1


def test_ok_pressed_again_after_confirming_a_test_roll_does_not_read_it_again() -> None:
    """A second OK (a double press) after "yes, right": the dice lying are those just
    counted; they are not read as the next test roll."""
    flow, table, show = _at_the_test_rolls()
    for frame in table.roll_sequence([1, 3, 5], settle_frames=30):
        show(frame.image, 1)
    assert flow.view().screen == "check-1"
    tap(flow, OK)  # yes, right
    tap(flow, OK)  # again
    view = flow.view()
    assert view.screen == "check-2-roll" and flow.s.current is None
    assert view.warnings == ("These dice were read already: roll them again.",)
    for frame in table.roll_sequence([6, 6, 2], settle_frames=30):
        show(frame.image, 1)
    assert flow.view().screen == "check-2" and flow.view().warnings == ()
    assert flow.step is Step.CHECK and len(flow.s.checks) == 1
