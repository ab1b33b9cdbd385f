"""The tray's hold on a roll when something was taken in at the picture's edge during
the throw: the dice counted are those thrown now, against what a whole roll is now.

Before, the tray counted every die that differed from the empty tray, the dice left
lying since the last rest too, against a fixed three. In a starting roll the next
player throws beside the last one's dice: one of the new dice gone into the empty
tray's picture with a hand or cup at the edge, the tray counted five, told the roll at
once, and the table asked about two dice instead of waiting for the hand to go. Two
players throwing at once, five of six seen: told at once, and asked about too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest
from test_watcher_resting_hand import _Source, _Watcher

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.vision_tray import HOLD_SECONDS, VisionTray, short_of_a_roll
from einhorn_table.table.events import MotionStarted, Settled, TrayEvent
from einhorn_table.vision.results import DieReading, FrameReading
from einhorn_table.vision.watcher import EventKind, WatchEvent

#: Where dice may lie in the scripted frames (left edges, 160x120 frames: the
#: watcher's small size), each 20 px wide at rows 100..120.
SLOTS = (10, 35, 60, 85, 110, 135)


def _frames(lying: Callable[[float], tuple[int, ...]], times: list[float]) -> _Source:
    """Grey frames with a white die-sized patch per die lying at a slot: ``lying(t)``
    names the slots."""
    return _Source(times, patches=lambda t: [SLOTS[slot] for slot in lying(t)])


def _read(image: np.ndarray) -> FrameReading:
    """The dice in a scripted frame: a 4 at each white patch."""
    return FrameReading(tuple(
        DieReading(box=(float(x), 100.0, x + 20.0, 120.0), value=4, confidence=0.9,
                   color=(250, 250, 250))
        for x in SLOTS if image[110, x + 10, 0] > 200))


def _far_corner() -> np.ndarray:
    """Taken in at the picture's edge: a cup in the top right corner, far from the dice
    (the die under it went in with it)."""
    taken = np.zeros((120, 160), np.uint8)
    taken[0:25, 130:160] = 255
    return taken


@dataclass
class _Table:
    script: dict[float, list[WatchEvent]]
    lying: dict[float, tuple[int, ...]]
    rollers: int | None = None
    told: list[tuple[float, TrayEvent]] = field(default_factory=list)

    def run(self, until: float) -> list[tuple[float, TrayEvent]]:
        times = [k / 10 for k in range(round(until * 10) + 1)]

        def lying(t: float) -> tuple[int, ...]:
            return self.lying[max(k for k in self.lying if k <= t + 1e-9)]

        clock = FakeClock(0.0)
        tray = VisionTray(_frames(lying, times), _Watcher(self.script), _read, clock)
        tray.rollers_at_once = lambda: self.rollers
        for t in times:
            clock.now = t
            self.told += [(t, e) for e in tray.poll()]
        return self.told


def _moved(t: float) -> WatchEvent:
    return WatchEvent(EventKind.MOTION_STARTED, t)


def _settled(t: float, taken_in: np.ndarray | None = None) -> WatchEvent:
    return WatchEvent(EventKind.SETTLED, t, taken_in=taken_in)


def _rolls(told: list[tuple[float, TrayEvent]]) -> list[tuple[float, int]]:
    """When rolls were told, and how many dice each."""
    return [(t, len(e.reading.dice)) for t, e in told if isinstance(e, Settled)]


@pytest.mark.parametrize("rollers", [None, 2])
def test_dice_thrown_beside_dice_left_lying_one_gone_in_at_the_edge_are_held(
        rollers: int | None) -> None:
    """A starting roll: Ana's three dice lie; Ben throws beside them, a cup is set down
    at the edge over one of his and taken in. Two of his dice seen: held (before, told
    at once with Ana's counted: the table asked about two dice); the cup lifted, his
    three are told."""
    script = {0.0: [_moved(0.0)], 1.0: [_settled(1.0)],
              2.0: [_moved(2.0)], 3.0: [_settled(3.0, _far_corner())],
              5.0: [_moved(5.0)], 5.5: [_settled(5.5)]}
    lying = {0.0: (), 1.0: (0, 1, 2), 3.0: (0, 1, 2, 3, 4), 5.0: (0, 1, 2, 3, 4, 5)}
    told = _Table(script, lying, rollers).run(8.0)
    assert _rolls(told) == [(1.0, 3), (5.5, 3)]
    assert [type(e) for _, e in told].count(MotionStarted) == 2


def test_two_players_throwing_at_once_five_dice_seen_are_held() -> None:
    """Ana and Ben throw their starting rolls at once; one of the six dice went into the
    empty tray's picture with a hand at the edge: five seen, held until it has gone."""
    script = {0.0: [_moved(0.0)], 1.0: [_settled(1.0, _far_corner())],
              3.0: [_moved(3.0)], 3.5: [_settled(3.5)]}
    lying = {0.0: (), 1.0: (0, 1, 2, 3, 4), 3.0: (0, 1, 2, 3, 4, 5)}
    told = _Table(script, lying, rollers=2).run(5.0)
    assert _rolls(told) == [(3.5, 6)]


def test_five_dice_seen_are_told_at_the_limit_if_it_stays() -> None:
    script = {0.0: [_moved(0.0)], 1.0: [_settled(1.0, _far_corner())]}
    told = _Table(script, {0.0: (), 1.0: (0, 1, 2, 3, 4)}, rollers=2).run(
        1.0 + HOLD_SECONDS + 1.0)
    assert _rolls(told) == [(pytest.approx(1.0 + HOLD_SECONDS), 5)]


@pytest.mark.parametrize("rollers, lying", [(2, (0, 1, 2)), (2, (0, 1, 2, 3, 4, 5)),
                                            (1, (0, 1, 2, 3))])
def test_a_whole_roll_or_more_is_told_at_once(rollers: int, lying: tuple[int, ...]) -> None:
    """Three dice where two players may throw at once (one of them threw), six, or more
    dice than one player's roll: nothing taken in hides a die of them; told at once
    (the table asks about four)."""
    script = {0.0: [_moved(0.0)], 1.0: [_settled(1.0, _far_corner())]}
    told = _Table(script, {0.0: (), 1.0: lying}, rollers).run(2.0)
    assert _rolls(told) == [(1.0, len(lying))]


@pytest.mark.parametrize("count, rollers, short", [
    (0, 1, True), (2, 1, True), (3, 1, False), (4, 1, False),
    (2, None, True), (3, None, False), (4, None, True), (6, None, False),
    (3, 2, False), (4, 2, True), (5, 2, True), (6, 2, False), (7, 2, False),
    (7, 3, True), (9, 3, False)])
def test_short_of_a_roll(count: int, rollers: int | None, short: bool) -> None:
    assert short_of_a_roll(count, rollers) is short


def test_the_table_tells_the_tray_how_many_players_may_throw_at_once() -> None:
    from table_helpers import BLUE, RED, controller, reading

    c, _ = controller(("Ana", "Ben", "Cem"))
    assert c.rollers_at_once() == 3  # the starting rolls: all three may throw together
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5], RED)))
    assert c.rollers_at_once() == 2  # Ben and Cem still to throw
    c.on_tray(MotionStarted(2.0))
    c.on_tray(Settled(3.0, reading([1, 1, 2], BLUE)))
    assert c.rollers_at_once() == 1  # only Cem
    c.on_tray(MotionStarted(4.0))
    c.on_tray(Settled(5.0, reading([2, 3, 4], (240, 240, 240))))
    assert c.match.ledger().to_act == "Ana" and c.rollers_at_once() == 1  # a turn


def test_play_and_the_demo_give_the_tray_the_tables_count() -> None:
    import inspect

    from einhorn_table.cli import play, table_app

    for module in (play, table_app):
        assert "tray.rollers_at_once = controller.rollers_at_once" in inspect.getsource(module)
